"""A real ``baohuang serve`` says when ``REDIS_WAIT_REPLICAS`` is below the replicas Redis has.

On the Sentinel setup of the failover tests (1 primary, 2 replicas, 3 Sentinels) the default
``REDIS_WAIT_REPLICAS=1`` loses moves answered 200 when the Sentinels fail over a primary that
is still up (docs/deploy.md, "What a 200 guarantees"). The service must log one warning naming
both numbers and publish the gap as ``baohuang_redis_replicas_unconfirmed``; with
``REDIS_WAIT_REPLICAS=2`` the gauge is 0 and nothing is logged. A primary with one replica and
no Sentinel (standalone, whose default waits for none) is counted from ``INFO replication``, a
3 × 1 Redis Cluster from ``CLUSTER NODES``.

Each server is stopped with SIGTERM before its log is read, so every line it wrote is there.
tests/http/test_replica_warning.py is the quick twin, against a recorded Sentinel answer.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from live_server import ProcessServer
from redis_server import RedisServer
from redis_topologies import SERVICE, SentinelSetup, cluster_setup, sentinel_setup
from replica_link import link_up, primary_with_replica

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.slow]

GAUGE = re.compile(r'^baohuang_redis_replicas_unconfirmed\{mode="(\w+)"\} (\S+)$', re.M)
COUNTED_WITHIN = 30.0
"""How long the background count may take to show on /metrics (a loaded 2-core machine)."""


@pytest.fixture(scope="module")
def sentinels() -> Iterator[SentinelSetup]:
    with sentinel_setup() as setup:
        yield setup


@pytest.fixture(scope="module")
def primary_and_replica() -> Iterator[tuple[RedisServer, RedisServer]]:
    with primary_with_replica() as pair:
        yield pair


def _sentinel_environment(setup: SentinelSetup, wait: str) -> dict[str, str]:
    return {
        "REDIS_URL": setup.url,
        "REDIS_MODE": "sentinel",
        "REDIS_SENTINEL_SERVICE": SERVICE,
        "REDIS_WAIT_REPLICAS": wait,
        "BAOHUANG_TOKEN_SECRET": "replica-warning-secret",
    }


async def _serve_until_counted(
    environment: dict[str, str], log: Path
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Start the service, wait for the gauge, stop it: the gauge by mode and its log lines."""
    server = ProcessServer(environment, log=log)
    async with server, httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        async with asyncio.timeout(COUNTED_WITHIN):
            while not (found := GAUGE.findall((await client.get("/metrics")).text)):
                await asyncio.sleep(0.1)
        assert await server.terminate() == -signal.SIGTERM  # stopped gracefully: logs flushed
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    return {mode: float(value) for mode, value in found}, lines


def _warnings(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if "replicas" in line and line["level"] == "WARNING"]


async def test_the_default_wait_on_two_sentinel_replicas_is_reported(
    sentinels: SentinelSetup, tmp_path: Path
) -> None:
    gauge, lines = await _serve_until_counted(
        _sentinel_environment(sentinels, "1"), tmp_path / "serve.log"
    )
    assert gauge == {"sentinel": 1.0}
    (warning,) = _warnings(lines)
    assert (warning["replicas"], warning["wait_replicas"]) == (2, 1)
    assert warning["redis_mode"] == "sentinel"
    assert "REDIS_WAIT_REPLICAS=1" in warning["message"]
    assert "docs/deploy.md" in warning["message"]
    assert all(s.address not in warning["message"] for s in sentinels.sentinels)


async def test_waiting_for_every_sentinel_replica_is_not_reported(
    sentinels: SentinelSetup, tmp_path: Path
) -> None:
    gauge, lines = await _serve_until_counted(
        _sentinel_environment(sentinels, "2"), tmp_path / "serve.log"
    )
    assert gauge == {"sentinel": 0.0}
    assert _warnings(lines) == []


async def test_a_standalone_primary_with_a_replica_and_no_wait_is_reported(
    primary_and_replica: tuple[RedisServer, RedisServer], tmp_path: Path
) -> None:
    primary, replica = primary_and_replica
    await link_up(primary, replica)  # the primary counts it once its link is up
    environment = {"REDIS_URL": primary.url, "BAOHUANG_TOKEN_SECRET": "replica-warning-secret"}
    gauge, lines = await _serve_until_counted(environment, tmp_path / "serve.log")
    assert gauge == {"standalone": 1.0}
    (warning,) = _warnings(lines)
    assert (warning["replicas"], warning["wait_replicas"]) == (1, 0)


async def test_a_cluster_counts_the_replicas_of_its_shards(tmp_path: Path) -> None:
    with cluster_setup() as cluster:  # 3 primaries, 1 replica each
        base = {
            "REDIS_URL": cluster.url,
            "REDIS_MODE": "cluster",
            "BAOHUANG_TOKEN_SECRET": "replica-warning-secret",
        }
        default, default_lines = await _serve_until_counted(base, tmp_path / "default.log")
        none, none_lines = await _serve_until_counted(
            {**base, "REDIS_WAIT_REPLICAS": "0"}, tmp_path / "none.log"
        )
    assert default == {"cluster": 0.0}
    assert _warnings(default_lines) == []
    assert none == {"cluster": 1.0}
    (warning,) = _warnings(none_lines)
    assert (warning["replicas"], warning["wait_replicas"]) == (1, 0)
