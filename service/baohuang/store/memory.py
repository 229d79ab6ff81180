"""The embedded table store: one process, no Redis (the default when ``REDIS_URL`` is unset).

Atomicity comes from asyncio itself: no method awaits anything, so each one runs to completion
without another task interleaving, and a compare-and-set — with its events and its remembered
answer — is as atomic as the Lua script on Redis. It is not thread-safe and not shared between
processes or replicas; use Redis for those.

Each method is the twin of one script of :mod:`.redis_scripts` and keeps the same things:
events logged with their write's token, at most ``max_remembered`` remembered answers per table
(the oldest dropped first), the token of the event at a reader's position, the finished deals'
records and the log trimmed to the current deal (what the webhook has not delivered excepted).

Expiry is lazy against a monotonic clock (wall-clock jumps neither kill nor revive tables).
Entries are kept in last-write order; since every entry has the same TTL that is also expiry
order, so expired tables are purged from the front in amortised O(1) per write.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Final

from .base import (
    DEFAULT_MAX_REMEMBERED,
    DEFAULT_TTL_SECONDS,
    RECHECK_ALL,
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    CasResult,
    DealEnd,
    EventPage,
    HookBackoff,
    Index,
    LoggedEvent,
    Observe,
    PutResult,
    StoredTable,
    StoreFull,
    new_instance,
    no_observe,
    safe_observe,
)

__all__ = ["DEFAULT_MAX_TABLES", "MemoryTableStore"]

DEFAULT_MAX_TABLES: Final = 10_000
"""Enough for a single instance; at a few KiB per snapshot it stays in the tens of MiB."""


class _Entry:
    """One table instance: mutable so a write updates in place."""

    __slots__ = (
        "backoff", "deals", "events", "expires_at", "hooked", "instance", "recorded", "remembered",
        "snapshot", "token", "trimmed", "trimmed_token", "version",
    )  # fmt: skip

    def __init__(self, version: int, snapshot: bytes, expires_at: float) -> None:
        self.version = version
        self.snapshot = snapshot
        self.expires_at = expires_at
        self.token = ""
        self.instance = ""
        self.events: list[LoggedEvent] = []
        self.remembered: dict[str, bytes] = {}
        self.hooked = 0  # the last seq the table's webhook delivered
        self.backoff = HookBackoff()  # its retry schedule
        self.deals: list[bytes] = []  # the finished deals' records, oldest first
        self.recorded = 0  # the last seq of the finished deals
        self.trimmed = 0  # the last seq gone from the log: ``events`` starts after it
        self.trimmed_token = ""  # ... and the token of the event that had it

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else self.trimmed

    @property
    def last_token(self) -> str:
        return self.events[-1].token if self.events else self.trimmed_token

    def trim(self, upto: int) -> None:
        """The twin of the scripts' ``trim``: the events up to ``upto`` leave the log."""
        if upto <= self.trimmed:
            return
        gone = upto - self.trimmed  # seqs are consecutive: the first ``gone`` events
        self.trimmed_token = self.events[gone - 1].token
        del self.events[:gone]
        self.trimmed = upto


class MemoryTableStore:
    """Tables in a dict, for one process; see the module docstring for the guarantees."""

    def __init__(
        self,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        max_tables: int | None = DEFAULT_MAX_TABLES,
        observe: Observe = no_observe,
        clock: Callable[[], float] = time.monotonic,
        max_remembered: int = DEFAULT_MAX_REMEMBERED,
    ) -> None:
        """``clock`` is injectable so tests can expire tables without sleeping."""
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        if max_remembered <= 0:
            raise ValueError("max_remembered must be positive")
        self._max_remembered = max_remembered
        if max_tables is not None and max_tables <= 0:
            raise ValueError("max_tables must be positive or None")
        self._ttl = float(ttl_seconds)
        self._max_tables = max_tables
        self._observe = observe
        self._clock = clock
        self._tables: OrderedDict[str, _Entry] = OrderedDict()
        self._tokens = itertools.count(1)  # unique per write within this store
        self._listeners: set[asyncio.Queue[str]] = set()
        self._indexes: dict[Index, dict[str, float]] = {
            "deadlines": {},
            "webhooks": {},
            "playouts": {},
        }
        self._present: dict[str, dict[str, float]] = {}  # group → member → until

    def __repr__(self) -> str:
        return f"MemoryTableStore(ttl_seconds={self._ttl:g}, tables={len(self._tables)})"

    # -- helpers (synchronous: nothing here may await, that is what makes the store atomic) --

    def _live(self, table_id: str, now: float) -> _Entry | None:
        entry = self._tables.get(table_id)
        if entry is not None and entry.expires_at <= now:
            del self._tables[table_id]
            return None
        return entry

    def _purge_expired(self, now: float) -> None:
        tables = self._tables
        while tables:
            table_id, entry = next(iter(tables.items()))
            if entry.expires_at > now:
                return
            del tables[table_id]

    def _new_token(self) -> str:
        return f"m{next(self._tokens):x}"

    def _write(self, table_id: str, entry: _Entry, snapshot: bytes, now: float, token: str) -> None:
        entry.version += 1
        entry.snapshot = snapshot
        entry.expires_at = now + self._ttl
        entry.token = token
        self._tables.move_to_end(table_id)
        self._notify(table_id)

    def _keep(self, entry: _Entry, key: str, record: bytes) -> bytes:
        """The twin of the scripts' ``keep``: a key's first record stays; beyond the bound the
        oldest key goes (dicts keep insertion order)."""
        kept = entry.remembered.setdefault(key, bytes(record))
        while len(entry.remembered) > self._max_remembered:
            del entry.remembered[next(iter(entry.remembered))]
        return kept

    def _notify(self, table_id: str) -> None:
        for queue in self._listeners:
            queue.put_nowait(table_id)

    def _done(self, operation: str, outcome: str, start: float) -> None:
        safe_observe(self._observe, operation, outcome, time.perf_counter() - start)

    # -- TableStore --

    async def get(self, table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        start = time.perf_counter()
        entry = self._live(table_id, self._clock())
        if entry is None:
            self._done("get", "missing", start)
            return None
        remembered = entry.remembered.get(remembered_as) if remembered_as is not None else None
        table = StoredTable(
            entry.version,
            entry.snapshot,
            entry.instance,
            entry.last_seq,
            remembered,
            last_token=entry.last_token,
        )
        self._done("get", "ok", start)
        return table

    async def put(self, table_id: str, snapshot: bytes, events: Sequence[bytes] = ()) -> PutResult:
        start = time.perf_counter()
        now = self._clock()
        snapshot = bytes(snapshot)  # a caller's bytearray must not change the stored table
        self._purge_expired(now)
        entry = self._live(table_id, now)
        created = entry is None
        if entry is None:
            if self._max_tables is not None and len(self._tables) >= self._max_tables:
                self._done("put", "unavailable", start)
                raise StoreFull(f"the in-memory store already holds {self._max_tables} tables")
            entry = _Entry(0, snapshot, now)
            self._tables[table_id] = entry
        entry.instance = new_instance()
        version = entry.version + 1
        token = self._new_token()
        entry.events = [
            LoggedEvent(seq, version, bytes(data), token) for seq, data in enumerate(events, 1)
        ]
        entry.remembered = {}
        entry.hooked = 0
        entry.backoff = HookBackoff()
        entry.deals, entry.recorded, entry.trimmed, entry.trimmed_token = [], 0, 0, ""
        self._write(table_id, entry, snapshot, now, token)
        result = PutResult(
            entry.version,
            snapshot,
            entry.instance,
            len(events),
            last_token=entry.last_token,
            created=created,
            token=entry.token,
        )
        self._done("put", "ok", start)
        return result

    async def compare_and_set(
        self,
        table_id: str,
        expected_version: int,
        snapshot: bytes,
        written_as: str | None = None,
        *,
        instance: str | None = None,
        events: Sequence[bytes] = (),
        remember: tuple[str, bytes] | None = None,
        deal_end: DealEnd | None = None,
    ) -> CasResult:
        start = time.perf_counter()
        now = self._clock()
        entry = self._live(table_id, now)
        if entry is None:
            self._done("cas", "missing", start)
            return CasMissing()
        if remember is not None and remember[0] in entry.remembered:
            self._done("cas", "conflict", start)
            return CasRemembered(entry.remembered[remember[0]])
        if (
            entry.version != expected_version
            or (written_as is not None and entry.token != written_as)
            or (instance is not None and entry.instance != instance)
        ):
            self._done("cas", "conflict", start)
            return CasConflict(entry.version)
        if deal_end is not None and (not deal_end.record or deal_end.kept <= 0):
            raise ValueError("a deal's end needs a record, and a table keeps at least one")
        version = entry.version + 1
        token = self._new_token()
        seq = finished = entry.last_seq
        for data in events:
            seq += 1
            entry.events.append(LoggedEvent(seq, version, bytes(data), token))
        if remember is not None:
            self._keep(entry, remember[0], remember[1])
        if deal_end is not None:
            entry.deals = [*entry.deals, bytes(deal_end.record)][-deal_end.kept :]
            entry.recorded = finished
            entry.trim(min(finished, entry.hooked) if deal_end.webhook else finished)
        self._write(table_id, entry, bytes(snapshot), now, token)
        self._done("cas", "ok", start)
        return CasOk(entry.version, entry.token, seq)

    async def remember(self, table_id: str, instance: str, key: str, record: bytes) -> bytes | None:
        start = time.perf_counter()
        entry = self._live(table_id, self._clock())
        if entry is None or entry.instance != instance:
            self._done("remember", "missing", start)
            return None
        kept = self._keep(entry, key, record)
        self._done("remember", "ok", start)
        return kept

    async def read_events(
        self,
        table_id: str,
        after: int,
        limit: int,
        *,
        with_snapshot: bool = False,
        with_deals: bool = False,
    ) -> EventPage | None:
        start = time.perf_counter()
        entry = self._live(table_id, self._clock())
        if entry is None:
            self._done("events", "missing", start)
            return None
        # seqs go on with no gap from the first event kept (the one after ``trimmed``)
        after = max(after, 0)
        first = max(after - entry.trimmed, 0)
        events = entry.events[first : first + limit]
        anchor = None
        if 0 < after == entry.trimmed:
            anchor = entry.trimmed_token
        elif entry.trimmed < after <= entry.last_seq:
            anchor = entry.events[after - entry.trimmed - 1].token
        page = EventPage(
            entry.instance,
            entry.version,
            entry.last_seq,
            events,
            last_token=entry.last_token,
            anchor=anchor,
            snapshot=entry.snapshot if with_snapshot else None,
            trimmed=entry.trimmed,
            recorded=entry.recorded,
            deals=list(entry.deals) if with_deals else None,
        )
        self._done("events", "ok", start)
        return page

    async def confirm(self, table_id: str, instance: str) -> None:
        """One process holds everything it acknowledged: nothing to wait for."""
        self._done("confirm", "ok", time.perf_counter())

    async def changes(self) -> AsyncIterator[str]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        self._listeners.add(queue)
        try:
            yield RECHECK_ALL  # as on Redis: whatever was written before this listened
            while True:
                yield await queue.get()
        finally:
            self._listeners.discard(queue)

    async def delete(self, table_id: str) -> bool:
        start = time.perf_counter()
        existed = self._live(table_id, self._clock()) is not None
        if existed:
            del self._tables[table_id]
            self._notify(table_id)
        self._done("delete", "ok" if existed else "missing", start)
        return existed

    async def schedule(
        self,
        table_id: str,
        deadline: float | None,
        *,
        earlier_only: bool = False,
        index: Index = "deadlines",
    ) -> None:
        times = self._indexes[index]
        if deadline is None:
            times.pop(table_id, None)
        elif not earlier_only or deadline < times.get(table_id, float("inf")):
            times[table_id] = deadline

    async def due(
        self, now: float, limit: int, lease: float, *, index: Index = "deadlines"
    ) -> list[str]:
        times = self._indexes[index]
        due = sorted((at, table_id) for table_id, at in times.items() if at <= now)
        claimed = [table_id for _, table_id in due[:limit]]
        for table_id in claimed:
            times[table_id] = now + lease
        return claimed

    async def release(self, table_id: str, claimed: float, *, index: Index) -> bool:
        times = self._indexes[index]
        if times.get(table_id) == claimed:
            del times[table_id]
            return True
        return False

    async def present(self, group: str, member: str | None, now: float, ttl: float) -> int:
        members = self._present.setdefault(group, {})
        for name, until in list(members.items()):
            if until < now:
                del members[name]
        if member is not None:
            members[member] = now + ttl
        return len(members)

    async def hook_cursor(self, table_id: str) -> tuple[str, int] | None:
        entry = self._live(table_id, self._clock())
        return None if entry is None else (entry.instance, entry.hooked)

    async def advance_hook(self, table_id: str, instance: str, seq: int) -> None:
        entry = self._live(table_id, self._clock())
        if entry is not None and entry.instance == instance:
            entry.hooked = max(entry.hooked, seq)
            entry.trim(min(entry.hooked, entry.recorded))

    async def hook_backoff(self, table_id: str) -> HookBackoff | None:
        entry = self._live(table_id, self._clock())
        return None if entry is None else entry.backoff

    async def set_hook_backoff(self, table_id: str, instance: str, backoff: HookBackoff) -> None:
        entry = self._live(table_id, self._clock())
        if entry is not None and entry.instance == instance:
            entry.backoff = backoff

    async def ping(self) -> None:
        self._done("ping", "ok", time.perf_counter())

    async def close(self) -> None:
        """Nothing to release; the tables stay readable (a closed store is not torn down)."""
