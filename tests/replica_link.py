"""A Redis primary and its replica for tests, with the link between them cut and given back
(the replica's ``masterauth`` made wrong, then right), and the waits that go with it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from redis.asyncio import Redis

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
    """Whether the primary has replicas and each holds everything it wrote. Each replica is
    asked for the offset it has applied: the offset the primary lists for it is the replica's
    last acknowledgement, sent once a second, and waiting for that would cost a second per
    check."""
    info = await replication(primary)
    written = int(info["master_repl_offset"])
    replicas = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]
    if not replicas or any(r.get("state") != "online" for r in replicas):
        return False
    for listed in replicas:
        own = await replication(f"redis://{listed['ip']}:{listed['port']}")
        if own.get("master_link_status") != "up" or int(own["slave_repl_offset"]) < written:
            return False
    return True


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
