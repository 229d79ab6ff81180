"""The table service: reads, judges, writes and follows live tables for a caller (docs/clients.md,
"Live tables"). One per process, over the process's store.

It is a face over four parts, each in its own module, and says for each route who may ask and
what the write is:

* reads and views (:mod:`.reads`): the table, a seat's view, legal moves, the log, the audit,
  the stream of changes, each cut to the caller (:mod:`.views`);
* the write loop (:mod:`.writes`): every change of a table — a move, 托管, a seat leaving, a bot,
  the next deal, the clock, a clock running out, a token rotation — is one
  :class:`~.writes.WriteRequest`, judged on the version the client saw (409), refused with a
  reason when the rules refuse it (422: nothing changes), and committed with an atomic
  compare-and-set with its events and the answer under the client's idempotency key; a dry run
  (:meth:`TableService.check`) is the same judgement without the commit;
* tokens (:mod:`.tokens`): a rotation is a write that grows the seat's generation;
* scheduling (:mod:`.scheduling`, :mod:`.clock`): the deadline and webhook indexes around each
  write, the clock task that applies the timeouts falling due and goes on with 托管's
  play-outs, and bot moves woken at their time.

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
from ..bots.thinkers import Thinkers
from ..engine import Move, MoveRefused, SeatView, Snapshot, validate_snapshot
from ..records import DealRecord
from ..store import TableStore
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
from .audit import AuditReport
from .callers import Authority, Caller
from .clock import CLOCK_BATCH, TableClock
from .deal_records import KeptDeals, deal_record, kept_deals
from .dealing import CommittedDeal, add_entropy, own_seat
from .deals import DEFAULT_DEALS_KEPT
from .errors import TableNotFound, WebhooksOff, WebhookUrlRefused
from .feed import TableFeed
from .positions import Position
from .reads import EVENTS_PAGE, TableReads
from .recent_writes import LastWrite, RecentWrites
from .record import Clock, TableRecord, Webhook, encode_record
from .scheduling import Scheduling
from .tokens import Tokens
from .views import View
from .webhook_targets import TargetRefused
from .webhooks import Dispatcher
from .writes import Change, WriteRequest, Writes, numbered

log = logging.getLogger("baohuang.tables")

HEARTBEAT_SECONDS = 15.0
STOP_SECONDS = 2.0
"""How long shutdown waits for the feed, clock and webhook tasks to stop."""

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
        clock: Callable[[], float] = time.time,
        on_timeout: Callable[[], None] | None = None,
        dispatcher: Dispatcher | None = None,
        bot_delay: float = 1.0,
        deals_kept: int = DEFAULT_DEALS_KEPT,
        thinkers: Thinkers | None = None,
    ) -> None:
        """``deals_kept``: finished deals a table keeps a record and a result of
        (``BAOHUANG_DEALS_KEPT``, at least 1). ``thinkers``: the bot worker processes bot
        seats think in, paced (:mod:`baohuang.bots.thinkers`); without them the service has
        its own, unpaced, and stops them when it closes."""
        if deals_kept <= 0:
            raise ValueError("deals_kept must be positive")
        self.deals_kept = deals_kept
        self.store = store
        self.authority = authority
        self.now = clock
        self.dispatcher = dispatcher
        self.bot_delay = bot_delay
        self.feed = feed if feed is not None else TableFeed(store)
        self._observe_move = observe_move
        self.reads = TableReads(store, self.feed, heartbeat_seconds)
        self.scheduling = Scheduling(store, clock)
        recent = recent if recent is not None else RecentWrites()
        self.writes = Writes(store, recent, self.scheduling, clock, deals_kept)
        self.tokens = Tokens(store, self.writes, authority)
        self._own_thinkers = thinkers is None
        self.clock = TableClock(store, clock, self.writes.write, on_timeout, thinkers)
        self.scheduling.time_out = self.clock.time_out
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, *, clock_task: bool = True) -> None:
        """Start following tables and, unless told not to, applying timeouts."""
        if not self._tasks:
            self.scheduling.waking = True
            self._tasks.append(asyncio.create_task(self.feed.run()))
            if clock_task:
                self._tasks.append(asyncio.create_task(self.clock.run_clock()))
                if self.dispatcher is not None:
                    self._tasks.append(asyncio.create_task(self.dispatcher.run()))

    async def close(self) -> None:
        """Stop the background tasks; a task that does not stop in time is left behind, so that
        shutdown is never held up (the process is ending)."""
        self.scheduling.stop()
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            _, pending = await asyncio.wait(self._tasks, timeout=STOP_SECONDS)
            for task in pending:
                log.warning("%s did not stop within %s s", task.get_coro(), STOP_SECONDS)
        self._tasks = []
        await self.clock.stop()
        if self._own_thinkers:
            await self.clock.thinkers.stop()

    # -- reads (:mod:`.reads`) -------------------------------------------------------------------

    async def read(self, table_id: str, caller: Caller) -> TableRead[View]:
        """The table as ``caller`` may see it."""
        return await self.reads.read(table_id, caller)

    async def read_seat(self, table_id: str, seat: int, caller: Caller) -> TableRead[SeatView]:
        """Seat ``seat``'s view, for that seat's token or a platform."""
        return await self.reads.read_seat(table_id, seat, caller)

    async def legal_moves(
        self, table_id: str, caller: Caller, seat: int | None = None
    ) -> TableLegalMoves:
        """The legal moves of ``seat`` on the table as stored (:meth:`.reads.TableReads.
        legal_moves`)."""
        return await self.reads.legal_moves(table_id, caller, seat)

    async def events(
        self, table_id: str, caller: Caller, after: Position | int, limit: int = EVENTS_PAGE
    ) -> EventsPage:
        """Logged events after ``after``, as ``caller`` may see them, or a reset."""
        return await self.reads.events(table_id, caller, after, limit)

    async def kept_deals(self, table_id: str, caller: Caller) -> KeptDeals:
        """The deals the table keeps a record of (:mod:`.deal_records`)."""
        return await kept_deals(self.store, table_id, caller)

    async def deal_record(self, table_id: str, caller: Caller, deal: int) -> DealRecord:
        """Deal ``deal``'s record as ``caller`` may see it (:mod:`.deal_records`)."""
        return await deal_record(self.store, table_id, caller, deal)

    async def audit(self, table_id: str, caller: Caller) -> AuditReport:
        """Replay the finished deals the table keeps and its log (platform only)."""
        return await self.reads.audit(table_id, caller)

    async def follow(
        self, table_id: str, caller: Caller, after: Position | int | None = None
    ) -> AsyncIterator[StreamItem]:
        """The table as it changes (:meth:`.reads.TableReads.follow`)."""
        return await self.reads.follow(table_id, caller, after)

    # -- writes (:mod:`.writes`): who may, and what the change is ------------------------------

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
        await self.reads.role(
            table_id, caller, lambda: caller.require_seat(move.seat, "$.move.seat")
        )
        change: Change = lambda record: flow.play(record, move, self.now())  # noqa: E731
        return await self.writes.dry_run(WriteRequest(table_id, caller, version, change, instance))

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
        await self.reads.role(
            table_id, caller, lambda: caller.require_seat(move.seat, "$.move.seat")
        )
        key = None if idempotency_key is None else idempotency.owned(caller, idempotency_key)
        request = WriteRequest(
            table_id,
            caller,
            version,
            lambda record: self._judged(record, move),
            instance,
            key=key,
            fingerprint=idempotency.fingerprint(move, version, instance or caller.instance),
        )
        return await self.writes.write(request)

    def _judged(self, record: TableRecord, move: Move) -> flow.Change:
        """A seat's move, timed and counted as a verdict (metrics)."""
        start = perf_counter()
        try:
            result = flow.play(record, move, self.now())
        except MoveRefused as refused:
            self._observe_move(refused.reason.code, perf_counter() - start)
            raise
        self._observe_move(None, perf_counter() - start)
        return result

    async def set_trustee(
        self, table_id: str, caller: Caller, seat: int, on: bool, version: int
    ) -> MoveAnswer[View]:
        """T-11: ``seat`` enters (``on``) or leaves 托管."""
        await self.reads.role(table_id, caller, lambda: caller.require_seat(seat, "$.path.seat"))
        change: Change = lambda record: flow.set_trustee(record, seat, on, self.now())  # noqa: E731
        return await self.writes.write(WriteRequest(table_id, caller, version, change))

    async def set_bot(
        self, table_id: str, caller: Caller, seat: int, level: Level | None, version: int
    ) -> MoveAnswer[View]:
        """The platform seats a bot of ``level`` at ``seat``, or (``None``) gives it back."""
        await self.reads.role(
            table_id, caller, lambda: caller.require_platform("seat or remove a bot")
        )
        change: Change = lambda record: flow.set_bot(record, seat, level, self.now())  # noqa: E731
        return await self.writes.write(WriteRequest(table_id, caller, version, change))

    async def leave(
        self, table_id: str, caller: Caller, seat: int, version: int
    ) -> MoveAnswer[View]:
        """S-9: ``seat`` leaves the table and plays on under 托管."""
        await self.reads.role(table_id, caller, lambda: caller.require_seat(seat, "$.path.seat"))
        change: Change = lambda record: flow.leave(record, seat, self.now())  # noqa: E731
        return await self.writes.write(WriteRequest(table_id, caller, version, change))

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
        await self.reads.role(table_id, caller, caller.require_platform)
        kept = self.deals_kept
        change: Change = lambda record: flow.next_deal(  # noqa: E731
            record, seed, self.now(), results_kept=kept, committed=committed, seconds=seconds
        )
        return await self.writes.write(WriteRequest(table_id, caller, version, change))

    async def add_entropy(
        self, table_id: str, caller: Caller, seat: int, entropy: str
    ) -> MoveAnswer[View]:
        """``seat`` adds its entropy to the committed deal being dealt (:mod:`.dealing`)."""
        await self.reads.role(table_id, caller, lambda: own_seat(caller, seat))
        return await add_entropy(self.store, self.writes, self.now, table_id, caller, seat, entropy)

    async def set_clock(
        self, table_id: str, caller: Caller, clock: Clock | None, version: int | None
    ) -> MoveAnswer[View]:
        """Set, change (``clock``) or stop (``None``) the table's clock (platform only), against
        ``version`` (409 when stale), or the table's current version without it: the seat to act
        gets a fresh deadline from this write, and a ``clock`` event says so."""
        await self.reads.role(
            table_id, caller, lambda: caller.require_platform("set a table's clock")
        )
        if version is None:
            stored = await self.store.get(table_id)
            if stored is None:
                raise TableNotFound(table_id)
            version = stored.version
        change: Change = lambda record: flow.set_clock(record, clock, self.now())  # noqa: E731
        answer = await self.writes.write(WriteRequest(table_id, caller, version, change))
        if clock is None:
            await self.store.schedule(table_id, None)  # the index keeps only clocked tables'
        return answer

    async def rotate_token(
        self, table_id: str, caller: Caller, seat: int | None, seen: int | None = None
    ) -> RotatedToken:
        """A new token for ``seat`` (``None``: the spectators), the seat changing hands
        (platform only; :mod:`.tokens`)."""
        await self.reads.role(
            table_id, caller, lambda: caller.require_platform("issue a table's tokens")
        )
        return await self.tokens.rotate(table_id, caller, seat, seen)

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
        when the snapshot contradicts itself. ``bots``: the seats bots play, by seat;
        ``trustee_level``: who plays a seat in 托管 (T-10 when ``None``)."""
        await self.reads.role(table_id, caller, caller.require_platform)
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
        logged = numbered(events, 0, 0, self.now())
        await self.scheduling.before(table_id, record, logged)
        written = await self.store.put(
            table_id, encode_record(record), [encode_record(e) for e in logged]
        )
        self.writes.recent.remember(
            table_id,
            LastWrite(written.version, written.token, written.instance, written.last_seq, record),
        )
        await self.scheduling.after(table_id, record, logged)
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
        await self.reads.role(table_id, caller, caller.require_platform)
        self.writes.recent.forget(table_id)
        await self.store.delete(table_id)
        await self.scheduling.forget(table_id)

    # -- the clock (:mod:`.clock`) --------------------------------------------------------------

    async def run_clock(self) -> None:
        """Apply timeouts as they fall due, for as long as the process runs."""
        await self.clock.run_clock()

    async def tick(self, limit: int = CLOCK_BATCH) -> int:
        """Apply every timeout due now, then every play-out due (:meth:`.clock.TableClock.
        tick`): how many writes were made."""
        return await self.clock.tick(limit)

    async def time_out(self, table_id: str) -> bool:
        """Apply the table's timeout if its deadline passed: whether a write was made."""
        return await self.clock.time_out(table_id)
