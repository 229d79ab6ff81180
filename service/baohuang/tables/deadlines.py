"""The table's deadline after every write: whose turn is timed, and when (T-11, bots, 托管).

One deadline per table — the seat to act's clock, a bot seat's delay, a play-out's next write or
a committed deal's window for entropy — kept in the clock's index (:mod:`.scheduling`) while the
table is :func:`timed`.
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from ..engine import ClockEvent, DealtEvent, Event, MoveEvent, Snapshot
from .record import TableRecord, TableState

PLAYOUT_PACE: Final = 0.0
"""Seconds from a write that stopped at :data:`.flow.PLAYOUT_MOVES` to the next 托管 move: its
``deadline``. 0: the play-out goes on as soon as the clock gets to it."""


def restart_clock(
    table: TableState,
    snapshot: Snapshot,
    events: list[Event],
    now: float,
    restart: bool,
    due_since: float | None = None,
) -> tuple[TableState, list[Event]]:
    """The seat to act gets a fresh deadline after every move; a quiet write keeps it. A bot
    seat's deadline is its delay (it moves then), with or without a clock; a seat in 托管 left
    to act (a play-out stopped at its limit) has the play-out's, :data:`PLAYOUT_PACE` away, or
    ``due_since``, the deadline of the play-out this write went on with."""
    if snapshot.phase == "deal":  # the deadline is when the window for entropy closes
        return replace(table, deadline=table.dealing.closes), events
    deadline: float | None = None
    clock = table.clock
    acting = None if snapshot.over else table.seats[snapshot.turn]
    if acting is not None and acting.trustee:
        # settle stopped at its limit: the play-out goes on at this deadline, clock or none
        deadline = now + PLAYOUT_PACE if due_since is None else min(due_since, now + PLAYOUT_PACE)
    elif acting is not None and (clock is not None or acting.bot):
        moved = any(isinstance(event, MoveEvent | DealtEvent) for event in events)
        if table.deadline is not None and not moved and not restart:
            return table, events
        if acting.bot is not None:
            seconds = table.bot_delay
        elif clock is not None:
            seconds = clock.turn_seconds if snapshot.phase == "play" else clock.before_play_seconds
        deadline = now + seconds
    if deadline == table.deadline:
        return table, events
    seat = snapshot.turn if deadline is not None else None
    return replace(table, deadline=deadline), [*events, ClockEvent(seat=seat, deadline=deadline)]


def playing_out(record: TableRecord) -> bool:
    """Whether a play-out by 托管 is left for the next write: the deal goes on and the seat to
    act is in 托管 (a write stopped at :data:`.flow.PLAYOUT_MOVES`). Its ``deadline`` is when it goes
    on; :func:`.flow.time_out` then plays the next moves."""
    snapshot = record.snapshot
    dealt = snapshot.phase != "deal"
    return dealt and not snapshot.over and record.table.seats[snapshot.turn].trustee


def timed(record: TableRecord) -> bool:
    """Whether the table's deadline belongs in the clock's index: it has a clock or a bot seat,
    or a committed deal waits for entropy until its window closes."""
    table = record.table
    return table.clock is not None or any(s.bot for s in table.seats) or table.deadline is not None


__all__ = ["PLAYOUT_PACE", "playing_out", "restart_clock", "timed"]
