"""``/v1/tables``: live tables (docs/clients.md "Live tables"), a few lines per route.

The caller is resolved once by the ``caller`` dependency; the table service does the rest and
answers already cut to the caller; its refusals become problem documents in one place
(:mod:`..problems`).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, delete, get, post, put
from litestar.di import NamedDependency, Provide
from litestar.params import HeaderParameter, PathParameter, QueryParameter
from litestar.types import ASGIApp

from ...bots import Level
from ...engine import Move, PublicView, Seat, SeatView, Snapshot
from ...tables import (
    Caller,
    CreatedTable,
    EventsPage,
    MoveAnswer,
    MoveCheck,
    RotatedToken,
    TableLegalMoves,
    TableRead,
    TableService,
)
from ...tables.audit import AuditReport
from ...tables.deal_records import KeptDeals
from ...tables.dealing import CommittedDeal, Entropy, EntropySeconds
from ...tables.idempotency import IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN
from ...tables.positions import EVENT_ID_PATTERN, Position, parse_position
from ...tables.record import Clock, Webhook
from ..auth import TableId, provide_caller
from ..bodies import BodyDecoder, JSONBody, json_response, read_body
from ..docs import body, created, problems
from ..problems import Problem
from ..stream_slots import StreamSlots, client_address
from ..streams import STREAM_MEDIA_TYPES, stream_response

SeatNumber = Annotated[int, PathParameter(ge=0, le=4, description="T-1: a seat, 0–4")]
Instance = Annotated[
    str,
    msgspec.Meta(
        pattern="^[0-9a-f]{16}$",
        description="The table instance the client saw (from PUT, GET or the ETag): with it, a "
        "move can never land on a table deleted and created again under the same id. Seat and "
        "spectator tokens carry their instance, so their clients may leave it out.",
    ),
]


class BotSeat(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A seat the platform gives to a bot (docs/clients.md "Bots")."""

    seat: Seat
    level: Level


class PutTable(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    snapshot: (
        Annotated[
            Snapshot,
            msgspec.Meta(description="The first deal, as the platform dealt it (or `deal`)"),
        ]
        | None
    ) = None
    deal: (
        Annotated[
            CommittedDeal,
            msgspec.Meta(
                description="The first deal for the service to deal, from a seed it commits to "
                "before any card is dealt, the seats adding entropy (docs/dealing.md); instead "
                "of `snapshot`"
            ),
        ]
        | None
    ) = None
    clock: Clock | None = None
    webhook: Webhook | None = None
    bots: Annotated[list[BotSeat], msgspec.Meta(max_length=5)] = msgspec.field(default_factory=list)
    trustee_level: Annotated[
        Level | None,
        msgspec.Meta(
            description="Who plays a seat in 托管: T-10's move when absent (the rules' default), "
            "or this bot level (played as the heuristic)"
        ),
    ] = None


class PostBot(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    level: Annotated[
        Level | None, msgspec.Meta(description="the bot's level; null: a person plays the seat")
    ]
    version: Annotated[int, msgspec.Meta(ge=1, description="the version the client saw")]


class PostTrustee(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    on: bool
    version: Annotated[int, msgspec.Meta(ge=1, description="the version the client saw")]


class PostLeave(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    version: Annotated[int, msgspec.Meta(ge=1, description="the version the client saw")]


class PostDeal(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    version: Annotated[int, msgspec.Meta(ge=1, description="the version the client saw")]
    seed: Annotated[
        int | None,
        msgspec.Meta(
            description="Deal from this seed (G-4, SplitMix64, taken mod 2^64); when absent, "
            "committed or from a seed the service draws (`committed`)"
        ),
    ] = None
    committed: Annotated[
        bool | None,
        msgspec.Meta(
            description="Dealt by the service from a seed it commits to, the seats adding "
            "entropy (docs/dealing.md); by default as the deal before was. Not with `seed`"
        ),
    ] = None
    entropy_seconds: (
        Annotated[
            EntropySeconds,
            msgspec.Meta(description="A committed deal's window for entropy; default: the last's"),
        ]
        | None
    ) = None


class PostEntropy(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    entropy: Entropy


class PostClock(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    clock: Annotated[
        Clock | None,
        msgspec.Meta(description="The clock to run from now on, or null to stop it"),
    ]
    version: (
        Annotated[
            int,
            msgspec.Meta(
                ge=1,
                description="The version the platform saw (409 otherwise); without it, at "
                "whatever version the table is",
            ),
        ]
        | None
    ) = None


class PostToken(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    version: (
        Annotated[
            int,
            msgspec.Meta(
                ge=1,
                description="The version the platform saw: the token is issued only at it "
                "(409 otherwise); without it, at whatever version the table is",
            ),
        ]
        | None
    ) = None


class PostMove(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    move: Move
    version: Annotated[int, msgspec.Meta(ge=1, description="the version the client saw")]
    instance: Instance | None = None


PUT_TABLE = BodyDecoder(PutTable)
POST_MOVE = BodyDecoder(PostMove)
POST_TRUSTEE = BodyDecoder(PostTrustee)
POST_BOT = BodyDecoder(PostBot)
POST_LEAVE = BodyDecoder(PostLeave)
POST_DEAL = BodyDecoder(PostDeal)
POST_TOKEN = BodyDecoder(PostToken)
POST_CLOCK = BodyDecoder(PostClock)
POST_ENTROPY = BodyDecoder(PostEntropy)

# What each kind of caller gets back, for the OpenAPI document (oneOf, in this order).
TABLE_READS = (TableRead[Snapshot], TableRead[SeatView], TableRead[PublicView])
MOVE_ANSWERS = (MoveAnswer[Snapshot], MoveAnswer[SeatView], MoveAnswer[PublicView])


def _service(request: Request[Any, Any, Any]) -> TableService:
    service: TableService = request.app.state.tables
    return service


async def _token_body(request: Request[Any, Any, Any]) -> PostToken:
    """A token route's body: optional, an empty one meaning ``{}``."""
    raw = await read_body(request)
    return POST_TOKEN.decode(raw) if raw.strip() else PostToken()


def _etag(instance: str, version: int) -> dict[str, str]:
    return {"ETag": f'"{instance}.{version}"'}


class TablesController(Controller):
    path = "/v1/tables/{table_id:str}"
    tags = ["tables"]
    dependencies = {"caller": Provide(provide_caller)}

    @put(
        "/",
        operation_id="createTable",
        opt=body(PUT_TABLE),
        responses={**created(CreatedTable), **problems(400, 401, 403, 413, 422, 503)},
    )
    async def put_table(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> Response[CreatedTable]:
        """Create (201) or replace (200) a table from a snapshot: a new instance, with its five
        seat tokens and a spectator token (platform only); ``ETag`` names the instance and
        version, as a ``GET`` would.

        Instead of ``snapshot``, ``deal`` (``{ruleset, dealer, entropy_seconds}``) has the
        service deal the first deal from a seed it commits to before any card is dealt
        (docs/dealing.md): ``table.dealing.commitment`` shows its SHA-256 to every caller, the
        deal waits in phase ``deal`` while the seats add entropy (``POST
        /seats/{seat}/entropy``), and is dealt when every seat that can add has, or when
        ``entropy_seconds`` have passed; ``deal_over`` reveals the seed.

        ``clock`` starts turn clocks from this ``PUT`` (T-11: a seat whose time runs out is
        played by 托管); to start them later, when every seat is there, ``POST /clock``;
        ``bots`` seats bots (``[{seat, level}]``), which move after ``BAOHUANG_BOT_DELAY_SECONDS``
        through the same write as a timeout; ``trustee_level`` has a bot level play seats in
        托管 instead of T-10;
        ``webhook`` names a URL that receives the chosen event types, signed with
        ``BAOHUANG_WEBHOOK_SECRET`` (``Baohuang-Signature``), at least once (deduplicate on
        ``Baohuang-Delivery``). A URL with credentials, control characters or another scheme, or
        whose host is or resolves to a loopback, private, link-local, metadata or other internal
        address, is 422 ``WEBHOOK_URL_REFUSED`` and the table is left as it was."""
        query = await PUT_TABLE.read(request)
        first = query.snapshot if query.snapshot is not None else query.deal
        if first is None or (query.snapshot is not None and query.deal is not None):
            raise Problem(
                422, "SNAPSHOT_OR_DEAL", "give either a snapshot or a deal, not both, not neither"
            )
        bots: dict[int, Level] = {}
        for index, bot in enumerate(query.bots):
            if bot.seat in bots:
                raise Problem(
                    422,
                    "DUPLICATE_SEAT",
                    f"seat {bot.seat} is given a bot twice",
                    path=f"$.bots[{index}].seat",
                )
            bots[bot.seat] = bot.level
        table, new = await _service(request).create(
            table_id,
            first,
            caller,
            query.clock,
            query.webhook,
            bots=bots,
            trustee_level=query.trustee_level,
        )
        return Response(
            table, status_code=201 if new else 200, headers=_etag(table.instance, table.version)
        )

    @get(
        "/",
        operation_id="getTable",
        opt={"returns": TABLE_READS},
        responses=problems(401, 403, 404, 503),
    )
    async def get_table(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> Response[Any]:
        """The table as the caller may see it: the whole snapshot for a platform, the seat's
        view for a seat token, the public view for a spectator token; ``ETag`` names the
        instance and version."""
        table = await _service(request).read(table_id, caller)
        return Response(table, headers=_etag(table.instance, table.version))

    @delete("/", operation_id="deleteTable", status_code=204, responses=problems(401, 403, 503))
    async def delete_table(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> None:
        """Remove the table (204 whether or not it existed: deleting is idempotent)."""
        await _service(request).delete(table_id, caller)

    @post(
        "/moves",
        operation_id="makeTableMove",
        status_code=200,
        opt={**body(POST_MOVE), "returns": MOVE_ANSWERS},
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def post_move(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        caller: NamedDependency[Caller],
        idempotency_key: Annotated[
            str | None,
            HeaderParameter(
                name="Idempotency-Key",
                required=False,
                min_length=1,
                max_length=IDEMPOTENCY_KEY_MAX,
                pattern=IDEMPOTENCY_KEY_PATTERN,
                description="A client-chosen key, unique per move attempt: printable ASCII "
                "without spaces, at most 255 characters",
            ),
        ] = None,
    ) -> JSONBody:
        """Apply a move against the version the client saw: 409 if stale, 422 (a verdict) if
        illegal; the answer is cut to the caller.

        With an ``Idempotency-Key`` header, a retry of the same request gets the original answer
        (``replayed: true``) even after the table moved on, and the same key with another
        request is 422 ``IDEMPOTENCY_KEY_REUSED``; keys live as long as the table instance."""
        query = await POST_MOVE.read(request)
        answer = await _service(request).move(
            table_id, caller, query.move, query.version, query.instance, idempotency_key
        )
        return json_response(answer)

    @get(
        "/legal-moves",
        operation_id="listTableLegalMoves",
        summary="The caller's legal moves on the live table",
        responses=problems(400, 401, 403, 404, 422, 503),
    )
    async def get_legal_moves(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        caller: NamedDependency[Caller],
        seat: Annotated[
            int | None,
            QueryParameter(
                ge=0,
                le=4,
                description="The seat whose moves to list: a seat token's own (the default for "
                "it; another seat is 403), any for a platform (default: the seat to act)",
            ),
        ] = None,
    ) -> Response[TableLegalMoves]:
        """Every legal move of a seat on the table as stored, in the order of
        ``/v1/moves/legal`` (answers and before-play actions first, then plays once per combo
        shape, cheapest first): a seat token gets its own moves when it is its turn and an
        empty list when it is not (a classic grab out of turn, G-5, aside); a spectator token
        has no moves (403). Following a play, the ``play`` moves are exactly the plays that
        beat the top, cheapest first: a hint (提示) button cycles through them in order.
        ``version`` is the one to send with the move; ``ETag`` names instance and version."""
        moves = await _service(request).legal_moves(table_id, caller, seat)
        return Response(moves, headers=_etag(moves.instance, moves.version))

    @post(
        "/moves/check",
        status_code=200,
        operation_id="checkTableMove",
        summary="Would POST /moves apply this move? A dry run",
        opt=body(POST_MOVE, MoveCheck),
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def check_move(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> JSONBody:
        """The same body as ``POST /moves`` and the same verdict, without a write: 200
        ``legal: true`` when that route would apply the move at ``version``, 200 ``legal:
        false`` with the reason it would refuse it with (the code of its 422); 409 for a stale
        version or instance, 403 for another seat's move, 422 for cards that cannot exist, as
        ``POST /moves``. Nothing is written and no ``Idempotency-Key`` is read or spent."""
        query = await POST_MOVE.read(request)
        answer = await _service(request).check(
            table_id, caller, query.move, query.version, query.instance
        )
        return json_response(answer)

    @get(
        "/events",
        operation_id="listTableEvents",
        opt={"returns": EventsPage, "streams": STREAM_MEDIA_TYPES},
        responses=problems(400, 401, 404, 429, 503),
    )
    async def get_events(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        caller: NamedDependency[Caller],
        after: Annotated[
            str | None,
            QueryParameter(
                pattern=EVENT_ID_PATTERN,
                max_length=84,
                description="The id of the last event the client has (`<seq>.<token>`, or a "
                "bare seq): events after it (a page: default 0; a stream: resume after it "
                "instead of opening with the view). When the log no longer holds it — a "
                "failover rolled the log back, or a new deal began and the finished deal's "
                "events left the log — the answer is a reset with the view as it is. 0 reads "
                "the log from its start: the current deal's first event",
            ),
        ] = None,
        limit: Annotated[
            int, QueryParameter(ge=1, le=1000, description="A page's size at most")
        ] = 500,
        last_event_id: Annotated[
            str | None,
            HeaderParameter(
                name="Last-Event-ID",
                pattern=EVENT_ID_PATTERN,
                max_length=84,
                required=False,
                description="SSE resume: the id of the last event received (`<seq>.<token>`); "
                "a reset when the log no longer holds it",
            ),
        ] = None,
    ) -> ASGIApp:
        """The table's event log, cut to the caller: a page for polling clients and audits, or,
        with ``Accept: text/event-stream`` (Server-Sent Events) or ``application/x-ndjson``, a
        stream: the caller's view first, then each event as it commits (``id`` is its
        ``<seq>.<token>``), a heartbeat every 15 s, a ``reset`` with the view as it now is when a
        failover rolled the log back past what the stream sent, and a ``closed`` event when the
        table is deleted, expires or is replaced. A stream resumes with no gap and no duplicate
        from ``Last-Event-ID`` or ``after``, or is reset when the log no longer holds that
        event. The log holds the current deal: when the next deal starts, the finished deal's
        events leave it (its result stays in ``table.results``), and a reader behind them is
        reset."""
        service = _service(request)
        media = request.accept.best_match(["application/json", *STREAM_MEDIA_TYPES])
        resume = (
            last_event_id if last_event_id is not None and media != "application/json" else after
        )
        position = None if resume is None else parse_position(resume)
        if media in STREAM_MEDIA_TYPES:
            slots: StreamSlots = request.app.state.stream_slots
            slot = slots.take(caller, table_id, client_address(request.scope))  # or 429
            try:
                items = await service.follow(table_id, caller, position)
            except BaseException:
                slot.release()
                raise
            return slot.holding(stream_response(items, media, request))
        page = await service.events(table_id, caller, position or Position(0), limit)
        return json_response(page)

    @post(
        "/seats/{seat:int}/trustee",
        operation_id="setSeatTrustee",
        status_code=200,
        opt={**body(POST_TRUSTEE), "returns": MOVE_ANSWERS},
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def post_trustee(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        seat: SeatNumber,
        caller: NamedDependency[Caller],
    ) -> JSONBody:
        """Enter (``on: true``) or leave 托管 (T-11): while in 托管 the seat's every turn is played
        at once by T-10's move. A seat that entered more than three times this deal may not leave
        it (422 ``TRUSTEE_LOCKED``), nor may a seat that left the table (``SEAT_LEFT``)."""
        query = await POST_TRUSTEE.read(request)
        answer = await _service(request).set_trustee(
            table_id, caller, seat, query.on, query.version
        )
        return json_response(answer)

    @post(
        "/seats/{seat:int}/bot",
        status_code=200,
        operation_id="setSeatBot",
        summary="Seat a bot, or give the seat back to a person",
        opt={**body(POST_BOT), "returns": MOVE_ANSWERS},
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def post_bot(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        seat: SeatNumber,
        caller: NamedDependency[Caller],
    ) -> JSONBody:
        """Seat a bot of ``level`` (``heuristic`` or ``search``) at the seat, or give the seat
        back to a person (``level: null``), platform only. A bot seat's turn is played after
        ``BAOHUANG_BOT_DELAY_SECONDS`` from the seat's view alone; ``table.seats[s].bot`` shows
        it to every caller."""
        query = await POST_BOT.read(request)
        answer = await _service(request).set_bot(table_id, caller, seat, query.level, query.version)
        return json_response(answer)

    @post(
        "/seats/{seat:int}/leave",
        operation_id="leaveSeat",
        status_code=200,
        opt={**body(POST_LEAVE), "returns": MOVE_ANSWERS},
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def post_leave(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        seat: SeatNumber,
        caller: NamedDependency[Caller],
    ) -> JSONBody:
        """Leave the table (S-9): under ``lianzhong-*`` a seat that leaves after the first play
        is charged 40 points, reported in ``table.penalties`` apart from the zero-sum scores;
        the seat plays on under 托管 for the rest of the game."""
        query = await POST_LEAVE.read(request)
        answer = await _service(request).leave(table_id, caller, seat, query.version)
        return json_response(answer)

    @post(
        "/deals",
        operation_id="startNextDeal",
        status_code=200,
        opt={**body(POST_DEAL), "returns": MOVE_ANSWERS},
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def post_deal(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> JSONBody:
        """Start the next deal at the table once the last one is over (platform only): dealt
        from the previous emperor's seat (G-4), with tribute under ``tribute`` (P); the last
        deal's result stays in ``table.results`` and ``table.totals``."""
        query = await POST_DEAL.read(request)
        if query.seed is not None and query.committed:
            raise Problem(
                422,
                "SEED_AND_COMMITTED",
                "a committed deal is dealt from the service's seed, not the platform's",
                path="$.committed",
            )
        answer = await _service(request).next_deal(
            table_id, caller, query.version, query.seed, query.committed, query.entropy_seconds
        )
        return json_response(answer)

    @post(
        "/seats/{seat:int}/entropy",
        operation_id="addSeatEntropy",
        status_code=200,
        summary="A seat adds its own entropy to the committed deal being dealt",
        opt={**body(POST_ENTROPY), "returns": MOVE_ANSWERS},
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def post_entropy(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        seat: SeatNumber,
        caller: NamedDependency[Caller],
    ) -> JSONBody:
        """While a committed deal waits in phase ``deal`` (docs/dealing.md), the seat's own
        token adds 1 to 64 bytes of its choosing (hex); the cards are dealt from the committed
        seed and every seat's entropy once each seat that can add has added (a seat that left,
        or a bot, does not), or when the window closes (``table.dealing.closes``) with what was
        given. An ``entropy`` event shows it to every caller. No ``version``: it is added to
        the table as it stands; sending the same entropy again changes nothing; other entropy
        is 422 ``ENTROPY_ADDED``, and once the cards are dealt 422 ``ENTROPY_CLOSED``. Only the
        seat's own token may add it (403 for a platform key)."""
        query = await POST_ENTROPY.read(request)
        answer = await _service(request).add_entropy(table_id, caller, seat, query.entropy)
        return json_response(answer)

    @get(
        "/deals",
        operation_id="listTableDeals",
        summary="The deals whose records the table keeps",
        responses=problems(401, 403, 404, 503),
    )
    async def list_deals(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> KeptDeals:
        """The deals whose records the table keeps, oldest first: the finished ones (the newest
        ``BAOHUANG_DEALS_KEPT``) and the current one, each with how it was dealt, when it
        started and ended, and its result once over. The same for every caller of the table."""
        return await _service(request).kept_deals(table_id, caller)

    @post(
        "/clock",
        operation_id="setTableClock",
        status_code=200,
        summary="Set, change or stop the table's clock (platform only)",
        opt={**body(POST_CLOCK), "returns": MOVE_ANSWERS},
        responses=problems(400, 401, 403, 404, 409, 413, 503),
    )
    async def post_clock(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> JSONBody:
        """Start the table's clock when the deal can really start — every seat's page open —
        rather than at ``PUT``, change it, or stop it (``clock: null``). The seat to act gets a
        fresh deadline from this write (``turn_seconds`` in play, ``before_play_seconds``
        before it; none for a seat in 托管 or once the deal is over) and a ``clock`` event says
        so; stopping removes the deadline (a ``clock`` event with ``seat`` and ``deadline``
        null). A write like any other: ``version`` grows by one, 409 for a stale one."""
        query = await POST_CLOCK.read(request)
        answer = await _service(request).set_clock(table_id, caller, query.clock, query.version)
        return json_response(answer)

    @post(
        "/seats/{seat:int}/token",
        status_code=200,
        operation_id="rotateSeatToken",
        summary="A new token for a seat that changes hands (platform only)",
        opt={**body(POST_TOKEN), "body_optional": True},
        responses=problems(400, 401, 403, 404, 409, 413, 422, 503),
    )
    async def rotate_seat_token(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        seat: SeatNumber,
        caller: NamedDependency[Caller],
    ) -> RotatedToken:
        """Issue a new token for ``seat`` — a player leaves and another takes the seat, or the
        token leaked — and revoke every earlier one at once, on every replica: from the next
        request on it is 401 ``TOKEN_REVOKED`` on every route, and its open streams end with a
        ``closed`` event (``reason: token_revoked``). The table logs a public
        ``token_rotated`` event naming the seat, never the token; it is a write (``version``
        grows by one). The body may be left out; with ``version`` the token is issued only at
        that version (409 otherwise); without it, 409 only when other writes kept winning the
        race: try again."""
        query = await _token_body(request)
        return await _service(request).rotate_token(table_id, caller, seat, query.version)

    @post(
        "/spectator-token",
        status_code=200,
        operation_id="rotateSpectatorToken",
        summary="A new spectator token, revoking the old one (platform only)",
        opt={**body(POST_TOKEN), "body_optional": True},
        responses=problems(400, 401, 403, 404, 409, 413, 503),
    )
    async def rotate_spectator_token(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> RotatedToken:
        """Issue a new spectator token and revoke the old one, as for a seat's token:
        ``token_rotated`` with ``seat: null`` is logged, the old token gets 401
        ``TOKEN_REVOKED`` and its streams close. The body is as for a seat's token."""
        query = await _token_body(request)
        return await _service(request).rotate_token(table_id, caller, None, query.version)

    @get("/audit", operation_id="auditTable", responses=problems(401, 403, 404, 503))
    async def get_audit(
        self, request: Request[Any, Any, Any], table_id: TableId, caller: NamedDependency[Caller]
    ) -> AuditReport:
        """Re-verify the table from its own record alone (platform only): the compact records of
        the finished deals it keeps (``BAOHUANG_DEALS_KEPT``) and the log of the current one.
        Every deal dealt again from its seed (G-4, P), every move replayed, every result and the
        running totals recomputed (S, S-9, S-10, T-11). ``valid: false`` names the first thing
        that is wrong (``seq``: the log's event; ``deal``: the deal). ``first_deal``: the
        earliest deal the table still keeps; the totals of those before it are taken from its
        record."""
        return await _service(request).audit(table_id, caller)

    @get(
        "/seats/{seat:int}",
        operation_id="getTableSeat",
        responses=problems(400, 401, 403, 404, 422, 503),
    )
    async def get_seat(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        seat: SeatNumber,
        caller: NamedDependency[Caller],
    ) -> Response[SeatView]:
        """What ``seat`` may see: its hand, the others' counts, the trick; a hidden guard stays
        hidden (G-8). For that seat's token or a platform."""
        table = await _service(request).read_seat(table_id, seat, caller)
        return Response(table.view, headers=_etag(table.instance, table.version))
