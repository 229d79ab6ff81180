"""In-memory store specifics: the size bound, copying snapshots, argument checks."""

from __future__ import annotations

import pytest

from baohuang.store import (
    CasOk,
    MemoryTableStore,
    PutResult,
    StoredTable,
    StoreFull,
    StoreUnavailable,
)
from matchers import ANY_TOKEN

pytestmark = pytest.mark.anyio


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_full_store_refuses_new_tables_but_keeps_serving_live_ones() -> None:
    clock = Clock()
    observed: list[tuple[str, str]] = []
    store = MemoryTableStore(
        100,
        max_tables=2,
        clock=clock,
        observe=lambda op, outcome, _: observed.append((op, outcome)),
    )
    await store.put("a", b"1")
    clock.now = 50
    await store.put("b", b"1")
    with pytest.raises(StoreFull) as refused:
        await store.put("c", b"1")
    assert isinstance(refused.value, StoreUnavailable)  # callers answer 503, not 500
    assert observed[-1] == ("put", "unavailable")
    # live tables are never evicted to make room: they keep working
    assert await store.put("a", b"2") == PutResult(
        2, b"2", ANY_TOKEN, created=False, token=ANY_TOKEN
    )
    assert await store.compare_and_set("b", 1, b"2") == CasOk(2, ANY_TOKEN)

    clock.now = 151  # both tables expire 100 s after their last write (a at 50, b at 50)
    assert await store.put("c", b"1") == PutResult(
        1, b"1", ANY_TOKEN, created=True, token=ANY_TOKEN
    )
    assert await store.get("a") is None


async def test_expired_tables_make_room_in_write_order() -> None:
    clock = Clock()
    store = MemoryTableStore(10, max_tables=2, clock=clock)
    await store.put("old", b"1")
    clock.now = 5
    await store.put("young", b"1")
    clock.now = 11  # "old" expired, "young" has 4 s left
    await store.put("new", b"1")
    assert await store.get("old") is None
    assert await store.get("young") == StoredTable(1, b"1", ANY_TOKEN)
    with pytest.raises(StoreFull):
        await store.put("more", b"1")


async def test_unbounded_when_asked() -> None:
    store = MemoryTableStore(10, max_tables=None)
    for n in range(200):
        await store.put(str(n), b"1")
    assert await store.get("0") == StoredTable(1, b"1", ANY_TOKEN)


async def test_the_stored_snapshot_is_a_copy() -> None:
    store = MemoryTableStore(10)
    buffer = bytearray(b"abc")
    await store.put("t", buffer)  # type: ignore[arg-type]  # callers may hand a bytearray
    buffer[0] = ord("X")
    table = await store.get("t")
    assert table == StoredTable(1, b"abc", ANY_TOKEN)
    assert type(table.snapshot) is bytes


@pytest.mark.parametrize("ttl", [0, -1])
def test_the_ttl_must_be_positive(ttl: int) -> None:
    with pytest.raises(ValueError, match="ttl_seconds"):
        MemoryTableStore(ttl)


def test_max_tables_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_tables"):
        MemoryTableStore(10, max_tables=0)
