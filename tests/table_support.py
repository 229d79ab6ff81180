"""Shared by the live-table tests: a clock the test moves, and a small deal in play."""

from __future__ import annotations

import functools
import random
import uuid
from typing import Any

import msgspec

from baohuang.engine import Snapshot, apply_move, deal, legal_moves, opening_snapshot
from baohuang.engine.rulesets import ruleset_of

SMALL_BODY: dict[str, Any] = {
    "ruleset": "classic",
    "mode": "team",
    "emperor": 0,
    "guard": 3,
    "hands": [["BJ*", "7S", "7H", "9D"], ["8S", "8H", "KD"], ["9S", "QH"], ["TS", "TH"], ["JS"]],
    "turn": 0,
}
"""A classic team deal in play as a client sends it, seat 0 to lead (seat 3 the hidden guard)."""
SMALL = msgspec.convert(SMALL_BODY, Snapshot)
"""A classic team deal in play, seat 0 to lead (seat 3 the hidden guard)."""


def advanced_position(
    ruleset: str, seed: int, dealer: int, steps: int, rng: random.Random
) -> Snapshot:
    """A deal advanced by ``steps`` random legal moves (fewer if it ends first)."""
    snapshot = opening_snapshot(ruleset, deal(ruleset_of(ruleset), seed, dealer))
    for _ in range(steps):
        moves = legal_moves(snapshot)
        if not moves:
            break
        snapshot, _ = apply_move(snapshot, rng.choice(moves))
    return snapshot


@functools.cache
def near_end(seed: int, moves_left: int) -> Snapshot:
    """A classic deal (dealt from seat 0) played by random legal moves to ``moves_left`` moves
    before its end, as the same moves would end it."""
    rng = random.Random(seed)
    played = [opening_snapshot("classic", deal(ruleset_of("classic"), seed, 0))]
    while legal := legal_moves(played[-1]):
        played.append(apply_move(played[-1], rng.choice(legal))[0])
    return played[-1 - moves_left]


def put_table(
    client: Any, snapshot: dict[str, Any], headers: dict[str, str], prefix: str
) -> tuple[str, dict[str, Any]]:
    """A new table ``<prefix>-<random>`` of ``snapshot`` through ``client`` (a Litestar test
    client or an ``httpx.Client``): its id and the 201's body (the tokens)."""
    tid = f"{prefix}-{uuid.uuid4().hex}"
    created = client.put(f"/v1/tables/{tid}", json={"snapshot": snapshot}, headers=headers)
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return tid, body


class Time:
    """A service's clock that only moves when the test says (seconds since the epoch)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now
