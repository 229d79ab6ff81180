"""Following tables: one subscription per process, fanned out to every stream it serves.

Each process runs one :class:`TableFeed`. It listens to the store's change notifications (one
Redis connection, however many followers) and keeps a channel per followed table: on each
notification it reads the table's new log entries once and wakes every follower of that table,
who takes them from the channel's buffer. A notification is only a hint — the log is the record
— so every channel is also read again every ``poll_seconds``, and at once after the
subscription was lost: a missed message delays an event, it never loses one. A follower that
falls behind the buffer reads its gap from the store itself.

Rollbacks: every read goes on from the channel's last event *and* checks that the log still
holds it (its write's token, :mod:`.positions`). When a failover rolled the log back past it,
the channel drops its buffer, starts again from the log's end and counts a new ``generation``:
each follower then checks its own position against the log and, if it is gone, is reset. The
same goes when the log was trimmed past the channel (a new deal started and the finished deal's
events left it before the channel read them all): :func:`~.positions.rolled_back` says so too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Final

from ..store import RECHECK_ALL, LoggedEvent, StoreOverloaded, StoreUnavailable, TableStore
from .positions import Position, rolled_back

log = logging.getLogger("baohuang.tables")

BUFFERED_EVENTS: Final = 512
"""Events a channel keeps for its followers; one behind by more reads the store."""
READ_LIMIT: Final = 512
POLL_SECONDS: Final = 5.0


class Channel:
    """One followed table in this process."""

    def __init__(self, table_id: str, instance: str, position: Position) -> None:
        self.table_id = table_id
        self.instance = instance
        self.position = position.seq  # the last seq read into the buffer
        self.token = position.token  # ... and its write's token, when known
        self.generation = 0  # how many rollbacks this channel has seen
        self.buffer: deque[LoggedEvent] = deque(maxlen=BUFFERED_EVENTS)
        self.closed: str | None = None  # why the table's instance ended, once it has
        self.followers = 0
        self.woken = asyncio.Event()  # replaced on every read: waiters hold the old one
        self._reading = asyncio.Lock()
        self._again = False

    def since(self, at: Position) -> list[LoggedEvent] | None:
        """Buffered events after ``at``, or ``None`` when the buffer cannot say: it no longer
        reaches back, or it holds another event at ``at``'s seq (the follower must check its
        position against the store)."""
        if at.seq > self.position:
            return []  # the channel has not read that far yet: its next read will
        if at.seq == self.position:
            same = at.token is None or self.token is None or at.token == self.token
            return [] if same else None
        if not self.buffer or self.buffer[0].seq > at.seq + 1:
            return None
        if self.buffer[0].seq <= at.seq:
            held = self.buffer[at.seq - self.buffer[0].seq]
            if at.token is not None and held.token != at.token:
                return None
        return [event for event in self.buffer if event.seq > at.seq]

    def _wake(self) -> None:
        woken, self.woken = self.woken, asyncio.Event()
        woken.set()

    async def refresh(self, store: TableStore) -> None:
        """Read what is new; concurrent calls coalesce into one more read."""
        if self._reading.locked():
            self._again = True
            return
        async with self._reading:
            self._again = True
            while self._again and self.closed is None:
                self._again = False
                page = await store.read_events(self.table_id, self.position, READ_LIMIT)
                if page is None:
                    self.closed = "deleted"
                elif page.instance != self.instance:
                    self.closed = "replaced"
                elif rolled_back(page, Position(self.position, self.token)):
                    # A failover lost what this channel read: start again at the log's end;
                    # each follower checks its own position (see the module docstring).
                    self.buffer.clear()
                    self.position, self.token = page.last_seq, page.last_token or None
                    self.generation += 1
                else:
                    self.buffer.extend(page.events)
                    if page.events:
                        self.position = page.events[-1].seq
                        self.token = page.events[-1].token or None
                    self._again |= len(page.events) == READ_LIMIT
                self._wake()


class TableFeed:
    """The process's followers, by table; :meth:`run` is its one background task."""

    def __init__(
        self,
        store: TableStore,
        *,
        poll_seconds: float = POLL_SECONDS,
        on_followers: Callable[[int], None] | None = None,
    ) -> None:
        self._store = store
        self._poll = poll_seconds
        self._channels: dict[str, Channel] = {}
        self._on_followers = on_followers
        self._followers = 0
        self._tasks: set[asyncio.Task[None]] = set()

    def join(self, table_id: str, instance: str, position: Position) -> Channel:
        """Follow ``table_id`` (instance ``instance``, log read up to ``position``)."""
        channel = self._channels.get(table_id)
        if channel is None or channel.closed is not None or channel.instance != instance:
            channel = Channel(table_id, instance, position)
            self._channels[table_id] = channel
        channel.followers += 1
        self._count(+1)
        return channel

    def leave(self, channel: Channel) -> None:
        channel.followers -= 1
        self._count(-1)
        if channel.followers == 0 and self._channels.get(channel.table_id) is channel:
            del self._channels[channel.table_id]

    def _count(self, change: int) -> None:
        self._followers += change
        if self._on_followers is not None:
            self._on_followers(self._followers)

    def _refresh(self, channel: Channel) -> None:
        task = asyncio.create_task(self._refresh_quietly(channel))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh_quietly(self, channel: Channel) -> None:
        try:
            await channel.refresh(self._store)
        except (StoreUnavailable, StoreOverloaded) as exc:
            log.warning("following %s: %s (read again at the next poll)", channel.table_id, exc)

    async def run(self) -> None:
        """Listen for changes and poll, until cancelled."""
        poller = asyncio.create_task(self._poll_forever())
        try:
            while True:
                try:
                    async for table_id in self._store.changes():
                        if table_id == RECHECK_ALL:
                            self._refresh_all()
                        elif (followed := self._channels.get(table_id)) is not None:
                            self._refresh(followed)
                except Exception:  # never let following die: polling covers the gap
                    log.exception("change notifications failed; listening again")
                    await asyncio.sleep(1.0)
        finally:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self._poll)
            self._refresh_all()

    def _refresh_all(self) -> None:
        for channel in list(self._channels.values()):
            self._refresh(channel)
