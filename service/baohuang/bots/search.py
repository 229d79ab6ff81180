"""The search level in play: single-observer information-set Monte Carlo tree search.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG 2012),
as OpenSpiel's ``ismcts.py`` builds it. Each iteration

1. *determinizes*: deals the unseen cards into one world consistent with everything the seat
   may know (:func:`.knowledge.world`), roles included;
2. *selects* down a tree whose nodes are the searching seat's information sets (the public
   sequence of moves from the decision on): at each node the seat to act in that world picks,
   among the moves legal *in this world*, the one with the best upper confidence bound for its
   own score, counting a move's *availability* (how often it was legal when the node was
   visited) instead of the parent's visits, since a move is not there in every world;
3. *expands* one untried move, then *plays out* the deal with the heuristic at every seat
   (:mod:`.playout`);
4. *backs up* the engine's score of every seat: each edge is credited the score of the seat
   that chose it, so opponents play against the searching seat and partners with it — rebels
   who share a side's score work together without being told to.

A deal offers hundreds of plays at a lead, far more than a decision's iterations. Every legal
move is a candidate, but a node widens progressively (Coulom 2007; Chaslot et al. 2008): the
moves open at a node are the heuristic's choice, then the other moves from the cheapest, one
more as its visits grow (:func:`open_moves`). With few iterations the search thus keeps to the
heuristic's choice unless another move did better; with more, it considers them all.

The heuristic's choice is the search's prior, at the answer too (:func:`answer_of`): the search
plays it unless another root move was tried at least :data:`DEPART_VISITS` times and beat the
heuristic's choice *in the same worlds* by more than :data:`DEPART_MARGIN` standard errors of
the mean gain. Each iteration that tries another root move also plays the heuristic's choice
out in that iteration's world, so the comparison is paired, as before play (:mod:`.weighing`):
how the unseen cards lie moves both scores alike and cancels, where a comparison of the two
means over different worlds is drowned in it (common random numbers). A search that departs
from a sound rule on the noise of a few play-outs loses more than it finds; and where the search
keeps the heuristic's move, a deal played against the heuristic is the same deal, so its gain is
exactly zero and a paired comparison is not drowned in noise (bench/ladder.py).

The search stops at its iteration count or before an iteration that would not fit its time
budget (the slowest iteration so far is the estimate); with a seed and no time budget its answer
is a function of its input.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Mapping, Sequence
from time import perf_counter
from typing import Final

from ..engine import Move, PassMove, PlayMove, Snapshot, apply_move, legal_moves
from .hand import held_ranks
from .heuristic import play_cost
from .knowledge import world
from .playout import final_scores, heuristic_move, playout
from .record import BotInput
from .weighing import clearly_better, weigh_before_play

EXPLORATION: Final = 0.7
"""The UCB constant c, for scores in units of :data:`SCORE_UNIT`."""
SCORE_UNIT: Final = 12.0
"""A typical deal's score magnitude: the scale the exploration constant is set against."""
WIDENING: Final = 0.5
"""Moves open at a node visited n times: 2 + WIDENING × √n (all of them, eventually)."""
BIAS: Final = 1.0
"""Progressive bias towards the heuristic's choice (Chaslot et al. 2008), in score units: it
adds BIAS / (visits + 1) to that move's bound, so that a few iterations leave the heuristic's
choice unless another move did clearly better; it fades as the move's visits grow."""

DEPART_VISITS: Final = 4
"""Play-outs of a move before the search plays it instead of the heuristic's choice."""
DEPART_MARGIN: Final = 2.0
"""Standard errors of its mean paired gain by which a root move must beat the heuristic's choice
to be played instead (the best of several noisy means is the luckiest as often as the best: the
winner's curse, as before play in :mod:`.weighing`)."""

BEFORE_PLAY_WORLDS: Final = 2
"""Worlds before play per iteration in play: a deal has a few such decisions, and a grab, a
solo or the crown moves its score more than any play."""

MoveKey = tuple[str, tuple[str, ...]]


def move_key(move: Move) -> MoveKey:
    """A move as the same edge in every world: its kind and its cards, sorted."""
    cards = getattr(move, "cards", None)
    card = getattr(move, "card", None)
    shown = tuple(sorted(cards)) if cards is not None else (card,) if card is not None else ()
    return (type(move).__name__, shown)


class Edge:
    """A move out of an information set: how often it was chosen and legal, the score it got;
    at the root, also its gains over the heuristic's choice in the same worlds."""

    __slots__ = ("available", "child", "gains", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.gains: list[float] = []
        self.child = Node()

    def mean(self) -> float:
        return self.total / self.visits

    def bound(self, bias: float) -> float:
        """UCB1 with availability counts (Cowling et al. 2012, section 5.3), plus ``bias``
        fading with the visits."""
        mean = self.total / self.visits
        explore = EXPLORATION * math.sqrt(math.log(self.available) / self.visits)
        return mean + explore + bias / (self.visits + 1)


class Node:
    """An information set of the searching seat: the edges tried from it, its visits."""

    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[MoveKey, Edge] = {}


def open_moves(state: Snapshot, moves: Sequence[Move], first: Move, visits: int) -> list[Move]:
    """The moves open at a node visited ``visits`` times: ``first`` (the heuristic's choice),
    a pass or other answer, then plays from the cheapest (:func:`.heuristic.play_cost`)."""
    wanted = 2 + int(WIDENING * math.sqrt(visits))
    if len(moves) <= wanted and len(moves) <= 2:
        return [first, *(move for move in moves if move != first)]
    groups = held_ranks(state.hands[state.turn])
    rest = (move for move in moves if move != first)
    return [first, *heapq.nsmallest(wanted - 1, rest, key=lambda move: _order_in(groups, move))]


def _order_in(groups: Mapping[int, int], move: Move) -> tuple[int, tuple[int, int, int, int]]:
    """Answers (pass, yield, 接风) before plays; plays by what they spend."""
    if isinstance(move, PlayMove):
        return (1, play_cost(groups, move))
    return (0 if isinstance(move, PassMove) else -1, (0, 0, 0, 0))


def iterate(root: Node, state: Snapshot, root_moves: Sequence[Move], first: Move) -> None:
    """One iteration from the world ``state``: select, expand, play out, back up; when the root
    move tried is not ``first``, ``first`` is also played out in this world, and the difference
    for the searching seat is that root edge's paired gain."""
    node, world_at_root = root, state
    path: list[tuple[Edge, int]] = []
    root_move = first
    while not state.over:
        seat = state.turn
        if node is root:
            moves, choice = root_moves, first
        else:
            moves = legal_moves(state)
            choice = heuristic_move(state, moves)
        candidates = open_moves(state, moves, choice, node.visits)
        edges = []
        for move in candidates:
            edge = node.edges.get(move_key(move))
            if edge is None:
                edge = node.edges[move_key(move)] = Edge()
            edge.available += 1
            edges.append((edge, move))
        node.visits += 1
        untried = next(((edge, move) for edge, move in edges if edge.visits == 0), None)
        edge, move = untried or max(
            edges, key=lambda pair: pair[0].bound(BIAS if pair[1] == choice else 0.0)
        )
        if node is root:
            root_move = move
        state = apply_move(state, move)[0]
        path.append((edge, seat))
        node = edge.child
        if untried is not None:
            break
    scores = final_scores(playout(state))
    for edge, seat in path:
        edge.visits += 1
        edge.total += scores[seat] / SCORE_UNIT
    if path and root_move != first:
        edge, seat = path[0]
        kept = final_scores(playout(apply_move(world_at_root, first)[0]))[seat]
        edge.gains.append((scores[seat] - kept) / SCORE_UNIT)


def search(
    bot: BotInput,
    moves: Sequence[Move],
    heuristic_choice: Move,
    rng: random.Random,
    budget_ms: float | None,
    iterations: int | None,
) -> Move:
    """The search level's move for ``bot.view.seat``, one of ``moves`` (the engine's legal moves
    in the seat's position); before play, the options are weighed (:mod:`.weighing`).

    ``iterations`` bounds the iterations, ``budget_ms`` the time; at least one must be given.
    """
    if budget_ms is None and iterations is None:
        raise ValueError("a search needs a time budget or a number of iterations")
    if bot.view.phase != "play":
        worlds = None if iterations is None else BEFORE_PLAY_WORLDS * iterations
        return weigh_before_play(bot, moves, heuristic_choice, rng, budget_ms, worlds)
    if len(moves) < 2:
        return heuristic_choice
    root = grow(bot, moves, heuristic_choice, rng, budget_ms, iterations)
    return answer_of(root, moves, heuristic_choice)


def grow(
    bot: BotInput,
    moves: Sequence[Move],
    heuristic_choice: Move,
    rng: random.Random,
    budget_ms: float | None,
    iterations: int | None,
) -> Node:
    """The search tree after the iterations that fit the count and the budget."""
    started = perf_counter()
    deadline = None if budget_ms is None else started + budget_ms / 1000
    slowest = 0.0
    root = Node()
    done = 0
    while iterations is None or done < iterations:
        begun = perf_counter()
        if deadline is not None and done and begun + slowest > deadline:
            break
        iterate(root, world(bot.view, bot.history, rng), moves, heuristic_choice)
        slowest = max(slowest, perf_counter() - begun)
        done += 1
    return root


def answer_of(root: Node, moves: Sequence[Move], heuristic_choice: Move) -> Move:
    """The heuristic's choice, unless other root moves beat it in the same worlds by more than
    the noise (the module docstring): then the one of those visited most."""
    best, best_visits = heuristic_choice, 0
    for move in moves:
        edge = root.edges.get(move_key(move))
        if edge is None or move == heuristic_choice or len(edge.gains) < DEPART_VISITS:
            continue
        if clearly_better(edge.gains, DEPART_MARGIN) and edge.visits > best_visits:
            best, best_visits = move, edge.visits
    return best
