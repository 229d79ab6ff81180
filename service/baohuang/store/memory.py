"""The embedded table store: one process, no Redis (the default when ``REDIS_URL`` is unset).

Atomicity comes from asyncio itself: no method awaits anything, so each one runs to completion
without another task interleaving, and a compare-and-set is as atomic as the Lua script on Redis.
It is not thread-safe and not shared between processes or replicas; use Redis for those.

Expiry is lazy against a monotonic clock (wall-clock jumps neither kill nor revive tables).
Entries are kept in last-write order; since every entry has the same TTL that is also expiry
order, so expired tables are purged from the front in amortised O(1) per write.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from .base import (
    DEFAULT_TTL_SECONDS,
    CasConflict,
    CasMissing,
    CasOk,
    CasResult,
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
    """One table: mutable so a write updates in place (no allocation beyond the snapshot)."""

    __slots__ = ("expires_at", "instance", "snapshot", "token", "version")

    def __init__(self, version: int, snapshot: bytes, expires_at: float) -> None:
        self.version = version
        self.snapshot = snapshot
        self.expires_at = expires_at
        self.token = ""
        self.instance = ""


class MemoryTableStore:
    """Tables in a dict, for one process; see the module docstring for the guarantees."""

    def __init__(
        self,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        max_tables: int | None = DEFAULT_MAX_TABLES,
        observe: Observe = no_observe,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``clock`` is injectable so tests can expire tables without sleeping."""
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        if max_tables is not None and max_tables <= 0:
            raise ValueError("max_tables must be positive or None")
        self._ttl = float(ttl_seconds)
        self._max_tables = max_tables
        self._observe = observe
        self._clock = clock
        self._tables: OrderedDict[str, _Entry] = OrderedDict()
        self._tokens = itertools.count(1)  # unique per write within this store

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

    def _write(self, table_id: str, entry: _Entry, snapshot: bytes, now: float) -> None:
        entry.version += 1
        entry.snapshot = snapshot
        entry.expires_at = now + self._ttl
        entry.token = f"m{next(self._tokens):x}"
        self._tables.move_to_end(table_id)

    def _done(self, operation: str, outcome: str, start: float) -> None:
        safe_observe(self._observe, operation, outcome, time.perf_counter() - start)

    # -- TableStore --

    async def get(self, table_id: str) -> StoredTable | None:
        start = time.perf_counter()
        entry = self._live(table_id, self._clock())
        if entry is None:
            self._done("get", "missing", start)
            return None
        table = StoredTable(entry.version, entry.snapshot, entry.instance)
        self._done("get", "ok", start)
        return table

    async def put(self, table_id: str, snapshot: bytes) -> PutResult:
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
        self._write(table_id, entry, snapshot, now)
        result = PutResult(entry.version, snapshot, entry.instance, created, entry.token)
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
    ) -> CasResult:
        start = time.perf_counter()
        now = self._clock()
        entry = self._live(table_id, now)
        if entry is None:
            self._done("cas", "missing", start)
            return CasMissing()
        if (
            entry.version != expected_version
            or (written_as is not None and entry.token != written_as)
            or (instance is not None and entry.instance != instance)
        ):
            self._done("cas", "conflict", start)
            return CasConflict(entry.version)
        self._write(table_id, entry, bytes(snapshot), now)
        self._done("cas", "ok", start)
        return CasOk(entry.version, entry.token)

    async def delete(self, table_id: str) -> bool:
        start = time.perf_counter()
        existed = self._live(table_id, self._clock()) is not None
        if existed:
            del self._tables[table_id]
        self._done("delete", "ok" if existed else "missing", start)
        return existed

    async def ping(self) -> None:
        self._done("ping", "ok", time.perf_counter())

    async def close(self) -> None:
        """Nothing to release; the tables stay readable (a closed store is not torn down)."""
