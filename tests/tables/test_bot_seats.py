"""Bot seats at a live table (docs/clients.md "Bots"): a bot seat moves once its delay has
passed, through the clock's compare-and-set, from whichever replica ticks; 托管 is played by a
chosen level where the platform asked for it. Time is under the test's control.

Run on the in-memory store and on a real Redis; on Redis, two services stand for two replicas.
"""

from __future__ import annotations

import pytest

from baohuang.engine import (
    MoveEvent,
    PassMove,
    PlayMove,
    Snapshot,
    apply_move,
    auto_move,
    deal,
    legal_moves,
    opening_snapshot,
    verify_move,
)
from baohuang.engine.rulesets import ruleset_of
from baohuang.store import TableStore
from baohuang.tables import Authority, TableService
from baohuang.tables.callers import PLATFORM, Caller
from table_support import Time

pytestmark = pytest.mark.anyio

BOTS = {1: "heuristic", 2: "heuristic", 3: "heuristic", 4: "heuristic"}
DELAY = 0.5


def services(stores: list[TableStore], time: Time) -> list[TableService]:
    authority = Authority((), "bot-secret")
    return [TableService(store, authority, clock=time, bot_delay=DELAY) for store in stores]


async def moves_by(service: TableService, table_id: str) -> list[MoveEvent]:
    page = await service.events(table_id, PLATFORM, 0, limit=5000)
    return [event for event in page.events if isinstance(event, MoveEvent)]


async def test_four_bots_and_a_person_play_three_deals_through_two_replicas(
    stores: list[TableStore],
) -> None:
    time = Time()
    first, second = services(stores, time)
    dealt = opening_snapshot("classic", deal(ruleset_of("classic"), 11, 0))
    created, _ = await first.create("b", dealt, PLATFORM, bots=BOTS)  # type: ignore[arg-type]
    assert [seat.bot for seat in created.table.seats] == [None, *BOTS.values()]
    person = Caller("seat", 0, created.instance)
    for number in (1, 2, 3):
        for step in range(3000):
            table = await first.read("b", PLATFORM)
            if table.view.over:
                break
            if table.view.turn == 0:  # the person: a scripted move, the first legal one
                assert isinstance(table.view, Snapshot)
                move = legal_moves(table.view)[0]
                await first.move("b", person, move, table.version)
                continue
            assert table.table.deadline == pytest.approx(time.now + DELAY)
            ticking = (first, second)[step % 2]
            assert await ticking.tick() == 0  # not before the delay
            time.now += DELAY
            assert await ticking.tick() == 1
        assert table.view.over, "the deal did not end"
        assert len(table.table.results) == number
        if number < 3:
            await first.next_deal("b", PLATFORM, table.version, seed=100 + number)
    records = await moves_by(first, "b")
    assert {record.by for record in records} == {"seat", "bot"}
    assert all((record.by == "bot") == (record.move.seat != 0) for record in records)
    assert (await second.audit("b", PLATFORM)).valid  # the log replays through the rules
    seat_view = await first.read("b", person)
    assert [seat.bot for seat in seat_view.table.seats] == [None, *BOTS.values()]


async def test_a_bot_seat_can_be_set_and_taken_back(stores: list[TableStore]) -> None:
    time = Time()
    first, second = services(stores, time)
    dealt = opening_snapshot("classic", deal(ruleset_of("classic"), 12, 0))
    created, _ = await first.create("s", dealt, PLATFORM)
    crown = created.snapshot.turn
    answer = await first.set_bot("s", PLATFORM, crown, "heuristic", created.version)
    assert answer.table.seats[crown].bot == "heuristic"
    assert answer.table.deadline == pytest.approx(time.now + DELAY)  # its turn: it waits
    time.now += DELAY
    assert await second.tick() == 1
    table = await first.read("s", PLATFORM)
    assert table.version == answer.version + 1
    back = await first.set_bot("s", PLATFORM, crown, None, table.version)
    assert back.table.seats[crown].bot is None


async def test_T_11_a_seat_in_trustee_is_played_by_the_level_the_platform_chose(
    stores: list[TableStore],
) -> None:
    """T-10 passes whenever it follows; the heuristic beats an opponent when it can cheaply."""
    time = Time()
    first, _ = services(stores, time)
    dealt = opening_snapshot("classic", deal(ruleset_of("classic"), 13, 0))
    created, _ = await first.create("t", dealt, PLATFORM, trustee_level="heuristic")
    version = created.version
    for seat in range(5):
        version = (await first.set_trustee("t", PLATFORM, seat, True, version)).version
    await first.tick()  # the play-out goes on over the clock's writes (T-11)
    table = await first.read("t", PLATFORM)
    assert table.view.over
    records = await moves_by(first, "t")
    assert all(record.by == "trustee" for record in records)
    follows = [r.move for r in records if isinstance(r.move, PlayMove)]
    assert len(follows) > 0
    # Replayed from the deal, some follower plays where T-10 would have passed.
    state = dealt
    differs = 0
    for record in records:
        assert verify_move(state, record.move) is None
        if not isinstance(auto_move(state), type(record.move)) or (
            isinstance(record.move, PlayMove) and auto_move(state) != record.move
        ):
            differs += 1
        state = apply_move(state, record.move)[0]
    assert differs > 0
    assert any(isinstance(r.move, PassMove) for r in records)
