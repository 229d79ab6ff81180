"""The changes subscription on a Redis Cluster, from a client that has sent nothing yet.

redis-py's cluster Pub/Sub looks the channel's slot up in a slot cache that only a first command
fills (redis/redis-py#4296): every service used to log ``change notifications failed`` with a
``KeyError`` at start-up, since the feed subscribes before anything else touches Redis.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, Iterator
from typing import cast

import pytest

from baohuang.store import RECHECK_ALL, RedisTableStore
from redis_server import find_redis_server, redis_unavailable
from redis_topologies import ClusterSetup

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture(scope="module")
def one_node_cluster() -> Iterator[ClusterSetup]:
    """A cluster of one primary holding every slot: enough for the client's slot lookups."""
    binary = find_redis_server()
    if binary is None:
        redis_unavailable("no redis-server binary to build a Redis Cluster")
    setup = ClusterSetup(binary, primaries=1, replicas_per_primary=0)
    try:
        setup.start()
        yield setup
    finally:
        setup.close()


async def test_a_fresh_cluster_client_subscribes_and_hears_writes(
    one_node_cluster: ClusterSetup,
) -> None:
    store = RedisTableStore.from_url(
        one_node_cluster.url, 600, key_prefix=f"changes-{uuid.uuid4().hex}:", cluster=True
    )
    changes = cast(AsyncGenerator[str, None], store.changes())
    try:
        async with asyncio.timeout(10):
            assert await anext(changes) == RECHECK_ALL  # subscribed before any other command
            await store.put("t1", b"one")
            assert await anext(changes) == "t1"
    finally:
        await changes.aclose()
        await store.close()
