"""The search's cost in CPU: a heuristic play-out, and an iteration of the search in play.

    .venv/bin/python bench/search_speed.py [--runs 5] [--before REV]
    .venv/bin/python bench/search_speed.py --budget-ms 1000


Positions: every 9th position in play of 16 deals of the ladder (bench/ladder.py, seed 11, all
four rulesets with 烤牌), played by the heuristic. Per run (a child process): the CPU time
(``time.process_time``) of a play-out to the end from every position, three times, and of the
search growing 12 iterations (seeded) at every position with at least two moves; it prints the
means, milliseconds per play-out and per iteration. ``--before REV`` runs REV's ``service/``
alternately with the working tree, so both versions run under the same load.

``--budget-ms`` instead counts the iterations the search grows within that budget (wall time,
as the service gives it) at 30 of the positions, and prints their median and quartiles.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from loadgen import alternate  # noqa: E402

if TYPE_CHECKING:
    from baohuang.bots import Act
    from baohuang.engine import Snapshot


def _positions() -> list[tuple[Snapshot, list[Act]]]:
    from baohuang.bots import acts_of
    from baohuang.bots.playout import heuristic_move
    from baohuang.engine import apply_move
    from ladder import opening

    positions = []
    for index in range(16):
        state, step = opening(index, 11), 0
        history: list[Act] = []
        while not state.over:
            if state.phase == "play" and step % 9 == 0:
                positions.append((state, list(history)))
            state, events = apply_move(state, heuristic_move(state))
            history.extend(acts_of(events))
            step += 1
    return positions


def child() -> None:
    from baohuang.bots import BotInput
    from baohuang.bots.levels import first_thoughts
    from baohuang.bots.playout import playout
    from baohuang.bots.search import grow
    from baohuang.engine import seat_view

    positions = _positions()
    begun = time.process_time()
    for _ in range(3):
        for state, _history in positions:
            playout(state)
    playout_ms = (time.process_time() - begun) * 1000 / (3 * len(positions))
    iterations = 0
    begun = time.process_time()
    for number, (state, history) in enumerate(positions):
        bot = BotInput(view=seat_view(state, state.turn), history=history)
        moves, choice = first_thoughts(bot)
        if len(moves) >= 2:
            grow(bot, moves, choice, random.Random(number), None, 12)
            iterations += 12
    iteration_ms = (time.process_time() - begun) * 1000 / iterations
    print(json.dumps({"playout_ms": round(playout_ms, 3), "iteration_ms": round(iteration_ms, 3)}))


def iterations_within(budget_ms: float) -> None:
    from baohuang.bots import BotInput
    from baohuang.bots.levels import first_thoughts
    from baohuang.bots.search import grow
    from baohuang.engine import seat_view

    everywhere = _positions()
    counts = []
    for number, (state, history) in enumerate(everywhere[:: max(1, len(everywhere) // 30)][:30]):
        bot = BotInput(view=seat_view(state, state.turn), history=history)
        moves, choice = first_thoughts(bot)
        if len(moves) >= 2:
            counts.append(grow(bot, moves, choice, random.Random(number), budget_ms, None).visits)
    quartiles = statistics.quantiles(counts, n=4)
    print(json.dumps({"positions": len(counts), "budget_ms": budget_ms, "iterations": quartiles}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", help="a git revision to run alternately with the tree")
    parser.add_argument("--budget-ms", type=float, help="count the iterations within it")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child()
        return
    if args.budget_ms is not None:
        iterations_within(args.budget_ms)
        return
    results = alternate(__file__, args.runs, args.before)
    medians = {
        name: {
            key: statistics.median(json.loads(line)[key] for line in lines)
            for key in ("playout_ms", "iteration_ms")
        }
        for name, lines in results.items()
    }
    print(json.dumps(medians))
    if "before" in medians:
        for key in ("playout_ms", "iteration_ms"):
            print(f"{key}: before/after = {medians['before'][key] / medians['after'][key]:.2f}")


if __name__ == "__main__":
    main()
