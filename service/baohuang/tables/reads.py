"""Reading live tables for a caller: the table, a seat's view, legal moves, the log, the audit
and the stream of changes, each cut to the caller (:mod:`.views`) — and who may ask, checked
before anything is read (:meth:`TableReads.role`).

The checks every answer shares live here too: a token of an earlier instance of the table, or
one revoked by a newer token of its seat, is refused (401) on every route, reads and writes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import NamedTuple

from ..engine import SeatView, legal_moves_of, seat_view
from ..store import TableStore
from .answers import EventsPage, StreamItem, TableLegalMoves, TableRead, V
from .audit import AuditReport, audit_table
from .callers import Caller, Forbidden, Unauthorized
from .errors import TableNotFound
from .feed import TableFeed
from .following import follow_channel, logged_event, read_position
from .positions import Position, event_id, rolled_back
from .record import TableRecord, decode_generations, decode_record
from .views import View, audience_of, cut_events, cut_moves, cut_table

EVENTS_PAGE = 500


class Stored(NamedTuple):
    """A table as read for a caller: its version, instance, last seq, last event id, record."""

    version: int
    instance: str
    last_seq: int
    last_id: str
    record: TableRecord


def require_instance(caller: Caller, instance: str) -> None:
    """A token of an earlier instance of the table (deleted and created again) is refused."""
    if caller.instance is not None and caller.instance != instance:
        raise Unauthorized("this token belongs to an earlier instance of the table")


def instance_meant(caller: Caller, instance: str | None) -> str | None:
    """The table instance a write is meant for: the token's own (a different one sent with it
    is 401), else what the client sent, if anything."""
    if caller.instance is None:
        return instance
    if instance is not None and instance != caller.instance:
        raise Unauthorized("the instance sent is not the one this token belongs to")
    return caller.instance


def may_ask_moves(caller: Caller, seat: int | None) -> None:
    """Legal moves: a seat asks for its own, a platform for any seat, a spectator for none."""
    if seat is not None:
        caller.require_seat(seat, "$.query.seat")
    elif caller.kind == "spectator":
        raise Forbidden("a spectator token has no moves to ask for", "$.query.seat")


async def read_stored(store: TableStore, table_id: str, caller: Caller) -> Stored:
    """The table, for a caller whose token must be of its instance and current."""
    stored = await store.get(table_id)
    if stored is None:
        raise TableNotFound(table_id)
    require_instance(caller, stored.instance)
    record = decode_record(stored.snapshot)
    caller.require_current(record.token_generations)
    last_id = event_id(stored.last_seq, stored.last_token)
    return Stored(stored.version, stored.instance, stored.last_seq, last_id, record)


class TableReads:
    """Every read of the table service."""

    def __init__(self, store: TableStore, feed: TableFeed, heartbeat_seconds: float) -> None:
        self.store = store
        self.feed = feed
        self._heartbeat = heartbeat_seconds

    async def role(self, table_id: str, caller: Caller, check: Callable[[], None]) -> None:
        """Run a role check (``check`` raises :class:`Forbidden`), but answer a token of an
        earlier instance of the table, or one revoked by a newer token of its seat, 401 first,
        on every route: a 403 would not tell its client to fetch a new token. The table is
        read only when the check refuses."""
        try:
            check()
        except Forbidden:
            if caller.instance is not None:
                stored = await self.store.get(table_id)
                if stored is not None:
                    require_instance(caller, stored.instance)
                    caller.require_current(decode_generations(stored.snapshot))
            raise

    async def read(self, table_id: str, caller: Caller) -> TableRead[View]:
        """The table as ``caller`` may see it."""
        stored = await read_stored(self.store, table_id, caller)
        view = cut_table(stored.record.snapshot, caller)
        return _table_read(table_id, stored, view)

    async def read_seat(self, table_id: str, seat: int, caller: Caller) -> TableRead[SeatView]:
        """Seat ``seat``'s view, for that seat's token or a platform."""
        await self.role(table_id, caller, lambda: caller.require_seat(seat, "$.path.seat"))
        stored = await read_stored(self.store, table_id, caller)
        return _table_read(table_id, stored, seat_view(stored.record.snapshot, seat))

    async def legal_moves(
        self, table_id: str, caller: Caller, seat: int | None = None
    ) -> TableLegalMoves:
        """The legal moves of ``seat`` on the table as stored (:func:`legal_moves_of`): a seat
        token's own (``seat`` defaults to it), any seat's for a platform (defaulting to the
        seat to act, ``None`` once the deal is over); a spectator has none to ask for (403)."""
        asked = seat
        await self.role(table_id, caller, lambda: may_ask_moves(caller, asked))
        stored = await read_stored(self.store, table_id, caller)
        snapshot = stored.record.snapshot
        if seat is None:
            if caller.seat is not None:
                seat = caller.seat
            elif snapshot.over:
                return TableLegalMoves(stored.version, stored.instance, None, [])
            else:
                seat = snapshot.turn
        moves = legal_moves_of(snapshot, seat)
        return TableLegalMoves(
            stored.version, stored.instance, seat, cut_moves(moves, seat, caller)
        )

    async def events(
        self, table_id: str, caller: Caller, after: Position | int, limit: int = EVENTS_PAGE
    ) -> EventsPage:
        """Logged events after ``after``, as ``caller`` may see them; a reset (the table as it
        now is) when the log no longer holds ``after`` (:mod:`.positions`; a bare seq is checked
        against the log's end only)."""
        after = after if isinstance(after, Position) else Position(after)
        token = caller.role is not None
        page = await self.store.read_events(table_id, after.seq, limit, with_snapshot=token)
        if page is None:
            raise TableNotFound(table_id)
        require_instance(caller, page.instance)
        if page.snapshot is not None:
            caller.require_current(decode_generations(page.snapshot))
        last_id = event_id(page.last_seq, page.last_token)
        if rolled_back(page, after):
            return EventsPage(page.instance, page.version, page.last_seq, [], last_id, reset=True)
        events = [logged_event(logged) for logged in page.events]
        cut = cut_events(events, caller)
        return EventsPage(page.instance, page.version, page.last_seq, cut, last_id)

    async def audit(self, table_id: str, caller: Caller) -> AuditReport:
        """Replay the finished deals the table keeps and its log (platform only): see
        :mod:`.audit`."""
        await self.role(table_id, caller, caller.require_platform)
        await read_stored(self.store, table_id, caller)
        return await audit_table(self.store, table_id)

    async def follow(
        self, table_id: str, caller: Caller, after: Position | int | None = None
    ) -> AsyncIterator[StreamItem]:
        """The table as it changes: an opening (unless resuming ``after`` an event), then each
        event the caller may see as it commits, heartbeats when quiet, a reset whenever the log
        no longer holds the stream's position (never a silent clamp: :mod:`.positions`), and a
        close when the table is deleted, expires or is replaced. Raises before the first item
        (not found, unauthorized), so a route can still answer with an error."""
        read = await self.read(table_id, caller)
        if isinstance(after, int):
            after = Position(after)
        channel = self.feed.join(table_id, read.instance, read_position(read))
        return follow_channel(
            self.store,
            self.feed,
            channel,
            caller,
            read,
            read_position(read) if after is None else after,
            opening=after is None,
            heartbeat=self._heartbeat,
            reread=lambda: self.read(table_id, caller),
        )


def _table_read(table_id: str, stored: Stored, view: V) -> TableRead[V]:
    return TableRead(
        table_id,
        stored.instance,
        stored.version,
        audience_of(view),
        view,
        stored.record.table,
        stored.last_seq,
        stored.last_id,
    )
