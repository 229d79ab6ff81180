"""The search level: determinized Monte Carlo (docs: STYLE.md, bots for hidden-information games).

For a few candidate moves (the heuristic's choice, a pass, the cheapest plays of each kind),
deal the unseen cards into worlds consistent with the public record (:mod:`.knowledge`), play
each candidate out to the end of the deal in every world with the heuristic at every seat, and
keep the candidate with the best mean score for the seat. Every candidate is tried in the same
worlds, so their difference is not drowned in the luck of the deal. The search stops at its
time budget or its number of worlds, whichever comes first; with a seed and no time budget it is
deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from time import perf_counter
from typing import Final

from ..engine import Move, PassMove, PlayMove, Snapshot, apply_move, legal_moves, score
from .hand import is_premium, jokers, play_rank, rank_groups
from .heuristic import choose_play, play_cost
from .knowledge import world
from .record import BotInput
from .roles import partners_in

CANDIDATES: Final = 5


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


def playout(state: Snapshot) -> Snapshot:
    """The deal played to its end with the heuristic at every seat, roles as the world says."""
    while not state.over:
        seat = state.turn
        moves = legal_moves(state)
        hand = state.hands[seat]
        counts = [len(cards) for cards in state.hands]
        allies = partners_in(state.mode, state.emperor, state.guard, seat)
        state = apply_move(state, choose_play(hand, counts, state.trick.top, moves, allies))[0]
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
    totals = [0.0] * len(tried)
    done = 0
    while worlds is None or done < worlds:
        sample = world(view, bot.history, rng)
        for index, move in enumerate(tried):
            end = playout(apply_move(sample, move)[0])
            scores = score(end).scores
            totals[index] += scores[view.seat] if scores is not None else 0.0
        done += 1
        if deadline is not None and perf_counter() >= deadline:
            break
    best = max(range(len(tried)), key=lambda index: (totals[index], -index))
    return tried[best]


def describe(move: Move) -> str:
    """A move in a few characters, for logs and the arena."""
    if isinstance(move, PlayMove):
        small, big = jokers(move.cards)
        return f"play {len(move.cards)}@{play_rank(move.cards)} j{small + big}" + (
            "*" if is_premium(move.cards) else ""
        )
    return type(move).__name__ if not isinstance(move, PassMove) else "pass"
