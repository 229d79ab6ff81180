"""A 200 stands for a move that every replica Sentinel may promote holds: real Redis (a primary
and two replicas), and one replica promoted at a chosen step of a move while the old primary
still runs and its other replica still follows it.

That is how Sentinel fails over a primary it finds down that is not (a partition, or Sentinels
misjudging a primary they had just switched to: the Sentinel drill did so by itself, see
tests/redis_topologies.py): it promotes one replica (``REPLICAOF NO ONE``) and reconfigures the
others only afterwards, the old primary last. Meanwhile the old primary takes writes, and its
remaining replica confirms them. Here the move's read finds the table, the promotion comes
before its compare-and-set, the write runs on the old primary, and then the failover ends as
Sentinel ends it: the other replica and the old primary follow the promoted one, which never had
the move.

* ``WAIT`` for every replica (``REDIS_WAIT_REPLICAS`` = the replicas, docs/deploy.md "What a 200
  guarantees"): the move is 503 ``OUTCOME_UNKNOWN``, never 200, and its retry with the same key
  makes it afresh on the new primary.
* ``WAIT`` for one of two (the mode's default): the old primary's remaining replica confirms it,
  the move is answered 200, and it is gone once that replica follows the new primary — the limit
  docs/deploy.md states for fewer than all replicas.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from baohuang.engine import PlayMove
from baohuang.store import RedisTableStore, StoreOutcomeUnknown
from baohuang.tables import Authority, MoveAnswer, TableService
from baohuang.tables.callers import PLATFORM
from redis_server import RedisServer
from replica_link import ask, in_sync, primary_with_replicas, replication, until
from stepped_store import Call, Proceed, SteppedStore
from table_support import SMALL

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

MOVE = PlayMove(0, ["7S", "7H"])
KEY = "the-move"
WAIT_MS = 2000
"""Long enough for replicas on a loaded machine (they confirmed nothing in 300 ms at load 6);
only the move the old primary's last replica cannot confirm waits it out."""
UNCONFIRMABLE_MS = 500
"""The wait of the move that ``WAIT 2`` cannot confirm (one replica is left to the old primary,
whatever the load): the store waits it out more than once before it answers 503."""


@pytest.fixture
def nodes() -> Iterator[tuple[RedisServer, RedisServer, RedisServer]]:
    """The primary, the replica to be promoted, and the replica left following the primary."""
    with primary_with_replicas(2) as (primary, (promoted, follower)):
        yield primary, promoted, follower


@asynccontextmanager
async def _service(
    server: RedisServer, prefix: str, wait_replicas: int, wait_ms: int = WAIT_MS
) -> AsyncIterator[tuple[TableService, SteppedStore]]:
    store = RedisTableStore.from_url(
        server.url, key_prefix=prefix, wait_replicas=wait_replicas, wait_timeout_ms=wait_ms
    )
    stepped = SteppedStore(store)
    try:
        yield TableService(stepped.store, Authority((), "promotion-secret")), stepped
    finally:
        await store.close()


async def _every_replica_in_sync(primary: RedisServer) -> None:
    async def both() -> bool:
        listed = int((await replication(primary))["connected_slaves"]) == 2
        return listed and await in_sync(primary)

    await until(both)


async def _table_on_every_node(
    nodes: tuple[RedisServer, RedisServer, RedisServer], prefix: str, table: str
) -> None:
    primary, _, _ = nodes
    await _every_replica_in_sync(primary)
    async with _service(primary, prefix, 2) as (tables, _):
        await tables.create(table, SMALL, PLATFORM)
    await _every_replica_in_sync(primary)


async def _move_through_a_promotion(
    nodes: tuple[RedisServer, RedisServer, RedisServer],
    prefix: str,
    table: str,
    wait: int,
    wait_ms: int = WAIT_MS,
) -> MoveAnswer[Any]:
    """The keyed move, with ``promoted`` made a primary just before the move's compare-and-set;
    the failover ended (everyone follows ``promoted``) whatever the move's answer, which is
    returned (or what the move raised, raised)."""
    primary, promoted, follower = nodes
    async with _service(primary, prefix, wait, wait_ms) as (tables, stepped):

        async def promote_before_the_write(call: Call, proceed: Proceed) -> Any:
            if call.operation == "compare_and_set":
                await ask(promoted, "REPLICAOF", "NO", "ONE")

                async def left() -> bool:
                    return int((await replication(primary))["connected_slaves"]) == 1

                await until(left)  # the old primary has the follower only
            return await proceed()

        try:
            with stepped.stepping(promote_before_the_write) as calls:
                return await tables.move(table, PLATFORM, MOVE, 1, idempotency_key=KEY)
        finally:
            assert "compare_and_set" in [call.operation for call in calls], calls
            for node in (follower, primary):  # as Sentinel ends a failover
                await ask(node, "REPLICAOF", promoted.host, str(promoted.port))
            await _every_replica_in_sync(promoted)


async def _version_on(server: RedisServer, prefix: str, table: str) -> int:
    async with _service(server, prefix, 0) as (tables, _):
        return (await tables.read(table, PLATFORM)).version


async def test_a_move_every_replica_must_confirm_is_503_when_one_was_promoted_under_it(
    nodes: tuple[RedisServer, RedisServer, RedisServer],
) -> None:
    prefix, table = f"promotion:{uuid.uuid4().hex}:", "all-replicas"
    await _table_on_every_node(nodes, prefix, table)
    with pytest.raises(StoreOutcomeUnknown):
        answer = await _move_through_a_promotion(nodes, prefix, table, 2, UNCONFIRMABLE_MS)
        pytest.fail(f"a move the promoted replica never had was answered: {answer}")
    _, promoted, _ = nodes
    assert await _version_on(promoted, prefix, table) == 1, "the new primary never had the move"
    async with _service(promoted, prefix, 2) as (tables, _):
        again = await tables.move(table, PLATFORM, MOVE, 1, idempotency_key=KEY)
    assert (again.version, again.replayed) == (2, False), "the retry makes the move afresh"
    assert await _version_on(promoted, prefix, table) == 2


async def test_a_move_one_of_two_replicas_confirmed_is_lost_to_such_a_promotion(
    nodes: tuple[RedisServer, RedisServer, RedisServer],
) -> None:
    prefix, table = f"promotion:{uuid.uuid4().hex}:", "one-replica"
    await _table_on_every_node(nodes, prefix, table)
    answer = await _move_through_a_promotion(nodes, prefix, table, wait=1)
    assert (answer.version, answer.replayed) == (2, False), "answered 200, as if kept"
    _, promoted, _ = nodes
    assert await _version_on(promoted, prefix, table) == 1, "and gone: the limit docs state"
