"""Redis-only behaviour: key layout, restarts of the service and of Redis, outages, Cluster.

Outage tests kill or freeze this session's own redis-server (``killable_redis``), never
``REDIS_URL`` nor a shared server.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from baohuang.store import (
    CasConflict,
    CasOk,
    DealEnd,
    MemoryTableStore,
    PutResult,
    RedisTableStore,
    StoredTable,
    StoreUnavailable,
    open_store,
)
from matchers import ANY_TOKEN
from redis_server import RedisServer

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

FAIL_FAST_SECONDS = 10.0
"""A socket timeout and one retry end an operation on a dead or frozen Redis in about a second
(0.1 s each for the frozen one here); without them it waits for the OS, or for good. The bound
is that loose so that only a missing timeout or a stall breaks it, not a loaded machine; how
fast it fails is bench/'s to measure."""


def _prefix() -> str:
    return f"baohuang-test:{uuid.uuid4().hex}:"


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def store(redis_url: str, raw: Redis) -> AsyncIterator[RedisTableStore]:
    made = RedisTableStore.from_url(redis_url, 600, key_prefix=_prefix())
    yield made
    await made.close()
    keys = [key async for key in raw.scan_iter(match=made.key("*") + "*")]
    if keys:
        await raw.delete(*keys)


async def test_a_table_is_four_keys_in_one_hash_slot_with_one_ttl(
    store: RedisTableStore, raw: Redis
) -> None:
    """The hash, its event log, its remembered answers and their order share the table id as
    hash tag, so every script may touch all four on Redis Cluster; every write sets all TTLs."""
    await store.put("t", b"snap")
    await store.compare_and_set("t", 1, b"snap2", events=[b"e1", b"e2"], remember=("k", b"r"))
    key = store.key("t")
    found = sorted([k async for k in raw.scan_iter(match=key + "*")])
    assert found == sorted(k.encode() for k in (key, f"{key}:idem", f"{key}:idemq", f"{key}:log"))
    assert {key_slot(k) for k in found} == {key_slot(b"t")}
    assert await raw.type(key) == b"hash"
    assert await raw.type(f"{key}:log") == b"stream"
    fields = await raw.hgetall(key)
    assert fields[b"v"] == b"2" and fields[b"s"] == b"snap2" and fields[b"q"] == b"2"
    # version, snapshot, last write, instance, last seq, last seq delivered to the webhook,
    # the token of the write that logged the last event
    assert set(fields) == {b"v", b"s", b"w", b"e", b"q", b"h", b"k"}
    for k in found:
        assert 599_000 <= await raw.pttl(k) <= 600_000


async def test_a_deal_end_adds_a_fifth_key_in_the_same_slot_and_trims_the_stream(
    store: RedisTableStore, raw: Redis
) -> None:
    """The finished deals' records are a list under the same hash tag, with the same TTL; the
    stream holds the current deal only, and the hash says where it was trimmed."""
    await store.put("t", b"snap", [b"dealt"])
    await store.compare_and_set("t", 1, b"s2", events=[b"e1", b"e2"])
    await store.compare_and_set(
        "t", 2, b"s3", events=[b"next"], deal_end=DealEnd(b"record of deal 1", 4)
    )
    key = store.key("t")
    found = sorted([k async for k in raw.scan_iter(match=key + "*")])
    assert found == sorted(k.encode() for k in (key, f"{key}:deals", f"{key}:log"))
    assert {key_slot(k) for k in found} == {key_slot(b"t")}
    assert await raw.type(f"{key}:deals") == b"list"
    assert await raw.lrange(f"{key}:deals", 0, -1) == [b"record of deal 1"]
    entries = await raw.xrange(f"{key}:log")
    assert entries is not None and [entry_id for entry_id, _ in entries] == [b"4-0"]
    fields = await raw.hgetall(key)
    assert (fields[b"r"], fields[b"p"], fields[b"q"]) == (b"3", b"3", b"4")
    for k in found:
        assert 599_000 <= await raw.pttl(k) <= 600_000
    assert await store.delete("t")
    assert [k async for k in raw.scan_iter(match=key + "*")] == []


async def test_the_default_key_prefix(redis_url: str) -> None:
    made = RedisTableStore.from_url(redis_url)
    assert made.key("abc") == "baohuang:table:{abc}"
    await made.close()


async def test_a_table_survives_a_new_store_object(redis_url: str, raw: Redis) -> None:
    """A service restart: a new client over the same Redis sees the table and its version."""
    prefix = _prefix()
    first = RedisTableStore.from_url(redis_url, 600, key_prefix=prefix)
    await first.put("t", b"1")
    assert await first.compare_and_set("t", 1, b"2") == CasOk(2, ANY_TOKEN)
    await first.close()

    second = RedisTableStore.from_url(redis_url, 600, key_prefix=prefix)
    try:
        assert await second.get("t") == StoredTable(2, b"2", ANY_TOKEN)
        assert await second.compare_and_set("t", 1, b"stale") == CasConflict(2)
        assert await second.compare_and_set("t", 2, b"3") == CasOk(3, ANY_TOKEN)
    finally:
        await second.delete("t")
        await second.close()


async def test_scripts_are_reloaded_after_redis_forgets_them(
    store: RedisTableStore, raw: Redis
) -> None:
    await store.put("t", b"1")
    await raw.script_flush()  # what a Redis restart or failover does to the script cache
    assert await store.compare_and_set("t", 1, b"2") == CasOk(2, ANY_TOKEN)
    await raw.script_flush()
    assert await store.put("t", b"3") == PutResult(
        3, b"3", ANY_TOKEN, created=False, token=ANY_TOKEN
    )


async def test_a_retried_write_is_applied_once(
    store: RedisTableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """redis-py re-sends a write whose reply was lost with the same token: same answer, no
    second write and no false conflict."""
    monkeypatch.setattr(store, "_token", lambda: "token-1")
    assert await store.put("t", b"1") == PutResult(
        1, b"1", ANY_TOKEN, created=True, token=ANY_TOKEN
    )
    assert await store.put("t", b"1") == PutResult(
        1, b"1", ANY_TOKEN, created=True, token=ANY_TOKEN
    )

    monkeypatch.setattr(store, "_token", lambda: "token-2")
    assert await store.compare_and_set("t", 1, b"2") == CasOk(2, ANY_TOKEN)
    assert await store.compare_and_set("t", 1, b"2") == CasOk(2, ANY_TOKEN)  # the re-sent CAS
    assert await store.get("t") == StoredTable(2, b"2", ANY_TOKEN)

    monkeypatch.setattr(store, "_token", lambda: "token-3")
    assert await store.compare_and_set("t", 1, b"2") == CasConflict(2)  # a different client


async def test_a_retried_write_writes_again_for_its_wait(
    store: RedisTableStore, raw: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The re-sent write runs on another connection than the first, and ``WAIT`` vouches only
    for what its own connection wrote: a retry that found its token and wrote nothing would be
    "acknowledged" by replicas that never got the first run. So it touches the table's hash,
    which replicates after the first run's write."""
    monkeypatch.setattr(store, "_token", lambda: "token-1")
    await store.put("t", b"1")
    key = store._keys("t")[0]
    before = int(await raw.hget(key, "c") or 0)
    await store.put("t", b"1")  # the re-sent PUT
    assert int(await raw.hget(key, "c") or 0) == before + 1

    monkeypatch.setattr(store, "_token", lambda: "token-2")
    await store.compare_and_set("t", 1, b"2")
    await store.compare_and_set("t", 1, b"2")  # the re-sent CAS
    assert int(await raw.hget(key, "c") or 0) == before + 2


async def test_open_store_picks_the_backend(redis_url: str) -> None:
    assert isinstance(open_store(None, 60), MemoryTableStore)
    assert isinstance(open_store("", 60), MemoryTableStore)
    assert isinstance(open_store("  ", 60), MemoryTableStore)
    made = open_store(redis_url, 60)
    assert isinstance(made, RedisTableStore)
    await made.ping()
    await made.close()


# -- outages: this session's own redis-server, killed, frozen and brought back --


def _operations(store: RedisTableStore) -> dict[str, Callable[[], Awaitable[object]]]:
    return {
        "get": lambda: store.get("t"),
        "put": lambda: store.put("t", b"x"),
        "cas": lambda: store.compare_and_set("t", 1, b"x"),
        "delete": lambda: store.delete("t"),
        "ping": store.ping,
    }


async def _all_fail_fast(store: RedisTableStore) -> None:
    for name, operation in _operations(store).items():
        start = time.perf_counter()
        with pytest.raises(StoreUnavailable):
            await operation()
        elapsed = time.perf_counter() - start
        assert elapsed < FAIL_FAST_SECONDS, f"{name} took {elapsed:.2f} s to fail"


async def test_a_killed_redis_fails_fast_and_the_same_store_recovers(
    killable_redis: RedisServer,
) -> None:
    observed: list[tuple[str, str]] = []
    store = RedisTableStore.from_url(
        killable_redis.url, 600, observe=lambda op, outcome, _: observed.append((op, outcome))
    )
    try:
        await store.put("t", b"1")
        for _ in range(2):  # twice: recovering once is not the same as recovering every time
            killable_redis.kill()
            observed.clear()
            await _all_fail_fast(store)
            assert observed == [
                (op, "unavailable") for op in ("get", "put", "cas", "delete", "ping")
            ]

            killable_redis.start()  # same port, empty (no persistence), no scripts loaded
            await store.ping()
            assert await store.get("t") is None
            assert await store.put("t", b"1") == PutResult(
                1, b"1", ANY_TOKEN, created=True, token=ANY_TOKEN
            )
            assert await store.compare_and_set("t", 1, b"2") == CasOk(2, ANY_TOKEN)
    finally:
        await store.close()


async def test_a_frozen_redis_times_out_fast_and_the_same_store_recovers(
    killable_redis: RedisServer,
) -> None:
    """A hung server (SIGSTOP) answers nothing: the socket timeout, not the OS, must end it."""
    store = RedisTableStore.from_url(killable_redis.url, 600, socket_timeout=0.1)
    try:
        await store.put("t", b"1")
        killable_redis.pause()
        try:
            await _all_fail_fast(store)
        finally:
            killable_redis.resume()
        await store.ping()
        table = await store.get("t")
        assert table is not None
        # The frozen server may still have run the writes it had received: outcome unknown,
        # which is why StoreUnavailable on a write tells clients to re-read.
        assert await store.compare_and_set("t", table.version, b"after") == CasOk(
            table.version + 1, ANY_TOKEN
        )
    finally:
        await store.close()


async def test_a_store_opened_while_redis_is_down_works_once_it_is_up(
    killable_redis: RedisServer,
) -> None:
    """The service starts (not ready) without Redis and becomes ready without a restart."""
    killable_redis.kill()
    store = open_store(killable_redis.url, 600)  # no I/O here
    try:
        with pytest.raises(StoreUnavailable):
            await store.ping()
        killable_redis.start()
        await store.ping()
        assert await store.put("t", b"1") == PutResult(
            1, b"1", ANY_TOKEN, created=True, token=ANY_TOKEN
        )
    finally:
        await store.close()


# -- Redis Cluster: the one-key-per-operation layout needs no change --


@pytest.fixture(scope="module")
def cluster_node() -> Iterator[RedisServer]:
    server = RedisServer.from_environment(
        extra_args=("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
    )
    server.start()
    try:
        yield server
    finally:
        server.close()


async def test_the_store_works_unchanged_on_redis_cluster(cluster_node: RedisServer) -> None:
    """A one-node cluster owning all 16384 slots: scripts and commands each touch one key."""
    admin = Redis.from_url(cluster_node.url)
    try:
        await admin.execute_command("CLUSTER", "ADDSLOTSRANGE", "0", "16383")  # type: ignore[no-untyped-call]
        deadline = time.monotonic() + 10
        while b"cluster_state:ok" not in await admin.execute_command("CLUSTER", "INFO"):  # type: ignore[no-untyped-call]
            assert time.monotonic() < deadline, "cluster did not become ok"
            await asyncio.sleep(0.05)
    finally:
        await admin.aclose()

    store = RedisTableStore.from_url(cluster_node.url, 600, cluster=True)
    try:
        for table_id in ("a", "b", "{x}c", "桌"):
            assert await store.put(table_id, b"1") == PutResult(
                1, b"1", ANY_TOKEN, created=True, token=ANY_TOKEN
            )
            assert await store.compare_and_set(table_id, 1, b"2") == CasOk(2, ANY_TOKEN)
            assert await store.compare_and_set(table_id, 1, b"3") == CasConflict(2)
            assert await store.get(table_id) == StoredTable(2, b"2", ANY_TOKEN)
            assert await store.delete(table_id) is True
        await store.ping()
    finally:
        await store.close()
