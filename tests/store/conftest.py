"""Fixtures for the store tests: one contract suite, run against every TableStore implementation.

``harness`` is parametrised over ``memory`` and ``redis``; each instance gives a fresh store with
its own key prefix (so tests never see each other's tables, even on a shared ``REDIS_URL``), and
the two things a contract test cannot do through the interface: read a table's remaining TTL and
make time pass for it.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any, Protocol

import pytest
from redis import Redis as SyncRedis
from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from baohuang.store import MemoryTableStore, RedisTableStore, TableStore
from baohuang.store.base import Observe, no_observe
from redis_server import RedisServer, shared_redis_url

TEST_TTL_SECONDS = 3600


class FakeClock:
    """A monotonic clock that only moves when told to."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


Observation = tuple[str, str, float]


class Harness(Protocol):
    """What a contract test gets: a store plus backend-specific peeks and levers."""

    kind: str
    ttl_seconds: int
    store: TableStore
    observed: list[Observation]

    async def remaining_ttl(self, table_id: str) -> float | None:
        """Seconds until the table expires; ``None`` when it does not exist."""
        ...

    async def age(self, table_id: str, seconds: float) -> None:
        """Make ``seconds`` pass for the table (its remaining TTL shrinks by that much)."""
        ...

    async def other_stores(self, count: int) -> list[TableStore]:
        """Stores over the same tables with their own connections (replicas, in effect)."""
        ...

    def with_max_remembered(self, most: int) -> TableStore:
        """A store of this kind that keeps at most ``most`` remembered answers per table."""
        ...

    async def close(self) -> None: ...


class MemoryHarness:
    kind = "memory"

    def __init__(self, ttl_seconds: int) -> None:
        self.ttl_seconds = ttl_seconds
        self.clock = FakeClock()
        self.observed: list[Observation] = []
        self.memory = MemoryTableStore(
            ttl_seconds,
            clock=self.clock,
            observe=lambda op, outcome, s: self.observed.append((op, outcome, s)),
        )
        self.store: TableStore = self.memory

    async def remaining_ttl(self, table_id: str) -> float | None:
        entry = self.memory._live(table_id, self.clock())
        return None if entry is None else entry.expires_at - self.clock()

    async def age(self, table_id: str, seconds: float) -> None:
        self.clock.advance(seconds)  # ages every table, which no contract test minds

    async def other_stores(self, count: int) -> list[TableStore]:
        return [self.store] * count  # one process, one store: there are no replicas to make

    def with_max_remembered(self, most: int) -> TableStore:
        return MemoryTableStore(self.ttl_seconds, clock=self.clock, max_remembered=most)

    async def close(self) -> None:
        await self.store.close()


class RedisHarness:
    kind = "redis"

    def __init__(self, url: str, ttl_seconds: int) -> None:
        self.url = url
        self.ttl_seconds = ttl_seconds
        self.prefix = f"baohuang-test:{uuid.uuid4().hex}:"
        self.observed: list[Observation] = []
        self.redis_store = self._make_store(
            observe=lambda op, outcome, s: self.observed.append((op, outcome, s))
        )
        self.store: TableStore = self.redis_store
        self._extra: list[TableStore] = []
        self.raw: Redis = Redis.from_url(url)

    def _make_store(self, observe: Observe = no_observe) -> RedisTableStore:
        return RedisTableStore.from_url(
            self.url, self.ttl_seconds, key_prefix=self.prefix, observe=observe
        )

    async def remaining_ttl(self, table_id: str) -> float | None:
        pttl = await self.raw.pttl(self.redis_store.key(table_id))
        if pttl == -2:
            return None
        assert pttl >= 0, f"table key has no expiry (PTTL {pttl})"
        return pttl / 1000

    async def age(self, table_id: str, seconds: float) -> None:
        key = self.redis_store.key(table_id)
        pttl = await self.raw.pttl(key)
        assert pttl >= 0, f"table key has no expiry (PTTL {pttl})"
        left = pttl - round(seconds * 1000)
        if left <= 0:
            await self.raw.delete(key)  # what Redis does once the TTL runs out
        else:
            await self.raw.pexpire(key, left)

    async def other_stores(self, count: int) -> list[TableStore]:
        stores: list[TableStore] = [self._make_store() for _ in range(count)]
        self._extra.extend(stores)
        return stores

    def with_max_remembered(self, most: int) -> TableStore:
        store = RedisTableStore.from_url(
            self.url, self.ttl_seconds, key_prefix=self.prefix, max_remembered=most
        )
        self._extra.append(store)
        return store

    async def close(self) -> None:
        for store in self._extra:
            await store.close()
        await self.store.close()
        keys = [key async for key in self.raw.scan_iter(match=f"{self.prefix}*", count=1000)]
        if keys:
            await self.raw.delete(*keys)
        await self.raw.aclose()


@pytest.fixture(scope="session")
def own_redis() -> Iterator[RedisServer]:
    """A redis-server of this test session, on its own port: tests may kill or pause it."""
    server = RedisServer.from_environment()
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def killable_redis(own_redis: RedisServer) -> Iterator[RedisServer]:
    """:func:`own_redis`, running and answering at the start and end of every test."""
    own_redis.resume()
    own_redis.start()
    try:
        yield own_redis
    finally:
        own_redis.resume()
        own_redis.start()


@pytest.fixture(scope="session")
def redis_url(request: pytest.FixtureRequest) -> str:
    """``REDIS_URL`` when set, else this session's own redis-server (or skip / fail in CI)."""
    url = shared_redis_url()
    if url is not None:
        probe = SyncRedis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2, retry=Retry(NoBackoff(), 0)
        )
        try:
            probe.ping()
        except RedisError as exc:  # configured explicitly, so down is a failure, never a skip
            pytest.fail(f"REDIS_URL={url} does not answer PING: {exc}")
        finally:
            probe.close()
        return url
    server: RedisServer = request.getfixturevalue("own_redis")
    return server.url


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def harness(request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    """A fresh, empty store of each kind."""
    made: Harness
    if request.param == "memory":
        made = MemoryHarness(TEST_TTL_SECONDS)
    else:
        url: str = request.getfixturevalue("redis_url")
        made = RedisHarness(url, TEST_TTL_SECONDS)
    try:
        yield made
    finally:
        await made.close()


@pytest.fixture
def exchanges(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """The names of the commands of every pipeline the Redis store's batcher sends
    (store/redis_batch.py), pipeline by pipeline."""
    from baohuang.store import redis_batch

    sent: list[list[str]] = []
    exchange = redis_batch._exchange

    async def counting(connection: Any, commands: list[Any]) -> Any:
        sent.append([str(command[0]) for command in commands])
        return await exchange(connection, commands)

    monkeypatch.setattr(redis_batch, "_exchange", counting)
    yield sent
