"""The app factory: controllers, problem documents, metrics and the lifespan, wired in one place."""

from __future__ import annotations

import logging

from litestar import Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin, SwaggerRenderPlugin

from .. import __version__
from .controllers.combos import CombosController
from .controllers.health import HealthController
from .controllers.rulesets import RulesetsController
from .docs import document_request_bodies
from .metrics import HttpMetrics
from .problems import EXCEPTION_HANDLERS, problem_details_plugin
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
    app = Litestar(
        route_handlers=[CombosController, RulesetsController, HealthController],
        plugins=[problem_details_plugin()],
        exception_handlers=dict(EXCEPTION_HANDLERS),
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="baohuang-rules",
            version=__version__,
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[ScalarRenderPlugin(), SwaggerRenderPlugin(path="/swagger")],
        ),
        debug=False,
    )
    app.state.settings = settings
    document_request_bodies(app)
    app.asgi_handler = HttpMetrics(app.asgi_handler)
    return app
