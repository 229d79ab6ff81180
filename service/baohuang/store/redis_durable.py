"""Writes that wait for replicas (``WAIT`` on the write's own connection), and the options every
Redis client of the store is made with (see :mod:`.redis`, "Durable acknowledgement")."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, PipelineCommand, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ClusterError,
    MovedError,
    NoScriptError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .redis_failures import REDIRECTIONS

logger = logging.getLogger("baohuang.store")

SOCKET_TIMEOUT_SECONDS: Final = 0.5
"""Long enough for a multi-KiB snapshot on a busy server, short enough to answer 503 in ~1 s."""
RETRIES: Final = 1
HEALTH_CHECK_INTERVAL_SECONDS: Final = 30
"""A connection idle this long is PINGed before use, so a dead one is replaced, not failed on."""


async def write_and_wait(
    client: Redis,
    script: AsyncScript,
    keys: list[str],
    args: list[bytes | int | str],
    wait: tuple[str, int, int],
) -> tuple[Any, Any]:
    """One Redis or a Sentinel-managed primary: ``EVALSHA`` then ``WAIT`` in one pipeline
    (no ``MULTI``), which redis-py sends on one connection and, on a connection error,
    sends again whole on a new one. Loads the script once when Redis lost it."""
    # redis-py's Pipeline.execute sends it again after a connection error (its Retry): to the
    # address the connection had
    for _ in range(2):
        pipe = client.pipeline(transaction=False)
        pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
        pipe.execute_command(*wait)
        reply, acknowledged = await pipe.execute(raise_on_error=False)
        if not isinstance(reply, NoScriptError):
            break
        await client.script_load(script.script)
    if isinstance(reply, Exception):
        raise reply
    return reply, acknowledged


async def cluster_write_and_wait(
    cluster: RedisCluster,
    script: AsyncScript,
    keys: list[str],
    args: list[bytes | int | str],
    wait: tuple[str, int, int],
) -> tuple[Any, Any]:
    """Redis Cluster: ``EVALSHA`` then ``WAIT`` pipelined on one connection of the node that
    owns the key (the client's own pipeline would send ``WAIT`` to every node), following
    ``MOVED``/``ASK`` (at most :data:`REDIRECTIONS`) as the client does. A connection
    error makes the client read the cluster's layout again before the next command."""
    # mirrors redis-py's RedisCluster._execute_command: its redirections (MOVED:
    # NodesManager.move_slot; ASK: ASKING first, on the same connection) and ClusterNode.
    # execute_pipeline for the pair on one connection
    await cluster.initialize()  # a no-op unless the client was told to re-read the layout
    node = cluster.get_node_from_key(keys[0])
    asking = False
    for _ in range(REDIRECTIONS):
        if node is None:
            break
        commands = [
            PipelineCommand(0, "EVALSHA", script.sha, len(keys), *keys, *args),
            PipelineCommand(1, *wait),
        ]
        if asking:
            commands.insert(0, PipelineCommand(0, "ASKING"))
        try:
            await node.execute_pipeline(commands)
        except (RedisConnectionError, RedisTimeoutError, OSError):
            await relearn_layout(cluster, node)
            raise
        reply, acknowledged = commands[-2].result, commands[-1].result
        if isinstance(reply, NoScriptError):
            await node.execute_command("SCRIPT", "LOAD", script.script)
            continue
        asking = False
        if isinstance(reply, MovedError):
            await cluster.nodes_manager.move_slot(reply)
            node = cluster.get_node_from_key(keys[0])
            continue
        if isinstance(reply, AskError):
            node, asking = cluster.get_node(host=reply.host, port=reply.port), True
            continue
        if isinstance(reply, (RedisConnectionError, RedisTimeoutError, ClusterDownError)):
            await relearn_layout(cluster, node)
        if isinstance(reply, Exception):
            raise reply
        return reply, acknowledged
    raise ClusterError(f"{keys[0]}: redirected {REDIRECTIONS} times")


def client_options(
    socket_timeout: float,
    retries: int,
    wait_replicas: int,
    wait_timeout_ms: int,
    username: str | None,
    password: str | None,
) -> dict[str, Any]:
    """Connection options of every mode: short timeouts (longer than ``WAIT`` may block when
    writes wait for replicas), one retry, a health check, a client name, credentials if any."""
    read_timeout = socket_timeout + (wait_timeout_ms / 1000 if wait_replicas else 0)
    options: dict[str, Any] = {
        "socket_timeout": read_timeout,
        "socket_connect_timeout": socket_timeout,
        "retry": Retry(ExponentialBackoff(cap=0.1, base=0.02), retries),
        "health_check_interval": HEALTH_CHECK_INTERVAL_SECONDS,
        "client_name": "baohuang-rules",
    }
    if username:
        options["username"] = username
    if password:
        options["password"] = password
    return options


async def relearn_layout(cluster: RedisCluster, node: ClusterNode) -> None:
    """After ``node`` failed under a write: drop its idle connections and read the cluster's
    layout again (bounded; a failure here changes nothing, the write already failed)."""
    # mirrors the connection-error branch of redis-py's RedisCluster._execute_command
    node.update_active_connections_for_reconnect()
    try:
        async with asyncio.timeout(2 * SOCKET_TIMEOUT_SECONDS):
            await node.disconnect_free_connections()
            await cluster.nodes_manager.initialize(last_failed_node_name=node.name)
    except Exception as exc:  # the next command tries again; this one answers 503 anyway
        logger.debug("re-reading the cluster layout failed: %r", exc)
