"""The table clock's duties (T-11): apply the timeouts that fall due, through the table
service's one write path, from whichever replica is up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from ..store import StoreOverloaded, StoreUnavailable, TableStore
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
        if flow.time_out(record, self.now()) is None:
            await self._index(table_id, record)  # not due (yet): the index said so too early
            return False
        try:
            await self._write(
                table_id,
                PLATFORM,
                stored.version,
                stored.instance,
                lambda current: flow.time_out(current, self.now()) or (current, []),
            )
        except (VersionConflict, TableNotFound):
            return False
        if self._on_timeout is not None:
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

    async def tick(self: _Service, limit: int = 100) -> int:
        """Apply every timeout due now (one round), the tables side by side (each is its own
        compare-and-set; the store bounds the Redis work in flight): how many were applied."""
        due = await self.store.due(self.now(), limit, CLOCK_LEASE_SECONDS)
        applied = await asyncio.gather(*(self.time_out(table_id) for table_id in due))
        return sum(applied)

    # -- the one write path --------------------------------------------------------------------
