"""The app factory: controllers, problem documents, metrics and the lifespan, wired in one place."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Controller, Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import License, Tag

from .. import __version__
from ..bots.thinkers import Thinkers
from ..logs import configure_logging
from ..store import open_store
from ..tables import Authority, TableService
from ..tables.clock import BOT_SEAT_SEARCHES
from ..tables.feed import TableFeed
from ..tables.webhook_targets import Targets
from ..tables.webhooks import Dispatcher, http_sender
from .access import AccessLog
from .bodies import JSONRequest
from .bounds import RequestBounds
from .controllers.bots import BotsController
from .controllers.combos import CombosController
from .controllers.deal import DealController
from .controllers.deal_records import DealRecordsController
from .controllers.health import HealthController
from .controllers.moves import MovesController
from .controllers.play import PlayController
from .controllers.problem_pages import ProblemPagesController
from .controllers.rulesets import RulesetsController
from .controllers.tables import TablesController
from .cors import cors_config, quiet_refusals
from .docs import document_request_bodies
from .metrics import (
    WORKER_SECONDS,
    HttpMetrics,
    count_timeout,
    observe_delivery,
    observe_followers,
    observe_store,
    observe_table_move,
    publish_requests,
)
from .problems import EXCEPTION_HANDLERS, problem_details_plugin
from .ratelimit import RateLimits
from .reference import ReferenceAssetsController, render_plugin
from .replica_check import ReplicaCheck
from .settings import Settings
from .stream_slots import StreamLimits, StreamSlots, stream_capacity
from .suggestions import Suggestions

DESCRIPTION = """\
The rules referee for 保皇 (Baohuang): is a combo legal, does it beat the top play (normal rules
or 烤牌), is a move legal in a deal and what follows, which moves are legal, what every seat
scores. Rule ids (`N-2`, `K-6`, …) refer to docs/rules.md. A "no" is a 200 verdict with a `reason`;
input the referee cannot judge is a 4xx RFC 9457 problem document naming the field.

Request bodies are JSON in UTF-8, sent with `Content-Type: application/json` (any
`application/*+json`, or no `Content-Type` at all, is read too; anything else is 415
`UNSUPPORTED_MEDIA_TYPE`), at most 1 MiB (413 `BODY_TOO_LARGE`) and nested at most 64 levels deep
(400 `INVALID_JSON`, as for malformed JSON).
"""

# Every controller's tag, described once, in alphabetical order (Spectral's spectral:oas).
TAGS = [
    Tag(name="before play", description="Dealing and tribute (G-4, P)"),
    Tag(
        name="bots",
        description="Moves suggested from what a seat may know (T-10's 托管 and better)",
    ),
    Tag(
        name="combos", description="Plays judged without a deal: classify, compare, 烤牌 (C, N, K)"
    ),
    Tag(name="operations", description="The index and the probes"),
    Tag(name="play", description="A deal judged from a snapshot, statelessly (T, B, S)"),
    Tag(name="rulesets", description="The rulesets and their options (R)"),
    Tag(name="tables", description="Live tables kept by the service: moves, events, streams"),
]


def create_app(settings: Settings | None = None) -> Litestar:
    """Build the service. ``settings`` defaults to the environment's (see README)."""
    settings = settings or Settings.from_env()
    logging.getLogger("baohuang").setLevel(settings.log_level)
    log_writer = configure_logging(settings.log_level, settings.log_format)
    authority = Authority(settings.api_keys, settings.token_secret)
    # None: no limit set, nothing added. Only credentials the authority verifies get a budget.
    rate_limits = RateLimits.from_settings(settings, authority.verifies, authority.open)
    redis = settings.redis_config()  # contradictory Redis settings fail here, at start-up
    cors = cors_config(settings.cors_origins)  # None: no CORS headers at all

    @asynccontextmanager
    async def store_lifespan(app: Litestar) -> AsyncIterator[None]:
        # One store (one Redis client and pool) per process, opened here and closed on exit.
        # Opening does no I/O: the service starts, and reports not ready, while Redis is down.
        app.state.authority.warn_if_weak()
        for note in app.state.get("startup_notes", ()):  # e.g. `baohuang serve`'s bounds
            logging.getLogger("baohuang.http").info("%s", note)
        store = open_store(
            redis,
            settings.table_ttl_seconds,
            observe=observe_store,
            max_in_flight=settings.redis_max_connections,
            wait_seconds=settings.redis_pool_timeout,
            max_remembered=settings.idempotency_keys,
        )
        app.state.store = store
        replica_check = app.state.replica_check = ReplicaCheck(store, redis)
        replica_check.start()  # in the background: never delays nor stops the start
        # Bots think in worker processes (started on the first search, stopped on exit): the
        # suggestions' share of them is their own, never the bot seats'.
        thinkers = Thinkers(settings.suggest_threads + BOT_SEAT_SEARCHES)
        app.state.thinkers = thinkers
        app.state.suggestions = Suggestions(
            thinkers, settings.suggest_threads, settings.suggest_per_caller
        )
        dispatcher, close_sender = None, None
        if settings.webhook_secret:
            targets = Targets(allow_private=settings.webhook_allow_private)
            send, close_sender = http_sender(targets, settings.webhook_timeout_seconds)
            dispatcher = Dispatcher(
                store,
                settings.webhook_secret,
                send,
                on_delivery=observe_delivery,
                targets=targets,
                concurrency=settings.webhook_concurrency,
                deadline_seconds=settings.webhook_timeout_seconds,
            )
        tables = TableService(
            store,
            app.state.authority,
            observe_move=observe_table_move,
            heartbeat_seconds=settings.stream_heartbeat_seconds,
            feed=TableFeed(store, on_followers=observe_followers),
            on_timeout=count_timeout,
            dispatcher=dispatcher,
            bot_delay=settings.bot_delay_seconds,
            deals_kept=settings.deals_kept,
            thinkers=thinkers,
        )
        app.state.tables = tables
        await tables.start()
        publishing = asyncio.create_task(_publish_requests(app.state.http_metrics))
        try:
            yield
        finally:
            publishing.cancel()
            await replica_check.close()
            with contextlib.suppress(asyncio.CancelledError):
                await publishing
            await tables.close()
            await thinkers.stop()  # every worker process, once no bot seat thinks any more
            if close_sender is not None:
                await close_sender()
            await store.close()

    handlers: list[type[Controller]] = [
        CombosController,
        MovesController,
        DealController,
        RulesetsController,
        TablesController,
        DealRecordsController,
        BotsController,
        HealthController,
        ProblemPagesController,  # where each problem document's `type` leads
        ReferenceAssetsController,  # the API reference's scripts and styles, /schema/assets
    ]
    if settings.play_page:
        handlers.append(PlayController)  # the reference table in the browser, /play

    app = Litestar(
        route_handlers=handlers,
        lifespan=[store_lifespan, *([rate_limits.lifespan] if rate_limits else [])],
        middleware=[rate_limits.middleware] if rate_limits else [],
        plugins=[problem_details_plugin()],
        exception_handlers=dict(EXCEPTION_HANDLERS),
        request_max_body_size=settings.max_body_bytes,
        cors_config=cors,
        request_class=JSONRequest,
        logging_config=None,  # the service's own (..logs), never a second handler on the root
        openapi_config=OpenAPIConfig(
            title="baohuang-rules",
            version=__version__,
            description=DESCRIPTION,
            path="/schema",
            license=License(name="MIT", url="https://spdx.org/licenses/MIT.html"),
            tags=TAGS,
            # Swagger UI from the package's own files (http/reference.py): no CDN.
            render_plugins=[render_plugin()],
        ),
        debug=False,
    )
    app.state.settings = settings
    app.state.authority = authority
    app.state.stream_slots = StreamSlots(
        StreamLimits(
            per_credential=settings.max_streams_per_credential,
            per_table=settings.max_streams_per_table,
            per_address=settings.max_streams_per_address,
            per_process=stream_capacity(settings.max_connections, settings.stream_reserve),
        )
    )
    document_request_bodies(app)
    access = AccessLog(log_writer) if settings.access_log else None
    app.asgi_handler = app.state.http_metrics = HttpMetrics(
        RequestBounds(
            quiet_refusals(app.asgi_handler, cors),
            settings.body_timeout_seconds,
            settings.max_in_flight,
        ),
        access,
    )
    return app


async def _publish_requests(metrics: HttpMetrics) -> None:
    """This process's request count for ``baohuang_worker_requests``, every second."""
    while True:
        publish_requests(metrics)
        await asyncio.sleep(WORKER_SECONDS)
