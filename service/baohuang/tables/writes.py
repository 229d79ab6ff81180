"""The write loop: every change of a table — a seat's move, 托管 asked for or left, a seat
leaving, a bot seated, the next deal, the clock, a token rotation, a clock running out — and the
dry run of a move, which is a write that does not commit.

A write is a :class:`WriteRequest`: the table, the caller, the version (and instance) the client
saw, the change (a function of :mod:`.flow` over the :class:`~.record.TableRecord`), and for a
move its idempotency key. :meth:`Writes.write` reads it like this, top to bottom:

1. the table to judge on (:class:`Basis`): this process's last write of the table when it made
   it at that version (:class:`~.recent_writes.RecentWrites`: a read saved), else the store's
   (with the answer remembered under the key, read in the same round trip);
2. a remembered answer is given again (:meth:`Writes._replay`), confirmed where its write lives;
3. the one judgement shared with the dry run (:meth:`Writes.judge`): the instance and the
   version the client saw (409), then the change (422 ``MoveRefused``: nothing changes, a
   keyed refusal is remembered);
4. the compare-and-set (:meth:`Writes._commit`) of the version, the instance and — judged on
   this process's memory — the token of the write judged on, with the events appended to the log
   and the answer remembered under the key in the same atomic write; a write that starts the
   next deal keeps the finished deal's record and trims its events (:mod:`.deals`);
5. the answer, cut to the caller (:mod:`.views`).

So no interleaving of clients, replicas or clocks applies two writes to one version, loses one,
or logs one without the other; the memory of this process's writes can save a round trip, never
decide a write.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from msgspec.structs import replace

from ..engine import Event, InvalidInput, MoveRefused
from ..store import (
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    CasResult,
    DealEnd,
    StoredTable,
    StoreOutcomeUnknown,
    TableStore,
)
from . import flow, idempotency
from .answers import MoveAnswer, MoveCheck
from .callers import Caller
from .deals import compact, encode_deal, opens_deal
from .errors import TableNotFound, VersionConflict
from .following import logged_event
from .positions import event_id
from .reads import instance_meant, read_stored, require_instance
from .recent_writes import LastWrite, RecentWrites
from .record import TableRecord, decode_record, encode_record
from .scheduling import Scheduling
from .views import View, audience_of, cut_events, cut_table

FINISHED_PAGE = 2000
"""Events a deal's end reads at a time (a deal played out is ~1,000): one round trip, mostly."""

Change = Callable[[TableRecord], flow.Change]
"""A write's change of the table: the new record and the events, or ``MoveRefused``."""


@dataclass(frozen=True, slots=True)
class WriteRequest:
    """One write, as the caller asked for it."""

    table_id: str
    caller: Caller
    version: int
    """The version the client saw: the write is judged at it, and committed only there."""
    change: Change
    instance: str | None = None
    """The instance the client saw (its token's, when the token carries one)."""
    key: str | None = None
    """An idempotency key, as the store keeps it (:func:`.idempotency.owned`)."""
    fingerprint: str = ""
    """The request as far as the answer depends on it (:func:`.idempotency.fingerprint`)."""
    read: tuple[StoredTable, TableRecord] | None = None
    """The table as the caller has just read and decoded it (the clock does): judged on as
    is, neither read nor decoded again. Holds no remembered answer: only without ``key``."""


class Basis(NamedTuple):
    """The table a write is judged on: as the store holds it, or as this process wrote it last
    (then ``written_as`` is that write's token, which the compare-and-set requires)."""

    version: int
    instance: str
    last_seq: int
    record: TableRecord
    written_as: str | None = None


class Writes:
    """The write loop of the table service (see the module docstring)."""

    def __init__(
        self,
        store: TableStore,
        recent: RecentWrites,
        scheduling: Scheduling,
        now: Callable[[], float],
        deals_kept: int,
    ) -> None:
        self.store = store
        self.recent = recent
        self.scheduling = scheduling
        self.now = now
        self.deals_kept = deals_kept

    async def write(self, request: WriteRequest) -> MoveAnswer[View]:
        """Judge the request's change on the table at its version and commit it."""
        assert request.read is None or request.key is None
        meant = instance_meant(request.caller, request.instance)
        last = self._last_write(request, meant)
        if last is not None:
            changed = self._judged_on_memory(request, last)
            if changed is not None:
                result = await self._commit(request, last, changed)
                if isinstance(result, CasOk):
                    return self._moved(request, last.instance, result, changed)
                if isinstance(result, CasRemembered):
                    return await self._replay(request, result.record)
            self.recent.forget(request.table_id)  # another write, or the change needs the store
        basis, remembered = await self._basis(request)
        if remembered is not None:
            return await self._replay(request, remembered)
        try:
            changed = self.judge(request, meant, basis)
        except MoveRefused as refusal:
            raced = await self._remember_refusal(request, basis, refusal)
            if raced is not None:
                return raced
            raise
        match await self._commit(request, basis, changed):
            case CasOk() as result:
                return self._moved(request, basis.instance, result, changed)
            case CasConflict(current_version=current):
                raise VersionConflict(current, request.version, replaced=current == request.version)
            case CasRemembered(record=kept):
                return await self._replay(request, kept)
            case CasMissing():
                raise TableNotFound(request.table_id)
        raise AssertionError("unreachable")  # pragma: no cover

    async def dry_run(self, request: WriteRequest) -> MoveCheck:
        """The write judged on the table as stored, the verdict instead of a commit: the same
        checks in the same order (the instance, the version, then the change). Raises what
        :meth:`write` raises before judging; never writes, never remembers a key."""
        assert request.key is None
        meant = instance_meant(request.caller, request.instance)
        basis, _ = await self._basis(request)
        try:
            self.judge(request, meant, basis)
        except MoveRefused as refused:
            return MoveCheck(False, request.version, basis.instance, refused.reason)
        return MoveCheck(True, request.version, basis.instance)

    def judge(self, request: WriteRequest, meant: str | None, basis: Basis) -> flow.Change:
        """The judgement of a write and of its dry run: the table must be the instance meant
        (``meant``: :func:`.reads.instance_meant`) at the version the client saw, then the
        change decides (``MoveRefused`` with the reason, ``InvalidInput``)."""
        if meant is not None and basis.instance != meant:
            raise VersionConflict(basis.version, request.version, replaced=True)
        if basis.version != request.version:
            raise VersionConflict(basis.version, request.version)
        return request.change(basis.record)

    def _last_write(self, request: WriteRequest, meant: str | None) -> Basis | None:
        """This process's last write of the table, when it made it at the request's version
        (and instance), and the caller's token is no newer than it."""
        if request.read is not None:
            return None
        last = self.recent.get(request.table_id, request.version)
        if last is None or _predates(last.record, request.caller):
            return None  # none, or the token is newer than the record remembered
        if meant is not None and last.instance != meant:
            return None
        return Basis(last.version, last.instance, last.last_seq, last.record, last.token)

    def _judged_on_memory(self, request: WriteRequest, last: Basis) -> flow.Change | None:
        """The change judged on this process's last write, or ``None`` to judge it again on the
        stored table (a refusal, or cards that cannot exist: the memory never decides)."""
        # generations only grow within an instance: revoked here is revoked for good; a
        # rotation this record does not know yet makes the compare-and-set fail
        request.caller.require_current(last.record.token_generations)
        try:
            return request.change(last.record)
        except (MoveRefused, InvalidInput):
            return None

    async def _basis(self, request: WriteRequest) -> tuple[Basis, bytes | None]:
        """The table as the store holds it (or as the request carries it), for a caller whose
        token must be of its instance and current; and the answer remembered under the key."""
        if request.read is not None:
            stored, record = request.read
        else:
            found = await self.store.get(request.table_id, remembered_as=request.key)
            if found is None:
                raise TableNotFound(request.table_id)
            stored, record = found, decode_record(found.snapshot)
        require_instance(request.caller, stored.instance)
        request.caller.require_current(record.token_generations)
        basis = Basis(stored.version, stored.instance, stored.last_seq, record)
        return basis, stored.remembered

    async def _remember_refusal(
        self, request: WriteRequest, basis: Basis, refusal: MoveRefused
    ) -> MoveAnswer[View] | None:
        """A keyed refusal is remembered (it changed nothing, so it needs no replica); when a
        racing request with the key answered first, that answer is given instead."""
        if request.key is None:
            return None
        record = idempotency.refused(request.fingerprint, basis.instance, refusal.reason)
        kept = await self.store.remember(request.table_id, basis.instance, request.key, record)
        if kept is not None and kept != record:
            return await self._replay(request, kept)
        return None

    async def _commit(self, request: WriteRequest, basis: Basis, changed: flow.Change) -> CasResult:
        """The compare-and-set of ``changed`` on ``basis``, its indexes around it."""
        record, events = changed
        deal_end = None
        if opens_deal(events):
            finished = await self._deal_end(request.table_id, basis, record)
            if not isinstance(finished, DealEnd):
                return finished  # the log is not the one judged on: the write would fail
            deal_end = finished
        logged = numbered(events, basis.last_seq, basis.version + 1, self.now())
        remember = None
        if request.key is not None:
            answer = idempotency.committed(
                request.fingerprint, basis.instance, basis.version + 1, logged
            )
            remember = (request.key, answer)
        await self.scheduling.before(request.table_id, record, logged, deal_end is not None)
        result = await self.store.compare_and_set(
            request.table_id,
            basis.version,
            encode_record(record),
            written_as=basis.written_as,
            instance=basis.instance,
            events=[encode_record(event) for event in logged],
            remember=remember,
            deal_end=deal_end,
        )
        if isinstance(result, CasOk):
            await self.scheduling.after(request.table_id, record, logged, deal_end is not None)
            events[:] = logged
        return result

    async def _deal_end(
        self, table_id: str, basis: Basis, record: TableRecord
    ) -> DealEnd | CasConflict | CasMissing:
        """The finished deal's record, made from its events as the log holds them at the
        basis's version (every page is checked to be at it), for the write that starts the
        next deal; ``record`` is the table as that write leaves it (the totals are the finished
        deal's: a new deal changes none)."""
        logged = []
        after = 0
        while True:
            page = await self.store.read_events(table_id, after, FINISHED_PAGE)
            if page is None:
                return CasMissing()
            if page.instance != basis.instance or page.version != basis.version:
                return CasConflict(page.version)
            logged += [
                entry for entry in page.events if page.recorded < entry.seq <= basis.last_seq
            ]
            if not page.events or page.events[-1].seq >= basis.last_seq:
                break
            after = page.events[-1].seq
        events = [logged_event(entry) for entry in logged]
        finished = compact(record.table.deal - 1, events, record.table)
        return DealEnd(encode_deal(finished), self.deals_kept, webhook=record.webhook is not None)

    def _moved(
        self, request: WriteRequest, instance: str, result: CasOk, changed: flow.Change
    ) -> MoveAnswer[View]:
        """The committed write's answer, and this process's memory of it."""
        record, events = changed
        self.recent.remember(
            request.table_id,
            LastWrite(result.version, result.token, instance, result.last_seq, record),
        )
        view = cut_table(record.snapshot, request.caller)
        logged = [replace(event, id=event_id(event.seq or 0, result.token)) for event in events]
        return MoveAnswer(
            result.version,
            instance,
            audience_of(view),
            view,
            record.table,
            cut_events(logged, request.caller),
        )

    async def _replay(self, request: WriteRequest, kept: bytes) -> MoveAnswer[View]:
        """The answer remembered under the request's key (``kept``, as the store was found to
        hold it), for this caller. A refusal changed nothing: it is given again as it is. A
        committed move's answer only from where its write lives: the store reads the record
        again where it proves it holds it, and returns once it is as durable as a fresh answer
        would be (:meth:`TableStore.replay`: the write may have been answered 503
        ``OUTCOME_UNKNOWN``, and a failover since it was found may have taken it); its events
        must be in the log, or in a finished deal's record (trimmed from it)."""
        remembered = self._remembered_answer(request, kept)
        if remembered.version is not None:
            assert request.key is not None  # a record is kept only under a key
            kept = await self.store.replay(request.table_id, request.key)
            remembered = self._remembered_answer(request, kept)
        if remembered.reason is not None:
            raise MoveRefused(remembered.reason)
        assert remembered.version is not None
        events = await self._logged(request.table_id, remembered)
        record = (await read_stored(self.store, request.table_id, request.caller)).record
        view = cut_table(record.snapshot, request.caller)
        return MoveAnswer(
            remembered.version,
            remembered.instance,
            audience_of(view),
            view,
            record.table,
            cut_events(events, request.caller),
            replayed=True,
        )

    @staticmethod
    def _remembered_answer(request: WriteRequest, kept: bytes) -> idempotency.Remembered:
        remembered = idempotency.decode_remembered(kept)
        if remembered.fingerprint != request.fingerprint:
            raise idempotency.IdempotencyKeyReused(
                "this Idempotency-Key was used with another request; use a new key per move"
            )
        return remembered

    async def _logged(self, table_id: str, remembered: idempotency.Remembered) -> list[Event]:
        """A remembered move's events as the log holds them, with their ids (the record is made
        before its write's token is known). Without ids when the log no longer holds them all: a
        finished deal's events (trimmed since; its record keeps them), or a table deleted or
        replaced since. Any other event of the move missing from the log, or another event in
        its place: :class:`StoreOutcomeUnknown` — never a 200 for a move the log does not
        hold."""
        events = remembered.events
        if not events or events[0].seq is None:
            return events
        page = await self.store.read_events(table_id, events[0].seq - 1, len(events))
        if page is None or page.instance != remembered.instance:
            return events  # deleted or replaced since the move was confirmed
        logged = {entry.seq: entry for entry in page.events}
        for event in events:
            entry = logged.get(event.seq or 0)
            if entry is None and (event.seq or 0) <= page.trimmed:
                continue  # a finished deal's, trimmed from the log
            if entry is None or replace(logged_event(entry), id=None) != event:
                raise StoreOutcomeUnknown(
                    f"{table_id}: the remembered move's event {event.seq} is not in the log"
                )
        if any(event.seq not in logged for event in events):
            return events  # all or none: never a write's events half with ids
        return [
            replace(event, id=event_id(event.seq or 0, logged[event.seq or 0].token))
            for event in events
        ]


def numbered(events: list[Event], last_seq: int, version: int, at: float) -> list[Event]:
    """The events as the log keeps them: each with its ``seq``, the version it produced, and
    when."""
    return [
        replace(event, seq=last_seq + n, version=version, at=at)
        for n, event in enumerate(events, 1)
    ]


def _predates(record: TableRecord, caller: Caller) -> bool:
    """Whether ``record`` was written before the caller's token was issued."""
    role = caller.role
    return role is not None and record.token_generations[role] < caller.generation
