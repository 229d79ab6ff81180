"""The app factory: controllers, problem documents, metrics and the lifespan, wired in one place."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin, SwaggerRenderPlugin

from .. import __version__
from ..logs import configure_logging
from ..store import open_store
from ..tables import Authority, TableService
from .access import AccessLog
from .controllers.combos import CombosController
from .controllers.deal import DealController
from .controllers.health import HealthController
from .controllers.moves import MovesController
from .controllers.rulesets import RulesetsController
from .controllers.tables import TablesController
from .docs import document_request_bodies
from .metrics import HttpMetrics, observe_store, observe_table_move
from .problems import EXCEPTION_HANDLERS, problem_details_plugin
from .ratelimit import RateLimits
from .settings import Settings

DESCRIPTION = """\
The rules referee for 保皇 (Baohuang): is a combo legal, does it beat the top play (normal rules
or 烤牌), is a move legal in a deal and what follows, which moves are legal, what every seat
scores. Rule ids (`N-2`, `K-6`, …) refer to RULES.md. A "no" is a 200 verdict with a `reason`;
input the referee cannot judge is a 4xx RFC 9457 problem document naming the field.
"""


def create_app(settings: Settings | None = None) -> Litestar:
    """Build the service. ``settings`` defaults to the environment's (see README)."""
    settings = settings or Settings.from_env()
    logging.getLogger("baohuang").setLevel(settings.log_level)
    log_writer = configure_logging(settings.log_level, settings.log_format)
    rate_limits = RateLimits.from_settings(settings)  # None: no limit set, nothing added

    @asynccontextmanager
    async def store_lifespan(app: Litestar) -> AsyncIterator[None]:
        # One store (one Redis client and pool) per process, opened here and closed on exit.
        # Opening does no I/O: the service starts, and reports not ready, while Redis is down.
        app.state.authority.warn_if_weak()
        store = open_store(
            settings.redis_url,
            settings.table_ttl_seconds,
            observe=observe_store,
            max_in_flight=settings.redis_max_connections,
            wait_seconds=settings.redis_pool_timeout,
        )
        app.state.store = store
        app.state.tables = TableService(store, app.state.authority, observe_move=observe_table_move)
        try:
            yield
        finally:
            await store.close()

    app = Litestar(
        route_handlers=[
            CombosController,
            MovesController,
            DealController,
            RulesetsController,
            TablesController,
            HealthController,
        ],
        lifespan=[store_lifespan, *([rate_limits.lifespan] if rate_limits else [])],
        middleware=[rate_limits.middleware] if rate_limits else [],
        plugins=[problem_details_plugin()],
        exception_handlers=dict(EXCEPTION_HANDLERS),
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,  # the service's own (..logs), never a second handler on the root
        openapi_config=OpenAPIConfig(
            title="baohuang-rules",
            version=__version__,
            description=DESCRIPTION,
            path="/schema",
            # UI assets come from a CDN at pinned versions; the JSON document needs none.
            render_plugins=[
                ScalarRenderPlugin(version="1.76.0"),
                SwaggerRenderPlugin(path="/swagger"),
            ],
        ),
        debug=False,
    )
    app.state.settings = settings
    app.state.authority = Authority(settings.api_keys, settings.token_secret)
    document_request_bodies(app)
    access = AccessLog(log_writer) if settings.access_log else None
    app.asgi_handler = HttpMetrics(app.asgi_handler, access)
    return app
