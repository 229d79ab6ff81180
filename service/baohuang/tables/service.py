"""The table service: reads, judges, writes and follows live tables for a caller (docs/clients.md,
"Live tables").

Every write — a seat's move, 托管 asked for or left, a seat leaving, the next deal, a clock
running out — is one change of the :class:`~.record.TableRecord` (:mod:`.flow`), checked
against the version the client saw (409), refused with a reason when the rules refuse it (422:
nothing changes), and written with an atomic compare-and-set of the version and the instance,
with its events appended to the table's log and a move's answer kept under the client's
idempotency key in the same write. So no interleaving of clients, replicas or clocks applies two
writes to one version, loses one, or logs one without the other. Every answer leaves through
:mod:`.views`, cut to the caller.

Skipping the read: a process that made a table's last write keeps that record
(:class:`~.recent_writes.RecentWrites`) and judges the next write on it without reading the
table back; the write then commits only if that write is still the table's last one. Anything
the remembered record refuses, or cannot even judge, is judged again on the stored one: the
memory can save a round trip, never decide a write.

Clocks: after every write the table's deadline is indexed in the store (:meth:`TableStore.due`),
and each process's clock task (:meth:`TableService.run_clock`) applies the timeouts that fall
due, through the same compare-and-set: a late move and its timeout cannot both win.

History: the write that starts the next deal reads the finished deal's events from the log (at
the version it is judged on) and hands the store its compact record (:mod:`.deals`): in the same
compare-and-set the record is kept and the deal's events leave the log. So the log holds the
current deal, a table keeps ``deals_kept`` finished deals' records and results, and the audit
replays them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from time import perf_counter

from msgspec.structs import replace

from ..bots import Level
from ..engine import (
    Event,
    InvalidInput,
    Move,
    MoveRefused,
    SeatView,
    Snapshot,
    TokenRotatedEvent,
    legal_moves_of,
    seat_view,
    validate_snapshot,
)
from ..records import DealRecord
from ..store import (
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    DealEnd,
    StoredTable,
    TableStore,
)
from . import flow, idempotency
from .answers import (
    CreatedTable,
    EventsPage,
    MoveAnswer,
    MoveCheck,
    RotatedToken,
    StreamItem,
    TableLegalMoves,
    TableRead,
)
from .audit import AuditReport, audit_table
from .callers import SPECTATORS, Authority, Caller, Forbidden, Unauthorized
from .clock import ClockDuties, deadline_index
from .deal_records import KeptDeals, deal_record, kept_deals
from .dealing import CommittedDeal, add_entropy
from .deals import DEFAULT_DEALS_KEPT, compact, encode_deal, opens_deal
from .errors import TableNotFound, VersionConflict, WebhooksOff, WebhookUrlRefused
from .feed import TableFeed
from .following import follow_channel, logged_event, read_position
from .positions import Position, event_id, rolled_back
from .recent_writes import LastWrite, RecentWrites
from .record import (
    Clock,
    TableRecord,
    Webhook,
    decode_generations,
    decode_record,
    encode_record,
)
from .views import View, audience_of, cut_events, cut_moves, cut_table
from .webhook_targets import TargetRefused
from .webhooks import Dispatcher

log = logging.getLogger("baohuang.tables")

HEARTBEAT_SECONDS = 15.0
STOP_SECONDS = 2.0
"""How long shutdown waits for the feed, clock and webhook tasks to stop."""
EVENTS_PAGE = 500
FINISHED_PAGE = 2000
"""Events a deal's end reads at a time (a deal played out is ~1,000): one round trip, mostly."""
ROTATE_ATTEMPTS = 8
"""How often a token rotation retries a compare-and-set lost to a racing write."""

ObserveMove = Callable[[str | None, float], None]
"""``observe(reason code or None for legal, engine seconds)`` once per move judged for good."""
Change = Callable[[TableRecord], flow.Change]


def _observe_nothing(code: str | None, seconds: float) -> None:
    """The default hook."""


class TableService(ClockDuties):
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
        clock: Callable[[], float] = time.time,
        on_timeout: Callable[[], None] | None = None,
        dispatcher: Dispatcher | None = None,
        bot_delay: float = 1.0,
        deals_kept: int = DEFAULT_DEALS_KEPT,
    ) -> None:
        """``deals_kept``: finished deals a table keeps a record and a result of
        (``BAOHUANG_DEALS_KEPT``, at least 1)."""
        if deals_kept <= 0:
            raise ValueError("deals_kept must be positive")
        self.deals_kept = deals_kept
        self.store = store
        self.authority = authority
        self._recent = recent if recent is not None else RecentWrites()
        self._observe_move = observe_move
        self._heartbeat = heartbeat_seconds
        self.feed = feed if feed is not None else TableFeed(store)
        self.now = clock
        self._on_timeout = on_timeout
        self.dispatcher = dispatcher
        self.bot_delay = bot_delay
        self._wakes: set[asyncio.TimerHandle | asyncio.Task[bool]] = set()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, *, clock_task: bool = True) -> None:
        """Start following tables and, unless told not to, applying timeouts."""
        if not self._tasks:
            self._tasks.append(asyncio.create_task(self.feed.run()))
            if clock_task:
                self._tasks.append(asyncio.create_task(self.run_clock()))
                if self.dispatcher is not None:
                    self._tasks.append(asyncio.create_task(self.dispatcher.run()))

    async def close(self) -> None:
        """Stop the background tasks; a task that does not stop in time is left behind, so that
        shutdown is never held up (the process is ending)."""
        for wake in self._wakes:
            wake.cancel()
        self._wakes.clear()
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            _, pending = await asyncio.wait(self._tasks, timeout=STOP_SECONDS)
            for task in pending:
                log.warning("%s did not stop within %s s", task.get_coro(), STOP_SECONDS)
        self._tasks = []

    # -- reads ---------------------------------------------------------------------------------

    async def _stored(
        self, table_id: str, caller: Caller
    ) -> tuple[int, str, int, str, TableRecord]:
        """Version, instance, last seq, last event id and record of the table."""
        stored = await self.store.get(table_id)
        if stored is None:
            raise TableNotFound(table_id)
        _require_instance(caller, stored.instance)
        last_id = event_id(stored.last_seq, stored.last_token)
        record = decode_record(stored.snapshot)
        caller.require_current(record.token_generations)
        return stored.version, stored.instance, stored.last_seq, last_id, record

    async def _role(self, table_id: str, caller: Caller, check: Callable[[], None]) -> None:
        """Run a role check (``check`` raises :class:`Forbidden`), but answer a token of an
        earlier instance of the table, or one revoked by a newer token of its seat, 401 first,
        on every route: a 403 would not tell its client to fetch a new token. The table is read only when the check refuses."""
        try:
            check()
        except Forbidden:
            if caller.instance is not None:
                stored = await self.store.get(table_id)
                if stored is not None:
                    _require_instance(caller, stored.instance)
                    caller.require_current(decode_generations(stored.snapshot))
            raise

    async def read(self, table_id: str, caller: Caller) -> TableRead[View]:
        """The table as ``caller`` may see it."""
        version, instance, last_seq, last_id, record = await self._stored(table_id, caller)
        view = cut_table(record.snapshot, caller)
        return TableRead(
            table_id, instance, version, audience_of(view), view, record.table, last_seq, last_id
        )

    async def read_seat(self, table_id: str, seat: int, caller: Caller) -> TableRead[SeatView]:
        """Seat ``seat``'s view, for that seat's token or a platform."""
        await self._role(table_id, caller, lambda: caller.require_seat(seat, "$.path.seat"))
        version, instance, last_seq, last_id, record = await self._stored(table_id, caller)
        view = seat_view(record.snapshot, seat)
        return TableRead(
            table_id, instance, version, audience_of(view), view, record.table, last_seq, last_id
        )

    async def legal_moves(
        self, table_id: str, caller: Caller, seat: int | None = None
    ) -> TableLegalMoves:
        """The legal moves of ``seat`` on the table as stored (:func:`legal_moves_of`): a seat
        token's own (``seat`` defaults to it), any seat's for a platform (defaulting to the
        seat to act, ``None`` once the deal is over); a spectator has none to ask for (403)."""
        asked = seat
        await self._role(table_id, caller, lambda: _may_ask_moves(caller, asked))
        version, instance, _, _, record = await self._stored(table_id, caller)
        snapshot = record.snapshot
        if seat is None:
            if caller.seat is not None:
                seat = caller.seat
            elif snapshot.over:
                return TableLegalMoves(version, instance, None, [])
            else:
                seat = snapshot.turn
        moves = legal_moves_of(snapshot, seat)
        return TableLegalMoves(version, instance, seat, cut_moves(moves, seat, caller))

    async def check(
        self,
        table_id: str,
        caller: Caller,
        move: Move,
        version: int,
        instance: str | None = None,
    ) -> MoveCheck:
        """A dry run of :meth:`move` on the table as stored: the same checks in the same order
        (the seat, the instance, the version, then the rules), the verdict instead of a write.
        Raises what :meth:`move` raises before judging; never writes, never remembers a key."""
        await self._role(table_id, caller, lambda: caller.require_seat(move.seat, "$.move.seat"))
        instance = _instance_meant(caller, instance)
        stored = await self.store.get(table_id)
        if stored is None:
            raise TableNotFound(table_id)
        _require_instance(caller, stored.instance)
        record = decode_record(stored.snapshot)
        caller.require_current(record.token_generations)
        if instance is not None and stored.instance != instance:
            raise VersionConflict(stored.version, version, replaced=True)
        if stored.version != version:
            raise VersionConflict(stored.version, version)
        try:
            flow.play(record, move, self.now())
        except MoveRefused as refused:
            return MoveCheck(False, version, stored.instance, refused.reason)
        return MoveCheck(True, version, stored.instance)

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
        _require_instance(caller, page.instance)
        if page.snapshot is not None:
            caller.require_current(decode_generations(page.snapshot))
        last_id = event_id(page.last_seq, page.last_token)
        if rolled_back(page, after):
            return EventsPage(page.instance, page.version, page.last_seq, [], last_id, reset=True)
        events = [logged_event(logged) for logged in page.events]
        cut = cut_events(events, caller)
        return EventsPage(page.instance, page.version, page.last_seq, cut, last_id)

    async def kept_deals(self, table_id: str, caller: Caller) -> KeptDeals:
        """The deals the table keeps a record of (:mod:`.deal_records`)."""
        return await kept_deals(self.store, table_id, caller)

    async def deal_record(self, table_id: str, caller: Caller, deal: int) -> DealRecord:
        """Deal ``deal``'s record as ``caller`` may see it (:mod:`.deal_records`)."""
        return await deal_record(self.store, table_id, caller, deal)

    async def audit(self, table_id: str, caller: Caller) -> AuditReport:
        """Replay the finished deals the table keeps and its log (platform only): see
        :mod:`.audit`."""
        await self._role(table_id, caller, caller.require_platform)
        await self._stored(table_id, caller)
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

    # -- writes --------------------------------------------------------------------------------

    async def create(
        self,
        table_id: str,
        snapshot: Snapshot | CommittedDeal,
        caller: Caller,
        clock: Clock | None = None,
        webhook: Webhook | None = None,
        bots: dict[int, Level] | None = None,
        trustee_level: Level | None = None,
    ) -> tuple[CreatedTable, bool]:
        """Create or replace the table (a new instance) around its first deal: the answer and
        whether it is new. ``snapshot``: the deal the platform gives, or a
        :class:`CommittedDeal` the service deals, committed (docs/dealing.md). ``InvalidInput``
        when the snapshot contradicts itself. ``bots``: the seats bots play, by seat; ``trustee_level``: who plays
        a seat in 托管 (T-10 when ``None``)."""
        await self._role(table_id, caller, caller.require_platform)
        if webhook is not None and self.dispatcher is None:
            raise WebhooksOff("webhooks need BAOHUANG_WEBHOOK_SECRET set on the service")
        if isinstance(snapshot, CommittedDeal):
            record, events = flow.open_committed(
                snapshot.ruleset,
                snapshot.dealer,
                snapshot.entropy_seconds,
                clock,
                self.now(),
                bots=bots,
                trustee_level=trustee_level,
                bot_delay=self.bot_delay,
            )
        else:
            record, events = flow.open_table(
                validate_snapshot(snapshot),
                clock,
                self.now(),
                bots=bots,
                trustee_level=trustee_level,
                bot_delay=self.bot_delay,
            )
        if webhook is not None and self.dispatcher is not None:
            try:  # after the cheap checks, before anything is written (it may ask DNS)
                await self.dispatcher.targets.check_url(webhook.url)
            except TargetRefused as exc:
                raise WebhookUrlRefused(str(exc)) from None
        record = replace(record, webhook=webhook)
        logged = _numbered(events, 0, 0, self.now())
        await self._index_earlier(table_id, record, logged)
        written = await self.store.put(
            table_id, encode_record(record), [encode_record(e) for e in logged]
        )
        self._recent.remember(
            table_id,
            LastWrite(written.version, written.token, written.instance, written.last_seq, record),
        )
        await self._index(table_id, record)
        self._wake_bot(table_id, record)
        created = CreatedTable(
            id=table_id,
            instance=written.instance,
            version=written.version,
            snapshot=record.snapshot,
            table=record.table,
            seat_tokens=self.authority.seat_tokens(table_id, written.instance),
            spectator_token=self.authority.spectator_token(table_id, written.instance),
        )
        return created, written.created

    async def delete(self, table_id: str, caller: Caller) -> None:
        """Remove the table (idempotent)."""
        await self._role(table_id, caller, caller.require_platform)
        self._recent.forget(table_id)
        await self.store.delete(table_id)
        await self.store.schedule(table_id, None)
        await self.store.schedule(table_id, None, index="playouts")

    async def rotate_token(
        self, table_id: str, caller: Caller, seat: int | None, seen: int | None = None
    ) -> RotatedToken:
        """A new token for ``seat`` (``None``: the spectators), the seat changing hands
        (platform only): the record's generation for it grows by one in a compare-and-set, so
        every earlier token of it is refused from the next request on, on every replica, and
        open streams of it close at the ``token_rotated`` event the write logs. With ``seen``
        (the version the platform saw) it is one compare-and-set at that version, else it
        retries a few times against racing writes."""
        await self._role(
            table_id, caller, lambda: caller.require_platform("issue a table's tokens")
        )
        role = SPECTATORS if seat is None else seat
        version = 0
        for _ in range(ROTATE_ATTEMPTS):
            stored = await self.store.get(table_id)
            if stored is None:
                raise TableNotFound(table_id)
            version, record = stored.version, decode_record(stored.snapshot)
            if seen is not None and seen != version:
                raise VersionConflict(version, seen)
            generations = list(record.token_generations)
            generations[role] += 1
            changed: flow.Change = (
                replace(record, token_generations=generations),
                [TokenRotatedEvent(seat=seat, generation=generations[role])],
            )
            result = await self._commit(
                table_id, stored.version, stored.instance, stored.last_seq, changed, None, "", None
            )
            if isinstance(result, CasMissing):
                raise TableNotFound(table_id)
            if isinstance(result, CasOk):
                self._recent.remember(
                    table_id,
                    LastWrite(
                        result.version, result.token, stored.instance, result.last_seq, changed[0]
                    ),
                )
                token = self.authority.token(table_id, stored.instance, seat, generations[role])
                return RotatedToken(seat, token, generations[role], result.version, stored.instance)
        raise VersionConflict(version, version, raced=True)  # other writes kept winning

    async def move(
        self,
        table_id: str,
        caller: Caller,
        move: Move,
        version: int,
        instance: str | None = None,
        idempotency_key: str | None = None,
    ) -> MoveAnswer[View]:
        """Apply a seat's ``move`` against the ``version`` (and ``instance``, when the client
        sends it or its token carries it) that the client saw.

        Raises :class:`VersionConflict`, :class:`TableNotFound`, ``MoveRefused`` (an illegal
        move: a verdict), ``InvalidInput`` (cards of the move that cannot exist) or
        :class:`~.idempotency.IdempotencyKeyReused`.
        """
        await self._role(table_id, caller, lambda: caller.require_seat(move.seat, "$.move.seat"))
        return await self._write(
            table_id,
            caller,
            version,
            instance,
            lambda record: self._judged(flow.play, record, move),
            None if idempotency_key is None else idempotency.owned(caller, idempotency_key),
            idempotency.fingerprint(move, version, instance or caller.instance),
        )

    async def set_trustee(
        self, table_id: str, caller: Caller, seat: int, on: bool, version: int
    ) -> MoveAnswer[View]:
        """T-11: ``seat`` enters (``on``) or leaves 托管."""
        await self._role(table_id, caller, lambda: caller.require_seat(seat, "$.path.seat"))
        change: Change = lambda record: flow.set_trustee(record, seat, on, self.now())  # noqa: E731
        return await self._write(table_id, caller, version, None, change)

    async def set_bot(
        self, table_id: str, caller: Caller, seat: int, level: Level | None, version: int
    ) -> MoveAnswer[View]:
        """The platform seats a bot of ``level`` at ``seat``, or (``None``) gives it back."""
        await self._role(table_id, caller, lambda: caller.require_platform("seat or remove a bot"))
        change: Change = lambda record: flow.set_bot(record, seat, level, self.now())  # noqa: E731
        return await self._write(table_id, caller, version, None, change)

    async def leave(
        self, table_id: str, caller: Caller, seat: int, version: int
    ) -> MoveAnswer[View]:
        """S-9: ``seat`` leaves the table and plays on under 托管."""
        await self._role(table_id, caller, lambda: caller.require_seat(seat, "$.path.seat"))
        change: Change = lambda record: flow.leave(record, seat, self.now())  # noqa: E731
        return await self._write(table_id, caller, version, None, change)

    async def next_deal(
        self,
        table_id: str,
        caller: Caller,
        version: int,
        seed: int | None,
        committed: bool | None = None,
        seconds: int | None = None,
    ) -> MoveAnswer[View]:
        """The next deal at the table (platform only): from ``seed``, or ``committed``
        (:func:`flow.next_deal`)."""
        await self._role(table_id, caller, caller.require_platform)
        kept = self.deals_kept
        change: Change = lambda record: flow.next_deal(  # noqa: E731
            record, seed, self.now(), results_kept=kept, committed=committed, seconds=seconds
        )
        return await self._write(table_id, caller, version, None, change)

    async def add_entropy(
        self, table_id: str, caller: Caller, seat: int, entropy: str
    ) -> MoveAnswer[View]:
        """``seat`` adds its entropy to the committed deal being dealt (:mod:`.dealing`)."""
        return await add_entropy(self, table_id, caller, seat, entropy)

    async def set_clock(
        self, table_id: str, caller: Caller, clock: Clock | None, version: int | None
    ) -> MoveAnswer[View]:
        """Set, change (``clock``) or stop (``None``) the table's clock (platform only), against
        ``version`` (409 when stale), or the table's current version without it: the seat to act
        gets a fresh deadline from this write, and a ``clock`` event says so."""
        await self._role(table_id, caller, lambda: caller.require_platform("set a table's clock"))
        if version is None:
            stored = await self.store.get(table_id)
            if stored is None:
                raise TableNotFound(table_id)
            version = stored.version
        change: Change = lambda record: flow.set_clock(record, clock, self.now())  # noqa: E731
        answer = await self._write(table_id, caller, version, None, change)
        if clock is None:
            await self.store.schedule(table_id, None)  # _index keeps only clocked tables'
        return answer

    def _judged(
        self,
        change: Callable[[TableRecord, Move, float], flow.Change],
        record: TableRecord,
        move: Move,
    ) -> flow.Change:
        """A seat's move, timed and counted as a verdict (metrics)."""
        start = perf_counter()
        try:
            result = change(record, move, self.now())
        except MoveRefused as refused:
            self._observe_move(refused.reason.code, perf_counter() - start)
            raise
        self._observe_move(None, perf_counter() - start)
        return result

    async def _write(
        self,
        table_id: str,
        caller: Caller,
        version: int,
        instance: str | None,
        change: Change,
        key: str | None = None,
        print_: str = "",
        read: tuple[StoredTable, TableRecord] | None = None,
    ) -> MoveAnswer[View]:
        """Judge ``change`` on the table at ``version`` and commit it (compare-and-set).
        ``read``: the table as the caller has just read and decoded it (the clock does), judged
        on as is rather than read and decoded again; without it, this process's last write of the table saves the
        read, or the table is read. A ``read`` holds no remembered answer: only without
        ``key``."""
        assert read is None or key is None
        instance = _instance_meant(caller, instance)
        last = self._recent.get(table_id, version) if read is None else None
        if last is not None and _predates(last.record, caller):
            last = None  # the token is newer than the record remembered: judge on the store's
        if last is not None and (instance is None or last.instance == instance):
            # generations only grow within an instance: revoked here is revoked for good; a
            # rotation this record does not know yet makes the compare-and-set below fail
            caller.require_current(last.record.token_generations)
            try:
                changed: flow.Change | None = change(last.record)
            except (MoveRefused, InvalidInput):
                changed = None  # judged again on the stored record
            if changed is not None:
                result = await self._commit(
                    table_id,
                    version,
                    last.instance,
                    last.last_seq,
                    changed,
                    key,
                    print_,
                    last.token,
                )
                if isinstance(result, CasOk):
                    return self._moved(table_id, caller, result, last.instance, *changed)
                if isinstance(result, CasRemembered):
                    return await self._replay(table_id, caller, print_, result.record)
            self._recent.forget(table_id)  # someone else wrote, or the change needs the store
        stored = read[0] if read is not None else await self.store.get(table_id, remembered_as=key)
        if stored is None:
            raise TableNotFound(table_id)
        _require_instance(caller, stored.instance)
        on_record = read[1] if read is not None else decode_record(stored.snapshot)
        caller.require_current(on_record.token_generations)
        if stored.remembered is not None:
            return await self._replay(table_id, caller, print_, stored.remembered)
        if instance is not None and stored.instance != instance:
            raise VersionConflict(stored.version, version, replaced=True)
        if stored.version != version:
            raise VersionConflict(stored.version, version)
        try:
            changed = change(on_record)
        except MoveRefused as refusal:
            if key is not None:
                record = idempotency.refused(print_, stored.instance, refusal.reason)
                kept = await self.store.remember(table_id, stored.instance, key, record)
                if kept is not None and kept != record:  # a racing request answered first
                    return await self._replay(table_id, caller, print_, kept)
            raise
        match await self._commit(
            table_id, version, stored.instance, stored.last_seq, changed, key, print_, None
        ):
            case CasOk() as result:
                return self._moved(table_id, caller, result, stored.instance, *changed)
            case CasConflict(current_version=current):
                raise VersionConflict(current, version, replaced=current == version)
            case CasRemembered(record=kept):
                return await self._replay(table_id, caller, print_, kept)
            case CasMissing():
                raise TableNotFound(table_id)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _commit(
        self,
        table_id: str,
        version: int,
        instance: str,
        last_seq: int,
        changed: flow.Change,
        key: str | None,
        print_: str,
        written_as: str | None,
    ) -> CasOk | CasConflict | CasMissing | CasRemembered:
        record, events = changed
        deal_end = None
        if opens_deal(events):
            finished = await self._deal_end(table_id, version, instance, last_seq, record)
            if not isinstance(finished, DealEnd):
                return finished  # the log is not the one judged on: the write would fail
            deal_end = finished
        logged = _numbered(events, last_seq, version + 1, self.now())
        remember = None
        if key is not None:
            remember = (key, idempotency.committed(print_, instance, version + 1, logged))
        await self._index_earlier(table_id, record, logged, deal_end is not None)
        result = await self.store.compare_and_set(
            table_id,
            version,
            encode_record(record),
            written_as=written_as,
            instance=instance,
            events=[encode_record(event) for event in logged],
            remember=remember,
            deal_end=deal_end,
        )
        if isinstance(result, CasOk):
            await self._index(table_id, record)
            self._wake_bot(table_id, record)
            events[:] = logged
        return result

    async def _deal_end(
        self, table_id: str, version: int, instance: str, last_seq: int, record: TableRecord
    ) -> DealEnd | CasConflict | CasMissing:
        """The finished deal's record, made from its events as the log holds them at
        ``version`` (every page is checked to be at it), for the write that starts the next
        deal; ``record`` is the table as that write leaves it (the totals are the finished
        deal's: a new deal changes none)."""
        logged = []
        after = 0
        while True:
            page = await self.store.read_events(table_id, after, FINISHED_PAGE)
            if page is None:
                return CasMissing()
            if page.instance != instance or page.version != version:
                return CasConflict(page.version)
            logged += [entry for entry in page.events if page.recorded < entry.seq <= last_seq]
            if not page.events or page.events[-1].seq >= last_seq:
                break
            after = page.events[-1].seq
        events = [logged_event(entry) for entry in logged]
        finished = compact(record.table.deal - 1, events, record.table)
        return DealEnd(encode_deal(finished), self.deals_kept, webhook=record.webhook is not None)

    def _moved(
        self,
        table_id: str,
        caller: Caller,
        result: CasOk,
        instance: str,
        record: TableRecord,
        events: list[Event],
    ) -> MoveAnswer[View]:
        self._recent.remember(
            table_id, LastWrite(result.version, result.token, instance, result.last_seq, record)
        )
        view = cut_table(record.snapshot, caller)
        logged = [replace(event, id=event_id(event.seq or 0, result.token)) for event in events]
        return MoveAnswer(
            result.version,
            instance,
            audience_of(view),
            view,
            record.table,
            cut_events(logged, caller),
        )

    async def _replay(
        self, table_id: str, caller: Caller, print_: str, kept: bytes
    ) -> MoveAnswer[View]:
        """The answer remembered under the request's key, for this caller: a committed move's
        only once the store confirmed it is as durable as a fresh answer would be (the write
        behind it may have been answered 503 ``OUTCOME_UNKNOWN``: no replica held it then)."""
        remembered = idempotency.decode_remembered(kept)
        if remembered.fingerprint != print_:
            raise idempotency.IdempotencyKeyReused(
                "this Idempotency-Key was used with another request; use a new key per move"
            )
        if remembered.reason is not None:
            raise MoveRefused(remembered.reason)
        await self.store.confirm(table_id, remembered.instance)
        *_, record = await self._stored(table_id, caller)
        assert remembered.version is not None
        view = cut_table(record.snapshot, caller)
        return MoveAnswer(
            remembered.version,
            remembered.instance,
            audience_of(view),
            view,
            record.table,
            cut_events(await self._with_ids(table_id, remembered), caller),
            replayed=True,
        )

    async def _with_ids(self, table_id: str, remembered: idempotency.Remembered) -> list[Event]:
        """A remembered move's events with their ids, read from the log (the record is made
        before its write's token is known); without ids when the log no longer holds them (a
        finished deal's events, trimmed since)."""
        events = remembered.events
        if not events or events[0].seq is None:
            return events
        page = await self.store.read_events(table_id, events[0].seq - 1, len(events))
        if page is None or page.instance != remembered.instance:
            return events
        tokens = {logged.seq: logged.token for logged in page.events}
        if any(event.seq not in tokens for event in events):
            return events  # all or none: never a write's events half with ids
        return [
            replace(event, id=event_id(event.seq or 0, tokens[event.seq or 0])) for event in events
        ]

    async def _index_earlier(
        self, table_id: str, record: TableRecord, logged: list[Event], ends_deal: bool = False
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
        hook = record.webhook
        if hook is not None and (ends_deal or any(_tag(event) in hook.events for event in logged)):
            await self.store.schedule(table_id, self.now(), earlier_only=True, index="webhooks")

    def _wake_bot(self, table_id: str, record: TableRecord) -> None:
        """A bot seat to act moves when its delay ends rather than at the clock's next poll
        (up to 0.2 s later): this process times it out then, through the same compare-and-set
        as the clock, which any replica still does should this one go away. Only while the
        service runs its clock (a test driving time itself ticks by hand)."""
        table = record.table
        if not self._tasks or record.snapshot.over or table.deadline is None:
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
        try:
            return await self.time_out(table_id)
        except Exception as exc:  # the clock's poll applies it instead
            log.warning("bot move for %s left to the clock: %s", table_id, exc)
            return False

    async def _index(self, table_id: str, record: TableRecord) -> None:
        """After a write: the index holds the table's deadline exactly (a play-out's, clock or
        none, in the play-outs' index: :mod:`.clock`)."""
        if flow.playing_out(record):
            await self.store.schedule(table_id, record.table.deadline, index="playouts")
        elif flow.timed(record):
            await self.store.schedule(table_id, record.table.deadline)


def _numbered(events: list[Event], last_seq: int, version: int, at: float) -> list[Event]:
    """The events as the log keeps them: each with its ``seq``, the version it produced, and
    when."""
    return [
        replace(event, seq=last_seq + n, version=version, at=at)
        for n, event in enumerate(events, 1)
    ]


def _tag(event: Event) -> str:
    return str(type(event).__struct_config__.tag)


def _predates(record: TableRecord, caller: Caller) -> bool:
    """Whether ``record`` was written before the caller's token was issued."""
    role = caller.role
    return role is not None and record.token_generations[role] < caller.generation


def _instance_meant(caller: Caller, instance: str | None) -> str | None:
    """The table instance a write is meant for: the token's own (a different one sent with it
    is 401), else what the client sent, if anything."""
    if caller.instance is None:
        return instance
    if instance is not None and instance != caller.instance:
        raise Unauthorized("the instance sent is not the one this token belongs to")
    return caller.instance


def _may_ask_moves(caller: Caller, seat: int | None) -> None:
    """Legal moves: a seat asks for its own, a platform for any seat, a spectator for none."""
    if seat is not None:
        caller.require_seat(seat, "$.query.seat")
    elif caller.kind == "spectator":
        raise Forbidden("a spectator token has no moves to ask for", "$.query.seat")


def _require_instance(caller: Caller, instance: str) -> None:
    """A token of an earlier instance of the table (deleted and created again) is refused."""
    if caller.instance is not None and caller.instance != instance:
        raise Unauthorized("this token belongs to an earlier instance of the table")
