"""Fixtures of the table-service tests: stores of each kind, over the same tables."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from baohuang.store import MemoryTableStore, RedisTableStore, TableStore
from redis_server import shared_redis_url


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def stores(request: pytest.FixtureRequest) -> AsyncIterator[list[TableStore]]:
    """Two stores over the same tables, as two replicas have (one shared store in memory: there
    is one process)."""
    if request.param == "memory":
        memory = MemoryTableStore()
        yield [memory, memory]
        return
    url = shared_redis_url() or request.getfixturevalue("redis_server").url
    prefix = f"tables-test:{uuid.uuid4().hex}:"
    made = [RedisTableStore.from_url(url, key_prefix=prefix) for _ in range(2)]
    try:
        yield list(made)
    finally:
        for one in made:
            await one.close()
        raw = Redis.from_url(url)
        keys = [key async for key in raw.scan_iter(match=f"{prefix}*")]
        if keys:
            await raw.delete(*keys)
        await raw.aclose()


@pytest.fixture
def store(stores: list[TableStore]) -> TableStore:
    """One store of each kind."""
    return stores[0]
