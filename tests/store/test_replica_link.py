"""The check the failover tests wait on before a write that a replica must confirm
(tests/replica_link.py, ``in_sync``), against a replica that is linked and listed ``online``, holds
everything its primary wrote, and gets nothing the primary writes now.

Redis makes that replica after a diskless full sync: it sends the replica the replication
stream only on a ``REPLCONF ACK`` that comes after it reaped the fork that sent the data, and when
the one the replica sends as it finishes loading comes before, the next comes up to a second
later; a ``WAIT`` meanwhile counts the replica out. Which comes first is the operating system's to
decide; here the replica replicates through a proxy (tests/primary_proxy.py) that holds what the
primary sends for as long as the test says.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from primary_proxy import PrimaryProxy
from redis_server import RedisServer
from replica_link import ask, in_sync, replication, until

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture
async def held() -> AsyncIterator[tuple[RedisServer, PrimaryProxy]]:
    """A primary, and a replica of it through a proxy that is holding what the primary sends;
    the replica was in sync when the proxy began to hold."""
    at_once = ("--repl-diskless-sync-delay", "0")  # Redis waits 5 s for more replicas to ask
    with (
        RedisServer.from_environment(extra_args=at_once) as primary,
        RedisServer.from_environment() as replica,
    ):
        proxy = await PrimaryProxy(primary).start()
        try:
            host, port = proxy.url.removeprefix("redis://").removesuffix("/0").split(":")
            await ask(replica, "REPLICAOF", host, port)
            await until(lambda: in_sync(primary))
            proxy.hold()
            yield primary, proxy
        finally:
            await proxy.close()


async def test_a_replica_that_gets_nothing_now_is_not_in_sync(
    held: tuple[RedisServer, PrimaryProxy],
) -> None:
    primary, proxy = held
    listed = await replication(primary)
    (replica,) = [v for k, v in listed.items() if k.startswith("slave") and isinstance(v, dict)]
    own = await replication(f"redis://{replica['ip']}:{replica['port']}")
    assert replica["state"] == "online" and own["master_link_status"] == "up"
    assert own["slave_repl_offset"] == listed["master_repl_offset"], "it holds all written"

    assert not await in_sync(primary), "a replica that gets nothing written now is not in sync"

    client = Redis.from_url(primary.url)
    try:
        await client.set("held", 1)
        assert await client.wait(1, 300) == 0, "a WAIT meanwhile counts it out"
        proxy.release()
        await until(lambda: in_sync(primary), 5.0)
        await client.set("released", 1)
        assert await client.wait(1, 300) == 1, "once in sync, it confirms at once"
    finally:
        await client.aclose()
