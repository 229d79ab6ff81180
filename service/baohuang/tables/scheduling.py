"""What a write leaves for later: the table's deadline in the store's indexes (clocks, bots,
play-outs), the table in the webhook index, and a bot's move woken when its delay ends.

The indexes are hints kept next to the tables, not in their atomic writes (:meth:`TableStore.
schedule`): before a write the index is moved only earlier (:meth:`Scheduling.before`), so
that whatever happens to the write it never runs later than the deadline the write may set;
after it the index holds the table's deadline exactly (:meth:`Scheduling.after`). The clock
(:mod:`.clock`) then applies what falls due, from whichever replica is up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from ..engine import Event
from ..store import Index, TableStore
from . import flow
from .record import TableRecord

log = logging.getLogger("baohuang.tables")

TimeOut = Callable[[str], Awaitable[bool]]
"""``time_out(table_id)``: apply the table's timeout if it is due (:meth:`.clock.TableClock.
time_out`); whether a write was made."""


def deadline_index(record: TableRecord) -> Index:
    """The index the table's deadline belongs in: ``playouts`` while 托管 plays its deal out
    over several writes, else ``deadlines`` (clocks and bot seats)."""
    return "playouts" if flow.playing_out(record) else "deadlines"


def event_tag(event: Event) -> str:
    """An event's ``type`` on the wire (what a webhook subscribes to)."""
    return str(type(event).__struct_config__.tag)


def _for_the_webhook(record: TableRecord, logged: Sequence[Event], ends_deal: bool) -> bool:
    """Whether a write has something for the table's webhook: an event it subscribed to, or
    the end of a deal (the dispatcher then moves its cursor past the finished deal, whose events
    the log keeps until it has)."""
    hook = record.webhook
    return hook is not None and (
        ends_deal or any(event_tag(event) in hook.events for event in logged)
    )


class Scheduling:
    """The indexes around each write, and this process's bot wake-ups."""

    def __init__(self, store: TableStore, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now
        self.time_out: TimeOut | None = None
        """Set by the service once its clock exists: how a woken bot's move is made."""
        self.waking = False
        """Whether bot moves are woken at their time (the service runs its clock); a test
        driving time itself ticks by hand."""
        self._wakes: set[asyncio.TimerHandle | asyncio.Task[bool]] = set()

    async def before(
        self, table_id: str, record: TableRecord, logged: Sequence[Event], ends_deal: bool = False
    ) -> None:
        """Before a write: the deadline index never runs later than the deadline the write may
        set, and a write with events for the table's webhook leaves the table in the webhook
        index whatever happens next (:mod:`.webhooks`) — so does one that starts the next deal:
        the dispatcher then moves the webhook's cursor past the finished deal, whose events the
        log keeps until it has."""
        if record.table.deadline is not None:
            await self.store.schedule(
                table_id, record.table.deadline, earlier_only=True, index=deadline_index(record)
            )
        if _for_the_webhook(record, logged, ends_deal):
            await self.store.schedule(table_id, self.now(), earlier_only=True, index="webhooks")

    async def after(
        self,
        table_id: str,
        record: TableRecord,
        logged: Sequence[Event] = (),
        ends_deal: bool = False,
    ) -> None:
        """After a write: the index holds the table's deadline exactly (a play-out's, clock or
        none, in the play-outs' index: :mod:`.clock`); a bot seat to act is woken then. A write
        with events for the webhook puts the table in its index again: a dispatcher that
        claimed the table between :meth:`before` and the commit read the log without them and
        gives its claim back — and with it what :meth:`before` put there."""
        if flow.playing_out(record):
            await self.store.schedule(table_id, record.table.deadline, index="playouts")
        elif flow.timed(record):
            await self.store.schedule(table_id, record.table.deadline)
        if _for_the_webhook(record, logged, ends_deal):
            await self.store.schedule(table_id, self.now(), earlier_only=True, index="webhooks")
        self._wake_bot(table_id, record)

    async def forget(self, table_id: str) -> None:
        """The table is gone: out of the clock's indexes."""
        await self.store.schedule(table_id, None)
        await self.store.schedule(table_id, None, index="playouts")

    def _wake_bot(self, table_id: str, record: TableRecord) -> None:
        """A bot seat to act moves when its delay ends rather than at the clock's next poll
        (up to 0.2 s later): this process times it out then, through the same compare-and-set
        as the clock, which any replica still does should this one go away."""
        table = record.table
        if not self.waking or record.snapshot.over or table.deadline is None:
            return
        acting = table.seats[record.snapshot.turn]
        if acting.bot is None or acting.trustee:
            return
        delay = max(0.0, table.deadline - self.now())

        def fire() -> None:
            self._wakes.discard(handle)
            task = asyncio.get_running_loop().create_task(self._woken(table_id))
            self._wakes.add(task)
            task.add_done_callback(self._wakes.discard)

        handle = asyncio.get_running_loop().call_later(delay, fire)
        self._wakes.add(handle)

    async def _woken(self, table_id: str) -> bool:
        if self.time_out is None:
            return False
        try:
            return await self.time_out(table_id)
        except Exception as exc:  # the clock's poll applies it instead
            log.warning("bot move for %s left to the clock: %s", table_id, exc)
            return False

    def stop(self) -> None:
        """No more wake-ups; the ones pending are cancelled."""
        self.waking = False
        for wake in self._wakes:
            wake.cancel()
        self._wakes.clear()
