"""Probes and metrics on a port of their own (``BAOHUANG_PROBE_PORT``, docs/deploy.md "Streams").

The service's port bounds its connections (:mod:`.bounds`) and keeps a reserve that streams never
take (:mod:`.stream_slots`), but the reserve is shared with every ordinary request. A second
listener that serves only ``/healthz``, ``/readyz`` and ``/metrics``, with connections of its own,
answers Kubernetes' probes whatever the clients of the main port do, as services built for
Kubernetes commonly do. It is the same app (the same store, the same registry); any other path is
404 there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any, Final

import msgspec
import uvicorn

from .bounds import bounded_protocol
from .problems import Problem
from .settings import Settings

PROBE_PATHS: Final = frozenset({"/healthz", "/readyz", "/metrics"})
PROBE_CONNECTIONS: Final = 64
"""Connections of the probe port: a kubelet and a Prometheus need a few."""

_NOT_HERE = msgspec.json.encode(
    Problem(404, "NOT_FOUND", "the probe port serves /healthz, /readyz and /metrics only").document
)
_NOT_HERE_START = {
    "type": "http.response.start",
    "status": 404,
    "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(_NOT_HERE)).encode()),
    ],
}


def probe_app(app: Any) -> Any:
    """``app`` for the probe paths only."""

    async def probes(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] in PROBE_PATHS:
            await app(scope, receive, send)
            return
        await send(_NOT_HERE_START)
        await send({"type": "http.response.body", "body": _NOT_HERE})

    return probes


class ProbeServer(uvicorn.Server):
    """A uvicorn server that leaves the process's signals to the main server: it stops when the
    main one does (:func:`serve_with_probes`), never on a signal of its own."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def serve_with_probes(main: uvicorn.Server, probes: ProbeServer) -> None:
    """Serve ``main``, and ``probes`` once ``main`` has started (its lifespan opened the store
    that ``/readyz`` reports on) until ``main`` stops."""
    serving = asyncio.create_task(main.serve())
    while not main.started and not serving.done():
        await asyncio.sleep(0.05)
    side = asyncio.create_task(probes.serve()) if main.started else None
    try:
        await serving
    finally:
        probes.should_exit = True
        if side is not None:
            await side


def run_with_probes(
    app: Any,
    port: int,
    settings: Settings,
    base: type[asyncio.Protocol],
    max_connections: int,
    served: dict[str, Any],
) -> int:
    """``baohuang serve`` with ``BAOHUANG_PROBE_PORT``: the service on ``port`` (as
    ``uvicorn.run`` would serve it), the probes and ``/metrics`` also on the probe port with
    connections of their own. The exit status: 0, or 3 when the service could not start."""
    main = uvicorn.Server(
        uvicorn.Config(
            app,
            port=port,
            proxy_headers=True,
            http=bounded_protocol(base, settings.header_timeout_seconds, max_connections),
            backlog=settings.backlog,
            **served,
        )
    )
    probes = ProbeServer(
        uvicorn.Config(
            probe_app(app),
            port=settings.probe_port or 0,
            lifespan="off",  # the main server runs the app's lifespan, once
            proxy_headers=False,
            http=bounded_protocol(base, settings.header_timeout_seconds, PROBE_CONNECTIONS),
            **served,
        )
    )
    try:
        with asyncio.Runner(loop_factory=main.config.get_loop_factory()) as runner:
            runner.run(serve_with_probes(main, probes))
    except KeyboardInterrupt:  # as uvicorn.run: Ctrl-C ends the service quietly
        pass
    return 0 if main.started else 3
