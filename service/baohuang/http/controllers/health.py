"""Liveness, readiness and metrics (API.md "Operations")."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Controller, Request, Response, get

from ..docs import problems
from ..metrics import exposition


class Health(msgspec.Struct, frozen=True):
    status: str


_OK = Health("ok")


class HealthController(Controller):
    tags = ["operations"]
    include_in_schema = True

    @get("/healthz")
    async def healthz(self) -> Health:
        """The process is up. Never depends on Redis: a store outage must not restart pods."""
        return _OK

    @get("/readyz", responses=problems(503))
    async def readyz(self, request: Request[Any, Any, Any]) -> Health:
        """Ready to serve: 503 while a configured Redis is unreachable (fail closed)."""
        await request.app.state.store.ping()  # StoreUnavailable → 503 problem with Retry-After
        return _OK

    @get("/metrics", include_in_schema=False)
    async def metrics(self) -> Response[bytes]:
        body, content_type = exposition()
        return Response(body, media_type=content_type)
