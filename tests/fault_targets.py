"""The fault walk's faults on real replicated Redis (tests/fault_walk.py, :class:`Target`): a
Sentinel setup (one primary, two replicas) and a Redis Cluster (the shard that owns the walked
table), both from tests/redis_topologies.py, with ``REDIS_WAIT_REPLICAS=1``.

* ``lose``: the call runs, and its answer is lost on the way back (the client times out). Its
  write, if any, was acknowledged: a write left on the primary alone is the in-memory walk's
  (and :meth:`_RedisTarget.link` cuts the replicas off for the replay scenario's first try).
* ``switch``: a failover the topology makes itself — ``SENTINEL FAILOVER``, or ``CLUSTER
  FAILOVER`` on the shard's replica — and the demoted primary follows the new one.
* ``rollback``: the replicas cut off, the primary killed, a replica promoted without what the
  primary took since; the killed node comes back empty as a replica.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Final

from baohuang.store import RedisTableStore, StoreUnavailable
from failover_drill import ask, cut_links, mend_links
from redis_server import RedisServer
from redis_topologies import SERVICE, ClusterSetup, SentinelSetup
from replica_link import in_sync, until
from stepped_store import Proceed

SETTLE_SECONDS: Final = 45.0


class _RedisTarget:
    backoff = 0.2
    patience = 20.0

    def __init__(self, store: RedisTableStore) -> None:
        self.store = store

    async def notify(self) -> None:
        await self.store._redis.publish(self.store._channel, "walked")

    def _shard(self) -> tuple[RedisServer, list[RedisServer]]:
        raise NotImplementedError

    async def ready(self) -> None:
        await self.link(True)

    async def link(self, up: bool) -> None:
        primary, replicas = await asyncio.to_thread(self._shard)
        if up:
            await asyncio.to_thread(mend_links, replicas)
            await until(lambda: in_sync(primary), SETTLE_SECONDS)
        else:
            await asyncio.to_thread(cut_links, primary, replicas)

    async def lose(self, proceed: Proceed) -> None:
        with contextlib.suppress(StoreUnavailable):
            await proceed()


class SentinelTarget(_RedisTarget):
    def __init__(self, setup: SentinelSetup, store: RedisTableStore) -> None:
        super().__init__(store)
        self.setup = setup

    def _shard(self) -> tuple[RedisServer, list[RedisServer]]:
        return self.setup.primary(), self.setup.replicas()

    async def ready(self) -> None:
        """Every Sentinel names one primary, done with any failover, and both replicas hold all
        it wrote (the store asks the Sentinels in turn: one naming the old primary sends its
        writes there): :meth:`SentinelSetup.wait_settled`."""
        await asyncio.to_thread(self.setup.wait_settled, SETTLE_SECONDS)
        await super().ready()

    async def fail_over(self, *, lossy: bool) -> None:
        setup = self.setup
        await asyncio.to_thread(setup.wait_settled, SETTLE_SECONDS)
        old = await asyncio.to_thread(setup.primary)
        if lossy:
            await asyncio.to_thread(cut_links, old, setup.replicas())
            old.kill()
            await asyncio.to_thread(mend_links, setup.replicas())
        else:
            sentinel = next(s for s in setup.sentinels if s.running)
            await asyncio.to_thread(ask, sentinel, "SENTINEL", "FAILOVER", SERVICE)
        new = await asyncio.to_thread(_promoted, setup, old)
        if lossy:
            await asyncio.to_thread(setup.rejoin, old, SETTLE_SECONDS)
        else:  # as Sentinel does some seconds later, when it sees the old primary still one
            await asyncio.to_thread(ask, old, "REPLICAOF", new.host, str(new.port))
        await until(lambda: in_sync(new), SETTLE_SECONDS)
        await asyncio.to_thread(setup.wait_settled, SETTLE_SECONDS)


def _promoted(setup: SentinelSetup, old: RedisServer) -> RedisServer:
    """The node a Sentinel names in place of ``old``, once it says it is the primary."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            new = setup.primary()
            if new is not old and ask(new, "ROLE")[0] == b"master":
                return new
        time.sleep(0.05)
    raise RuntimeError(f"no primary in place of {old!r} within {SETTLE_SECONDS:g} s")


class ClusterTarget(_RedisTarget):
    def __init__(self, cluster: ClusterSetup, store: RedisTableStore, key: str) -> None:
        super().__init__(store)
        self.cluster = cluster
        self.key = key

    def _shard(self) -> tuple[RedisServer, list[RedisServer]]:
        primary = self.cluster.primary_of(self.key)
        return primary, self.cluster.replicas_of(primary)

    async def ready(self) -> None:
        """The cluster healthy (every node ``ok``, agreeing on the slots, every link up) before
        a run's first, unretried writes: right after a switch, one of them timed out at a node
        (a CI run at load 20-30)."""
        await asyncio.to_thread(self.cluster.wait_healthy, SETTLE_SECONDS)
        await super().ready()

    async def fail_over(self, *, lossy: bool) -> None:
        old, replicas = await asyncio.to_thread(self._shard)
        promoted = replicas[0]
        if lossy:
            await asyncio.to_thread(cut_links, old, replicas)
            old.kill()
            await asyncio.to_thread(mend_links, replicas)
            await asyncio.to_thread(ask, promoted, "CLUSTER", "FAILOVER", "TAKEOVER")
            await asyncio.to_thread(self.cluster.wait_promoted, promoted, SETTLE_SECONDS)
            await asyncio.to_thread(self.cluster.rejoin, old, promoted, SETTLE_SECONDS)
        else:
            await asyncio.to_thread(self.cluster.fail_over, promoted, old, SETTLE_SECONDS)
            await until(lambda: in_sync(promoted), SETTLE_SECONDS)
