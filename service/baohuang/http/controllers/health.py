"""The index, liveness, readiness and metrics (docs/clients.md)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.response import Redirect

from ... import __version__
from ..docs import problems
from ..metrics import exposition
from ..schemas import Health, Index

_OK = Health("ok")
_INDEX = Index(
    name="baohuang-rules",
    version=__version__,
    docs="/schema",
    swagger="/schema/swagger",
    openapi="/schema/openapi.json",
)
_TO_DOCS = {
    302: ResponseSpec(
        data_container=None,
        description="A browser (`Accept: text/html`) is sent to the API reference, `/schema`",
        generate_examples=False,
    )
}


class HealthController(Controller):
    tags = ["operations"]
    include_in_schema = True

    @get("/", operation_id="getIndex", responses=_TO_DOCS)
    async def index(self, request: Request[Any, Any, Any]) -> Response[Index]:
        """Where the API reference is; a browser is redirected to it.

        One fixed answer, so a person or a script that tries the bare address learns where to
        look: ``docs`` and ``swagger`` are the reference as web pages, ``openapi`` the document
        they render. A request that accepts HTML (a browser) gets a 302 to ``/schema`` instead.
        """
        if b"text/html" in _accept(request.scope):
            return Redirect("/schema", status_code=302)
        return Response(_INDEX)

    @get("/healthz", operation_id="getHealth")
    async def healthz(self) -> Health:
        """The process is up. Never depends on Redis: a store outage must not restart pods."""
        return _OK

    @get("/readyz", operation_id="getReadiness", responses=problems(503))
    async def readyz(self, request: Request[Any, Any, Any]) -> Health:
        """Ready to serve: 503 while a configured Redis is unreachable (fail closed)."""
        # The Redis replicas counted again when due (http/replica_check.py), in the background:
        # the answer never waits for it.
        request.app.state.replica_check.on_readiness()
        await request.app.state.store.ping()  # StoreUnavailable → 503 problem with Retry-After
        return _OK

    @get("/metrics", include_in_schema=False)
    async def metrics(self) -> Response[bytes]:
        body, content_type = exposition()
        return Response(body, media_type=content_type)


def _accept(scope: Any) -> bytes:
    for name, value in scope["headers"]:
        if name == b"accept":
            return bytes(value).lower()
    return b""
