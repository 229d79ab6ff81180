"""Probes and metrics on a port of their own (``BAOHUANG_PROBE_PORT``, docs/deploy.md "Streams").

The service's port bounds its connections (:mod:`.bounds`) and keeps a reserve that streams never
take (:mod:`.stream_slots`), but the reserve is shared with every ordinary request. A second
listener that serves only ``/healthz``, ``/readyz`` and ``/metrics``, with connections of its own,
answers Kubernetes' probes whatever the clients of the main port do, as services built for
Kubernetes commonly do.

Both listeners are bound once, by ``baohuang serve`` before any worker starts, and served by the
same uvicorn server of each worker (:mod:`.serving`): one probe port however many workers there
are, never one per worker fighting over it. The protocol tells the probe port's connections by
their local port and counts them apart (:mod:`.bounds`); :class:`ProbeGate` answers any other
path there 404. It is the same app (the same store, the same registry).
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from .problems import Problem

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


class ProbeGate:
    """ASGI wrapper: on the probe port, the probe paths only (404 for anything else); on the
    service's port, everything."""

    def __init__(self, app: Any, probe_port: int) -> None:
        self.app = app
        self.probe_port = probe_port

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] not in PROBE_PATHS:
            server = scope.get("server")
            if server is not None and server[1] == self.probe_port:
                await send(_NOT_HERE_START)
                await send({"type": "http.response.body", "body": _NOT_HERE})
                return
        await self.app(scope, receive, send)
