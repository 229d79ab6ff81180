"""Timing tells nothing (docs/bots-service.md "Timing"): every answer of a level waits out the
level's floor, so a forced move, a pass with nothing that beats, and a move the level had to
weigh come back at the same time; a search is answered by its deadline even with no worker to
think in. The clock is the test's: it moves only when the pacing sleeps, so the time an answer
takes is exactly what the pacing made it. (How close real answers keep to their budget on a
loaded machine is a benchmark: bench/bots_bench.py.)"""

from __future__ import annotations

import asyncio

import pytest

from baohuang.bots import BotInput, Level
from baohuang.bots.levels import (
    DEFAULT_BUDGET_MS,
    HEURISTIC_FLOOR_MS,
    PACE_MARGIN_MAX_MS,
    first_thoughts,
    floor_ms,
)
from baohuang.bots.thinkers import Thinkers
from baohuang.engine import Snapshot, legal_moves, seat_view

from .deals import RULESETS, walk

pytestmark = pytest.mark.anyio


class StoppedClock:
    """Time that passes only when the pacing sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def positions() -> tuple[Snapshot, Snapshot]:
    """A seat with one legal move (forced) and one with several, both in play."""
    forced = free = None
    for seed in range(400):
        snapshot, _ = walk(seed, seed % len(RULESETS), 60 + seed % 200, settle=True)
        if snapshot.phase != "play":
            continue
        count = len(legal_moves(snapshot))
        if count == 1 and forced is None:
            forced = snapshot
        elif count > 2 and free is None:
            free = snapshot
        if forced is not None and free is not None:
            return forced, free
    raise AssertionError("no forced and free positions among the seeds")


async def answered_after(
    thinkers: Thinkers, clock: StoppedClock, snapshot: Snapshot, level: Level, budget_ms: float
) -> float:
    bot = BotInput(view=seat_view(snapshot, snapshot.turn))
    started = clock.now
    move = await thinkers.think(bot, level, budget_ms=budget_ms, seed=3)
    assert move in legal_moves(snapshot)
    return clock.now - started


@pytest.mark.parametrize(("level", "budget_ms"), [("heuristic", 1000.0), ("search", 150.0)])
async def test_a_forced_move_and_a_free_move_of_a_level_take_the_same_time(
    level: Level, budget_ms: float
) -> None:
    forced, free = positions()
    clock = StoppedClock()
    thinkers = Thinkers(1, now=clock, sleep=clock.sleep)
    try:
        times = [
            await answered_after(thinkers, clock, snapshot, level, budget_ms)
            for snapshot in (forced, free, forced, free)
        ]
    finally:
        await thinkers.stop()
    floor = floor_ms(level, budget_ms) / 1000
    assert times == pytest.approx([floor] * 4, abs=1e-9)
    assert floor == (HEURISTIC_FLOOR_MS / 1000 if level == "heuristic" else 0.8 * budget_ms / 1000)


@pytest.mark.parametrize(
    ("budget_ms", "floor"),
    [(1.0, 0.8), (150.0, 120.0), (500.0, 400.0), (DEFAULT_BUDGET_MS, 900.0), (2000.0, 1900.0)],
)
def test_a_search_is_paced_a_margin_under_its_budget(budget_ms: float, floor: float) -> None:
    """A fifth of the budget, at most 100 ms, is left for the serving process to get a CPU at
    the deadline; the floor depends on the budget alone."""
    assert floor_ms("search", budget_ms) == pytest.approx(floor)
    assert budget_ms - floor_ms("search", budget_ms) <= PACE_MARGIN_MAX_MS
    assert floor_ms("search", None) == floor_ms("search", DEFAULT_BUDGET_MS)


async def test_a_search_with_no_worker_free_is_answered_at_its_deadline_by_the_heuristic() -> None:
    """Every worker busy (the gate is closed): the heuristic's move, at the floor, not later."""
    _, free = positions()
    clock = StoppedClock()
    thinkers = Thinkers(1, now=clock, sleep=clock.sleep)
    bot = BotInput(view=seat_view(free, free.turn))
    try:
        move = await thinkers.think(bot, "search", budget_ms=50, seed=3, gate=asyncio.Semaphore(0))
    finally:
        await thinkers.stop()
    assert move == first_thoughts(bot, 3)[1]
    assert thinkers.pids() == []  # no worker was needed, none was started
    assert clock.now - 1000.0 == pytest.approx(floor_ms("search", 50) / 1000)


async def test_an_unpaced_table_answers_as_soon_as_it_knows() -> None:
    """The table tests that drive time by hand turn pacing off: nothing sleeps."""
    forced, _ = positions()
    clock = StoppedClock()
    thinkers = Thinkers(1, now=clock, sleep=clock.sleep, paced=False)
    bot = BotInput(view=seat_view(forced, forced.turn))
    assert await thinkers.think(bot, "heuristic", budget_ms=None, seed=0) in legal_moves(forced)
    assert clock.slept == []
