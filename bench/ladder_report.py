"""The ladder's report (bench/ladder.py): mean gains with 95 % intervals, and Elo ratings.

Each line is one paired game: A in one seat, the baseline B in that seat of the same deal.
The mean gain per game has a normal 95 % interval (1.96 standard errors). Elo: every paired
game is a win, draw or loss of A against B (its gain above, at or below zero); a Bradley–Terry
model is fitted to all of them by minorization–maximization (Hunter 2004), on the Elo scale
(400 log10), anchored at ``random`` = 0 when it plays, and the 95 % interval is the 2.5th and
97.5th percentile over bootstrap resamples of the games within each pairing.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

ROLES = ("emperor", "guard", "rebel", "solo", "solo rebel", "all")
BOOTSTRAP = 200


def mean_interval(values: Sequence[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:+.2f}" if values else "—"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    mean = statistics.fmean(values)
    clear = " *" if abs(mean) > half else ""
    return f"{mean:+.2f} ± {half:.2f}{clear}"


def gains_table(lines: Sequence[dict[str, Any]]) -> str:
    by: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    deals: dict[str, set[tuple[int, int]]] = defaultdict(set)  # (seed, index): runs of seeds
    for line in lines:
        by[line["pairing"]][line["role"]].append(line["gain"])
        by[line["pairing"]]["all"].append(line["gain"])
        deals[line["pairing"]].add((line["seed"], line["deal"]))
    rows = [
        "| pairing A:B | deals | games | " + " | ".join(ROLES) + " |",
        "|---" * (len(ROLES) + 3) + "|",
    ]
    for pairing in sorted(by):
        cells = [
            f"{mean_interval(by[pairing][role])} (n={len(by[pairing][role])})"
            if by[pairing][role]
            else "—"
            for role in ROLES
        ]
        games = len(by[pairing]["all"])
        rows.append(f"| {pairing} | {len(deals[pairing])} | {games} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


Outcome = tuple[str, str, float]  # A, B, A's result: 1 win, 0.5 draw, 0 loss


def fit(outcomes: Sequence[Outcome], players: Sequence[str]) -> dict[str, float]:
    """Bradley–Terry strengths by MM iterations, as Elo points (random = 0 when present)."""
    wins: dict[str, float] = defaultdict(float)
    met: dict[tuple[str, str], float] = defaultdict(float)
    for a, b, result in outcomes:
        wins[a] += result
        wins[b] += 1 - result
        met[(a, b)] += 1
        met[(b, a)] += 1
    strength = dict.fromkeys(players, 1.0)
    for _ in range(200):
        updated = {}
        for player in players:
            denominator = sum(
                count / (strength[player] + strength[other])
                for (one, other), count in met.items()
                if one == player
            )
            updated[player] = max(wins[player], 0.5) / denominator if denominator else 1.0
        norm = math.exp(statistics.fmean(math.log(value) for value in updated.values()))
        strength = {player: value / norm for player, value in updated.items()}
    anchor = strength.get("random", 1.0)
    return {player: 400 * math.log10(value / anchor) for player, value in strength.items()}


def ratings_table(lines: Sequence[dict[str, Any]], rng: random.Random) -> str:
    by_pairing: dict[str, list[Outcome]] = defaultdict(list)
    for line in lines:
        a, b = line["pairing"].split(":")
        result = 1.0 if line["gain"] > 0 else 0.5 if line["gain"] == 0 else 0.0
        by_pairing[line["pairing"]].append((a, b, result))
    players = sorted({p for pairing in by_pairing for p in pairing.split(":")})
    everything = [outcome for outcomes in by_pairing.values() for outcome in outcomes]
    point = fit(everything, players)
    samples: dict[str, list[float]] = defaultdict(list)
    for _ in range(BOOTSTRAP):
        resampled = [
            outcomes[rng.randrange(len(outcomes))]
            for outcomes in by_pairing.values()
            for _ in outcomes
        ]
        for player, rating in fit(resampled, players).items():
            samples[player].append(rating)
    rows = ["| player | Elo | 95 % interval |", "|---|---|---|"]
    for player in sorted(players, key=lambda p: -point[p]):
        ordered = sorted(samples[player])
        low = ordered[int(0.025 * len(ordered))]
        high = ordered[min(len(ordered) - 1, int(0.975 * len(ordered)))]
        rows.append(f"| {player} | {point[player]:.0f} | [{low:.0f}, {high:.0f}] |")
    return "\n".join(rows) + "\n"


def report(lines: Sequence[dict[str, Any]], rng: random.Random) -> str:
    seconds = [line["seconds"] for line in lines]
    return (
        "Mean gain per game of A over B in the same seat of the same deal, 95 % interval "
        "(* clear of zero), by the seat's role in A's game:\n\n"
        + gains_table(lines)
        + f"\n{len(lines)} games, {sum(seconds):.0f} s of A's decisions.\n\n"
        + ratings_table(lines, rng)
    )
