"""At the connection cap, a new connection takes the place only of one that waits on its client
(http/bounds.py, docs/deploy.md "Slow clients"): one idle or still sending its headers, else one
still sending its body. A connection whose request arrived whole and whose handler is running is
never closed for a newcomer: the newcomer is refused instead.

The protocols are uvicorn's own (both kinds the service may run) on in-memory transports, so the
order of arrivals is exact and nothing waits on a clock; tests/ship/test_slow_clients.py floods a
real ``baohuang serve`` with slow clients.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState

from baohuang.http.bounds import (
    BoundedH11Protocol,
    BoundedHttpToolsProtocol,
    Limits,
    configure,
    limits,
)
from fake_transport import FakeTransport

pytestmark = pytest.mark.anyio

WHOLE = b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\nab"
HALF = b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 4\r\n\r\nab"  # two bytes of four


class _Handlers:
    """An app whose handlers run until released: ``running`` counts those that have read their
    whole request."""

    def __init__(self) -> None:
        self.running = 0
        self.release = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        self.running += 1
        await self.release.wait()
        start = {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-length", b"2")],
        }
        await send(start)
        await send({"type": "http.response.body", "body": b"ok"})


async def _settled() -> None:
    """Let the handlers' tasks run as far as they can (no clock: a bounded number of turns)."""
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.mark.parametrize("protocol", [BoundedHttpToolsProtocol, BoundedH11Protocol])
async def test_only_a_connection_still_receiving_a_body_is_evicted_never_one_being_handled(
    protocol: Any,
) -> None:
    app = _Handlers()
    config = uvicorn.Config(app, lifespan="off", log_level="warning")
    config.load()
    state = ServerState()
    loop = asyncio.get_running_loop()
    before = limits()
    configure(Limits(header_timeout=3600.0, max_connections=2))
    made: list[tuple[Any, FakeTransport]] = []

    def connect(data: bytes = b"") -> tuple[Any, FakeTransport]:
        connection = protocol(config=config, server_state=state, app_state={}, _loop=loop)
        transport = FakeTransport()
        made.append((connection, transport))
        connection.connection_made(transport)
        if data and not transport.closed:
            connection.data_received(data)
        return connection, transport

    try:
        _, handled = connect(WHOLE)
        _, sending = connect(HALF)
        await _settled()
        assert app.running == 1  # the first is being handled, the second still sends its body
        _, newcomer = connect()
        assert sending.closed, "the connection still sending its body makes room"
        assert not handled.closed and not newcomer.closed
        newcomer_connection = made[-1][0]
        newcomer_connection.data_received(WHOLE)
        await _settled()
        assert app.running == 2  # two handlers running, the cap reached
        _, refused = connect()
        assert refused.closed, "no connection waits on its client: the newcomer is refused"
        assert not handled.closed and not newcomer.closed, "a running handler lost its connection"
        app.release.set()
        await _settled()
        assert handled.written.endswith(b"ok") and newcomer.written.endswith(b"ok")
    finally:
        app.release.set()
        await _settled()
        for connection, transport in made:
            transport.closed = True
            connection.connection_lost(None)
        configure(before)
