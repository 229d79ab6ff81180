"""Response examples by ``(path template, method, status)``; each shows at least what the
answer to the request example of the same name holds (see ``__init__``)."""

from __future__ import annotations

from typing import Any

import msgspec

from ...engine import legal_moves, public_view, seat_view
from ...tables.record import TableState
from .dealing import (
    COMMITTED_CREATED,
    ENTROPY_ADDED,
    KEPT_DEALS,
    RECORD_EXAMPLES,
)
from .positions import (
    AFTER_JACKS,
    AFTER_REPLAY,
    DEAL_CROWN,
    DEAL_SNAPSHOT,
    DEALT_HANDS,
    INSTANCE,
    PLAY_JACKS,
    REPLAY_MOVES,
    SCORES_FINAL,
    SCORES_OPEN,
    SCORES_VOID,
    SEAT_TOKENS,
    SIZE_MISMATCH,
    SNAPSHOT,
    SPECTATOR_TOKEN,
    TABLE_ID,
    TRIBUTE_HANDS,
    TRIBUTE_TRANSFERS,
    Examples,
    as_snapshot,
    one,
)


def _seat_view(snapshot: dict[str, Any], seat: int) -> Any:
    """A seat view, made by the code that makes them."""
    return msgspec.to_builtins(seat_view(as_snapshot(msgspec.json.encode(snapshot)), seat))


def _public_view(snapshot: dict[str, Any]) -> Any:
    return msgspec.to_builtins(public_view(as_snapshot(msgspec.json.encode(snapshot))))


TABLE_STATE = msgspec.to_builtins(TableState())  # a table without a clock, in its first deal


def _created(version: int) -> dict[str, Any]:
    return {
        "id": TABLE_ID,
        "instance": INSTANCE,
        "version": version,
        "snapshot": SNAPSHOT,
        "table": TABLE_STATE,
        "seat_tokens": SEAT_TOKENS,
        "spectator_token": SPECTATOR_TOKEN,
    }


def _seats(trustee: int, left: bool = False) -> list[dict[str, Any]]:
    """Five seats' 托管 states, ``trustee`` in 托管 (entered once)."""
    seats: list[dict[str, Any]] = [{"trustee": False, "entered": 0, "left": False}] * 5
    seats = list(seats)
    seats[trustee] = {"trustee": True, "entered": 1, "left": left}
    return seats


def _audience(view: dict[str, Any]) -> str:
    """Which view ``view`` is, as the answer's ``audience`` says (tables.views.audience_of)."""
    return "platform" if "hands" in view else "seat" if "hand" in view else "spectator"


def _read(view: Any) -> dict[str, Any]:
    return {
        "id": TABLE_ID,
        "instance": INSTANCE,
        "version": 1,
        "audience": _audience(view),
        "view": view,
        "table": TABLE_STATE,
    }


_PLAYED = {"type": "played", "seat": 3, "cards": ["JH", "JD"], "seq": 3, "version": 2}
_MOVE_RECORD = {"type": "move", "move": PLAY_JACKS, "by": "seat", "seq": 2, "version": 2}


def _applied(view: Any, platform: bool = False) -> dict[str, Any]:
    """A move's answer; a platform also sees the move's record (seq 1 is the deal's)."""
    return {
        "version": 2,
        "instance": INSTANCE,
        "audience": _audience(view),
        "view": view,
        "table": {**TABLE_STATE, "played": True},
        "events": [_MOVE_RECORD, _PLAYED] if platform else [_PLAYED],
    }


_CLOCK = {"turn_seconds": 30, "before_play_seconds": 20}


def _trustee(seq: int, cause: str) -> dict[str, Any]:
    return {"type": "trustee", "seat": 1, "on": True, "count": 1, "cause": cause, "seq": seq,
            "version": 3}  # fmt: skip


RESPONSES: dict[tuple[str, str, int], Examples] = {
    ("/", "get", 200): one(
        "Where the reference is",
        {
            "name": "baohuang-rules",
            "version": "0.1.0",
            "docs": "/schema",
            "swagger": "/schema/swagger",
            "openapi": "/schema/openapi.json",
        },
    ),
    ("/healthz", "get", 200): one("Up", {"status": "ok"}),
    ("/readyz", "get", 200): one("Ready", {"status": "ok"}),
    ("/v1/combos/classify", "post", 200): one(
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
    ("/v1/combos/compare", "post", 200): one(
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
    ("/v1/combos/compare-batch", "post", 200): one(
        "Verdicts in order",
        {
            "results": [
                {"beats": True, "code": None},
                {"beats": False, "code": "SIZE_MISMATCH"},
                {"beats": False, "code": "NOT_HIGHER"},
            ]
        },
    ),
    ("/v1/kaopai/resolve", "post", 200): one(
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
        **one(
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
    ("/v1/moves/legal", "post", 200): one(
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
    ("/v1/bots/suggest", "post", 200): one(
        "The guard beats a rebel with its pair of jacks, keeping its 2 and ace",
        {"move": {"action": "play", "seat": 3, "cards": ["JH", "JD"]}, "level": "heuristic"},
    ),
    ("/v1/moves/auto", "post", 200): one(
        "托管 passes on another seat's play", {"move": {"action": "pass", "seat": 3}}
    ),
    ("/v1/moves/replay", "post", 200): one(
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
    ("/v1/deal", "post", 200): one(
        "Five hands; seat 1 is offered the crown first",
        {"hands": DEALT_HANDS, "crown": DEAL_CROWN, "snapshot": DEAL_SNAPSHOT},
    ),
    ("/v1/tribute", "post", 200): one(
        "Three tribute cards and the hands after them",
        {"transfers": TRIBUTE_TRANSFERS, "hands": TRIBUTE_HANDS},
    ),
    ("/v1/tables/{table_id}", "put", 200): one("Replaced: a new instance", _created(2)),
    ("/v1/tables/{table_id}", "put", 201): {
        **one("Created", _created(1)),
        "committed": {
            "summary": "Created, its first deal committed: no card yet, the commitment for all",
            "value": {
                **COMMITTED_CREATED,
                "seat_tokens": SEAT_TOKENS,
                "spectator_token": SPECTATOR_TOKEN,
            },
        },
    },
    ("/v1/tables/{table_id}/seats/{seat}/entropy", "post", 200): one(
        "Seat 1's entropy is added; the deal waits for the others' until the window closes",
        ENTROPY_ADDED,
    ),
    ("/v1/tables/{table_id}/deals", "get", 200): KEPT_DEALS,
    ("/v1/tables/{table_id}/deals/{deal}", "get", 200): RECORD_EXAMPLES,
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
            "value": _applied(AFTER_JACKS, platform=True),
        },
        "seat": {
            "summary": "Applied: version 2 (seat 3's token: its own view)",
            "value": _applied(_seat_view(AFTER_JACKS, 3)),
        },
    },
    ("/v1/tables/{table_id}/seats/{seat}/trustee", "post", 200): one(
        "Seat 1 is in 托管 (the first time this deal)",
        {
            "version": 3,
            "instance": INSTANCE,
            "audience": "seat",
            "view": _seat_view(AFTER_JACKS, 1),
            "table": {**TABLE_STATE, "played": True, "seats": _seats(trustee=1)},
            "events": [_trustee(3, "request")],
        },
    ),
    ("/v1/tables/{table_id}/seats/{seat}/bot", "post", 200): one(
        "Seat 1 is a bot now; every caller sees it in table.seats",
        {
            "version": 3,
            "instance": INSTANCE,
            "audience": "platform",
            "view": SNAPSHOT,
            "table": {
                **TABLE_STATE,
                "seats": [
                    {"trustee": False, "entered": 0, "left": False, "bot": level}
                    for level in (None, "heuristic", None, None, None)
                ],
            },
            "events": [],
        },
    ),
    ("/v1/tables/{table_id}/seats/{seat}/leave", "post", 200): one(
        "Seat 1 left; 托管 plays for it",
        {
            "version": 3,
            "instance": INSTANCE,
            "audience": "seat",
            "view": _seat_view(AFTER_JACKS, 1),
            "table": {**TABLE_STATE, "played": True, "seats": _seats(trustee=1, left=True)},
            "events": [
                {"type": "left", "seat": 1, "penalty": 0, "seq": 3, "version": 3},
                _trustee(4, "leave"),
            ],
        },
    ),
    ("/v1/tables/{table_id}/clock", "post", 200): one(
        "The clock runs from this write: seat 3, to act, has 30 s",
        {
            "version": 3,
            "instance": INSTANCE,
            "audience": "platform",
            "view": SNAPSHOT,
            "table": {**TABLE_STATE, "clock": _CLOCK, "deadline": 1764480123.5},
            "events": [
                {"type": "clock", "seat": 3, "deadline": 1764480123.5, "seq": 2, "version": 3}
            ],
        },
    ),
    ("/v1/tables/{table_id}/deals", "post", 200): one(
        "Deal 2 began, dealt from the last emperor's seat",
        {
            "version": 42,
            "instance": INSTANCE,
            "audience": "platform",
            "view": {**DEAL_SNAPSHOT},
            "table": {**TABLE_STATE, "deal": 2, "dealer": 0},
            "events": [
                {"type": "deal_started", "deal": 2, "dealer": 0, "seq": 90, "version": 42},
            ],
        },
    ),
    ("/v1/tables/{table_id}/audit", "get", 200): one(
        "Three deals replayed from their records and the log; results and totals as the rules "
        "give them",
        {
            "valid": True,
            "deals": 3,
            "moves": 412,
            "totals": [9, -3, 0, -6, 0],
            "penalties": [0, 0, 0, 0, 0],
            "failure": None,
            "first_deal": 1,
        },
    ),
    ("/v1/tables/{table_id}/events", "get", 200): one(
        "The log after seq 0, as seat 3's token sees it",
        {
            "instance": INSTANCE,
            "version": 2,
            "last_seq": 1,
            "events": [
                {
                    "type": "played",
                    "seat": 3,
                    "cards": ["JH", "JD"],
                    "seq": 1,
                    "version": 2,
                    "at": 1800000000.25,
                    "id": "1.9c4e07d2a1b3f5e6a",
                }
            ],
            "last_event_id": "1.9c4e07d2a1b3f5e6a",
            "reset": False,
        },
    ),
    ("/v1/tables/{table_id}/legal-moves", "get", 200): one(
        "Seat 3's token, its turn on a pair of 9s: pass, yield, then the beating pairs",
        {
            "version": 1,
            "instance": INSTANCE,
            "seat": 3,
            "moves": msgspec.to_builtins(legal_moves(as_snapshot(msgspec.json.encode(SNAPSHOT)))),
        },
    ),
    ("/v1/tables/{table_id}/moves/check", "post", 200): {
        "legal": {
            "summary": "POST /moves would apply it at version 1",
            "value": {"legal": True, "version": 1, "instance": INSTANCE},
        },
        "refused": {
            "summary": "POST /moves would refuse it: a pair of 8s does not beat the 9s",
            "value": {
                "legal": False,
                "version": 1,
                "instance": INSTANCE,
                "reason": {
                    "code": "NOT_HIGHER",
                    "rule": "N-2",
                    "message": "every card must beat a distinct card of the previous play "
                    "(每张牌必须能压过上一手牌)",
                },
            },
        },
    },
    ("/v1/tables/{table_id}/seats/{seat}/token", "post", 200): one(
        "Seat 1 changed hands: its new token (generation 1); the old one is revoked",
        {
            "seat": 1,
            "token": f"{INSTANCE}.1.{SEAT_TOKENS[1].partition('.')[2]}",
            "generation": 1,
            "version": 3,
            "instance": INSTANCE,
        },
    ),
    ("/v1/tables/{table_id}/spectator-token", "post", 200): one(
        "A new spectator token (generation 1); the old one is revoked",
        {
            "seat": None,
            "token": f"{INSTANCE}.1.{SPECTATOR_TOKEN.partition('.')[2]}",
            "generation": 1,
            "version": 3,
            "instance": INSTANCE,
        },
    ),
    ("/v1/tables/{table_id}/seats/{seat}", "get", 200): one(
        "Seat 1's view: the guard is still hidden", _seat_view(SNAPSHOT, 1)
    ),
}

PATH_PARAMETERS: dict[str, Any] = {
    "table_id": TABLE_ID,
    "seat": 1,
    "name": "classic",
    "deal": 1,
}
