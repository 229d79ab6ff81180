"""The tables this process wrote last, so that a move can skip reading its table back.

A move is read, checked and written in two store round trips. When this process made the table's
last write, it already holds that state; the write then asks the store to commit only if the
table's last write is still that one (its token), which versions alone cannot say (they restart
after a delete). Anything else — another replica wrote, the table was replaced, deleted or
expired — makes the write a conflict, and the move is judged again on the state read from the
store. So the cache can only save a round trip, never decide a move on stale state.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

from ..engine import Snapshot

DEFAULT_CAPACITY = 1024  # about 15 KiB a snapshot: ~15 MiB at most, within the chart's 256 MiB


class LastWrite(NamedTuple):
    version: int
    token: str
    instance: str
    last_seq: int
    snapshot: Snapshot


class RecentWrites:
    """A bounded LRU of table id → this process's last write (one per process, not shared)."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._capacity = capacity
        self._writes: OrderedDict[str, LastWrite] = OrderedDict()

    def get(self, table_id: str, version: int) -> LastWrite | None:
        """The last write of ``table_id`` if this process made it at ``version``."""
        write = self._writes.get(table_id)
        return write if write is not None and write.version == version else None

    def remember(self, table_id: str, write: LastWrite) -> None:
        self._writes[table_id] = write
        self._writes.move_to_end(table_id)
        if len(self._writes) > self._capacity:
            self._writes.popitem(last=False)

    def forget(self, table_id: str) -> None:
        self._writes.pop(table_id, None)
