"""``/v1/tables``: live tables held in the store, one winner per race (API.md "Live tables").

A move is checked against the version first (409 with ``current_version``), then for legality
(422 with the reason; nothing changes), then written with an atomic compare-and-set of the
version, so no interleaving of clients or replicas applies two moves to one version or loses one.
"""

from __future__ import annotations

from time import perf_counter
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, delete, get, post, put
from litestar.params import PathParameter

from ...engine.play import MoveRefused, apply_move
from ...engine.snapshot import Event, Move, Snapshot
from ...engine.validation import InvalidInput, validate_snapshot
from ...engine.views import SeatView, seat_view
from ...store import CasConflict, CasMissing, CasOk, TableStore
from ..auth import TableAuth, require_platform, require_seat
from ..docs import body, created, problems
from ..metrics import ENGINE_SECONDS, count_verdict
from ..problems import Problem, invalid_input_problem
from ..recent_writes import LastWrite, RecentWrites
from ..wire import BodyDecoder, JSONBody, json_response

TableId = Annotated[
    str,
    PathParameter(
        pattern=r"^[A-Za-z0-9_.:-]{1,128}$",
        description="A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -",
    ),
]
SeatNumber = Annotated[int, PathParameter(ge=0, le=4, description="T-1: a seat, 0–4")]


class PutTable(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    snapshot: Snapshot


class PostMove(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    move: Move
    version: Annotated[int, msgspec.Meta(ge=1, description="the version the client saw")]


class Table(msgspec.Struct, frozen=True, omit_defaults=True):
    """A table. ``seat_tokens[s]`` (only when it is written by ``PUT``) authorises seat ``s``."""

    id: str
    version: int
    snapshot: Snapshot
    seat_tokens: list[str] | None = None


class MoveApplied(msgspec.Struct, frozen=True):
    version: int
    snapshot: Snapshot
    events: list[Event]


PUT_TABLE = BodyDecoder(PutTable)
POST_MOVE = BodyDecoder(PostMove)
_STORED = msgspec.json.Decoder(Snapshot)
_encode = msgspec.json.Encoder().encode
_MOVE_TIME = ENGINE_SECONDS["table_move"]
_VIEW_TIME = ENGINE_SECONDS["seat_view"]


def _store(request: Request[Any, Any, Any]) -> TableStore:
    store: TableStore = request.app.state.store
    return store


def _recent(request: Request[Any, Any, Any]) -> RecentWrites:
    recent: RecentWrites = request.app.state.recent_writes
    return recent


def _auth(request: Request[Any, Any, Any]) -> TableAuth:
    auth: TableAuth = request.app.state.auth
    return auth


def _not_found(table_id: str) -> Problem:
    return Problem(404, "TABLE_NOT_FOUND", f"there is no table '{table_id}'", path="$.id")


class TablesController(Controller):
    path = "/v1/tables/{table_id:str}"
    tags = ["tables"]

    @put(
        "/",
        opt=body(PUT_TABLE),
        responses={**created(Table), **problems(400, 401, 403, 413, 422, 503)},
    )
    async def put_table(
        self, request: Request[Any, Any, Any], table_id: TableId
    ) -> Response[Table]:
        """Create (201) or replace (200) a table from a snapshot; returns the five seat tokens."""
        require_platform(_auth(request).caller(request.headers.get("authorization"), table_id))
        query = await PUT_TABLE.read(request)
        try:
            snapshot = validate_snapshot(query.snapshot)
        except InvalidInput as error:
            raise invalid_input_problem(error) from None
        written = await _store(request).put(table_id, _encode(snapshot))
        _recent(request).remember(table_id, LastWrite(written.version, written.token, snapshot))
        table = Table(table_id, written.version, snapshot, _auth(request).seat_tokens(table_id))
        return Response(table, status_code=201 if written.created else 200)

    @get("/", responses=problems(401, 403, 404, 503))
    async def get_table(
        self, request: Request[Any, Any, Any], table_id: TableId
    ) -> Response[Table]:
        """The table with every hand (for the platform); ``ETag`` is its version."""
        require_platform(_auth(request).caller(request.headers.get("authorization"), table_id))
        stored = await _store(request).get(table_id)
        if stored is None:
            raise _not_found(table_id)
        table = Table(table_id, stored.version, _STORED.decode(stored.snapshot))
        return Response(table, headers={"ETag": f'"{stored.version}"'})

    @delete("/", status_code=204, responses=problems(401, 403, 503))
    async def delete_table(self, request: Request[Any, Any, Any], table_id: TableId) -> None:
        """Remove the table (204 whether or not it existed: deleting is idempotent)."""
        require_platform(_auth(request).caller(request.headers.get("authorization"), table_id))
        _recent(request).forget(table_id)
        await _store(request).delete(table_id)

    @post(
        "/moves",
        status_code=200,
        opt=body(POST_MOVE, MoveApplied),
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def post_move(self, request: Request[Any, Any, Any], table_id: TableId) -> JSONBody:
        """Apply a move against the version the client saw: 409 if stale, 422 if illegal."""
        caller = _auth(request).caller(request.headers.get("authorization"), table_id)
        query = await POST_MOVE.read(request)
        require_seat(caller, query.move.seat, "$.move.seat")
        store, recent = _store(request), _recent(request)
        last = recent.get(table_id, query.version)
        if last is not None:  # this process wrote the table last: try without reading it back
            applied = _apply(last.snapshot, query.move, refusal_is_final=False)
            if applied is not None:
                result = await store.compare_and_set(
                    table_id, query.version, _encode(applied[0]), written_as=last.token
                )
                if isinstance(result, CasOk):
                    return _moved(recent, table_id, result, *applied)
            recent.forget(table_id)  # someone else wrote, or the move needs the stored state
        stored = await store.get(table_id)
        if stored is None:
            raise _not_found(table_id)
        if stored.version != query.version:
            raise _conflict(stored.version, query.version)
        applied = _apply(_STORED.decode(stored.snapshot), query.move, refusal_is_final=True)
        assert applied is not None  # a refusal on the stored state raised a 422
        match await store.compare_and_set(table_id, query.version, _encode(applied[0])):
            case CasOk() as result:
                return _moved(recent, table_id, result, *applied)
            case CasConflict(current_version=current):
                raise _conflict(current, query.version)
            case CasMissing():
                raise _not_found(table_id)
        raise AssertionError("unreachable")  # pragma: no cover

    @get("/seats/{seat:int}", responses=problems(401, 403, 404, 503))
    async def get_seat(
        self, request: Request[Any, Any, Any], table_id: TableId, seat: SeatNumber
    ) -> Response[SeatView]:
        """What ``seat`` may see: its hand, the others' counts, the trick; a hidden guard stays
        hidden (G-8)."""
        caller = _auth(request).caller(request.headers.get("authorization"), table_id)
        require_seat(caller, seat, "$.seat")
        stored = await _store(request).get(table_id)
        if stored is None:
            raise _not_found(table_id)
        start = perf_counter()
        view = seat_view(_STORED.decode(stored.snapshot), seat)
        _VIEW_TIME.observe(perf_counter() - start)
        return Response(view, headers={"ETag": f'"{stored.version}"'})


def _apply(
    snapshot: Snapshot, move: Move, refusal_is_final: bool
) -> tuple[Snapshot, list[Event]] | None:
    """The move applied (T, B, N/K, G); a refusal is a 422 only when judged on the stored state
    (``refusal_is_final``), else ``None`` so the caller reads the table and judges again."""
    start = perf_counter()
    try:
        applied = apply_move(snapshot, move)
    except MoveRefused as refused:
        if not refusal_is_final:
            return None
        reason = refused.reason
        count_verdict("table_move", reason.code)
        raise Problem(422, reason.code, reason.message, path="$.move", rule=reason.rule) from None
    except InvalidInput as error:  # cards of the move that cannot exist
        raise invalid_input_problem(error) from None
    _MOVE_TIME.observe(perf_counter() - start)
    count_verdict("table_move", None)
    return applied


def _moved(
    recent: RecentWrites, table_id: str, result: CasOk, snapshot: Snapshot, events: list[Event]
) -> JSONBody:
    recent.remember(table_id, LastWrite(result.version, result.token, snapshot))
    return json_response(MoveApplied(result.version, snapshot, events))


def _conflict(current: int, seen: int) -> Problem:
    return Problem(
        409,
        "VERSION_CONFLICT",
        f"the table is at version {current}, not {seen}: re-read it and decide again",
        path="$.version",
        current_version=current,
    )
