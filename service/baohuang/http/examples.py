"""Request and response examples for the OpenAPI document (see :mod:`.docs`).

Every request example is a real request: sent to the service, it gets the documented status, and
the response holds at least what the response example shows (``tests/http/test_openapi_contract.py``
sends each one). Keys are ``(path template, method)``; values are OpenAPI Example Objects by name.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from ..engine import BASES, Snapshot, no_emperor, public_view, seat_view
from ..tables import Authority

Example = dict[str, Any]
Examples = dict[str, Example]

# A classic team deal in play: seat 1 led a pair of 9s, seat 2 passed, seat 3 (the hidden guard)
# is to act. The emperor, seat 0, holds the 皇牌 BJ*.
SNAPSHOT: dict[str, Any] = {
    "ruleset": "classic",
    "mode": "team",
    "emperor": 0,
    "guard": 3,
    "guard_revealed": False,
    "rebellion": [],
    "hands": [
        [
            "BJ*",
            "BJ",
            "SJ",
            "2S",
            "2H",
            "AS",
            "KD",
            "KC",
            "QH",
            "TS",
            "TH",
            "8C",
            "7D",
            "5S",
            "4H",
            "3C",
        ],
        ["BJ", "2C", "AH", "AD", "JS", "JC", "9C", "6S", "6H", "4D"],
        ["SJ", "KS", "QS", "QD", "TD", "8S", "8H", "7S", "5D", "3S", "3D"],
        ["2D", "AC", "KH", "QC", "JH", "JD", "9D", "7H", "7C", "6D", "5H", "4S"],
        ["BJ", "SJ", "TC", "8D", "6C", "5C", "3H"],
    ],
    "finished": [],
    "turn": 3,
    "trick": {
        "top": {"seat": 1, "cards": ["9S", "9H"]},
        "passed": [2],
        "yielded": [],
        "circle": 1,
        "jiefeng": None,
    },
    "over": False,
}

PLAY_JACKS: dict[str, Any] = {"seat": 3, "action": "play", "cards": ["JH", "JD"]}


def _after(snapshot: dict[str, Any], **changes: Any) -> dict[str, Any]:
    state = copy.deepcopy(snapshot)
    state.update(changes)
    return state


def _hands_without(seat: int, cards: list[str], hands: list[list[str]]) -> list[list[str]]:
    out = copy.deepcopy(hands)
    for card in cards:
        out[seat].remove(card)
    return out


# After seat 3 plays JH JD on the 9s.
AFTER_JACKS = _after(
    SNAPSHOT,
    hands=_hands_without(3, PLAY_JACKS["cards"], SNAPSHOT["hands"]),
    turn=4,
    trick={
        "top": {"seat": 3, "cards": ["JH", "JD"]},
        "passed": [],
        "yielded": [],
        "circle": 1,
        "jiefeng": None,
    },
)

REPLAY_MOVES = [
    PLAY_JACKS,
    {"seat": 4, "action": "pass"},
    {"seat": 0, "action": "play", "cards": ["2S", "2H"]},
    {"seat": 1, "action": "pass"},
    {"seat": 2, "action": "play", "cards": ["KS"]},
]
AFTER_REPLAY = _after(
    AFTER_JACKS,
    hands=_hands_without(0, ["2S", "2H"], AFTER_JACKS["hands"]),
    turn=2,
    trick={
        "top": {"seat": 0, "cards": ["2S", "2H"]},
        "passed": [1],
        "yielded": [],
        "circle": 1,
        "jiefeng": None,
    },
)

SIZE_MISMATCH = {
    "code": "SIZE_MISMATCH",
    "rule": "N-1",
    "message": "must have the same number of cards as the play it beats (张数相同)",
}

TABLE_ID = "room-42.deal-7"
INSTANCE = "3f9a2c7e41b8d605"
_EXAMPLE_AUTHORITY = Authority((), token_secret="an-example-secret")
SEAT_TOKENS = _EXAMPLE_AUTHORITY.seat_tokens(TABLE_ID, INSTANCE)
SPECTATOR_TOKEN = _EXAMPLE_AUTHORITY.spectator_token(TABLE_ID, INSTANCE)


# /v1/deal with seed 20260101, dealer 0 (G-4: the same seed always deals these hands), and the
# tribute the next deal would pay on them after a deal the rebels won.
DEAL_REQUEST: dict[str, Any] = {"seed": 20260101, "dealer": 0}
DEALT_HANDS = [
    "SJ 2H 2D AH KH KC QS QC QD JS JH JC JC JD TH TH TD 9S 9C 8S 8H 8H 8H 8C 8D 7S 7H 7C 7D 6S 6C 6D 5S 5S 5C 5C 5D 4H 4C 4D 3S 3S 3H 3D".split(),
    "BJ* BJ 2S 2C AS AH AH AD AD KH KH KD QH QC JD TD 9S 9S 9H 9H 9C 8S 8S 8C 8C 8D 7S 7H 7C 7C 7D 6H 6C 5S 5H 5H 4S 4H 4H 3S 3C 3C 3D".split(),
    "BJ BJ SJ 2S 2S 2H 2D 2D AC AC AD KS KC KD QS QC QD QD JH JH TS TS TH TC TC TC TD 9D 8C 7H 7H 6H 6H 6C 6D 6D 5C 4C 4C 4D 4D 4D 3C".split(),
    "SJ SJ 2H 2C 2D AS AC AD KS KS KH KC KC KD QH JS JS JH JC JC JD TD 9S 9D 9D 8D 8D 7S 7C 7D 7D 6S 6S 6H 5H 5C 5D 5D 4S 4H 3C 3D 3D".split(),
    "2S 2H 2C 2C AS AS AH AC KS KD QS QS QH QH QC QD JS JD TS TS TH TC 9H 9H 9C 9C 9D 8S 8H 7S 6S 6C 6D 5S 5H 5D 4S 4S 4C 3S 3H 3H 3H".split(),
]
TRIBUTE_HANDS = [
    "2D AH KH KC QS QC QD JS JH JC JC JD TH TH TD 9S 9C 8S 8H 8H 8H 8C 8D 7S 7H 7C 7D 6S 6C 6D 5S 5S 5C 5C 5D 4H 4C 4D 3S 3S 3H 3D".split(),
    "BJ* BJ SJ 2S 2C AS AH AH AD AD KH KH KD QH QC JD TD 9S 9S 9H 9H 9C 8S 8S 8C 8C 8D 7S 7H 7C 7C 7D 6H 6C 5S 5H 5H 4S 4H 4H 3S 3C 3C 3D".split(),
    "BJ BJ SJ SJ 2S 2S 2H 2D 2D AC AC AD KS KC KD QS QC QD QD JH JH TS TS TH TC TC TC TD 9D 8C 7H 7H 6H 6H 6C 6D 6D 5C 4C 4C 4D 4D 4D 3C".split(),
    "SJ 2H 2C 2D AS AC AD KS KS KH KC KC KD QH JS JS JH JC JC JD TD 9S 9D 9D 8D 8D 7S 7C 7D 7D 6S 6S 6H 5H 5C 5D 5D 4S 4H 3C 3D 3D".split(),
    "2S 2H 2H 2C 2C AS AS AH AC KS KD QS QS QH QH QC QD JS JD TS TS TH TC 9H 9H 9C 9C 9D 8S 8H 7S 6S 6C 6D 5S 5H 5D 4S 4S 4C 3S 3H 3H 3H".split(),
]
TRIBUTE_TRANSFERS = [
    {"from": 0, "to": 1, "card": "SJ"},
    {"from": 3, "to": 2, "card": "SJ"},
    {"from": 0, "to": 4, "card": "2H"},
]
DEAL_SNAPSHOT_REST: dict[str, Any] = {
    "mode": "team",
    "emperor": 1,
    "turn": 1,
    "ruleset": "classic",
    "guard": None,
    "guard_revealed": False,
    "rebellion": [],
    "finished": [],
    "trick": {"top": None, "passed": [], "yielded": [], "circle": 1, "jiefeng": None},
    "over": False,
    "positions": None,
    "phase": "crown",
    "crown": {"first": 1, "passes": 0, "pile": [], "stage": None, "pending": []},
    "called": None,
    "void": False,
}
DEAL_CROWN = 1
DEAL_SNAPSHOT = {**DEAL_SNAPSHOT_REST, "hands": DEALT_HANDS}
TRIBUTE_REQUEST: dict[str, Any] = {
    "ruleset": "tribute",
    "previous": {"mode": "team", "emperor": 0, "guard": 3, "finished": [1, 2, 0, 3]},
    "hands": DEALT_HANDS,
}


def _one(summary: str, value: Any) -> Examples:
    return {"example": {"summary": summary, "value": value}}


REQUESTS: dict[tuple[str, str], Examples] = {
    ("/v1/combos/classify", "post"): _one(
        "A triple of 9s with a small joker", {"cards": ["SJ", "9S", "9H", "9C"]}
    ),
    ("/v1/combos/compare", "post"): _one(
        "Two big jokers and three jacks over two small jokers and three 9s",
        {"previous": ["SJ", "SJ", "9S", "9H", "9C"], "candidate": ["BJ", "BJ", "JS", "JH", "JC"]},
    ),
    ("/v1/combos/compare-batch", "post"): _one(
        "Three comparisons under classic rules",
        {
            "ruleset": "classic",
            "pairs": [
                {"previous": ["7S"], "candidate": ["8S"]},
                {"previous": ["7S", "7H"], "candidate": ["8S"]},
                {"previous": ["KS"], "candidate": ["QS"]},
            ],
        },
    ),
    ("/v1/kaopai/resolve", "post"): _one(
        "A 烤牌 stack: 大王 covers 小王, two 大王 cover a 大王 (K-1, K-7)",
        {
            "ruleset": {"base": "lianzhong-classic", "kaopai": True},
            "plays": [
                ["SJ", "7S", "7H", "7C"],
                ["BJ", "8S", "8H", "8C"],
                ["BJ", "BJ", "9S", "9H", "9C"],
            ],
        },
    ),
    ("/v1/moves/validate", "post"): _one(
        "The guard (seat 3) plays two jacks on a pair of 9s",
        {"snapshot": SNAPSHOT, "move": PLAY_JACKS},
    ),
    ("/v1/moves/legal", "post"): _one("Seat 3 to act on a pair of 9s", {"snapshot": SNAPSHOT}),
    ("/v1/moves/auto", "post"): _one("Seat 3 to act on a pair of 9s", {"snapshot": SNAPSHOT}),
    ("/v1/moves/replay", "post"): _one(
        "Five moves, the last of which is illegal", {"snapshot": SNAPSHOT, "moves": REPLAY_MOVES}
    ),
    ("/v1/scores", "post"): {
        "finished": {
            "summary": "From roles and a finishing order: the emperor and the guard finish first and second",
            "value": {
                "ruleset": "classic",
                "mode": "team",
                "emperor": 0,
                "guard": 3,
                "guard_revealed": True,
                "rebellion_succeeded": False,
                "finished": [0, 3],
            },
        },
        "snapshot": {
            "summary": "From a snapshot: a deal in play has no final score yet",
            "value": {"snapshot": SNAPSHOT},
        },
    },
    ("/v1/deal", "post"): _one("Deal from seed 20260101, seat 0 dealing", DEAL_REQUEST),
    ("/v1/tribute", "post"): _one(
        "The rebels finished 1st and 2nd: the emperor and the guard pay tribute", TRIBUTE_REQUEST
    ),
    ("/v1/tables/{table_id}", "put"): _one("A new table from a snapshot", {"snapshot": SNAPSHOT}),
    ("/v1/tables/{table_id}/moves", "post"): _one(
        "Seat 3 plays against version 1", {"move": PLAY_JACKS, "version": 1}
    ),
}

_snapshot = msgspec.json.Decoder(Snapshot).decode


def _seat_view(snapshot: dict[str, Any], seat: int) -> Any:
    """A seat view, made by the code that makes them."""
    return msgspec.to_builtins(seat_view(_snapshot(msgspec.json.encode(snapshot)), seat))


def _public_view(snapshot: dict[str, Any]) -> Any:
    return msgspec.to_builtins(public_view(_snapshot(msgspec.json.encode(snapshot))))


def _created(version: int) -> dict[str, Any]:
    return {
        "id": TABLE_ID,
        "instance": INSTANCE,
        "version": version,
        "snapshot": SNAPSHOT,
        "seat_tokens": SEAT_TOKENS,
        "spectator_token": SPECTATOR_TOKEN,
    }


def _read(view: Any) -> dict[str, Any]:
    return {"id": TABLE_ID, "instance": INSTANCE, "version": 1, "view": view}


def _applied(view: Any) -> dict[str, Any]:
    return {
        "version": 2,
        "instance": INSTANCE,
        "view": view,
        "events": [{"type": "played", "seat": 3, "cards": ["JH", "JD"]}],
    }


SCORES_FINAL = {
    "final": True,
    "winner": "emperor",
    "multiplier": 2,
    "positions": [1, 4, 5, 2, 3],
    "scores": [12, -6, -6, 6, -6],
    "sides": {"emperor": 18, "rebels": -18},
    "void": None,
}
SCORES_OPEN = {
    "final": False,
    "winner": None,
    "multiplier": 1,
    "positions": None,
    "scores": None,
    "sides": None,
    "void": None,
}
SCORES_VOID = {
    "final": True,
    "winner": None,
    "multiplier": 1,
    "positions": None,
    "scores": [0, 0, 0, 0, 0],
    "sides": {"emperor": 0, "rebels": 0},
    "void": msgspec.to_builtins(no_emperor(BASES["classic"])),
}

RESPONSES: dict[tuple[str, str, int], Examples] = {
    ("/", "get", 200): _one(
        "Where the reference is",
        {
            "name": "baohuang-rules",
            "version": "0.1.0",
            "docs": "/schema",
            "swagger": "/schema/swagger",
            "openapi": "/schema/openapi.json",
        },
    ),
    ("/healthz", "get", 200): _one("Up", {"status": "ok"}),
    ("/readyz", "get", 200): _one("Ready", {"status": "ok"}),
    ("/v1/combos/classify", "post", 200): _one(
        "A combo",
        {
            "valid": True,
            "combo": {
                "rank": "9",
                "count": 3,
                "small": 1,
                "big": 0,
                "size": 4,
                "cards": ["SJ", "9S", "9H", "9C"],
            },
        },
    ),
    ("/v1/combos/compare", "post", 200): _one(
        "It beats, and how each card is covered (K-6)",
        {
            "beats": True,
            "reason": None,
            "cover": [
                {"card": "SJ", "by": ["BJ"]},
                {"card": "SJ", "by": ["BJ"]},
                {"card": "9S", "by": ["JS"]},
                {"card": "9H", "by": ["JH"]},
                {"card": "9C", "by": ["JC"]},
            ],
        },
    ),
    ("/v1/combos/compare-batch", "post", 200): _one(
        "Verdicts in order",
        {
            "results": [
                {"beats": True, "code": None},
                {"beats": False, "code": "SIZE_MISMATCH"},
                {"beats": False, "code": "NOT_HIGHER"},
            ]
        },
    ),
    ("/v1/kaopai/resolve", "post", 200): _one(
        "Every play covers the one under it; the top play wins",
        {
            "valid": True,
            "winner": 2,
            "steps": [
                {
                    "index": 1,
                    "beats": True,
                    "reason": None,
                    "cover": [
                        {"card": "SJ", "by": ["BJ"]},
                        {"card": "7S", "by": ["8S"]},
                        {"card": "7H", "by": ["8H"]},
                        {"card": "7C", "by": ["8C"]},
                    ],
                },
                {
                    "index": 2,
                    "beats": True,
                    "reason": None,
                    "cover": [
                        {"card": "BJ", "by": ["BJ", "BJ"]},
                        {"card": "8S", "by": ["9S"]},
                        {"card": "8H", "by": ["9H"]},
                        {"card": "8C", "by": ["9C"]},
                    ],
                },
            ],
        },
    ),
    ("/v1/moves/validate", "post", 200): {
        **_one(
            "Legal: the next snapshot and what happened",
            {
                "legal": True,
                "snapshot": AFTER_JACKS,
                "events": [{"type": "played", "seat": 3, "cards": ["JH", "JD"]}],
            },
        ),
        "refused": {
            "summary": "Illegal: a verdict, not an error",
            "value": {"legal": False, "reason": SIZE_MISMATCH},
        },
    },
    ("/v1/moves/legal", "post", 200): _one(
        "Pass, yield (T-6) or the one pair that beats the 9s",
        {
            "seat": 3,
            "moves": [
                {"action": "pass", "seat": 3},
                {"action": "yield", "seat": 3},
                {"action": "play", "seat": 3, "cards": ["JH", "JD"]},
            ],
        },
    ),
    ("/v1/moves/auto", "post", 200): _one(
        "托管 passes on another seat's play", {"move": {"action": "pass", "seat": 3}}
    ),
    ("/v1/moves/replay", "post", 200): _one(
        "Four moves applied; the fifth is refused",
        {
            "valid": False,
            "applied": 4,
            "failed": {"index": 4, "move": REPLAY_MOVES[4], "reason": SIZE_MISMATCH},
            "snapshot": AFTER_REPLAY,
            "scores": None,
        },
    ),
    ("/v1/scores", "post", 200): {
        "finished": {"summary": "A final score", "value": SCORES_FINAL},
        "snapshot": {"summary": "Not final yet", "value": SCORES_OPEN},
        "void": {
            "summary": "A void deal (黄庄, S-10): nobody became emperor",
            "value": SCORES_VOID,
        },
    },
    ("/v1/deal", "post", 200): _one(
        "Five hands; seat 1 is offered the crown first",
        {"hands": DEALT_HANDS, "crown": DEAL_CROWN, "snapshot": DEAL_SNAPSHOT},
    ),
    ("/v1/tribute", "post", 200): _one(
        "Three tribute cards and the hands after them",
        {"transfers": TRIBUTE_TRANSFERS, "hands": TRIBUTE_HANDS},
    ),
    ("/v1/tables/{table_id}", "put", 200): _one("Replaced: a new instance", _created(2)),
    ("/v1/tables/{table_id}", "put", 201): _one("Created", _created(1)),
    ("/v1/tables/{table_id}", "get", 200): {
        "platform": {
            "summary": "A platform key: the whole snapshot",
            "value": _read(SNAPSHOT),
        },
        "seat": {
            "summary": "Seat 1's token: its view, the guard still hidden",
            "value": _read(_seat_view(SNAPSHOT, 1)),
        },
        "spectator": {
            "summary": "The spectator token: the public view",
            "value": _read(_public_view(SNAPSHOT)),
        },
    },
    ("/v1/tables/{table_id}/moves", "post", 200): {
        "platform": {
            "summary": "Applied: version 2 (a platform key)",
            "value": _applied(AFTER_JACKS),
        },
        "seat": {
            "summary": "Applied: version 2 (seat 3's token: its own view)",
            "value": _applied(_seat_view(AFTER_JACKS, 3)),
        },
    },
    ("/v1/tables/{table_id}/events", "get", 200): _one(
        "The log after seq 0, as seat 3's token sees it",
        {
            "instance": INSTANCE,
            "version": 2,
            "last_seq": 1,
            "events": [
                {"type": "played", "seat": 3, "cards": ["JH", "JD"], "seq": 1, "version": 2}
            ],
        },
    ),
    ("/v1/tables/{table_id}/seats/{seat}", "get", 200): _one(
        "Seat 1's view: the guard is still hidden", _seat_view(SNAPSHOT, 1)
    ),
}

PATH_PARAMETERS: dict[str, Any] = {"table_id": TABLE_ID, "seat": 1, "name": "classic"}
