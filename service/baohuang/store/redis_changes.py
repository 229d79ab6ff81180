"""The Redis table store's change notifications: one subscription per process to the channel
every write publishes its table's id on (see :mod:`.redis`, "Every write publishes")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from .base import RECHECK_ALL
from .redis_durable import SOCKET_TIMEOUT_SECONDS
from .redis_failures import is_outage
from .redis_replies import as_str

logger = logging.getLogger("baohuang.store")

RESUBSCRIBE_SECONDS: Final = 1.0
"""How long the changes subscriber waits before subscribing again after losing Redis."""


async def subscribe(
    client: Redis | RedisCluster, channel: str, closed: Callable[[], bool]
) -> AsyncIterator[str]:
    """Table ids from ``channel`` until ``closed()``; after losing Redis it subscribes again
    and yields :data:`RECHECK_ALL` (anything may have happened meanwhile)."""
    while not closed():
        pubsub = client.pubsub()
        try:
            if isinstance(client, RedisCluster):
                # redis-py's cluster Pub/Sub looks the channel's slot up in the client's slot
                # cache without filling it first (redis/redis-py#4296): on a client that has
                # sent no command yet that is a bare KeyError. Read the layout first (a no-op
                # once it is known).
                await client.initialize()
            await pubsub.subscribe(channel)
            yield RECHECK_ALL  # anything may have happened while not subscribed
            while not closed():
                message = await pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=SOCKET_TIMEOUT_SECONDS / 2
                )
                if message is not None and message.get("type") == "message":
                    yield as_str(message["data"])
        except Exception as exc:
            if not is_outage(exc):
                raise
            logger.warning("changes subscription lost (%s); subscribing again", exc)
            await asyncio.sleep(RESUBSCRIBE_SECONDS)
        finally:
            await _close_quietly(pubsub)


async def _close_quietly(pubsub: Any) -> None:
    """Close a subscription, even one cut off by an outage or a cancellation: bounded, since a
    connection torn down under it may never answer (a stuck close would hold up shutdown)."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(SOCKET_TIMEOUT_SECONDS * 2):
            await pubsub.aclose()
