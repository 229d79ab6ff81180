"""The deals the examples show: a classic team deal in play, a seeded deal and its tribute,
scores, and the live table they sit at."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from ...engine import BASES, Snapshot, no_emperor
from ...tables import Authority

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


SEAT_VIEW: dict[str, Any] = {
    "counts": [16, 10, 11, 12, 7],
    "ruleset": "classic",
    "mode": "team",
    "emperor": 0,
    "guard": 3,
    "guard_revealed": False,
    "rebellion": [],
    "trick": {"top": {"seat": 1, "cards": ["9S", "9H"]}, "passed": [2]},
    "turn": 3,
    "finished": [],
    "over": False,
    "positions": None,
    "seat": 3,
    "hand": ["2D", "AC", "KH", "QC", "JH", "JD", "9D", "7H", "7C", "6D", "5H", "4S"],
}
"""Seat 3's view of :data:`SNAPSHOT`: its hand, the others' counts, and itself as the guard."""

SUGGEST_HISTORY: list[dict[str, Any]] = [
    {"type": "played", "seat": 1, "cards": ["9S", "9H"], "seq": 41},
    {"type": "passed", "seat": 2, "seq": 42},
]


def one(summary: str, value: Any) -> Examples:
    """One OpenAPI Example Object, named ``example``."""
    return {"example": {"summary": summary, "value": value}}


as_snapshot = msgspec.json.Decoder(Snapshot).decode
