"""The table service: reads, judges, writes and follows live tables for a caller (API.md "Live
tables").

A move is checked against the version first (409), then for legality (an illegal move is the
engine's ``MoveRefused``: nothing changes), then written with an atomic compare-and-set of the
version and the instance — with its events appended to the table's log and its answer kept under
the client's idempotency key in the same write — so no interleaving of clients or replicas
applies two moves to one version, loses one, or logs one without the other. Every answer leaves
through :mod:`.views`, cut to the caller.

Skipping the read: a process that made a table's last write keeps that state
(:class:`~.recent_writes.RecentWrites`) and judges the next move on it without reading the table
back; the write then commits only if that write is still the table's last one. Anything the
remembered state refuses, or cannot even judge (the table may have been created again with
another ruleset), is judged again on the stored state: the memory can save a round trip, never
decide a move.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from time import perf_counter

import msgspec

from ..engine import (
    Event,
    InvalidInput,
    Move,
    MoveRefused,
    SeatView,
    Snapshot,
    apply_move,
    seat_view,
    validate_snapshot,
)
from ..store import CasConflict, CasMissing, CasOk, CasRemembered, LoggedEvent, TableStore
from . import idempotency
from .answers import (
    Closed,
    CreatedTable,
    EventsPage,
    Heartbeat,
    MoveAnswer,
    Opening,
    StreamItem,
    TableRead,
)
from .callers import Authority, Caller, Unauthorized
from .errors import TableNotFound, VersionConflict
from .feed import Channel, TableFeed
from .recent_writes import LastWrite, RecentWrites
from .views import View, cut_event, cut_events, cut_table

_decode_snapshot = msgspec.json.Decoder(Snapshot).decode
_decode_event = msgspec.json.Decoder(Event).decode
_encode = msgspec.json.Encoder().encode

HEARTBEAT_SECONDS = 15.0
EVENTS_PAGE = 500

ObserveMove = Callable[[str | None, float], None]
"""``observe(reason code or None for legal, engine seconds)`` once per move judged for good."""


def _observe_nothing(code: str | None, seconds: float) -> None:
    """The default hook."""


class TableService:
    """Live tables for callers; one per process, over the process's store."""

    def __init__(
        self,
        store: TableStore,
        authority: Authority,
        recent: RecentWrites | None = None,
        *,
        observe_move: ObserveMove = _observe_nothing,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        feed: TableFeed | None = None,
    ) -> None:
        self.store = store
        self.authority = authority
        self._recent = recent if recent is not None else RecentWrites()
        self._observe_move = observe_move
        self._heartbeat = heartbeat_seconds
        self.feed = feed if feed is not None else TableFeed(store)
        self._feed_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start following tables (the lifespan calls this once)."""
        if self._feed_task is None:
            self._feed_task = asyncio.create_task(self.feed.run())

    async def close(self) -> None:
        if self._feed_task is not None:
            self._feed_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._feed_task
            self._feed_task = None

    # -- reads ---------------------------------------------------------------------------------

    async def _stored(self, table_id: str, caller: Caller) -> tuple[int, str, int, Snapshot]:
        stored = await self.store.get(table_id)
        if stored is None:
            raise TableNotFound(table_id)
        _require_instance(caller, stored.instance)
        snapshot = _decode_snapshot(stored.snapshot)
        return stored.version, stored.instance, stored.last_seq, snapshot

    async def read(self, table_id: str, caller: Caller) -> TableRead[View]:
        """The table as ``caller`` may see it."""
        version, instance, last_seq, snapshot = await self._stored(table_id, caller)
        return TableRead(table_id, instance, version, cut_table(snapshot, caller), last_seq)

    async def read_seat(self, table_id: str, seat: int, caller: Caller) -> TableRead[SeatView]:
        """Seat ``seat``'s view, for that seat's token or a platform."""
        caller.require_seat(seat, "$.seat")
        version, instance, last_seq, snapshot = await self._stored(table_id, caller)
        return TableRead(table_id, instance, version, seat_view(snapshot, seat), last_seq)

    async def events(
        self, table_id: str, caller: Caller, after: int, limit: int = EVENTS_PAGE
    ) -> EventsPage:
        """Logged events after ``after``, as ``caller`` may see them."""
        page = await self.store.read_events(table_id, after, limit)
        if page is None:
            raise TableNotFound(table_id)
        _require_instance(caller, page.instance)
        events = [_logged(logged) for logged in page.events]
        return EventsPage(page.instance, page.version, page.last_seq, cut_events(events, caller))

    async def follow(
        self, table_id: str, caller: Caller, after: int | None = None
    ) -> AsyncIterator[StreamItem]:
        """The table as it changes: an :class:`Opening` (unless resuming ``after`` a seq), then
        each event the caller may see as it commits, a :class:`Heartbeat` when quiet, and
        :class:`Closed` when the table is deleted, expires or is replaced. Raises before the
        first item (not found, unauthorized), so a route can still answer with an error."""
        read = await self.read(table_id, caller)
        position = read.last_seq if after is None else min(after, read.last_seq)
        channel = self.feed.join(table_id, read.instance, read.last_seq)
        return self._follow(channel, caller, read, position, opening=after is None)

    async def _follow(
        self,
        channel: Channel,
        caller: Caller,
        read: TableRead[View],
        position: int,
        opening: bool,
    ) -> AsyncIterator[StreamItem]:
        try:
            if opening:
                yield Opening(read)
            while True:
                woken = channel.woken
                fresh = channel.since(position)
                if fresh is None:  # fell behind the buffer: read the gap from the store
                    page = await self.store.read_events(channel.table_id, position, EVENTS_PAGE)
                    fresh = (
                        page.events if page is not None and page.instance == read.instance else []
                    )
                for logged in fresh:
                    position = logged.seq
                    event = cut_event(_logged(logged), caller)
                    if event is not None:
                        yield event
                if channel.closed is not None and channel.since(position) == []:
                    yield Closed(channel.closed)
                    return
                if channel.since(position):
                    continue
                try:
                    await asyncio.wait_for(woken.wait(), self._heartbeat)
                except TimeoutError:
                    yield Heartbeat()
        finally:
            self.feed.leave(channel)

    # -- writes --------------------------------------------------------------------------------

    async def create(
        self, table_id: str, snapshot: Snapshot, caller: Caller
    ) -> tuple[CreatedTable, bool]:
        """Create or replace the table (a new instance): the answer and whether it is new.
        ``InvalidInput`` when the snapshot contradicts itself."""
        caller.require_platform()
        snapshot = validate_snapshot(snapshot)
        written = await self.store.put(table_id, _encode(snapshot))
        self._recent.remember(
            table_id, LastWrite(written.version, written.token, written.instance, 0, snapshot)
        )
        created = CreatedTable(
            id=table_id,
            instance=written.instance,
            version=written.version,
            snapshot=snapshot,
            seat_tokens=self.authority.seat_tokens(table_id, written.instance),
            spectator_token=self.authority.spectator_token(table_id, written.instance),
        )
        return created, written.created

    async def delete(self, table_id: str, caller: Caller) -> None:
        """Remove the table (idempotent)."""
        caller.require_platform()
        self._recent.forget(table_id)
        await self.store.delete(table_id)

    async def move(
        self,
        table_id: str,
        caller: Caller,
        move: Move,
        version: int,
        instance: str | None = None,
        idempotency_key: str | None = None,
    ) -> MoveAnswer[View]:
        """Apply ``move`` against the ``version`` (and ``instance``, when the client sends it
        or its token carries it) that the client saw.

        Raises :class:`VersionConflict`, :class:`TableNotFound`, ``MoveRefused`` (an illegal
        move: a verdict), ``InvalidInput`` (cards of the move that cannot exist) or
        :class:`~.idempotency.IdempotencyKeyReused`.
        """
        caller.require_seat(move.seat, "$.move.seat")
        if caller.instance is not None:
            if instance is not None and instance != caller.instance:
                raise Unauthorized("the instance sent is not the one this token belongs to")
            instance = caller.instance
        key = idempotency_key
        print_ = idempotency.fingerprint(move, version, instance) if key is not None else ""
        last = self._recent.get(table_id, version)
        if last is not None and (instance is None or last.instance == instance):
            start = perf_counter()
            applied = _try(last.snapshot, move)
            if applied is not None:
                seconds = perf_counter() - start
                snapshot, events = applied
                logged = _numbered(events, last.last_seq, version + 1)
                result = await self.store.compare_and_set(
                    table_id,
                    version,
                    _encode(snapshot),
                    written_as=last.token,
                    events=[_encode(event) for event in logged],
                    remember=_record(key, print_, last.instance, version + 1, logged),
                )
                if isinstance(result, CasOk):
                    self._observe_move(None, seconds)
                    return self._moved(table_id, caller, result, last.instance, snapshot, logged)
                if isinstance(result, CasRemembered):
                    return await self._replay(table_id, caller, print_, result.record)
            self._recent.forget(table_id)  # someone else wrote, or the move needs the stored state
        stored = await self.store.get(table_id, remembered_as=key)
        if stored is None:
            raise TableNotFound(table_id)
        _require_instance(caller, stored.instance)
        if stored.remembered is not None:
            return await self._replay(table_id, caller, print_, stored.remembered)
        if instance is not None and stored.instance != instance:
            raise VersionConflict(stored.version, version, replaced=True)
        if stored.version != version:
            raise VersionConflict(stored.version, version)
        try:
            snapshot, events = self._judge(_decode_snapshot(stored.snapshot), move)
        except MoveRefused as refusal:
            if key is not None:
                record = idempotency.refused(print_, stored.instance, refusal.reason)
                kept = await self.store.remember(table_id, stored.instance, key, record)
                if kept is not None and kept != record:  # a racing request answered first
                    return await self._replay(table_id, caller, print_, kept)
            raise
        logged = _numbered(events, stored.last_seq, version + 1)
        match await self.store.compare_and_set(
            table_id,
            version,
            _encode(snapshot),
            instance=stored.instance,
            events=[_encode(event) for event in logged],
            remember=_record(key, print_, stored.instance, version + 1, logged),
        ):
            case CasOk() as result:
                return self._moved(table_id, caller, result, stored.instance, snapshot, logged)
            case CasConflict(current_version=current):
                raise VersionConflict(current, version, replaced=current == version)
            case CasRemembered(record=record):
                return await self._replay(table_id, caller, print_, record)
            case CasMissing():
                raise TableNotFound(table_id)
        raise AssertionError("unreachable")  # pragma: no cover

    def _judge(self, snapshot: Snapshot, move: Move) -> tuple[Snapshot, list[Event]]:
        """The move applied to the stored state: a refusal here is final."""
        start = perf_counter()
        try:
            applied = apply_move(snapshot, move)
        except MoveRefused as refused:
            self._observe_move(refused.reason.code, perf_counter() - start)
            raise
        self._observe_move(None, perf_counter() - start)
        return applied

    def _moved(
        self,
        table_id: str,
        caller: Caller,
        result: CasOk,
        instance: str,
        snapshot: Snapshot,
        events: list[Event],
    ) -> MoveAnswer[View]:
        self._recent.remember(
            table_id, LastWrite(result.version, result.token, instance, result.last_seq, snapshot)
        )
        return MoveAnswer(
            result.version, instance, cut_table(snapshot, caller), cut_events(events, caller)
        )

    async def _replay(
        self, table_id: str, caller: Caller, print_: str, record: bytes
    ) -> MoveAnswer[View]:
        """The answer remembered under the request's key, for this caller."""
        remembered = idempotency.decode_remembered(record)
        if remembered.fingerprint != print_:
            raise idempotency.IdempotencyKeyReused(
                "this Idempotency-Key was used with another request; use a new key per move"
            )
        if remembered.reason is not None:
            raise MoveRefused(remembered.reason)
        *_, snapshot = await self._stored(table_id, caller)
        assert remembered.version is not None
        return MoveAnswer(
            remembered.version,
            remembered.instance,
            cut_table(snapshot, caller),
            cut_events(remembered.events, caller),
            replayed=True,
        )


def _logged(logged: LoggedEvent) -> Event:
    """A logged event as clients see it: with its ``seq`` and the ``version`` of its write."""
    event = _decode_event(logged.data)
    return msgspec.structs.replace(event, seq=logged.seq, version=logged.version)


def _numbered(events: list[Event], last_seq: int, version: int) -> list[Event]:
    """The events as the log keeps them: each with its ``seq`` and the version it produced."""
    return [
        msgspec.structs.replace(event, seq=last_seq + n, version=version)
        for n, event in enumerate(events, start=1)
    ]


def _record(
    key: str | None, print_: str, instance: str, version: int, events: list[Event]
) -> tuple[str, bytes] | None:
    if key is None:
        return None
    return key, idempotency.committed(print_, instance, version, events)


def _try(snapshot: Snapshot, move: Move) -> tuple[Snapshot, list[Event]] | None:
    """The move applied to remembered state, or ``None`` when that state refuses it or cannot
    judge it (then it is judged on the stored state)."""
    try:
        return apply_move(snapshot, move)
    except (MoveRefused, InvalidInput):
        return None


def _require_instance(caller: Caller, instance: str) -> None:
    """A token of an earlier instance of the table (deleted and created again) is refused."""
    if caller.instance is not None and caller.instance != instance:
        raise Unauthorized("this token belongs to an earlier instance of the table")
