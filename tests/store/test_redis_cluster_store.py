"""The Redis store on a real Redis Cluster: the changes subscription from a client that has sent
nothing yet, and a replay's durability check on the node that owns the table.

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
from redis.asyncio import Redis

from baohuang.store import RECHECK_ALL, CasRemembered, RedisTableStore, StoreOutcomeUnknown
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


# -- a replay's durability check on a cluster shard ---------------------------------------------


@pytest.fixture(scope="module")
def shard_with_replica() -> Iterator[ClusterSetup]:
    binary = find_redis_server()
    if binary is None:
        redis_unavailable("no redis-server binary to build a Redis Cluster")
    setup = ClusterSetup(binary, primaries=1, replicas_per_primary=1)
    try:
        setup.start()
        yield setup
    finally:
        setup.close()


async def _replica_link(setup: ClusterSetup, up: bool) -> None:
    """Cut the shard's replica off (it can no longer authenticate, the primary drops it), or
    give it back its link and wait until it holds everything."""
    primary, replica = setup.primaries[0], setup.replicas[0]
    to_replica, to_primary = Redis.from_url(replica.url), Redis.from_url(primary.url)
    try:
        await to_replica.config_set("masterauth", "" if up else "bogus")
        if not up:
            await to_primary.client_kill_filter(_type="replica")
        async with asyncio.timeout(20):
            while True:
                info = await to_primary.info("replication")
                linked = [
                    v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)
                ]
                if not up and int(info["connected_slaves"]) == 0:
                    return
                if (
                    up
                    and linked
                    and all(
                        r.get("state") == "online"
                        and int(r["offset"]) == int(info["master_repl_offset"])
                        for r in linked
                    )
                ):
                    return
                await asyncio.sleep(0.05)
    finally:
        await to_replica.aclose()
        await to_primary.aclose()


@pytest.mark.slow
async def test_a_replay_on_a_cluster_shard_is_confirmed_on_the_owning_node(
    shard_with_replica: ClusterSetup,
) -> None:
    store = RedisTableStore.from_url(
        shard_with_replica.url,
        600,
        key_prefix=f"confirm-{uuid.uuid4().hex}:",
        cluster=True,
        wait_replicas=1,
        wait_timeout_ms=300,
    )
    try:
        await _replica_link(shard_with_replica, up=True)
        put = await store.put("t", b"one")
        await _replica_link(shard_with_replica, up=False)
        with pytest.raises(StoreOutcomeUnknown):
            await store.compare_and_set("t", 1, b"two", remember=("k", b"answer"))
        again = await store.compare_and_set("t", 1, b"two", remember=("k", b"other"))
        assert again == CasRemembered(b"answer")  # the primary remembers the write...
        with pytest.raises(StoreOutcomeUnknown):  # ...that no replica holds: not confirmed
            await store.confirm("t", put.instance)
        await _replica_link(shard_with_replica, up=True)
        await store.confirm("t", put.instance)  # the replica holds it now
    finally:
        await _replica_link(shard_with_replica, up=True)
        await store.close()


async def test_a_loop_turn_s_commands_go_to_their_node_as_one_pipeline(
    one_node_cluster: ClusterSetup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Cluster a batch is per node (store/redis_batch.py); here one node owns every slot."""
    from baohuang.store import CasOk, redis_batch

    sent: list[int] = []
    exchange = redis_batch._exchange

    async def counting(connection: object, commands: list[tuple[object, ...]]) -> object:
        sent.append(len(commands))
        return await exchange(connection, commands)

    monkeypatch.setattr(redis_batch, "_exchange", counting)
    store = RedisTableStore.from_url(
        one_node_cluster.url, 600, key_prefix=f"batch-{uuid.uuid4().hex}:", cluster=True
    )
    try:
        ids = [f"t{n}" for n in range(6)]
        for table_id in ids:
            await store.put(table_id, b"0")
        sent.clear()
        results = await asyncio.gather(*(store.compare_and_set(t, 1, b"1") for t in ids))
        assert all(isinstance(result, CasOk) and result.version == 2 for result in results)
        assert sent == [6]
    finally:
        await store.close()


async def test_the_presence_register_works_on_a_cluster(one_node_cluster: ClusterSetup) -> None:
    """The webhook dispatchers' register is one key, outside every table's slot."""
    prefix = f"present-{uuid.uuid4().hex}:"
    stores = [
        RedisTableStore.from_url(one_node_cluster.url, 600, key_prefix=prefix, cluster=True)
        for _ in range(2)
    ]
    try:
        now = 1_800_000_000.0
        assert await stores[0].present("senders", "a", now, 10.0) == 1
        assert await stores[1].present("senders", None, now + 5, 10.0) == 1
        assert await stores[1].present("senders", None, now + 11, 10.0) == 0
    finally:
        for store in stores:
            await store.close()
