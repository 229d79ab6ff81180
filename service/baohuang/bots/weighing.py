"""The search level before play: every option weighed by playing the deal out (G-2…G-8).

Taking or handing on the crown, which card to call, 明独, a grab, 明保 or 暗保, 造反: each is
a bet on the whole deal, so the search scores each the only way that sees the whole deal. In
worlds drawn from what the seat may know (:func:`.knowledge.world`), every option is applied
and the deal is finished by the heuristic at every seat (:mod:`.playout`); the option with the
best mean score for the seat is taken, if it beat the heuristic's answer by more than the
noise (:func:`best_option`). These decisions are few and decide the most, so the search gives
them :data:`.search.BEFORE_PLAY_WORLDS` times the worlds it gives a move in play. All options
are tried in the same worlds, so their difference is not drowned in the luck of the deal.

The options are the legal moves, except that a call is weighed only for a card the seat holds
three of (four, for 暗独), the calls G-2 means; when it holds none, every call is weighed.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from time import perf_counter
from typing import Final

from ..engine import CallMove, Move, apply_move
from .knowledge import world
from .playout import final_scores, playout
from .record import BotInput

MIN_WORLDS: Final = 3
"""Worlds before a mean is trusted over the heuristic's thresholds."""
MARGIN: Final = 2.0
"""Standard errors by which an option must beat the heuristic's answer in the same worlds: the
best of several noisy means is the luckiest as often as the best (the winner's curse)."""


def options(hand: Sequence[str], moves: Sequence[Move], heuristic_choice: Move) -> list[Move]:
    """The options worth weighing, the heuristic's answer first."""
    held = Counter(code.rstrip("*") for code in hand)
    calls = [move for move in moves if isinstance(move, CallMove)]
    meant = [call for call in calls if held[call.card.rstrip("*")] >= 3]
    kept = [move for move in moves if not isinstance(move, CallMove)] + (meant or calls)
    return [heuristic_choice, *(move for move in kept if move != heuristic_choice)]


def weigh_before_play(
    bot: BotInput,
    moves: Sequence[Move],
    heuristic_choice: Move,
    rng: random.Random,
    budget_ms: float | None,
    worlds: int | None,
) -> Move:
    """The option with the best mean score for the seat over the worlds tried (``worlds``
    bounds them, ``budget_ms`` the time), if it beat the heuristic's answer in those worlds by
    more than :data:`MARGIN` standard errors of the difference; else the heuristic's answer."""
    tried = options(bot.view.hand, moves, heuristic_choice)
    if len(tried) < 2:
        return heuristic_choice
    seat = bot.view.seat
    started = perf_counter()
    deadline = None if budget_ms is None else started + budget_ms / 1000
    outcomes: list[list[float]] = [[] for _ in tried]
    slowest = 0.0  # the slowest play-out so far: the estimate of the next one
    while worlds is None or len(outcomes[0]) < worlds:
        sample = world(bot.view, bot.history, rng)
        scores: list[float] = []
        for move in tried:
            begun = perf_counter()
            if deadline is not None and begun + slowest > deadline:
                return tried[best_option(outcomes)]  # a world half tried is left out
            scores.append(final_scores(playout(apply_move(sample, move)[0]))[seat])
            slowest = max(slowest, perf_counter() - begun)
        for index, value in enumerate(scores):
            outcomes[index].append(value)
    return tried[best_option(outcomes)]


def best_option(outcomes: Sequence[Sequence[float]]) -> int:
    """The index of the option with the best mean, if its paired gain over option 0 (the
    heuristic's) is more than :data:`MARGIN` standard errors: a few worlds are noisy, and a
    grab or a solo chosen on the noise costs more than the heuristic's threshold would; else 0."""
    if len(outcomes[0]) < MIN_WORLDS:
        return 0
    best = max(range(len(outcomes)), key=lambda index: (statistics.fmean(outcomes[index]), -index))
    gains = [mine - base for mine, base in zip(outcomes[best], outcomes[0], strict=True)]
    return best if clearly_better(gains, MARGIN) else 0


def clearly_better(gains: Sequence[float], margin: float) -> bool:
    """Whether the mean of paired ``gains`` (two at least) is above zero by more than ``margin``
    standard errors: the one test by which the search leaves the heuristic's answer, before play
    (here) and in play (:func:`.search.answer_of`)."""
    mean = statistics.fmean(gains)
    return mean > margin * statistics.stdev(gains, mean) / math.sqrt(len(gains))
