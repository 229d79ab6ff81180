"""Clocks, 托管, leaving and whole games at a live table (T-10, T-11, S-9, S-10, G-4, P), with
time under the test's control: the service's clock is a function the test moves.

Run on the in-memory store and on a real Redis; on Redis, two services stand for two replicas
sharing the tables and the deadline index.
"""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest

from baohuang.engine import (
    ClockEvent,
    DealOverEvent,
    Move,
    MoveEvent,
    PassMove,
    PlayMove,
    Snapshot,
    deal,
    legal_moves,
    opening_snapshot,
)
from baohuang.engine.rulesets import ruleset_of
from baohuang.store import RedisTableStore, StoredTable, StoreOverloaded, TableStore
from baohuang.tables import Authority, TableService, VersionConflict, flow
from baohuang.tables.audit import audit
from baohuang.tables.callers import PLATFORM
from baohuang.tables.clock import CLOCK_LEASE_SECONDS
from baohuang.tables.deals import decode_deal
from baohuang.tables.following import logged_event
from baohuang.tables.record import Clock, TableRecord
from table_support import SMALL, Time

pytestmark = pytest.mark.anyio

CLOCK = Clock(turn_seconds=20, before_play_seconds=30)
lead = PlayMove(0, ["7S", "7H"])


def services(stores: list[TableStore], time: Time) -> list[TableService]:
    authority = Authority((), "clock-secret")
    return [TableService(store, authority, clock=time) for store in stores]


async def test_T_11_a_seat_that_never_acts_is_timed_out_and_played_by_T_10(
    stores: list[TableStore],
) -> None:
    time = Time()
    first, second = services(stores, time)
    created, _ = await first.create("t", SMALL, PLATFORM, CLOCK)
    assert created.table.deadline == time.now + 20  # seat 0 leads; its clock runs
    time.now += 19.9
    assert await second.tick() == 0  # not yet
    time.now += 0.2
    assert await second.tick() == 1  # the other replica applies it
    table = await first.read("t", PLATFORM)
    assert table.table.seats[0].trustee and table.table.seats[0].entered == 1
    hand = table.view.hands[0]
    assert len(hand) == 3 and "BJ*" in hand and "9D" in hand  # T-10: a lowest single went
    assert table.view.turn == 1
    assert table.table.deadline == time.now + 20  # seat 1's clock starts
    page = await first.events("t", PLATFORM, 0)
    kinds = [type(e).__struct_config__.tag for e in page.events]
    assert kinds[-4:] == ["trustee", "move", "played", "clock"]
    assert await second.tick() == 0  # applied once


async def test_T_11_a_move_racing_its_timeout_exactly_one_wins_every_time(
    stores: list[TableStore],
) -> None:
    time = Time()
    first, second = services(stores, time)
    for round_ in range(20):
        table_id = f"race-{round_}"
        created, _ = await first.create(table_id, SMALL, PLATFORM, CLOCK)
        time.now += 21  # seat 0's deadline passed, and it moves just now

        async def human(table_id: str = table_id, version: int = created.version) -> bool:
            try:
                await first.move(table_id, PLATFORM, lead, version)
            except VersionConflict:
                return False
            return True

        moved, timed_out = await asyncio.gather(human(), second.time_out(table_id))
        assert moved != timed_out, (round_, moved, timed_out)
        page = await first.events(table_id, PLATFORM, 0)
        records = [e for e in page.events if isinstance(e, MoveEvent)]
        assert len(records) == 1 and records[0].version == 2
        assert records[0].by == ("seat" if moved else "trustee")


async def test_a_timeout_that_loses_the_race_to_a_move_is_not_counted(
    stores: list[TableStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``on_timeout`` (``baohuang_timeouts_total``, charted on the dashboard) counts timeouts
    written, not timeouts tried: here the seat's move commits between the clock's read and its
    write, every time."""
    time = Time()
    authority = Authority((), "clock-secret")
    counted: list[str] = []
    first = TableService(stores[0], authority, clock=time)
    second = TableService(stores[1], authority, clock=time, on_timeout=lambda: counted.append("t"))
    created, _ = await first.create("lost", SMALL, PLATFORM, CLOCK)
    time.now += 21  # seat 0's deadline passed
    get = stores[1].get

    async def read_then_move(table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        stored = await get(table_id, remembered_as=remembered_as)
        await first.move(table_id, PLATFORM, lead, created.version)  # the move wins the race
        return stored

    monkeypatch.setattr(stores[1], "get", read_then_move)
    assert await second.time_out("lost") is False
    monkeypatch.undo()
    assert counted == []
    table = await first.read("lost", PLATFORM)
    assert table.version == 2 and not table.table.seats[0].trustee  # the seat's own move
    # A timeout that is written is counted, once.
    time.now += 21  # seat 1's deadline passed
    assert await second.time_out("lost") is True
    assert counted == ["t"]


async def test_T_11_a_deal_where_every_seat_times_out_ends_by_itself_unscored(
    stores: list[TableStore],
) -> None:
    time = Time()
    (service, other) = services(stores, time)
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 3, 0))
    await service.create("all", snapshot, PLATFORM, CLOCK)
    for _ in range(5):
        time.now += 31
        await other.tick()
    table = await service.read("all", PLATFORM)
    assert table.view.over is True
    assert all(seat.trustee for seat in table.table.seats)
    [result] = table.table.results
    assert result.score.void is not None and result.score.void.code == "ALL_TRUSTEE"
    assert result.score.scores == [0] * 5 and table.table.totals == [0] * 5
    assert table.table.deadline is None
    report = await service.audit("all", PLATFORM)
    assert report.valid, report


async def test_a_tick_applies_a_backlog_larger_than_its_batch_in_one_go(
    stores: list[TableStore],
) -> None:
    """Full batches follow one another at once: a backlog is not held to one batch per poll."""
    time = Time()
    first, second = services(stores, time)
    for k in range(5):
        await first.create(f"backlog-{k}", SMALL, PLATFORM, CLOCK)
    time.now += 21
    assert await second.tick(limit=2) == 5  # batches of 2, 2 and 1
    for k in range(5):
        table = await first.read(f"backlog-{k}", PLATFORM)
        assert table.table.seats[0].trustee and table.view.turn == 1
    assert await second.tick(limit=2) == 0  # each applied once


async def test_a_timeout_reads_its_table_once_and_judges_it_once(
    stores: list[TableStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write path commits the timeout judged on the table as the clock read it, with no
    second read (when 托管 then plays the rest of the deal, judging is most of the cost)."""
    time = Time()
    first, second = services(stores, time)
    await first.create("once", SMALL, PLATFORM, CLOCK)
    time.now += 21
    judged: list[float] = []
    reads: list[str] = []
    time_out, get = flow.time_out, stores[1].get

    def judge(record: TableRecord, now: float, bot: Move | None = None) -> flow.Change | None:
        judged.append(now)
        return time_out(record, now, bot)

    async def read(table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        reads.append(table_id)
        return await get(table_id, remembered_as=remembered_as)

    monkeypatch.setattr(flow, "time_out", judge)
    monkeypatch.setattr(stores[1], "get", read)
    assert await second.tick() == 1
    assert len(judged) == 1 and reads == ["once"]
    monkeypatch.undo()
    table = await first.read("once", PLATFORM)
    assert table.table.seats[0].trustee and table.version == 2


async def test_a_timeout_the_store_refuses_is_taken_again_when_its_lease_ends(
    stores: list[TableStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One table's failure neither stops the others of its batch nor loses its timeout."""
    time = Time()
    first, second = services(stores, time)
    for name in ("a", "b", "c"):
        await first.create(name, SMALL, PLATFORM, CLOCK)
    time.now += 21
    get = stores[1].get

    async def overloaded(table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        if table_id == "b":
            raise StoreOverloaded("redis get: no connection came free in 2 s")
        return await get(table_id, remembered_as=remembered_as)

    monkeypatch.setattr(stores[1], "get", overloaded)
    with pytest.raises(StoreOverloaded):
        await second.tick()
    monkeypatch.undo()
    for name, trustee in (("a", True), ("b", False), ("c", True)):
        assert (await first.read(name, PLATFORM)).table.seats[0].trustee is trustee
    assert await second.tick() == 0  # b is still claimed by the tick that failed
    time.now += CLOCK_LEASE_SECONDS
    assert await second.tick() == 1
    assert (await first.read("b", PLATFORM)).table.seats[0].trustee


async def test_T_11_the_fourth_entry_locks_the_seat_in_tuoguan(stores: list[TableStore]) -> None:
    time = Time()
    (service, _) = services(stores, time)
    created, _ = await service.create("lock", SMALL, PLATFORM, CLOCK)
    version = created.version
    for _ in range(3):
        version = (await service.set_trustee("lock", PLATFORM, 2, True, version)).version
        version = (await service.set_trustee("lock", PLATFORM, 2, False, version)).version
    version = (await service.set_trustee("lock", PLATFORM, 2, True, version)).version
    with pytest.raises(Exception) as refused:
        await service.set_trustee("lock", PLATFORM, 2, False, version)
    assert refused.value.reason.code == "TRUSTEE_LOCKED"  # type: ignore[attr-defined]
    assert refused.value.reason.rule == "T-11"  # type: ignore[attr-defined]


async def test_the_clock_still_fires_after_every_replica_restarted(
    stores: list[TableStore],
) -> None:
    if stores[0] is stores[1]:
        pytest.skip("the in-memory store lives and dies with its one process")
    time = Time()
    (service, _) = services(stores, time)
    await service.create("restart", SMALL, PLATFORM, CLOCK)
    await service.close()
    for store in stores:
        await store.close()  # both replicas go away
    url = stores[0]._redis.connection_pool.connection_kwargs  # type: ignore[attr-defined]
    fresh = RedisTableStore.from_url(
        f"redis://{url['host']}:{url['port']}/{url.get('db', 0)}",
        key_prefix=stores[0]._prefix,  # type: ignore[attr-defined]
    )
    try:
        (reborn,) = services([fresh], time)
        time.now += 21
        assert await reborn.tick() == 1
        table = await reborn.read("restart", PLATFORM)
        assert table.table.seats[0].trustee
    finally:
        await fresh.close()


async def _play_out(service: TableService, table_id: str, rng: random.Random) -> None:
    """Random legal moves until the deal is over."""
    for _ in range(2000):
        table = await service.read(table_id, PLATFORM)
        snapshot = table.view
        assert isinstance(snapshot, Snapshot)
        if snapshot.over:
            return
        move = rng.choice(legal_moves(snapshot))
        await service.move(table_id, PLATFORM, move, table.version)
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("ruleset", ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"])
async def test_three_deals_in_a_row_totals_and_an_audit_from_the_log(
    stores: list[TableStore], ruleset: str
) -> None:
    time = Time()
    (service, other) = services(stores, time)
    table_id = f"game-{ruleset}"
    rng = random.Random(ruleset)
    snapshot = opening_snapshot(ruleset, deal(ruleset_of(ruleset), 11, 2))
    await service.create(table_id, snapshot, PLATFORM)
    await _play_out(service, table_id, rng)
    for seed in (12, 13):
        table = await service.read(table_id, PLATFORM)
        started = await other.next_deal(table_id, PLATFORM, table.version, seed)
        kinds = [type(e).__struct_config__.tag for e in started.events]
        assert kinds[:2] == ["deal_started", "dealt"]
        previous = table.view
        assert isinstance(previous, Snapshot)
        if not previous.void:
            assert started.table.dealer == previous.emperor  # G-4: from the last emperor's seat
        if ruleset == "tribute" and not previous.void:
            assert started.events[0].tribute or table.table.results[-1].score.winner == "draw"
        await _play_out(service, table_id, rng)
    table = await service.read(table_id, PLATFORM)
    assert table.table.deal == 3 and len(table.table.results) == 3
    sums = [sum(r.score.scores[s] for r in table.table.results if r.score.scores) for s in range(5)]
    assert table.table.totals == sums
    report = await service.audit(table_id, PLATFORM)
    assert report.valid, report
    assert report.deals == 3 and report.totals == table.table.totals
    # a log edited by hand is caught: the current deal's (the two before are kept as records,
    # whose edits tests/tables/test_deal_records.py makes)
    stored = await stores[0].read_events(table_id, 0, 100_000, with_deals=True)
    assert stored is not None and stored.deals is not None
    records = [decode_deal(data) for data in stored.deals]
    assert [record.deal for record in records] == [1, 2]
    events = [logged_event(e) for e in stored.events if e.seq > stored.recorded]
    assert audit(events, records, table.table).valid
    played = next(e for e in events if type(e).__struct_config__.tag == "played")
    forged = msgspec.structs.replace(played, cards=[*reversed(played.cards), "3S"])
    edited = [forged if e is played else e for e in events]
    assert audit(edited, records).valid is False
    over = next(e for e in events if isinstance(e, DealOverEvent))
    assert over.result is not None
    richer = msgspec.structs.replace(
        over.result, score=msgspec.structs.replace(over.result.score, scores=[9, 0, 0, 0, -9])
    )
    edited = [msgspec.structs.replace(e, result=richer) if e is over else e for e in events]
    assert audit(edited, records).valid is False


async def test_S_9_a_seat_that_leaves_plays_on_under_tuoguan_and_cannot_come_back(
    stores: list[TableStore],
) -> None:
    time = Time()
    (service, _) = services(stores, time)
    created, _ = await service.create("leave", SMALL, PLATFORM, CLOCK)
    moved = await service.move("leave", PLATFORM, PlayMove(0, ["7S", "7H"]), created.version)
    left = await service.leave("leave", PLATFORM, 1, moved.version)
    assert left.table.seats[1].left and left.table.seats[1].trustee
    assert left.view.turn == 2  # seat 1 passed at once (T-10)
    assert left.table.penalties == [0] * 5  # classic: no charge (S-9 is lianzhong's)
    with pytest.raises(Exception) as refused:
        await service.set_trustee("leave", PLATFORM, 1, False, left.version)
    assert refused.value.reason.code == "SEAT_LEFT"  # type: ignore[attr-defined]
    assert isinstance(PassMove(2), PassMove)


async def test_T_11_a_timeout_lands_within_a_second_of_its_deadline(
    stores: list[TableStore],
) -> None:
    """Real time, the service's own clock task: the one test here that waits."""
    import time as wall

    authority = Authority((), "clock-secret")
    service = TableService(stores[0], authority)
    await service.start()
    try:
        created, _ = await service.create("real", SMALL, PLATFORM, Clock(1, 1))
        deadline = created.table.deadline
        assert deadline is not None
        async with asyncio.timeout(30):  # the clock polls every 0.2 s: only a stall waits this
            while not (await service.read("real", PLATFORM)).table.seats[0].trustee:
                await asyncio.sleep(0.02)
        lateness = wall.time() - deadline
        # Never early; how late is the poll's and the machine's (bench/clock_bench.py): the
        # order and the counts of timeouts are the injected-time tests' above.
        assert 0 <= lateness < 30, lateness
    finally:
        await service.close()


async def test_T_11_the_clock_starts_at_set_clock_not_at_put_and_stops_when_stopped(
    stores: list[TableStore],
) -> None:
    time = Time()
    first, second = services(stores, time)
    created, _ = await first.create("late", SMALL, PLATFORM)
    assert created.table.deadline is None and created.table.clock is None
    time.now += 300  # the seats' pages open late: nobody's time ran meanwhile
    assert await second.tick() == 0
    started = await second.set_clock("late", PLATFORM, CLOCK, created.version)
    assert started.version == created.version + 1
    assert started.table.clock == CLOCK
    assert started.table.deadline == time.now + 20  # seat 0 leads: its turn_seconds, from now
    tags = [type(e).__struct_config__.tag for e in started.events]
    assert tags == ["clock"]
    assert (started.events[0].seat, started.events[0].deadline) == (0, time.now + 20)
    time.now += 19.9
    assert await first.tick() == 0
    time.now += 0.2
    assert await first.tick() == 1  # a timeout then applies as usual
    table = await first.read("late", PLATFORM)
    assert table.table.seats[0].trustee and table.view.turn == 1
    assert table.table.deadline == time.now + 20
    stopped = await first.set_clock("late", PLATFORM, None, None)  # at the current version
    assert stopped.table.clock is None and stopped.table.deadline is None
    assert [(e.seat, e.deadline) for e in stopped.events] == [(None, None)]
    time.now += 1000
    assert await second.tick() == 0  # nothing runs out any more
    assert (await first.read("late", PLATFORM)).table.seats[1].trustee is False
    assert await first.store.due(time.now, 10, CLOCK_LEASE_SECONDS) == []  # left the index
    with pytest.raises(VersionConflict):
        await first.set_clock("late", PLATFORM, CLOCK, created.version)


def test_T_11_set_clock_before_play_gives_before_play_seconds_and_the_playout_in_trustee() -> None:
    record, _ = flow.open_table(SMALL, None, 100.0)
    before = msgspec.structs.replace(record.snapshot, phase="crown")
    started, events = flow.set_clock(msgspec.structs.replace(record, snapshot=before), CLOCK, 5.0)
    assert started.table.deadline == 35.0 and len(events) == 1
    seats = list(record.table.seats)
    seats[0] = msgspec.structs.replace(seats[0], trustee=True)
    trustee = msgspec.structs.replace(
        record, table=msgspec.structs.replace(record.table, seats=seats)
    )
    # the seat to act in 托管: a play-out left for the next write, due at once, clock or none
    started, events = flow.set_clock(trustee, CLOCK, 5.0)
    assert started.table.clock == CLOCK and started.table.deadline == 5.0
    assert events == [ClockEvent(seat=0, deadline=5.0)]
