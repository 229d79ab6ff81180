"""The search level: determinized Monte Carlo, the classic answer to hidden-information games.

For a few candidate moves (the heuristic's choice, a pass, the cheapest plays of each kind),
deal the unseen cards into worlds consistent with the public record (:mod:`.knowledge`), play
each candidate out to the end of the deal in every world with the heuristic at every seat, and
keep the candidate with the best mean score for the seat. Every candidate is tried in the same
worlds, so their difference is not drowned in the luck of the deal. The search stops at its
time budget (it starts no playout that would not fit) or its number of worlds, whichever comes
first; with a seed and no time budget it is deterministic.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from time import perf_counter
from typing import Final

from ..engine import (
    Move,
    PlayMove,
    Snapshot,
    apply_move,
    legal_moves,
    score,
    verify_move,
)
from .hand import ACE, rank_groups, rank_of
from .heuristic import choose_play, play_cost
from .knowledge import world
from .record import BotInput
from .roles import partners_in

CANDIDATES: Final = 3
MIN_WORLDS: Final = 4
"""Worlds a candidate needs before the search trusts a difference from the heuristic."""


def candidates(hand: Sequence[str], moves: Sequence[Move], chosen: Move) -> list[Move]:
    """The moves worth searching: the heuristic's, a pass or other answer, and the cheapest
    play of each kind (plain, split, premium, with jokers), at most :data:`CANDIDATES`."""
    picked: list[Move] = [chosen]
    answer = next((move for move in moves if not isinstance(move, PlayMove)), None)
    if answer is not None and answer != chosen:
        picked.append(answer)
    groups = dict(rank_groups(hand))
    kinds: dict[tuple[int, int, int], PlayMove] = {}
    for move in moves:
        if isinstance(move, PlayMove):
            cost = play_cost(groups, move)
            kind = (min(cost[0], 1), cost[1], cost[2])
            best = kinds.get(kind)
            if best is None or play_cost(groups, best) > cost:
                kinds[kind] = move
    for play in sorted(kinds.values(), key=lambda play: play_cost(groups, play)):
        if len(picked) >= CANDIDATES:
            break
        if play not in picked:
            picked.append(play)
    return picked


def quick_lead(hand: Sequence[str], seat: int) -> PlayMove:
    """The heuristic's lead without listing every legal lead (a leader may play any combo of
    its hand, T-3, so only 憋6 can refuse it): the whole hand when it is one combo, else the
    lowest whole set, premium sets last."""
    groups = rank_groups(hand)
    if len(groups) <= 1:
        return PlayMove(seat, list(hand))
    rank = min(groups, key=lambda rank: (rank >= ACE, rank))
    return PlayMove(seat, [code for code in hand if rank_of(code) == rank])


def playout(state: Snapshot) -> Snapshot:
    """The deal played to its end with the heuristic at every seat, roles as the world says."""
    while not state.over:
        seat = state.turn
        hand = state.hands[seat]
        move: Move | None = None
        if state.trick.top is None:
            move = quick_lead(hand, seat)
            if verify_move(state, move) is not None:
                move = None
        if move is None:
            counts = [len(cards) for cards in state.hands]
            allies = partners_in(state.mode, state.emperor, state.guard, seat)
            move = choose_play(hand, counts, state.trick.top, legal_moves(state), allies)
        state = apply_move(state, move)[0]
    return state


def search(
    bot: BotInput,
    moves: Sequence[Move],
    chosen: Move,
    rng: random.Random,
    budget_ms: float | None,
    worlds: int | None,
) -> Move:
    """The candidate with the best mean score for the seat over the worlds tried."""
    view = bot.view
    tried = candidates(view.hand, moves, chosen)
    if len(tried) < 2:
        return chosen
    deadline = None if budget_ms is None else perf_counter() + budget_ms / 1000
    outcomes: list[list[float]] = [[] for _ in tried]
    done = 0
    started = perf_counter()
    playouts = 0
    while worlds is None or done < worlds:
        sample = world(view, bot.history, rng)
        for index, move in enumerate(tried):
            # Another playout only if one, as long as they have taken so far, still fits in the
            # budget: the decision stays within it (the first playout always runs).
            now = perf_counter()
            if deadline is not None and playouts and now + (now - started) / playouts > deadline:
                return _best(tried, outcomes)
            end = playout(apply_move(sample, move)[0])
            scores = score(end).scores
            outcomes[index].append(scores[view.seat] if scores is not None else 0.0)
            playouts += 1
        done += 1
    return _best(tried, outcomes)


def _best(tried: Sequence[Move], outcomes: Sequence[Sequence[float]]) -> Move:
    """The heuristic's choice (``tried[0]``) unless another candidate did better in the same
    worlds by more than twice the standard error of the difference: a search of a few worlds
    is noisy, and following the noise would play worse than the heuristic."""
    base = outcomes[0]
    best, best_gain = 0, 0.0
    for index in range(1, len(tried)):
        gains = [mine - theirs for mine, theirs in zip(outcomes[index], base, strict=False)]
        if len(gains) < MIN_WORLDS:
            continue
        mean = statistics.fmean(gains)
        error = statistics.stdev(gains) / math.sqrt(len(gains))
        if mean > 2 * error and mean > best_gain:
            best, best_gain = index, mean
    return tried[best]
