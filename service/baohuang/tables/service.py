"""The table service: reads, judges and writes live tables for a caller (API.md "Live tables").

A move is checked against the version first (409), then for legality (an illegal move is the
engine's ``MoveRefused``: nothing changes), then written with an atomic compare-and-set of the
version and the instance, so no interleaving of clients or replicas applies two moves to one
version or loses one. Every answer leaves through :mod:`.views`, cut to the caller.

Skipping the read: a process that made a table's last write keeps that state
(:class:`~.recent_writes.RecentWrites`) and judges the next move on it without reading the table
back; the write then commits only if that write is still the table's last one. Anything the
remembered state refuses, or cannot even judge (the table may have been created again with
another ruleset), is judged again on the stored state: the memory can save a round trip, never
decide a move.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
from typing import Generic, TypeVar

import msgspec

from ..engine.play import MoveRefused, apply_move
from ..engine.snapshot import Event, Move, Snapshot
from ..engine.validation import InvalidInput, validate_snapshot
from ..engine.views import PublicView, SeatView, seat_view
from ..store import CasConflict, CasMissing, CasOk, TableStore
from .callers import Authority, Caller, Unauthorized
from .errors import TableNotFound, VersionConflict
from .recent_writes import LastWrite, RecentWrites
from .views import View, cut_events, cut_table

V = TypeVar("V", bound=Snapshot | PublicView)

_decode_snapshot = msgspec.json.Decoder(Snapshot).decode
_encode = msgspec.json.Encoder().encode


class CreatedTable(msgspec.Struct, frozen=True):
    """A table just written by ``PUT``, with the tokens of its instance: ``seat_tokens[s]``
    acts for seat ``s``, ``spectator_token`` reads the public view."""

    id: str
    instance: str
    version: int
    snapshot: Snapshot
    seat_tokens: list[str]
    spectator_token: str


class TableRead(msgspec.Struct, Generic[V], frozen=True):
    """A table as its caller may see it: the whole snapshot (platform), a seat view (seat
    token) or the public view (spectator token)."""

    id: str
    instance: str
    version: int
    view: V


class MoveAnswer(msgspec.Struct, Generic[V], frozen=True):
    """A committed move: the version it produced, the table after it and its events, cut to the
    caller like every answer."""

    version: int
    instance: str
    view: V
    events: list[Event]


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
    ) -> None:
        self.store = store
        self.authority = authority
        self._recent = recent if recent is not None else RecentWrites()
        self._observe_move = observe_move

    # -- reads ---------------------------------------------------------------------------------

    async def _stored(self, table_id: str, caller: Caller) -> tuple[int, str, Snapshot]:
        stored = await self.store.get(table_id)
        if stored is None:
            raise TableNotFound(table_id)
        _require_instance(caller, stored.instance)
        return stored.version, stored.instance, _decode_snapshot(stored.snapshot)

    async def read(self, table_id: str, caller: Caller) -> TableRead[View]:
        """The table as ``caller`` may see it."""
        version, instance, snapshot = await self._stored(table_id, caller)
        return TableRead(table_id, instance, version, cut_table(snapshot, caller))

    async def read_seat(self, table_id: str, seat: int, caller: Caller) -> TableRead[SeatView]:
        """Seat ``seat``'s view, for that seat's token or a platform."""
        caller.require_seat(seat, "$.seat")
        version, instance, snapshot = await self._stored(table_id, caller)
        return TableRead(table_id, instance, version, seat_view(snapshot, seat))

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
            table_id, LastWrite(written.version, written.token, written.instance, snapshot)
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
    ) -> MoveAnswer[View]:
        """Apply ``move`` against the ``version`` (and ``instance``, when the client sends it
        or its token carries it) that the client saw.

        Raises :class:`VersionConflict`, :class:`TableNotFound`, ``MoveRefused`` (an illegal
        move: a verdict) or ``InvalidInput`` (cards of the move that cannot exist).
        """
        caller.require_seat(move.seat, "$.move.seat")
        if caller.instance is not None:
            if instance is not None and instance != caller.instance:
                raise Unauthorized("the instance sent is not the one this token belongs to")
            instance = caller.instance
        recent = self._recent
        last = recent.get(table_id, version)
        if last is not None and (instance is None or last.instance == instance):
            start = perf_counter()
            applied = _try(last.snapshot, move)
            if applied is not None:
                seconds = perf_counter() - start
                result = await self.store.compare_and_set(
                    table_id, version, _encode(applied[0]), written_as=last.token
                )
                if isinstance(result, CasOk):
                    self._observe_move(None, seconds)
                    return self._moved(table_id, caller, result, last.instance, *applied)
            recent.forget(table_id)  # someone else wrote, or the move needs the stored state
        stored = await self.store.get(table_id)
        if stored is None:
            raise TableNotFound(table_id)
        _require_instance(caller, stored.instance)
        if instance is not None and stored.instance != instance:
            raise VersionConflict(stored.version, version, replaced=True)
        if stored.version != version:
            raise VersionConflict(stored.version, version)
        snapshot, events = self._judge(_decode_snapshot(stored.snapshot), move)
        match await self.store.compare_and_set(
            table_id, version, _encode(snapshot), instance=stored.instance
        ):
            case CasOk() as result:
                return self._moved(table_id, caller, result, stored.instance, snapshot, events)
            case CasConflict(current_version=current):
                raise VersionConflict(current, version, replaced=current == version)
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
        self._recent.remember(table_id, LastWrite(result.version, result.token, instance, snapshot))
        return MoveAnswer(
            result.version, instance, cut_table(snapshot, caller), cut_events(events, caller)
        )


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
