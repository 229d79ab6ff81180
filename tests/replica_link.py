"""A Redis primary and its replica for tests, with the link between them cut and given back
(the replica's ``masterauth`` made wrong, then right), and the waits that go with it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import MovedError

from redis_server import RedisServer


@contextlib.contextmanager
def primary_with_replica() -> Iterator[tuple[RedisServer, RedisServer]]:
    """A primary and a replica of it, both started for the test."""
    with RedisServer.from_environment() as primary:
        replica = RedisServer.from_environment(
            extra_args=("--replicaof", primary.host, str(primary.port))
        )
        with replica:
            yield primary, replica


@contextlib.contextmanager
def primary_with_replicas(count: int) -> Iterator[tuple[RedisServer, list[RedisServer]]]:
    """A primary and ``count`` replicas of it, all started for the test (and all stopped, also
    when one fails to start). Every node starts a full sync at once (Redis waits 5 s by
    default): a node that becomes a replica with writes of its own needs one."""
    at_once = ("--repl-diskless-sync-delay", "0")
    with contextlib.ExitStack() as started:
        primary = started.enter_context(RedisServer.from_environment(extra_args=at_once))
        follow = (*at_once, "--replicaof", primary.host, str(primary.port))
        replicas = [
            started.enter_context(RedisServer.from_environment(extra_args=follow))
            for _ in range(count)
        ]
        yield primary, replicas


async def ask(server: RedisServer, *command: Any) -> Any:
    """One command on its own connection."""
    client = Redis.from_url(server.url)
    try:
        return await client.execute_command(*command)  # type: ignore[no-untyped-call]
    finally:
        await client.aclose()


async def replication(server: RedisServer | str) -> dict[str, Any]:
    """``INFO replication`` of a server (or of the server at a ``redis://`` URL)."""
    client = Redis.from_url(server if isinstance(server, str) else server.url)
    try:
        return await client.info("replication")
    finally:
        await client.aclose()


async def until(check: Callable[[], Awaitable[bool]], timeout: float = 20.0) -> None:
    """Until ``await check()`` holds (``TimeoutError`` after ``timeout`` s)."""
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.05)


async def in_sync(primary: RedisServer) -> bool:
    """Whether the primary has replicas and each holds everything it wrote, a write made by
    this check included. Each replica is asked for the offset it has applied: the offset the
    primary lists for it is the replica's last acknowledgement, sent once a second, and waiting
    for that would cost a second per check.

    The check's own write tells a replica in sync from one that only looks it. After a diskless
    full sync the primary lists the replica ``online`` at once, but starts sending it the
    replication stream only on a ``REPLCONF ACK`` that comes after it reaped the fork that sent
    the data (Redis's ``replicaStartCommandStream``). The replica sends one as it finishes
    loading, then one a second: when the first comes before the fork is reaped, for up to a
    second the replica holds all the primary wrote before and gets nothing it writes now, and a
    ``WAIT`` counts it out (its ``REPLCONF GETACK`` waits in the same buffer)."""
    info = await replication(primary)
    replicas = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]
    if not replicas or any(r.get("state") != "online" for r in replicas):
        return False
    if not await _replicated_write(primary):
        return False
    written = int((await replication(primary))["master_repl_offset"])
    for listed in replicas:
        own = await replication(f"redis://{listed['ip']}:{listed['port']}")
        if own.get("master_link_status") != "up" or int(own["slave_repl_offset"]) < written:
            return False
    return True


async def _replicated_write(primary: RedisServer) -> bool:
    """A write that goes down the replication stream and that no test reads: a ``PUBLISH``,
    or on Redis Cluster (where that travels the cluster bus instead) a short-lived key of its
    own in a slot this node serves. Whether it was made (a Cluster node that serves no slot
    has no replica to check)."""
    if (await ask(primary, "INFO", "cluster")).get("cluster_enabled") != 1:
        await ask(primary, "PUBLISH", "replica-link:in-sync", "probe")
        return True
    for n in range(200):
        with contextlib.suppress(MovedError):  # another node serves that key's slot
            await ask(primary, "SET", f"replica-link:in-sync:{n}", "probe", "PX", 60_000)
            return True
    return False


async def link_up(primary: RedisServer, replica: RedisServer) -> None:
    """Give the replica its link back and wait until it holds everything the primary wrote."""
    await ask(replica, "CONFIG", "SET", "masterauth", "")
    await until(lambda: in_sync(primary))


async def cut_link(primary: RedisServer, replica: RedisServer) -> None:
    """Cut the replica off (it cannot authenticate again) and wait until the primary has none."""
    await ask(replica, "CONFIG", "SET", "masterauth", "bogus")
    await ask(primary, "CLIENT", "KILL", "TYPE", "replica")

    async def gone() -> bool:
        return int((await replication(primary))["connected_slaves"]) == 0

    await until(gone)
