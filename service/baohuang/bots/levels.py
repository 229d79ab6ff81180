"""The levels a seat may be played at, and the one entry point: :func:`suggest`."""

from __future__ import annotations

import random
from typing import Final, Literal

from ..engine import Move, legal_moves
from .before_play import answer_before_play
from .heuristic import choose_play
from .knowledge import checked_world
from .record import BotInput
from .roles import partners
from .search import search

Level = Literal["heuristic", "search"]
LEVELS: Final[tuple[Level, ...]] = ("heuristic", "search")
DEFAULT_BUDGET_MS: Final = 1000.0
"""The search level's time per decision unless the caller says otherwise."""
HEURISTIC_FLOOR_MS: Final = 50.0
"""The least time a heuristic answer takes (:func:`floor_ms`): well above its own few
milliseconds, whatever the hand, so that how soon it answers says nothing of the hand."""
PACE_MARGIN_SHARE: Final = 0.2
PACE_MARGIN_MAX_MS: Final = 100.0
"""How far under its budget a search is answered: a fifth of the budget, at most 100 ms. The
serving process must get a CPU at the deadline to send the answer; on a loaded machine that
takes tens of milliseconds at p99 (bench/RESULTS.md section 25), which an answer paced to the
budget itself would add to the budget. The margin depends on the budget only, never on the
hand."""


def floor_ms(level: Level, budget_ms: float | None = DEFAULT_BUDGET_MS) -> float:
    """The time every answer of ``level`` waits out, however soon the move is known: a forced
    move, a single candidate or a pass with nothing that beats would otherwise come back at
    once and tell the table what the seat holds. The search's floor is its budget less
    :data:`PACE_MARGIN_SHARE` of it (at most :data:`PACE_MARGIN_MAX_MS`), so that the answer
    still lands within its budget when the serving process waits for a CPU; the heuristic's
    is :data:`HEURISTIC_FLOOR_MS` (docs/bots-service.md, "Timing")."""
    if level == "heuristic":
        return HEURISTIC_FLOOR_MS
    budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    return budget - min(budget * PACE_MARGIN_SHARE, PACE_MARGIN_MAX_MS)


class NotToAct(Exception):
    """The view's seat is not the one to act, or the deal is over: there is no move to suggest."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def suggest(
    bot: BotInput,
    level: Level = "heuristic",
    *,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    seed: int = 0,
    worlds: int | None = None,
) -> Move:
    """The move ``level`` plays for ``bot.view.seat``; always one of the engine's legal moves.

    Bad input (a view no deal could show) raises :class:`~baohuang.engine.InvalidInput` at
    ``.view`` or ``.history``; a view whose seat is not to act raises :class:`NotToAct`.
    ``budget_ms`` bounds the search level's time (``None``: no bound, then ``worlds`` must be
    given); ``worlds`` bounds how many worlds it plays out. ``seed`` fixes the worlds drawn:
    with ``budget_ms=None`` the answer is a function of the input, the level, seed and worlds.
    """
    moves, chosen = first_thoughts(bot, seed)
    if level == "heuristic":
        return chosen
    return search(bot, moves, chosen, random.Random(seed), budget_ms, worlds)


def first_thoughts(bot: BotInput, seed: int = 0) -> tuple[list[Move], Move]:
    """The seat's legal moves and the heuristic's choice among them: what every level knows
    within a few milliseconds, and the answer when a search has no time left. Bad input and
    a seat not to act raise as :func:`suggest` says."""
    view = bot.view
    if view.over:
        raise NotToAct("the deal is over (T-9): nobody acts")
    if view.turn != view.seat:
        raise NotToAct(f"seat {view.seat} is not to act: seat {view.turn} is (T-1)")
    # Which moves are legal depends on the seat's hand and the public state only; any world
    # consistent with the view gives the same list.
    moves = legal_moves(checked_world(view, bot.history, random.Random(seed)))
    if not moves:
        raise NotToAct(f"seat {view.seat} has no move")
    if view.phase != "play":
        return moves, answer_before_play(view, moves)
    allies = partners(view, bot.history)
    against = None if view.emperor in allies or view.seat == view.emperor else view.emperor
    return moves, choose_play(view.hand, view.counts, view.trick.top, moves, allies, against)
