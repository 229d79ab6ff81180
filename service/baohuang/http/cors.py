"""Cross-origin calls from browsers (CORS), off unless ``BAOHUANG_CORS_ORIGINS`` lists origins.

A game client served from another origin sends its bearer token in ``Authorization`` and its
moves as JSON, so a browser preflights nearly every call; the preflight is answered by
Litestar's CORS middleware before routing. No cookies are ever used, so credentials mode stays
off and ``*`` is a safe choice for a public referee. The answer headers a client reads are
exposed: the request id, ``Retry-After``, the table's ``ETag`` and the rate-limit fields.

A preflight from an origin not listed gets what a service without CORS answers (204 with
``Allow``, no ``Access-Control-Allow-*``), which the browser reads as a refusal, instead of the
middleware's ``400 Disallowed CORS Origin`` in plain text: every 4xx here is a problem document.
"""

from __future__ import annotations

from typing import Any

from litestar.config.cors import CORSConfig
from litestar.types import ASGIApp

ALLOWED_HEADERS = [
    "authorization",
    "content-type",
    "idempotency-key",
    "last-event-id",
    "x-request-id",
]
EXPOSED_HEADERS = [
    "etag",
    "retry-after",
    "x-request-id",
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "ratelimit-policy",
]


def cors_config(origins: tuple[str, ...]) -> CORSConfig | None:
    """The CORS policy for ``origins``; ``None`` (no CORS headers at all) when there are none."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "POST", "PUT", "DELETE"],
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        allow_credentials=False,
        max_age=600,
    )


def quiet_refusals(app: ASGIApp, config: CORSConfig | None) -> ASGIApp:
    """``app`` answering a preflight from an origin ``config`` does not allow as a plain
    ``OPTIONS`` (Litestar's middleware takes any ``OPTIONS`` with an ``Origin`` for a preflight,
    so the ``Origin`` header is dropped and the router's own ``OPTIONS`` answer goes out)."""
    if config is None or config.is_allow_all_origins:
        return app

    async def refuse_quietly(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "OPTIONS":
            headers = scope["headers"]
            origin = next((value for name, value in headers if name == b"origin"), None)
            if origin is not None and not config.is_origin_allowed(origin.decode("latin-1")):
                kept = [(n, v) for n, v in headers if n != b"origin"]
                scope = {**scope, "headers": kept}
        await app(scope, receive, send)

    return refuse_quietly
