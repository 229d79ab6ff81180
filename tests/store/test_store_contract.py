"""The TableStore contract, run against every implementation (the ``harness`` fixture).

Whatever holds the tables, the HTTP layer relies on exactly this: versions from 1 up by one per
write, a compare-and-set with one winner per version, a TTL renewed by every write and by nothing
else, and snapshots returned byte for byte.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from baohuang.store import (
    RECHECK_ALL,
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    CasResult,
    EventPage,
    HookBackoff,
    LoggedEvent,
    PutResult,
    StoredTable,
    TableStore,
)
from matchers import ANY_TOKEN

if TYPE_CHECKING:
    from conftest import Harness

pytestmark = pytest.mark.anyio

ROUNDS = 100
RACERS = 32


async def test_a_missing_table_is_none_missing_and_not_deleted(harness: Harness) -> None:
    store = harness.store
    assert await store.get("nobody") is None
    assert await store.compare_and_set("nobody", 1, b"{}") == CasMissing()
    assert await store.delete("nobody") is False
    assert await store.get("nobody") is None  # the failed CAS did not create it


async def test_versions_start_at_one_and_grow_by_one_per_write(harness: Harness) -> None:
    store = harness.store
    assert await store.put("t", b"a") == PutResult(
        1, b"a", ANY_TOKEN, created=True, token=ANY_TOKEN
    )
    assert await store.put("t", b"b") == PutResult(
        2, b"b", ANY_TOKEN, created=False, token=ANY_TOKEN
    )
    assert await store.compare_and_set("t", 2, b"c") == CasOk(3, ANY_TOKEN)
    assert await store.compare_and_set("t", 3, b"d") == CasOk(4, ANY_TOKEN)
    assert await store.put("t", b"e") == PutResult(
        5, b"e", ANY_TOKEN, created=False, token=ANY_TOKEN
    )
    assert await store.get("t") == StoredTable(5, b"e", ANY_TOKEN)


async def test_a_conflict_gives_the_current_version_and_changes_nothing(harness: Harness) -> None:
    store = harness.store
    await store.put("t", b"one")
    await store.compare_and_set("t", 1, b"two")
    for stale in (0, 1, 3, 99, -1):
        assert await store.compare_and_set("t", stale, b"stale") == CasConflict(2)
    assert await store.get("t") == StoredTable(2, b"two", ANY_TOKEN)


async def test_delete_removes_and_a_new_put_starts_again_at_one(harness: Harness) -> None:
    store = harness.store
    await store.put("t", b"x")
    await store.put("t", b"y")
    assert await store.delete("t") is True
    assert await store.get("t") is None
    assert await store.compare_and_set("t", 2, b"z") == CasMissing()
    assert await store.delete("t") is False
    assert await store.put("t", b"new") == PutResult(
        1, b"new", ANY_TOKEN, created=True, token=ANY_TOKEN
    )


@pytest.mark.parametrize(
    "snapshot",
    [b"", b'{"seats":[]}', "保皇 ♠A".encode(), bytes(range(256)), b"x" * 256_000],
    ids=["empty", "json", "utf8", "all-bytes", "256k"],
)
async def test_snapshots_come_back_byte_for_byte(harness: Harness, snapshot: bytes) -> None:
    store = harness.store
    await store.put("t", snapshot)
    assert await store.get("t") == StoredTable(1, snapshot, ANY_TOKEN)
    await store.compare_and_set("t", 1, snapshot[::-1])
    assert await store.get("t") == StoredTable(2, snapshot[::-1], ANY_TOKEN)


@pytest.mark.parametrize("table_id", ["a:b.c-d_e", "桌1", "{slot}tag", "x" * 128, "with space"])
async def test_ids_are_opaque(harness: Harness, table_id: str) -> None:
    store = harness.store
    await store.put(table_id, b"1")
    await store.put("other", b"2")
    assert await store.get(table_id) == StoredTable(1, b"1", ANY_TOKEN)
    assert await store.delete(table_id) is True
    assert await store.get("other") == StoredTable(1, b"2", ANY_TOKEN)


async def test_tables_are_independent(harness: Harness) -> None:
    store = harness.store
    await store.put("a", b"a1")
    await store.put("b", b"b1")
    await store.compare_and_set("a", 1, b"a2")
    assert await store.get("a") == StoredTable(2, b"a2", ANY_TOKEN)
    assert await store.get("b") == StoredTable(1, b"b1", ANY_TOKEN)
    assert await store.compare_and_set("b", 2, b"b?") == CasConflict(1)


async def test_every_write_sets_the_ttl_again_and_nothing_else_does(harness: Harness) -> None:
    store, full = harness.store, float(harness.ttl_seconds)

    def near(seconds: float | None, expected: float) -> bool:
        return seconds is not None and expected - 5 <= seconds <= expected

    await store.put("t", b"1")
    assert near(await harness.remaining_ttl("t"), full)

    await harness.age("t", full - 100)
    assert near(await harness.remaining_ttl("t"), 100)
    await store.put("t", b"2")  # replacing renews
    assert near(await harness.remaining_ttl("t"), full)

    await harness.age("t", full - 100)
    assert await store.compare_and_set("t", 2, b"3") == CasOk(3, ANY_TOKEN)  # a move renews
    assert near(await harness.remaining_ttl("t"), full)

    await harness.age("t", full - 100)
    assert await store.get("t") is not None  # reading does not renew
    assert await store.compare_and_set("t", 2, b"lost") == CasConflict(3)  # nor does a conflict
    assert near(await harness.remaining_ttl("t"), 100)


async def test_an_expired_table_is_gone(harness: Harness) -> None:
    store = harness.store
    await store.put("t", b"1")
    await store.put("t", b"2")
    await harness.age("t", harness.ttl_seconds + 1)
    assert await harness.remaining_ttl("t") is None
    assert await store.get("t") is None
    assert await store.compare_and_set("t", 2, b"3") == CasMissing()
    assert await store.delete("t") is False
    assert await store.put("t", b"again") == PutResult(
        1, b"again", ANY_TOKEN, created=True, token=ANY_TOKEN
    )


async def test_racing_writers_on_one_version_have_exactly_one_winner(harness: Harness) -> None:
    """32 clients (spread over several store objects, i.e. connections or replicas) per round."""
    stores = await harness.other_stores(4)
    await harness.store.put("race", b"start")
    version = 1
    for round_ in range(ROUNDS):
        go = asyncio.Event()

        async def racer(
            store: TableStore,
            n: int,
            go: asyncio.Event = go,
            expected: int = version,
            round_: int = round_,
        ) -> tuple[int, CasResult]:
            await go.wait()
            return n, await store.compare_and_set("race", expected, f"{round_}:{n}".encode())

        tasks = [asyncio.create_task(racer(stores[n % len(stores)], n)) for n in range(RACERS)]
        await asyncio.sleep(0)  # let every racer reach the starting line
        go.set()
        results = await asyncio.gather(*tasks)

        winners = [n for n, result in results if result == CasOk(version + 1, ANY_TOKEN)]
        losers = [result for _, result in results if result == CasConflict(version + 1)]
        assert len(winners) == 1, f"round {round_}: {results}"
        assert len(losers) == RACERS - 1, f"round {round_}: {results}"
        version += 1
        table = await harness.store.get("race")
        assert table == StoredTable(version, f"{round_}:{winners[0]}".encode(), ANY_TOKEN)


async def test_read_modify_write_loops_lose_no_update(harness: Harness) -> None:
    """Workers incrementing a counter through CAS-and-retry end with every increment applied."""
    workers, increments = 8, 25
    stores = await harness.other_stores(workers)
    await harness.store.put("counter", b"0")

    async def worker(store: TableStore) -> int:
        conflicts = 0
        for _ in range(increments):
            while True:
                table = await store.get("counter")
                assert table is not None
                result = await store.compare_and_set(
                    "counter", table.version, str(int(table.snapshot) + 1).encode()
                )
                if isinstance(result, CasOk):
                    break
                assert isinstance(result, CasConflict)
                conflicts += 1
        return conflicts

    await asyncio.gather(*(worker(store) for store in stores))
    total = workers * increments
    assert await harness.store.get("counter") == StoredTable(
        1 + total, str(total).encode(), ANY_TOKEN
    )


async def test_every_operation_is_observed_with_its_outcome(harness: Harness) -> None:
    store = harness.store
    await store.put("t", b"1")
    await store.get("t")
    await store.get("none")
    await store.compare_and_set("t", 1, b"2")
    await store.compare_and_set("t", 1, b"3")
    await store.compare_and_set("none", 1, b"3")
    await store.delete("t")
    await store.delete("t")
    await store.ping()
    assert [(op, outcome) for op, outcome, _ in harness.observed] == [
        ("put", "ok"),
        ("get", "ok"),
        ("get", "missing"),
        ("cas", "ok"),
        ("cas", "conflict"),
        ("cas", "missing"),
        ("delete", "ok"),
        ("delete", "missing"),
        ("ping", "ok"),
    ]
    assert all(0 <= seconds < 5 for _, _, seconds in harness.observed)


async def test_a_failing_metrics_hook_does_not_fail_the_operation(harness: Harness) -> None:
    harness.observed = _Exploding()  # the hook appends here; now it raises instead
    assert isinstance(await harness.store.put("t", b"1"), PutResult)
    assert await harness.store.compare_and_set("t", 1, b"2") == CasOk(2, ANY_TOKEN)


class _Exploding(list[tuple[str, str, float]]):
    def append(self, item: tuple[str, str, float]) -> None:
        raise RuntimeError("metrics backend down")


async def test_ping_answers_and_close_is_idempotent(harness: Harness) -> None:
    await harness.store.ping()
    assert isinstance(harness.store, TableStore)
    await harness.store.close()
    await harness.store.close()


async def test_a_write_may_require_the_tables_last_write_token(harness: Harness) -> None:
    """A writer that remembers its last write skips the read; a recreated table that reached the
    same version was written by someone else, and the token tells them apart."""
    store = harness.store
    put = await store.put("tok", b"one")
    moved = await store.compare_and_set("tok", put.version, b"two", written_as=put.token)
    assert isinstance(moved, CasOk) and moved.version == 2 and moved.token != put.token
    assert await store.compare_and_set("tok", 2, b"x", written_as=put.token) == CasConflict(2)
    await store.delete("tok")
    again = await store.put("tok", b"new one")
    await store.compare_and_set("tok", again.version, b"new two")  # version 2 again
    assert await store.compare_and_set("tok", 2, b"x", written_as=moved.token) == CasConflict(2)
    assert (await store.get("tok")) == StoredTable(2, b"new two", ANY_TOKEN)


# --- the event log, remembered answers and change notifications ---------------------------------


async def test_events_are_appended_in_the_same_write_and_numbered_per_instance(
    harness: Harness,
) -> None:
    store = harness.store
    await store.put("t", b"0")
    first = await store.compare_and_set("t", 1, b"1", events=[b"a", b"b"])
    assert first == CasOk(2, ANY_TOKEN, 2)
    assert await store.compare_and_set("t", 2, b"2") == CasOk(3, ANY_TOKEN, 2)  # no events
    third = await store.compare_and_set("t", 3, b"3", events=[b"c"])
    assert third == CasOk(4, ANY_TOKEN, 3)
    assert isinstance(first, CasOk) and isinstance(third, CasOk)
    a, b, c = first.token, first.token, third.token  # each event carries its write's token
    page = await store.read_events("t", 0, 100)
    assert page == EventPage(
        ANY_TOKEN,
        4,
        3,
        [LoggedEvent(1, 2, b"a", a), LoggedEvent(2, 2, b"b", b), LoggedEvent(3, 4, b"c", c)],
        last_token=c,
        anchor=None,
    )
    assert (await store.get("t")) == StoredTable(4, b"3", ANY_TOKEN, 3, last_token=c)
    after_one = await store.read_events("t", 1, 1)
    assert after_one is not None and after_one.events == [LoggedEvent(2, 2, b"b", b)]
    assert after_one.anchor == a  # the token of the event at ``after``: a reader's check
    past = await store.read_events("t", 3, 10)
    assert past is not None and past.events == [] and past.anchor == c
    beyond = await store.read_events("t", 7, 10)
    assert beyond is not None and beyond.anchor is None and beyond.last_seq == 3
    assert await store.read_events("nobody", 0, 10) is None


async def test_a_seq_logged_again_after_a_new_instance_has_another_token(
    harness: Harness,
) -> None:
    """Tokens are unique per write: the same seq written by two writes never looks the same."""
    store = harness.store
    put = await store.put("t", b"0", [b"opening"])
    again = await store.put("t", b"0", [b"opening"])
    assert put.last_token == put.token and again.last_token == again.token
    assert put.token != again.token
    page = await store.read_events("t", 0, 10)
    assert page is not None and page.events == [
        LoggedEvent(1, again.version, b"opening", again.token)
    ]


async def test_remembered_answers_are_bounded_oldest_first(harness: Harness) -> None:
    store = harness.store
    most = 4
    bounded = harness.with_max_remembered(most)
    await bounded.put("t", b"0")
    version = 1
    for n in range(most + 2):
        result = await bounded.compare_and_set(
            "t", version, b"x", remember=(f"k{n}", f"r{n}".encode())
        )
        assert isinstance(result, CasOk)
        version = result.version
    table = await bounded.get("t")
    assert table is not None
    instance = table.instance
    assert await bounded.remember("t", instance, "late", b"refused") == b"refused"
    kept = {f"k{n}": (await bounded.get("t", remembered_as=f"k{n}")).remembered for n in range(6)}  # type: ignore[union-attr]
    assert kept == {"k0": None, "k1": None, "k2": None, "k3": b"r3", "k4": b"r4", "k5": b"r5"}
    assert (await bounded.get("t", remembered_as="late")).remembered == b"refused"  # type: ignore[union-attr]
    assert store is not None


async def test_a_page_of_events_carries_the_snapshot_when_asked_for(harness: Harness) -> None:
    """The table service checks a token against the record a page was read with, in the same
    round trip (docs/clients.md "Seats that change hands")."""
    store = harness.store
    await store.put("t", b"0")
    await store.compare_and_set("t", 1, b"1", events=[b"a"])
    plain = await store.read_events("t", 0, 10)
    assert plain is not None and plain.snapshot is None
    page = await store.read_events("t", 0, 10, with_snapshot=True)
    assert page is not None and page.snapshot == b"1"
    assert [(e.seq, e.version, e.data) for e in page.events] == [(1, 2, b"a")]
    assert page.version == 2
    assert await store.read_events("nobody", 0, 10, with_snapshot=True) is None


async def test_a_refused_write_appends_nothing(harness: Harness) -> None:
    store = harness.store
    await store.put("t", b"0")
    assert await store.compare_and_set("t", 9, b"x", events=[b"lost"]) == CasConflict(1)
    wrong = await store.compare_and_set("t", 1, b"x", instance="0" * 16, events=[b"lost"])
    assert wrong == CasConflict(1)
    assert (await store.read_events("t", 0, 10)).events == []  # type: ignore[union-attr]


async def test_a_put_starts_a_new_instance_with_an_empty_log(harness: Harness) -> None:
    store = harness.store
    first = await store.put("t", b"0")
    await store.compare_and_set("t", 1, b"1", events=[b"a"], remember=("k", b"first"))
    second = await store.put("t", b"fresh")
    assert second.instance != first.instance and second.version == 3
    page = await store.read_events("t", 0, 10)
    assert page == EventPage(second.instance, 3, 0, [])
    assert (await store.get("t", remembered_as="k")).remembered is None  # type: ignore[union-attr]
    assert await store.compare_and_set("t", 3, b"4", events=[b"b"]) == CasOk(4, ANY_TOKEN, 1)


async def test_an_idempotency_key_is_remembered_with_its_write_and_answers_again(
    harness: Harness,
) -> None:
    store = harness.store
    await store.put("t", b"0")
    done = await store.compare_and_set("t", 1, b"1", events=[b"a"], remember=("key", b"answer"))
    assert done == CasOk(2, ANY_TOKEN, 1)
    again = await store.compare_and_set("t", 1, b"1", events=[b"a"], remember=("key", b"other"))
    assert again == CasRemembered(b"answer")  # nothing written, the first answer given back
    assert isinstance(done, CasOk)
    assert (await store.get("t")) == StoredTable(2, b"1", ANY_TOKEN, 1, last_token=done.token)
    found = await store.get("t", remembered_as="key")
    assert found is not None and found.remembered == b"answer"
    assert (await store.get("t", remembered_as="unknown")).remembered is None  # type: ignore[union-attr]


async def test_racing_writes_under_one_key_apply_once_and_answer_alike(harness: Harness) -> None:
    stores = await harness.other_stores(4)
    await harness.store.put("t", b"0")
    results = await asyncio.gather(
        *(
            stores[n % 4].compare_and_set(
                "t", 1, f"{n}".encode(), events=[b"e"], remember=("same", f"r{n}".encode())
            )
            for n in range(16)
        )
    )
    winners = [r for r in results if isinstance(r, CasOk)]
    assert len(winners) == 1
    kept = (await harness.store.get("t", remembered_as="same")).remembered  # type: ignore[union-attr]
    assert all(r == CasRemembered(kept) for r in results if not isinstance(r, CasOk))  # type: ignore[arg-type]
    assert len((await harness.store.read_events("t", 0, 100)).events) == 1  # type: ignore[union-attr]


async def test_remember_keeps_the_first_record_of_the_instance(harness: Harness) -> None:
    store = harness.store
    table = await store.put("t", b"0")
    assert await store.remember("t", table.instance, "k", b"first") == b"first"
    assert await store.remember("t", table.instance, "k", b"second") == b"first"
    assert await store.remember("t", "0" * 16, "k", b"x") is None
    assert await store.remember("nobody", table.instance, "k", b"x") is None
    assert (await store.get("t")).version == 1  # type: ignore[union-attr]  # not a table write


async def test_changes_tell_of_writes_and_deletes_from_any_store(harness: Harness) -> None:
    (other,) = await harness.other_stores(1)
    seen: list[str] = []
    ready = asyncio.Event()

    async def listen() -> None:
        async for table_id in harness.store.changes():
            if table_id == RECHECK_ALL:
                ready.set()
                continue
            seen.append(table_id)
            if len(seen) == 3:
                return

    listener = asyncio.create_task(listen())
    await asyncio.wait_for(ready.wait(), 5)  # subscribed: it says so with RECHECK_ALL
    await other.put("a", b"0")
    await other.compare_and_set("a", 1, b"1", events=[b"e"])
    await other.delete("a")
    await asyncio.wait_for(listener, 5)
    assert seen == ["a", "a", "a"]


async def test_a_webhook_backoff_is_kept_per_instance(harness: Harness) -> None:
    store = harness.store
    assert await store.hook_backoff("hooked") is None
    first = await store.put("hooked", b"a")
    assert await store.hook_backoff("hooked") == HookBackoff()
    await store.set_hook_backoff("hooked", first.instance, HookBackoff(3, 1_800_000_007.25))
    assert await store.hook_backoff("hooked") == HookBackoff(3, 1_800_000_007.25)
    await store.compare_and_set("hooked", 1, b"b", events=[b"e"])  # a move keeps it
    assert await store.hook_backoff("hooked") == HookBackoff(3, 1_800_000_007.25)
    await store.put("hooked", b"c")  # a new instance starts without one
    assert await store.hook_backoff("hooked") == HookBackoff()
    await store.set_hook_backoff("hooked", first.instance, HookBackoff(4, 1.0))  # too late
    assert await store.hook_backoff("hooked") == HookBackoff()


async def test_a_presence_register_counts_the_members_whose_time_has_not_passed(
    harness: Harness,
) -> None:
    """What replicas tell each other (the webhook dispatchers' settings): a member holds for its
    ``ttl`` after it last announced itself, whichever store (replica) asks."""
    store, other = harness.store, (await harness.other_stores(1))[0]
    now = 1_800_000_000.0
    assert await store.present("senders", None, now, 3.0) == 0  # counting announces nobody
    assert await store.present("senders", "a", now, 3.0) == 1
    assert await other.present("senders", "b", now + 1, 3.0) == 2
    assert await store.present("senders", "a", now + 2, 3.0) == 2  # a renews; b holds still
    assert await other.present("others", None, now + 2, 3.0) == 0  # groups apart
    assert await store.present("senders", None, now + 3.5, 3.0) == 2  # b until now + 4
    assert await other.present("senders", None, now + 4.5, 3.0) == 1  # b gone, a until now + 5
    assert await store.present("senders", None, now + 5.5, 3.0) == 0
