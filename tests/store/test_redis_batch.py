"""Auto-pipelining (``store/redis_batch.py``): the commands of one loop turn leave together,
each keeps its own answer, and every failure is handled as without batching.

Durable batches (one ``WAIT`` for all the writes of a batch) are tested beside the other durable
writes, on a real primary and replica, in ``test_redis_modes.py``; Redis Cluster in
``test_redis_cluster_store.py``.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from baohuang.store import (
    CasConflict,
    CasOk,
    RedisTableStore,
    StoredTable,
    StoreUnavailable,
    redis_batch,
)

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisTableStore]:
    made = RedisTableStore.from_url(redis_url, 600, key_prefix=f"batch-{uuid.uuid4().hex}:")
    yield made
    raw = Redis.from_url(redis_url)
    keys = [key async for key in raw.scan_iter(match=made.key("*") + "*")]
    if keys:
        await raw.delete(*keys)
    await raw.aclose()
    await made.close()


async def test_one_loop_turn_leaves_as_one_pipeline(
    store: RedisTableStore, exchanges: list[list[str]]
) -> None:
    ids = [f"t{n}" for n in range(12)]
    for table_id in ids:
        await store.put(table_id, b"0")
    exchanges.clear()
    results = await asyncio.gather(
        *(store.compare_and_set(table_id, 1, b"1") for table_id in ids),
        *(store.get(table_id) for table_id in ids[:3]),
        store.schedule("t0", 1234.5),
    )
    assert exchanges == [["EVALSHA"] * 15 + ["ZADD"]]
    assert all(isinstance(result, CasOk) and result.version == 2 for result in results[:12])
    # the reads were sent after the writes, in the same pipeline: they see them
    read = [table.version for table in results[12:15] if isinstance(table, StoredTable)]
    assert read == [2, 2, 2]
    # and a stale write among fresh ones is refused alone
    exchanges.clear()
    stale, fresh = await asyncio.gather(
        store.compare_and_set("t0", 1, b"x"), store.compare_and_set("t1", 2, b"2")
    )
    assert stale == CasConflict(2) and isinstance(fresh, CasOk)
    assert len(exchanges) == 1


async def test_an_error_reply_is_that_command_s_alone(store: RedisTableStore) -> None:
    """A command Redis refuses (here: the deadline index is not a sorted set) fails; the
    commands sent with it do not notice."""
    await store.put("t", b"0")
    raw = store._redis
    assert isinstance(raw, Redis)
    await raw.set(store._indexes["deadlines"], "not a sorted set")
    cas, refused = await asyncio.gather(
        store.compare_and_set("t", 1, b"1"),
        store.schedule("t", 10.0),
        return_exceptions=True,
    )
    assert isinstance(cas, CasOk)
    assert isinstance(refused, ResponseError) and "WRONGTYPE" in str(refused)
    assert await store.get("t") is not None
    await raw.delete(store._indexes["deadlines"])


async def test_scripts_redis_forgot_are_loaded_again_for_a_whole_batch(
    store: RedisTableStore, exchanges: list[list[str]]
) -> None:
    for n in range(5):
        await store.put(f"t{n}", b"0")
    raw = store._redis
    assert isinstance(raw, Redis)
    await raw.script_flush()  # a restart or a failover: every command of the batch is NOSCRIPT
    exchanges.clear()
    results = await asyncio.gather(*(store.compare_and_set(f"t{n}", 1, b"1") for n in range(5)))
    assert all(isinstance(result, CasOk) for result in results)
    assert len(exchanges) == 1  # then each went alone, the way that loads the script
    exchanges.clear()
    await asyncio.gather(*(store.compare_and_set(f"t{n}", 2, b"2") for n in range(5)))
    assert len(exchanges) == 1  # and batching goes on


def _break_after(monkeypatch: pytest.MonkeyPatch, replies: int, times: int = 1) -> list[int]:
    """Make connections drop (as a reset would) after ``replies`` replies of the next
    ``times`` batches; returns the count of drops."""
    drops: list[int] = []
    read = Connection.read_response
    state = {"read": 0, "batches": 0}
    exchange = redis_batch._exchange

    async def counting(connection: Any, commands: list[Any]) -> Any:
        state["read"] = 0
        state["batches"] += 1
        return await exchange(connection, commands)

    async def flaky(self: Connection, *args: Any, **kwargs: Any) -> Any:
        if state["batches"] and len(drops) < times and state["read"] == replies:
            drops.append(1)
            state["batches"] = 0
            await self.disconnect()
            raise RedisConnectionError("Connection reset by peer (test)")
        state["read"] += 1
        return await read(self, *args, **kwargs)

    monkeypatch.setattr(redis_batch, "_exchange", counting)
    monkeypatch.setattr(Connection, "read_response", flaky)
    return drops


async def test_a_connection_lost_mid_batch_sends_the_rest_again_once(
    store: RedisTableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writes after the break ran or not; sent again with their tokens, each is applied
    exactly once, and none is answered a false conflict."""
    for n in range(6):
        await store.put(f"t{n}", b"0")
    drops = _break_after(monkeypatch, replies=2)
    results = await asyncio.gather(*(store.compare_and_set(f"t{n}", 1, b"1") for n in range(6)))
    assert drops == [1]
    assert all(isinstance(result, CasOk) and result.version == 2 for result in results)
    for n in range(6):
        table = await store.get(f"t{n}")
        assert table is not None and (table.version, table.snapshot) == (2, b"1")


async def test_a_connection_lost_twice_is_unavailable(
    store: RedisTableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        await store.put(f"t{n}", b"0")
    _break_after(monkeypatch, replies=1, times=2)
    results = await asyncio.gather(
        *(store.compare_and_set(f"t{n}", 1, b"1") for n in range(3)), return_exceptions=True
    )
    assert isinstance(results[0], CasOk)  # answered before the first break
    assert all(isinstance(result, StoreUnavailable) for result in results[1:])


async def test_a_caller_that_gives_up_leaves_the_connection_in_step(
    store: RedisTableStore,
) -> None:
    """A cancelled request no longer waits for its reply, but the batch reads it all the same:
    the connection stays in step for the next commands (redis-py alone would drop it)."""
    for n in range(4):
        await store.put(f"t{n}", b"0")
    tasks = [asyncio.ensure_future(store.compare_and_set(f"t{n}", 1, b"1")) for n in range(4)]
    await asyncio.sleep(0)  # all four submitted, the batch on its way
    tasks[1].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(done[1], asyncio.CancelledError)
    assert all(isinstance(done[n], CasOk) for n in (0, 2, 3))
    for n in range(4):
        table = await store.get(f"t{n}")
        assert table is not None and table.version in (1, 2)
        assert table.version == 2 or n == 1
