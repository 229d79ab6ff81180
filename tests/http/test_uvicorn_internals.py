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

from baohuang.http.bounds import (
    BoundedH11Protocol,
    BoundedHttpToolsProtocol,
    Limits,
    configure,
    limits,
)
from fake_transport import FakeTransport

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
PROTOCOLS = [
    pytest.param(HttpToolsProtocol, BoundedHttpToolsProtocol, id="httptools"),
    pytest.param(H11Protocol, BoundedH11Protocol, id="h11"),
]


def test_uvicorn_is_pinned_to_a_range_and_the_installed_one_is_in_it() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    [uvicorn_pin] = [Requirement(d) for d in dependencies if Requirement(d).name == "uvicorn"]
    assert any(spec.operator == "<" for spec in uvicorn_pin.specifier), uvicorn_pin
    assert version("uvicorn") in uvicorn_pin.specifier
    for lock in ("runtime.txt", "test.txt"):
        locked = (ROOT / "requirements" / lock).read_text()
        assert f"uvicorn=={version('uvicorn')}" in locked, lock


async def _app(scope: Any, receive: Any, send: Any) -> None:
    while (await receive()).get("more_body"):
        pass
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
    )
    await send({"type": "http.response.body", "body": b"ok"})


@pytest.mark.parametrize(("base", "bounded"), PROTOCOLS)
async def test_the_protocol_pieces_bounds_reads_are_there(
    base: type[asyncio.Protocol], bounded: Any
) -> None:
    for method in ("connection_made", "data_received", "connection_lost", "on_response_complete"):
        assert callable(getattr(base, method, None)), method
    assert issubclass(bounded, base)
    config = uvicorn.Config(_app, lifespan="off", log_level="warning")
    config.load()
    state = ServerState()
    before = limits()
    configure(Limits(10.0, 8))
    try:
        protocol = bounded(
            config=config, server_state=state, app_state={}, _loop=asyncio.get_running_loop()
        )
        transport = FakeTransport()
        protocol.connection_made(transport)
        assert protocol.transport is transport and protocol.loop is asyncio.get_running_loop()
        assert protocol in state.connections
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
    finally:
        configure(before)


def test_the_server_pieces_the_workers_lean_on_are_there() -> None:
    """``baohuang serve`` hands uvicorn's server its listeners (``run(sockets=...)``: the service's
    port and the probe port, bound once before any worker starts), and http/workers.py bounds
    uvicorn's multiprocess supervisor's ``join_all`` with the processes it keeps."""
    from uvicorn.supervisors.multiprocess import Multiprocess, Process

    assert "sockets" in inspect.signature(uvicorn.Server.run).parameters
    assert "for sock in sockets" in inspect.getsource(uvicorn.Server.startup)
    assert callable(Multiprocess.join_all) and callable(Multiprocess.terminate_all)
    assert "self.join_all()" in inspect.getsource(Multiprocess.run)
    assert {"kill", "pid", "exitcode"} <= set(dir(Process))
    assert "self.process = get_subprocess(" in inspect.getsource(Process.__init__)
    assert "timeout_graceful_shutdown" in inspect.signature(uvicorn.Config).parameters
