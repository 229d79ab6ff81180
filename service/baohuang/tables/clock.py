"""The table clock's duties (T-11): apply the timeouts that fall due, through the table
service's one write path, from whichever replica is up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

import anyio.to_thread

from ..store import StoredTable, StoreOverloaded, StoreUnavailable, TableStore
from . import flow
from .callers import PLATFORM
from .errors import TableNotFound, VersionConflict
from .record import TableRecord, decode_record

if TYPE_CHECKING:
    from .answers import MoveAnswer
    from .callers import Caller
    from .views import View

log = logging.getLogger("baohuang.tables")

CLOCK_POLL_SECONDS: Final = 0.2
"""How often a process looks for deadlines that passed: a timeout lands within this (and a
store round trip) of its deadline."""
CLOCK_LEASE_SECONDS: Final = 5.0
"""A replica that claimed a timeout and died leaves it to another after this long."""
CLOCK_BATCH: Final = 50
"""Timeouts claimed and applied side by side at a time. Each holds a Redis connection for a
moment in each of its round trips; a batch well under the pool (64) leaves connections for the
moves, and a full batch is followed by the next at once (:meth:`ClockDuties.tick`)."""
CLOCK_ROUNDS: Final = 100
"""At most this many batches in one tick, so that a tick ends even if the index were refilled
with due tables as fast as it is drained."""


class _Service(Protocol):
    """What the clock's duties need of the table service they are part of."""

    store: TableStore
    now: Callable[[], float]
    _on_timeout: Callable[[], None] | None

    async def _write(
        self,
        table_id: str,
        caller: Caller,
        version: int,
        instance: str | None,
        change: Callable[[TableRecord], flow.Change],
        key: str | None = ...,
        print_: str = ...,
        read: tuple[StoredTable, TableRecord] | None = ...,
    ) -> MoveAnswer[View]: ...

    async def _index(self, table_id: str, record: TableRecord) -> None: ...

    async def time_out(self, table_id: str) -> bool: ...

    async def tick(self, limit: int = ...) -> int: ...


class ClockDuties:
    """Mixed into the table service, which provides the store, the time and the write path."""

    async def time_out(self: _Service, table_id: str) -> bool:
        """Apply the table's timeout if its deadline passed (the clock task's work): whether a
        write was made. A write racing it simply wins; the deadline is then looked at again."""
        stored = await self.store.get(table_id)
        if stored is None:
            await self.store.schedule(table_id, None)
            return False
        record = decode_record(stored.snapshot)
        acting = None if record.snapshot.over else record.table.seats[record.snapshot.turn]
        if acting is not None and acting.bot == "search":
            # The search thinks for its budget: on a worker thread, so the loop serves on.
            judged = await anyio.to_thread.run_sync(flow.time_out, record, self.now())
        else:
            judged = flow.time_out(record, self.now())
        if judged is None:
            # not due (yet): the index said so too early, or the clock was stopped
            await self.store.schedule(table_id, record.table.deadline)
            return False
        # Judged once: given the table as read, the write path judges the change on that same
        # state (this version of this instance) or finds it changed and refuses, so the
        # timeout judged here is the one to commit. Judging is most of a timeout's cost when
        # 托管 then plays the rest of the deal.
        try:
            await self._write(
                table_id,
                PLATFORM,
                stored.version,
                stored.instance,
                lambda _: judged,
                read=(stored, record),
            )
        except (VersionConflict, TableNotFound):
            return False
        bot_moved = acting is not None and acting.bot is not None and not acting.trustee
        if self._on_timeout is not None and not bot_moved:  # a bot's turn is no timeout
            self._on_timeout()
        return True

    async def run_clock(self: _Service, poll_seconds: float = CLOCK_POLL_SECONDS) -> None:
        """Apply timeouts as they fall due, for as long as the process runs."""
        while True:
            try:
                await self.tick()
            except (StoreUnavailable, StoreOverloaded) as exc:
                log.warning("clock: %s (trying again)", exc)
            except Exception:  # never let the clock die
                log.exception("clock: applying timeouts failed")
            await asyncio.sleep(poll_seconds)

    async def tick(self: _Service, limit: int = CLOCK_BATCH) -> int:
        """Apply every timeout due now: batches of up to ``limit`` tables side by side (each is
        its own compare-and-set), one batch after another while they come full, so a backlog
        is drained at the rate the process can apply it rather than ``limit`` per poll. How
        many were applied.

        A table whose timeout fails (the store is down or overloaded) stays claimed and is
        taken again when its lease ends; the first such error is raised once the batch is
        done, and the tick stops there (the store is in trouble: no use claiming more)."""
        applied = 0
        for _ in range(CLOCK_ROUNDS):
            due = await self.store.due(self.now(), limit, CLOCK_LEASE_SECONDS)
            # Every table's outcome is waited for, so none is left running unobserved.
            outcomes = await asyncio.gather(
                *(self.time_out(table_id) for table_id in due), return_exceptions=True
            )
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome
            applied += sum(1 for outcome in outcomes if outcome is True)
            if len(due) < limit:
                break
        return applied

    # -- the one write path --------------------------------------------------------------------
