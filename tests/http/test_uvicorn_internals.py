"""The uvicorn internals http/bounds.py leans on are still there (docs/deploy.md "Slow clients").

:class:`baohuang.http.bounds._BoundedConnection` is mixed into uvicorn's HTTP protocol classes and
reads what they keep for themselves. pyproject pins uvicorn to the releases these tests ran on;
when a new release is let in, these tests say whether those pieces moved, before a flood of slow
clients does.
"""

from __future__ import annotations

import asyncio
import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from packaging.requirements import Requirement
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from baohuang.http.bounds import bounded_protocol

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
PROTOCOLS = [pytest.param(HttpToolsProtocol, id="httptools"), pytest.param(H11Protocol, id="h11")]


def test_uvicorn_is_pinned_to_a_range_and_the_installed_one_is_in_it() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    [uvicorn_pin] = [Requirement(d) for d in dependencies if Requirement(d).name == "uvicorn"]
    assert any(spec.operator == "<" for spec in uvicorn_pin.specifier), uvicorn_pin
    assert version("uvicorn") in uvicorn_pin.specifier
    for lock in ("runtime.txt", "test.txt"):
        locked = (ROOT / "requirements" / lock).read_text()
        assert f"uvicorn=={version('uvicorn')}" in locked, lock


class _Transport(asyncio.Transport):
    """Enough of a socket transport for a protocol to read a request and answer it."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _app(scope: Any, receive: Any, send: Any) -> None:
    while (await receive()).get("more_body"):
        pass
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
    )
    await send({"type": "http.response.body", "body": b"ok"})


@pytest.mark.parametrize("base", PROTOCOLS)
async def test_the_protocol_pieces_bounds_reads_are_there(base: type[asyncio.Protocol]) -> None:
    for method in ("connection_made", "data_received", "connection_lost", "on_response_complete"):
        assert callable(getattr(base, method, None)), method
    config = uvicorn.Config(_app, lifespan="off", log_level="warning")
    config.load()
    state = ServerState()
    bounded: Any = bounded_protocol(base, 10.0, 8)
    protocol = bounded(
        config=config, server_state=state, app_state={}, _loop=asyncio.get_running_loop()
    )
    transport = _Transport()
    protocol.connection_made(transport)
    assert protocol.transport is transport and protocol.loop is asyncio.get_running_loop()
    assert protocol.connections is state.connections and protocol in state.connections
    assert protocol in protocol.waiting  # waiting for its headers, as bounds counts it
    assert protocol.cycle is None  # no request yet: bounds tells a new one by a new cycle
    if base is HttpToolsProtocol:
        assert len(protocol.pipeline) == 0
    protocol.data_received(b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 4\r\n\r\nab")
    cycle = protocol.cycle
    assert cycle is not None and protocol not in protocol.waiting  # headers complete
    assert cycle.more_body is True and cycle.response_started is False  # a body on its way
    protocol.data_received(b"cd")
    async with asyncio.timeout(5):
        while not transport.written.endswith(b"ok"):
            await asyncio.sleep(0.01)
    assert cycle.response_started is True
    assert protocol in protocol.waiting  # answered, kept alive: idle until the next request
    protocol.connection_lost(None)
    assert protocol not in state.connections and protocol not in protocol.waiting


def test_the_server_pieces_the_probe_port_leans_on_are_there() -> None:
    """http/probes.py runs a second ``uvicorn.Server`` whose ``capture_signals`` does nothing, in
    a loop from ``Config.get_loop_factory``: ``serve`` must still take the signals there."""
    assert "self.capture_signals()" in inspect.getsource(uvicorn.Server.serve)
    assert callable(uvicorn.Config.get_loop_factory)
    assert hasattr(uvicorn.Server(uvicorn.Config(_app)), "started")
