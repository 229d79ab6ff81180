"""Overload is not an outage (docs/clients.md): when more table work is in flight than a
process's Redis connections serve, requests wait their turn for a bounded time, then answer 503
``OVERLOADED`` with ``Retry-After`` — never ``STORE_UNAVAILABLE`` — and ``/readyz`` and
``/healthz`` keep answering 200.

Redis is held busy with ``CLIENT PAUSE … WRITE`` on a server of this test's own: reads and PING go
on, every write waits, so the table work in flight cannot finish while the test looks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from redis.asyncio import Redis

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.store import CasOk, RedisTableStore, StoreOverloaded
from baohuang.tables.clock import TableClock
from redis_server import RedisServer
from table_support import SMALL_BODY

from .problem_checks import assert_problem

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

SNAPSHOT = SMALL_BODY
PAUSE_MS = 400
HELD_MS = 30_000
"""How long the HTTP test holds writes: until it lifts the pause itself (``CLIENT UNPAUSE``),
once it has looked; only a stall lasts this long."""


@pytest.fixture(scope="module")
def server() -> Iterator[RedisServer]:
    with RedisServer.from_environment() as own:  # never a shared Redis: the test pauses it
        yield own


async def _pause_writes(url: str, milliseconds: int = PAUSE_MS) -> None:
    raw = Redis.from_url(url)
    try:
        await raw.execute_command("CLIENT", "PAUSE", milliseconds, "WRITE")  # type: ignore[no-untyped-call]
    finally:
        await raw.aclose()


async def _no_clock(self: TableClock, poll_seconds: float = 0.0) -> None:
    """The table clock's task, doing nothing."""


async def _unpause(url: str) -> None:
    raw = Redis.from_url(url)
    try:
        await raw.execute_command("CLIENT", "UNPAUSE")  # type: ignore[no-untyped-call]
    finally:
        await raw.aclose()


async def test_the_store_refuses_work_past_its_bound_as_overloaded(server: RedisServer) -> None:
    store = RedisTableStore.from_url(
        server.url, key_prefix="overload:", max_in_flight=1, wait_seconds=0.05
    )
    try:
        await store.put("t", b"1")
        await _pause_writes(server.url)
        held = asyncio.create_task(store.compare_and_set("t", 1, b"2"))  # waits on the pause
        await asyncio.sleep(0.05)
        with pytest.raises(StoreOverloaded):
            await store.put("u", b"1")
        await store.ping()  # readiness does not queue behind table work
        written = await held
        assert isinstance(written, CasOk) and written.version == 2  # committed after the pause
        await store.put("u", b"1")  # and the bound frees up again
    finally:
        await store.close()


async def test_overload_is_503_overloaded_and_readiness_stays_200(
    server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No table clock: every 0.2 s it asks Redis for due tables with a script that writes, so
    # under the pause it would hold one of the two slots whenever it came first, and a held
    # move would wait in line behind it (beside two busy loops, one did, and got 503).
    monkeypatch.setattr(TableClock, "run_clock", _no_clock)
    # Table work waits half a second for one of its two slots: long enough for whatever else
    # holds one for a moment on a loaded machine, short beside the held writes.
    settings = Settings(
        redis_url=server.url, token_secret="s", redis_max_connections=2, redis_pool_timeout=0.5
    )
    app = create_app(settings)
    # Litestar's test client sends one request at a time; httpx's ASGI transport runs them
    # concurrently, in this event loop, where the app's lifespan opened its store.
    async with (
        app.lifespan(),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client,  # type: ignore[arg-type]
    ):
        tables = [f"busy-{n}" for n in range(3)]
        for tid in tables:
            assert (
                await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT})
            ).status_code == 201
        before = (await client.get("/metrics")).text
        await _pause_writes(server.url, HELD_MS)
        lead = {"move": {"seat": 0, "action": "play", "cards": ["7S", "7H"]}, "version": 1}
        try:
            held = [
                asyncio.create_task(client.post(f"/v1/tables/{tid}/moves", json=lead))
                for tid in tables[:2]
            ]
            # The third is sent once the two hold both slots: waited for, not slept for, so
            # that a loaded machine cannot let it in before them.
            slots = app.state.store._slots
            async with asyncio.timeout(30):
                while not slots.locked():
                    await asyncio.sleep(0.01)
            refused = await client.post(f"/v1/tables/{tables[2]}/moves", json=lead)
            assert_problem(refused, 503, "OVERLOADED")
            assert refused.headers["retry-after"] == "1"
            assert (await client.get("/readyz")).status_code == 200
            assert (await client.get("/healthz")).status_code == 200
        finally:
            await _unpause(server.url)
        assert [(await task).status_code for task in held] == [200, 200]
        # The refused move is one store call, its compare-and-set (a move reads and writes in
        # one script): the counter (process-wide, so counted as a difference) names it, once.
        after = (await client.get("/metrics")).text
        assert _overloaded(after, "cas") - _overloaded(before, "cas") == 1
        assert _overloaded(after, "get") == _overloaded(before, "get")
        retried = await client.post(f"/v1/tables/{tables[2]}/moves", json=lead)
        assert retried.status_code == 200, retried.text  # nothing was applied the first time


def _overloaded(metrics: str, operation: str) -> float:
    """``baohuang_store_overloaded_total`` for ``operation`` in a ``/metrics`` text (0 when the
    series has not been counted yet)."""
    series = f'baohuang_store_overloaded_total{{operation="{operation}"}} '
    for line in metrics.splitlines():
        if line.startswith(series):
            return float(line[len(series) :])
    return 0.0
