"""The bots' arena (docs/clients.md "Bots"): seeded deals per ruleset, one seat played by a level and four by
an opponent, the level's seat rotated over all five seats so it plays every role.

    flock /tmp/bench.lock .venv/bin/python bench/arena.py --deals 400 --search-deals 20

Per pairing and role: the level's win rate (its side scored above zero) and mean score, and the
opponent's in the same deals, with 95 % confidence intervals (Wilson for rates, normal for means);
time per decision of the level (median, p99). Every move a bot makes is applied by the engine,
so an illegal one would stop the run.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from baohuang.bots import Act, BotInput, acts_of, suggest
from baohuang.engine import (
    Move,
    Snapshot,
    apply_move,
    auto_move,
    deal,
    legal_moves,
    opening_snapshot,
    ruleset_of,
    score,
    seat_view,
)

RULESETS = ("classic", "tribute", "lianzhong-classic", "lianzhong-simple")
Player = Callable[[Snapshot, list[Act], int], Move]


def trustee(snapshot: Snapshot, history: list[Act], seed: int) -> Move:
    return auto_move(snapshot)


def random_player(snapshot: Snapshot, history: list[Act], seed: int) -> Move:
    return random.Random(seed).choice(legal_moves(snapshot))


def level_player(level: str, budget_ms: float) -> Player:
    def play(snapshot: Snapshot, history: list[Act], seed: int) -> Move:
        view = seat_view(snapshot, snapshot.turn)
        return suggest(BotInput(view=view, history=history), level, budget_ms=budget_ms, seed=seed)  # type: ignore[arg-type]

    return play


def role_of(end: Snapshot, seat: int) -> str:
    if end.mode == "team":
        if seat == end.emperor:
            return "emperor"
        return "guard" if seat == end.guard else "rebel"
    return "solo emperor" if seat == end.emperor else "solo rebel"


@dataclass
class Tally:
    scores: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, role: str, value: float) -> None:
        self.scores[role].append(value)
        self.scores["all"].append(value)


def play_deal(
    ruleset: str, seed: int, players: list[Player], times: dict[int, list[float]]
) -> Snapshot:
    dealt = deal(ruleset_of(ruleset), seed, seed % 5)
    state = opening_snapshot(ruleset, dealt)
    history: list[Act] = []
    step = 0
    while not state.over:
        seat = state.turn
        start = time.perf_counter()
        move = players[seat](state, history, seed * 1000 + step)
        times[seat].append(time.perf_counter() - start)
        state, events = apply_move(state, move)  # raises on an illegal move
        history.extend(acts_of(events))
        step += 1
    return state


def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_ci(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:+.2f}" if values else "—"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.2f} ± {half:.2f}"


def rate_ci(values: list[float]) -> str:
    if not values:
        return "—"
    wins = sum(value > 0 for value in values)
    low, high = wilson(wins, len(values))
    return f"{wins / len(values):.0%} [{low:.0%}, {high:.0%}]"


def run(
    name: str, level: Player, opponent: Player, deals: int, first_seed: int, every_seat: bool
) -> None:
    """``deals`` deals (rulesets in turn); the level at one seat (every seat in turn, or all
    five seats of every deal with ``every_seat``), the opponent at the others. Each deal is also
    played by the opponent at all five seats: the level's *gain* is its seat's score less that
    seat's score in the same deal without it (a paired comparison, free of the deal's luck)."""
    mine, theirs, gain = Tally(), Tally(), Tally()
    decisions: list[float] = []
    void = games = 0
    started = time.perf_counter()
    for index in range(deals):
        ruleset = RULESETS[index % len(RULESETS)]
        seed = first_seed + index
        base_end = play_deal(ruleset, seed, [opponent] * 5, defaultdict(list))
        base = score(base_end).scores or [0] * 5
        seats = range(5) if every_seat else [(index // len(RULESETS)) % 5]
        for seat in seats:
            players = [level if s == seat else opponent for s in range(5)]
            times: dict[int, list[float]] = defaultdict(list)
            end = play_deal(ruleset, seed, players, times)
            games += 1
            decisions.extend(times[seat])
            result = score(end)
            if end.void or result.scores is None:
                void += 1
                continue
            for s in range(5):
                (mine if s == seat else theirs).add(role_of(end, s), result.scores[s])
            gain.add(role_of(end, seat), result.scores[seat] - base[seat])
    elapsed = time.perf_counter() - started
    decisions.sort()
    p50 = decisions[len(decisions) // 2] * 1000
    p99 = decisions[min(len(decisions) - 1, int(len(decisions) * 0.99))] * 1000
    print(f"\n### {name}: {deals} deals, {games} games ({void} void), {elapsed:.0f} s")
    print(f"decisions of the level: {len(decisions)}, median {p50:.2f} ms, p99 {p99:.2f} ms\n")
    print(
        "| level's role | n | level win rate | level mean score | opponents in that role: "
        "win rate | mean score | paired gain over the opponent in the seat |"
    )
    print("|---|---|---|---|---|---|---|")
    for role in ("emperor", "guard", "rebel", "solo emperor", "solo rebel", "all"):
        a, b, g = mine.scores.get(role, []), theirs.scores.get(role, []), gain.scores.get(role, [])
        if a:
            print(
                f"| {role} | {len(a)} | {rate_ci(a)} | {mean_ci(a)} | {rate_ci(b)} "
                f"| {mean_ci(b)} | {mean_ci(g)} |"
            )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--search-deals", type=int, default=20)
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--only", default="")
    parser.add_argument(
        "--every-seat", action="store_true", help="the fast pairings: the level at all 5 seats"
    )
    args = parser.parse_args()
    heuristic = level_player("heuristic", args.budget_ms)
    searching = level_player("search", args.budget_ms)
    pairings = [
        ("heuristic vs T-10 托管", heuristic, trustee, args.deals),
        ("heuristic vs random", heuristic, random_player, args.deals),
        ("search vs heuristic", searching, heuristic, args.search_deals),
        ("search vs T-10 托管", searching, trustee, args.search_deals),
        ("search vs random", searching, random_player, args.search_deals),
        ("heuristic vs search", heuristic, searching, args.search_deals),
    ]
    for name, level, opponent, deals in pairings:
        if args.only and args.only not in name:
            continue
        fast = "search" not in name
        run(name, level, opponent, deals, first_seed=1, every_seat=fast and args.every_seat)


if __name__ == "__main__":
    main()
