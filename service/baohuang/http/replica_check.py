"""Telling the operator when ``REDIS_WAIT_REPLICAS`` is below the replicas a failover could promote.

With more replicas than it waits for, a failover of a primary that is still up can promote a
replica that never had a write the service answered 200 (docs/deploy.md, "What a 200 guarantees,
topology by topology"). The default stays 1, since 2 would stop every write of a one-replica
setup, so the service counts the replicas (:mod:`baohuang.store.redis_replicas`) and says so: one
warning naming both numbers, and ``baohuang_redis_replicas_unconfirmed`` for an alert. What a
write waits for is never changed here.

The count runs in the background, once at start-up, and again from ``/readyz`` (the one periodic
place the service has) while no count has succeeded yet (Redis was down at start-up) or the last
one is :data:`RECOUNT_SECONDS` old (a replica that was resyncing at start-up, one added since).
A failure to count is logged at info and leaves the gauge as it was: it never stops the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Final, Protocol, runtime_checkable

from ..store import RedisConfig, TableStore
from .metrics import REDIS_REPLICAS_UNCONFIRMED

__all__ = ["DOCS", "RECOUNT_SECONDS", "ReplicaCheck"]

LOGGER: Final = logging.getLogger("baohuang.http")
DOCS: Final = "docs/deploy.md#what-a-200-guarantees-topology-by-topology"
RECOUNT_SECONDS: Final = 300.0


@runtime_checkable
class CountsReplicas(Protocol):
    async def count_replicas(self) -> int: ...


def _publish(mode: str, unconfirmed: int) -> None:
    REDIS_REPLICAS_UNCONFIRMED.labels(mode).set(unconfirmed)


class ReplicaCheck:
    """Counts the replicas behind ``store`` and reports any above ``redis``'s wait."""

    def __init__(
        self,
        store: TableStore,
        redis: RedisConfig | None,
        publish: Callable[[str, int], None] = _publish,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store if isinstance(store, CountsReplicas) else None
        self._mode = redis.mode if redis is not None else "memory"
        self._waited = redis.replicas_to_wait if redis is not None else 0
        self._publish = publish
        self._clock = clock
        self._counted_at: float | None = None
        self._reported: int | None = None  # the last gap warned about: one warning per change
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """At start-up: the in-memory store has no replica (a gap of 0 at once); Redis is asked
        in the background, so a slow or absent Redis never delays the start."""
        if self._store is None:
            self._publish(self._mode, 0)
            return
        self._task = asyncio.create_task(self.count())

    def on_readiness(self) -> None:
        """From ``/readyz``: count again in the background when it is due (module docstring)."""
        if self._store is None or (self._task is not None and not self._task.done()):
            return
        if self._counted_at is not None and self._clock() - self._counted_at < RECOUNT_SECONDS:
            return
        self._task = asyncio.create_task(self.count())

    async def count(self) -> None:
        """Ask once; warn and publish, or log at info why it could not."""
        assert self._store is not None
        try:
            seen = await self._store.count_replicas()
        except Exception as error:  # whatever the failure, the service goes on as before
            LOGGER.info(
                "could not count the Redis replicas (%s): REDIS_WAIT_REPLICAS=%d is not checked",
                type(error).__name__,
                self._waited,
                extra={"redis_mode": self._mode, "wait_replicas": self._waited},
            )
            return
        self._counted_at = self._clock()
        unconfirmed = max(0, seen - self._waited)
        self._publish(self._mode, unconfirmed)
        if unconfirmed and unconfirmed != self._reported:
            LOGGER.warning(
                "Redis reports %d replicas and REDIS_WAIT_REPLICAS=%d: a failover of a primary "
                "that is still up can lose moves answered 200. Set REDIS_WAIT_REPLICAS=%d "
                "(the number of replicas), see %s",
                seen,
                self._waited,
                seen,
                DOCS,
                extra={
                    "redis_mode": self._mode,
                    "replicas": seen,
                    "wait_replicas": self._waited,
                    "docs": DOCS,
                },
            )
        self._reported = unconfirmed

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
