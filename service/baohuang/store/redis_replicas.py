"""How many replicas a table write could be confirmed by, as Redis itself reports it.

``REDIS_WAIT_REPLICAS`` below that number leaves acknowledged writes to be lost when a failover
promotes a replica while the old primary is still up (docs/deploy.md, "What a 200 guarantees"):
the service counts the replicas once at start-up so that it can say so (:mod:`baohuang.http.
replica_check`). Counting never changes what a write waits for.

What counts is a replica that a failover could promote now, the same replicas whose ``WAIT``
could confirm a write:

* ``sentinel``: ``SENTINEL REPLICAS <service>`` of the first Sentinel that answers, without the
  replicas it flags down (``s_down``, ``o_down``) or ``disconnected``: Sentinel never promotes
  those, and it keeps listing a replica long after it is gone for good (until ``SENTINEL
  RESET``), so counting every listed one would warn about nodes that no longer exist.
* ``cluster``: ``CLUSTER NODES`` of any node; per primary that serves slots, its replicas not
  flagged ``fail``/``fail?``; the fewest over the primaries (the shard most exposed decides).
* ``standalone``: ``connected_slaves`` of ``INFO replication`` (a proxy in front of a primary may
  not pass ``INFO`` on: the count then fails, and the service says nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.sentinel import Sentinel
from redis.exceptions import RedisError

__all__ = ["count_replicas", "replicas_in_cluster", "replicas_in_sentinel_answer"]

_SENTINEL_DOWN: Final = ("is_sdown", "is_odown", "is_disconnected")
_CLUSTER_DOWN: Final = frozenset({"fail", "fail?", "handshake", "noaddr"})


def replicas_in_sentinel_answer(replicas: Iterable[Mapping[str, Any]]) -> int:
    """The replicas of a ``SENTINEL REPLICAS`` answer (as redis-py parses it) not flagged down."""
    return sum(1 for replica in replicas if not any(replica.get(f) for f in _SENTINEL_DOWN))


def replicas_in_cluster(nodes: Mapping[str, Mapping[str, Any]]) -> int:
    """The fewest working replicas of any primary serving slots, in a ``CLUSTER NODES`` answer
    (as redis-py parses it: address → fields)."""
    flagged = [(set(str(node["flags"]).split(",")), node) for node in nodes.values()]
    working = [(flags, node) for flags, node in flagged if not flags & _CLUSTER_DOWN]
    primaries = [node["node_id"] for flags, node in working if "master" in flags and node["slots"]]
    if not primaries:
        raise ValueError("CLUSTER NODES names no primary serving slots")
    followers = [node["master_id"] for flags, node in working if "slave" in flags]
    return min(followers.count(primary) for primary in primaries)


async def count_replicas(
    client: Redis | RedisCluster, sentinel: Sentinel | None, service: str | None
) -> int:
    """The replicas a failover could promote now (module docstring); raises
    :class:`~redis.exceptions.RedisError` (or ``ValueError`` on an answer it cannot read) when
    no one answers."""
    if sentinel is not None and service is not None:
        failure: RedisError | None = None
        for asked in sentinel.sentinels:
            try:
                return replicas_in_sentinel_answer(await asked.sentinel_slaves(service))
            except RedisError as error:  # the next Sentinel may answer
                failure = error
        raise failure or RedisError("no Sentinel to ask")
    if isinstance(client, RedisCluster):
        return replicas_in_cluster(await client.cluster_nodes())
    info = await client.info("replication")
    return int(info["connected_slaves"])
