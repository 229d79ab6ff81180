"""A table's history read as of one version: its record, the finished deals it keeps and its
log's events after them — what the audit (:mod:`.audit`) checks and a deal's record
(:mod:`.deal_records`) is cut from.

The log is read in pages; a deal that ends between two pages trims the events of the one before
(:mod:`.deals`), so a read that finds its next page trimmed starts again.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine import Event
from ..store import StoreUnavailable, TableStore
from .errors import TableNotFound
from .following import logged_event
from .record import TableRecord, decode_record

PAGE = 5000
"""Events read at a time (a log holds about one deal: ~1,000 events)."""
ATTEMPTS = 5
"""How often the audit reads the table again when a deal ended between two of its pages."""


class History(NamedTuple):
    """A table's history as of one version: its ``record`` and ``instance``, the finished deals'
    records it keeps (``deals``, compact, oldest first) and its log's ``events`` after them (the
    current deal's)."""

    instance: str
    record: TableRecord
    deals: list[bytes]
    events: list[Event]


async def read_history(store: TableStore, table_id: str) -> History:
    """The table's :class:`History`, read as of one version (read again when a deal ended
    between two pages)."""
    for _ in range(ATTEMPTS):
        read = await _history(store, table_id)
        if read is not None:
            return read
    # a deal ended between two pages, every time: hardly possible
    raise StoreUnavailable(f"{table_id}'s deals kept ending while it was read")


async def _history(store: TableStore, table_id: str) -> History | None:
    """The table, its finished deals' records and its log's events after them, as of the version
    of the first page (later writes' events are left out); ``None`` when a deal ended between
    two pages, trimming events not read yet."""
    first = await store.read_events(table_id, 0, PAGE, with_snapshot=True, with_deals=True)
    if first is None or first.snapshot is None:
        raise TableNotFound(table_id)
    record = decode_record(first.snapshot)
    page, logged = first, list(first.events)
    while page.events and page.events[-1].seq < page.last_seq:
        after = page.events[-1].seq
        read = await store.read_events(table_id, after, PAGE)
        if read is None or read.instance != first.instance:
            raise TableNotFound(table_id)
        if read.trimmed > after:
            return None
        page = read
        logged += page.events
    events = [
        logged_event(entry)
        for entry in logged
        if entry.seq > first.recorded and entry.version <= first.version
    ]
    return History(first.instance, record, list(first.deals or []), events)


__all__ = ["History", "read_history"]
