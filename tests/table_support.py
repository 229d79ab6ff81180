"""Shared by the live-table tests: a clock the test moves, and a small deal in play."""

from __future__ import annotations

from typing import Any

import msgspec

from baohuang.engine import Snapshot

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


class Time:
    """A service's clock that only moves when the test says (seconds since the epoch)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now
