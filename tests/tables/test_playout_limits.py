"""The exact number of 托管 moves one write plays (T-11's reading in docs/rules.md): a timeout's
write plays :data:`flow.TIMEOUT_MOVES` (the seat that timed out and the seats in 托管 after it),
each write going on with a play-out :data:`flow.PLAYOUT_MOVES`, the last one what is left.

Counted on the table algorithms themselves, write by write, with an injected time: a limit one
too high or one too low is a failure here. tests/tables/test_playouts.py checks that the
play-out spread over writes is the play-out in one.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from baohuang.engine import MoveEvent, deal, opening_snapshot, ruleset_of
from baohuang.tables import flow
from baohuang.tables.record import Clock, TableRecord

CLOCK = Clock(turn_seconds=20, before_play_seconds=30)


def _trustee_moves(events: Sequence[object]) -> int:
    return sum(isinstance(e, MoveEvent) and e.by == "trustee" for e in events)


@pytest.mark.parametrize(
    ("base", "seed"), [("classic", 3), ("classic", 11), ("lianzhong-classic", 4)]
)
def test_T_11_a_timeout_plays_exactly_its_limit_and_each_playout_write_exactly_its_own(
    base: str, seed: int
) -> None:
    snapshot = opening_snapshot(base, deal(ruleset_of(base), seed, seed % 5))
    now = 1_000.0
    record: TableRecord = flow.open_table(snapshot, CLOCK, now)[0]
    to_act = record.snapshot.turn
    for seat in range(5):  # every other seat asks for 托管 while it is not its turn
        if seat != to_act:
            now += 1.0
            record, events = flow.set_trustee(record, seat, True, now)
            assert _trustee_moves(events) == 0
    assert record.table.deadline is not None
    now = record.table.deadline + 0.5
    judged = flow.time_out(record, now)
    assert judged is not None
    record, events = judged
    # the seat that timed out, then the four after it: every seat is in 托管 now, and the rest
    # of the deal is a play-out in writes of its own
    assert _trustee_moves(events) == flow.TIMEOUT_MOVES
    assert flow.playing_out(record)
    writes: list[int] = []
    while flow.playing_out(record):
        now += 0.25
        judged = flow.time_out(record, now)
        assert judged is not None and len(writes) < flow.MAX_AUTOMATIC
        record, events = judged
        writes.append(_trustee_moves(events))
    assert record.snapshot.over, writes
    *full, last = writes
    assert full, "a deal played out by 托管 takes more than one write"
    assert full == [flow.PLAYOUT_MOVES] * len(full)
    assert 0 < last <= flow.PLAYOUT_MOVES
