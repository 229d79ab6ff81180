"""The search level before play: every option weighed by playing the deal out (G-2…G-8).

Taking or handing on the crown, which card to call, 明独, a grab, 明保 or 暗保, 造反: each is
a bet on the whole deal, so the search scores each the only way that sees the whole deal. In
worlds drawn from what the seat may know (:func:`.knowledge.world`), every option is applied
and the deal is finished by the heuristic at every seat (:mod:`.playout`); the option with the
best mean score for the seat is taken. All options are tried in the same worlds, so their
difference is not drowned in the luck of the deal.

The options are the legal moves, except that a call is weighed only for a card the seat holds
three of (four, for 暗独), the calls G-2 means; when it holds none, every call is weighed. Too
few worlds for a fair comparison (fewer than :data:`MIN_WORLDS` per option) leaves the
heuristic's answer (:func:`.before_play.answer_before_play`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from time import perf_counter
from typing import Final

from ..engine import CallMove, Move, apply_move
from .knowledge import world
from .playout import final_scores, playout
from .record import BotInput

MIN_WORLDS: Final = 2
"""Worlds per option before a mean is trusted over the heuristic's thresholds."""


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
    playouts: int | None,
) -> Move:
    """The option with the best mean score for the seat over the worlds tried; ``playouts``
    bounds the play-outs (all options of a world count), ``budget_ms`` the time."""
    tried = options(bot.view.hand, moves, heuristic_choice)
    if len(tried) < 2:
        return heuristic_choice
    seat = bot.view.seat
    started = perf_counter()
    deadline = None if budget_ms is None else started + budget_ms / 1000
    totals = [0.0] * len(tried)
    worlds = 0
    slowest = 0.0
    while playouts is None or (worlds + 1) * len(tried) <= playouts:
        begun = perf_counter()
        if deadline is not None and begun + slowest > deadline:
            break
        sample = world(bot.view, bot.history, rng)
        for index, move in enumerate(tried):
            totals[index] += final_scores(playout(apply_move(sample, move)[0]))[seat]
        slowest = max(slowest, perf_counter() - begun)
        worlds += 1
    if worlds < MIN_WORLDS:
        return heuristic_choice
    best = max(range(len(tried)), key=lambda index: (totals[index], -index))
    return tried[best]
