"""One caller cannot hurt the others, against real ``baohuang serve`` processes on a real Redis
(docs/deploy.md "Streams", "Rate limits"): streams beyond their limits are refused while probes
and moves keep answering, invented bearers get no budget of their own and leave no Redis key,
tokens of an earlier instance are 401 on every route.
"""

from __future__ import annotations

import asyncio
import signal
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from redis.asyncio import Redis

from caller_support import Streams, assert_stale_tokens_are_401_on_every_route, bearer
from live_server import ProcessServer, free_port
from redis_server import RedisServer
from table_support import SMALL_BODY

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.slow]

KEY = "one-caller-platform-key"
PLATFORM = bearer(KEY)
MAX_CONNECTIONS = 40  # streams get 40 - min(reserve, 40 // 2) = 20 of them
PER_CREDENTIAL = 8


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A Redis of this module's own: its rate-limit keys (the default prefix) are this test's."""
    with RedisServer.from_environment() as server:
        yield server.url


def _environment(redis_url: str, **extra: str) -> dict[str, str]:
    return {
        "REDIS_URL": redis_url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "one-caller",
        "NO_PROXY": "127.0.0.1",
        **extra,
    }


MOVES = [
    {"seat": 0, "action": "play", "cards": ["7S", "7H"]},
    {"seat": 1, "action": "play", "cards": ["8S", "8H"]},
]


async def _answers(base: str, table_id: str, version: int) -> None:
    """Probes and a platform's move, each on a connection of its own, all answered."""
    async with httpx.AsyncClient(base_url=base, timeout=5, trust_env=False) as fresh:
        assert (await fresh.get("/healthz")).status_code == 200
    async with httpx.AsyncClient(base_url=base, timeout=5, trust_env=False) as fresh:
        assert (await fresh.get("/readyz")).status_code == 200
    async with httpx.AsyncClient(base_url=base, timeout=5, trust_env=False) as fresh:
        moved = await fresh.post(
            f"/v1/tables/{table_id}/moves",
            json={"move": MOVES[version - 1], "version": version},
            headers=PLATFORM,
        )
        assert moved.status_code == 200, moved.text


async def test_streams_beyond_their_limits_are_refused_and_probes_and_moves_answer(
    redis_url: str,
) -> None:
    environment = _environment(
        redis_url,
        BAOHUANG_MAX_CONNECTIONS=str(MAX_CONNECTIONS),
        BAOHUANG_MAX_STREAMS_PER_CREDENTIAL=str(PER_CREDENTIAL),
    )
    async with (
        ProcessServer(environment) as server,
        httpx.AsyncClient(base_url=server.url, timeout=5, trust_env=False) as client,
        Streams(server.url) as streams,
    ):
        tid = f"streams-{uuid.uuid4().hex}"
        created = await client.put(
            f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=PLATFORM
        )
        assert created.status_code == 201, created.text
        spectator = created.json()["spectator_token"]
        # One spectator token tries more streams than the replica has connections.
        held = [await streams.open(tid, spectator) for _ in range(MAX_CONNECTIONS + 10)]
        assert [h.status for h in held] == [200] * PER_CREDENTIAL + [429] * (
            MAX_CONNECTIONS + 10 - PER_CREDENTIAL
        )
        refused = held[-1]
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.headers["retry-after"] == "5"
        [error] = httpx.Response(429, content=refused.body).json()["errors"]
        assert (error["code"], error["path"]) == ("TOO_MANY_STREAMS", "$.headers.authorization")
        await _answers(server.url, tid, 1)
        # Every seat token too: the replica's streams stop at its cap less the reserve (503).
        seats = created.json()["seat_tokens"]
        seat_streams = MAX_CONNECTIONS // 2 - PER_CREDENTIAL
        tried = [await streams.open(tid, token) for token in seats for _ in range(5)]
        assert [h.status for h in tried] == [200] * seat_streams + [503] * (25 - seat_streams)
        [error] = httpx.Response(503, content=tried[-1].body).json()["errors"]
        assert error["code"] == "OVERLOADED" and tried[-1].headers["retry-after"] == "1"
        await _answers(server.url, tid, 2)
        metrics = (await client.get("/metrics")).text
        assert f'baohuang_streams_open{{caller="spectator"}} {PER_CREDENTIAL}.0' in metrics
        assert f'baohuang_streams_open{{caller="seat"}} {seat_streams}.0' in metrics
        assert 'baohuang_streams_refused_total{limit="process"} 13.0' in metrics
        assert 'baohuang_streams_refused_total{limit="credential"} 42.0' in metrics
        # Streams that end give their slots back.
        await streams.close()
        async with asyncio.timeout(10):
            while True:
                metrics = (await client.get("/metrics")).text
                if 'baohuang_streams_open{caller="spectator"} 0.0' in metrics:
                    break
                await asyncio.sleep(0.05)
        async with Streams(server.url) as again:
            assert (await again.open(tid, spectator)).status == 200


async def test_invented_bearers_are_limited_as_one_unauthenticated_caller(redis_url: str) -> None:
    """200 requests, each with a fresh invented bearer, spend one address's budget of 30; 1,000
    garbage bearers on a table route spend its 50 failed authentications, then 429, and no
    Redis key is left per bearer. Budgets per hour, so that hardly anything comes back while
    the test runs: what a slow machine's run earns back meanwhile is counted, not guessed."""
    environment = _environment(
        redis_url,
        BAOHUANG_RATE_LIMIT_STATELESS="30/hour",
        BAOHUANG_RATE_LIMIT_AUTH_FAILURES="50/hour",
    )
    redis = Redis.from_url(redis_url)
    try:
        await redis.flushall()
        async with (
            ProcessServer(environment) as server,
            httpx.AsyncClient(base_url=server.url, timeout=5, trust_env=False) as client,
        ):
            started = time.monotonic()
            invented = [
                (await client.get("/v1/rulesets", headers=bearer(f"x{uuid.uuid4()}"))).status_code
                for _ in range(200)
            ]
            earned = _refilled(30, time.monotonic() - started)
            assert invented[:30] == [200] * 30
            assert invented[30:].count(200) <= earned
            assert set(invented[30:]) <= {200, 429}
            assert (await client.get("/v1/rulesets")).status_code == 429  # the same budget
            tid = f"limits-{uuid.uuid4().hex}"
            created = await client.put(
                f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=PLATFORM
            )
            assert created.status_code == 201, created.text
            started = time.monotonic()
            garbage = [
                (
                    await client.get(f"/v1/tables/{tid}", headers=bearer(uuid.uuid4().hex))
                ).status_code
                for _ in range(1000)
            ]
            earned = _refilled(50, time.monotonic() - started)
            assert garbage[:50] == [401] * 50
            assert garbage[50:].count(401) <= earned
            assert set(garbage[50:]) <= {401, 429} and garbage[50:].count(429) >= 950 - earned
            # One bucket per budget of the address, none per bearer.
            keys = [key.decode() async for key in redis.scan_iter(match="baohuang:ratelimit:*")]
            assert sorted(key.split(":")[2] for key in keys) == ["auth_failures", "stateless"]
            # Verified credentials have budgets of their own.
            seat = created.json()["seat_tokens"][0]
            assert (await client.get(f"/v1/tables/{tid}", headers=bearer(seat))).status_code == 200
            assert (await client.get("/v1/rulesets", headers=PLATFORM)).status_code == 200
    finally:
        await redis.aclose()


def _refilled(per_hour: int, seconds: float) -> int:
    """Requests a budget of ``per_hour`` earns back in ``seconds`` (and one for the boundary)."""
    return int(seconds * per_hour / 3600) + 1


async def test_tokens_of_an_earlier_instance_are_401_on_every_route(redis_url: str) -> None:
    async with (
        ProcessServer(_environment(redis_url)) as server,
        httpx.AsyncClient(base_url=server.url, timeout=5, trust_env=False) as client,
    ):
        await assert_stale_tokens_are_401_on_every_route(client, PLATFORM)


async def test_probes_and_metrics_answer_on_their_own_port_too(redis_url: str) -> None:
    """``BAOHUANG_PROBE_PORT``: ``/healthz``, ``/readyz`` and ``/metrics`` there as well, nothing
    else; the service's port as before; SIGTERM stops both."""
    probe_port = free_port()
    server = ProcessServer(_environment(redis_url, BAOHUANG_PROBE_PORT=str(probe_port)))
    await server.start()
    try:
        probes = f"http://127.0.0.1:{probe_port}"
        async with httpx.AsyncClient(base_url=probes, timeout=5, trust_env=False) as client:
            async with asyncio.timeout(10):  # it listens once the service has started
                while True:
                    try:
                        healthz = await client.get("/healthz")
                        break
                    except httpx.ConnectError:
                        await asyncio.sleep(0.05)
            assert healthz.status_code == 200 and healthz.json() == {"status": "ok"}
            assert (await client.get("/readyz")).status_code == 200
            metrics = await client.get("/metrics")
            assert metrics.status_code == 200 and "baohuang_streams_open" in metrics.text
            for path in ("/v1/rulesets", "/", "/schema", "/v1/tables/t"):
                answer = await client.get(path, headers=PLATFORM)
                assert answer.status_code == 404, path
                assert answer.headers["content-type"] == "application/problem+json"
        async with httpx.AsyncClient(base_url=server.url, timeout=5, trust_env=False) as client:
            assert (await client.get("/v1/rulesets")).status_code == 200
            assert (await client.get("/healthz")).status_code == 200
        # A graceful stop of both servers, then uvicorn re-raises the SIGTERM it handled.
        assert await server.terminate() == -signal.SIGTERM
    finally:
        await server.stop()
