"""The service's count of Redis replicas against ``REDIS_WAIT_REPLICAS``, quickly: the app in
this process, a fake Sentinel that answers ``SENTINEL REPLICAS`` as the real setup did
(tests/fake_sentinel.py). tests/http/test_replica_warning_live.py is the same on a real Sentinel
setup and a real ``baohuang serve``.

Which replicas count (http/replica_check.py, store/redis_replicas.py): those the Sentinels do
not flag down or disconnected, the ones a failover could promote.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from baohuang.http.app import create_app
from baohuang.http.metrics import REDIS_REPLICAS_UNCONFIRMED
from baohuang.http.settings import Settings
from baohuang.logs import LineWriter, configure_logging, reset_logging
from fake_sentinel import REPLICAS, FakeSentinel, fake_sentinel, replica

pytestmark = pytest.mark.anyio

GAUGE = re.compile(r'^baohuang_redis_replicas_unconfirmed\{mode="(\w+)"\} (\S+)$', re.M)
COUNTED_WITHIN = 10.0
"""How long the background count may take to show on /metrics (a loaded 2-core machine)."""


@pytest.fixture
def logged() -> Iterator[tuple[io.StringIO, LineWriter]]:
    """The service's log lines, and no gauge left from another test of this process."""
    REDIS_REPLICAS_UNCONFIRMED.clear()
    stream = io.StringIO()
    writer = configure_logging("DEBUG", "json", stream=stream, force=True)
    assert writer is not None
    try:
        yield stream, writer
    finally:
        reset_logging()
        REDIS_REPLICAS_UNCONFIRMED.clear()


def _settings(sentinel: FakeSentinel, wait: int | None) -> Settings:
    return Settings(
        token_secret="replica-warning-secret",
        redis_url=f"redis+sentinel://127.0.0.1:{sentinel.port}/0",
        redis_mode="sentinel",
        redis_sentinel_service="baohuang",
        redis_wait_replicas=wait,
        log_level="DEBUG",
    )


async def _gauge(client: AsyncTestClient[Any]) -> dict[str, float]:
    async with asyncio.timeout(COUNTED_WITHIN):
        while not (found := GAUGE.findall((await client.get("/metrics")).text)):
            await asyncio.sleep(0.02)
    return {mode: float(value) for mode, value in found}


def _lines(logged: tuple[io.StringIO, LineWriter]) -> list[dict[str, Any]]:
    stream, writer = logged
    assert writer.flush()
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def _warnings(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if "replicas" in line and line["level"] == "WARNING"]


async def test_the_default_wait_on_two_replicas_is_reported(
    logged: tuple[io.StringIO, LineWriter],
) -> None:
    with fake_sentinel(REPLICAS) as sentinel:
        async with AsyncTestClient(create_app(_settings(sentinel, None))) as client:
            assert await _gauge(client) == {"sentinel": 1.0}
        assert ["SENTINEL", "SLAVES", "baohuang"] in sentinel.asked
    (warning,) = _warnings(_lines(logged))
    assert (warning["replicas"], warning["wait_replicas"]) == (2, 1)
    assert warning["logger"] == "baohuang.http"
    assert "REDIS_WAIT_REPLICAS=1" in warning["message"]
    assert warning["docs"] == "docs/deploy.md#what-a-200-guarantees-topology-by-topology"
    assert str(sentinel.port) not in json.dumps(warning)  # no address, let alone a password


async def test_waiting_for_every_replica_is_not_reported(
    logged: tuple[io.StringIO, LineWriter],
) -> None:
    with fake_sentinel(REPLICAS) as sentinel:
        async with AsyncTestClient(create_app(_settings(sentinel, 2))) as client:
            assert await _gauge(client) == {"sentinel": 0.0}
    assert _warnings(_lines(logged)) == []


async def test_replicas_flagged_down_or_disconnected_do_not_count(
    logged: tuple[io.StringIO, LineWriter],
) -> None:
    listed = [replica(1), replica(2, "slave,s_down"), replica(3, "slave,s_down,o_down")]
    listed.append(replica(4, "slave,disconnected"))
    with fake_sentinel(listed) as sentinel:
        async with AsyncTestClient(create_app(_settings(sentinel, 1))) as client:
            assert await _gauge(client) == {"sentinel": 0.0}
    assert _warnings(_lines(logged)) == []


async def test_a_failure_to_count_starts_the_service_and_readiness_counts_again(
    logged: tuple[io.StringIO, LineWriter],
) -> None:
    with fake_sentinel(REPLICAS) as sentinel:
        sentinel.answering = False
        async with AsyncTestClient(create_app(_settings(sentinel, 1))) as client:
            assert (await client.get("/healthz")).status_code == 200
            async with asyncio.timeout(COUNTED_WITHIN):
                while not any("could not count" in line["message"] for line in _lines(logged)):
                    await asyncio.sleep(0.02)
            assert GAUGE.findall((await client.get("/metrics")).text) == []
            sentinel.answering = True
            await client.get("/readyz")  # 503: the fake names no primary; it counts again
            assert await _gauge(client) == {"sentinel": 1.0}
    (failed,) = [line for line in _lines(logged) if "could not count" in line["message"]]
    assert failed["level"] == "INFO"
    assert "ResponseError" in failed["message"]  # what the Sentinel answered, by its type
    assert len(_warnings(_lines(logged))) == 1
