"""The in-memory store with a replica and ``WAIT``: the twin of a Redis primary with one replica
and ``REDIS_WAIT_REPLICAS=1``, so that "acknowledged" means what it means there, and a failover
can be made at any step (tests/fault_walk.py).

* Replication is ordered and lags: the replica holds the primary's state as it was at the last
  ``WAIT`` that was answered. Every write Redis waits for (``put``, a compare-and-set that wrote,
  ``remember``, the webhook's cursor and backoff, ``delete``, ``replay``) is followed by one: the
  replica catches up with everything before it (the index writes in between included, as one
  replication stream carries them), unless the link is cut (:attr:`ReplicatedMemory.linked`);
  then the write stays on the primary alone and raises :class:`StoreOutcomeUnknown`, as the
  Redis store does.
* :meth:`ReplicatedMemory.fail_over` promotes the replica: with ``lossy`` it holds what was
  acknowledged, no more (what the primary took since is gone, the log rolled back), else it had
  caught up first. The services' change subscriptions hear of it late, as on Redis (a lost
  subscription comes back after a second, then says :data:`RECHECK_ALL`): only when the test
  says so (:meth:`ReplicatedMemory.recheck`), after whatever writes came meanwhile.

Tokens stay unique across a failover (the counter is the process's, not the data's), so a seq
logged again after a rollback has another token, as on Redis.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from baohuang.store import (
    RECHECK_ALL,
    CasOk,
    CasResult,
    DealEnd,
    HookBackoff,
    Index,
    MemoryTableStore,
    PutResult,
    StoreOutcomeUnknown,
)
from baohuang.store.memory_entry import TableEntry

State = tuple["OrderedDict[str, TableEntry]", dict[Index, dict[str, float]]]


def _copied(entry: TableEntry) -> TableEntry:
    twin = copy.copy(entry)
    twin.events = list(entry.events)
    twin.remembered = dict(entry.remembered)
    twin.deals = list(entry.deals)
    return twin


class ReplicatedMemory(MemoryTableStore):
    """A primary (the store itself) and its replica (:meth:`fail_over` promotes it)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.linked = True
        """Whether the replica acknowledges: cut, every write is the primary's alone."""
        self._replica = self._state()

    def _state(self) -> State:
        tables = OrderedDict((table_id, _copied(e)) for table_id, e in self._tables.items())
        return tables, {index: dict(times) for index, times in self._indexes.items()}

    def wait(self, wrote: bool = True) -> None:
        """``WAIT 1`` after a write: the replica catches up; with the link cut, a write that
        wrote is not acknowledged."""
        if self.linked:
            self._replica = self._state()
        elif wrote:
            raise StoreOutcomeUnknown("written, but 0 of 1 replicas acknowledged it")

    def fail_over(self, *, lossy: bool) -> None:
        """The replica takes over; ``lossy``: it holds only what was acknowledged."""
        if not lossy:
            self._replica = self._state()
        tables, indexes = self._replica
        self._tables = OrderedDict((table_id, _copied(e)) for table_id, e in tables.items())
        self._indexes = {index: dict(times) for index, times in indexes.items()}

    def recheck(self) -> None:
        """The change subscriptions are back: every table followed must be read again."""
        self._notify(RECHECK_ALL)

    # -- every write Redis waits for ------------------------------------------------------------

    async def put(self, table_id: str, snapshot: bytes, events: Sequence[bytes] = ()) -> PutResult:
        result = await super().put(table_id, snapshot, events)
        self.wait()
        return result

    async def compare_and_set(self, table_id: str, *args: Any, **options: Any) -> CasResult:
        result = await super().compare_and_set(table_id, *args, **options)
        self.wait(isinstance(result, CasOk))
        return result

    async def remember(self, table_id: str, instance: str, key: str, record: bytes) -> bytes | None:
        kept = await super().remember(table_id, instance, key, record)
        self.wait(kept is not None)
        return kept

    async def replay(self, table_id: str, key: str) -> bytes:
        kept = await super().replay(table_id, key)
        self.wait()
        return kept

    async def advance_hook(self, table_id: str, instance: str, seq: int) -> None:
        await super().advance_hook(table_id, instance, seq)
        self.wait()

    async def set_hook_backoff(self, table_id: str, instance: str, backoff: HookBackoff) -> None:
        await super().set_hook_backoff(table_id, instance, backoff)
        self.wait()

    async def delete(self, table_id: str) -> bool:
        existed = await super().delete(table_id)
        self.wait()
        return existed


__all__ = ["DealEnd", "ReplicatedMemory"]
