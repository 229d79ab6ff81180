"""The crown and guard questions before the first play (G-2…G-8), for every ruleset.

A hand's worth (:func:`.hand.strength`, about 9 for an average dealt hand) decides: take the
crown with a hand that can win with a partner, play alone (明独, 抢庄/抢独) only with one that
can win alone, show itself as the guard (明保, doubling the score) or declare 造反 with a hand
better than most. A call names the highest card of which the emperor holds exactly three, so the
guard holds the fourth — a joker or a 2 where the ruleset allows it, a strong guard; a four
(暗独) only when he would play alone anyway or has nothing else to call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from ..engine import (
    AcceptMove,
    CallMove,
    DeclareSoloMove,
    DeclineMove,
    GrabMove,
    Move,
    RebelMove,
    RevealMove,
    SeatView,
)
from .hand import rank_of, strength

TAKE_CROWN: Final = 10.5
"""The crown holder already counts the scepter (3): a little better than average with it."""
ALONE: Final = 20.0
"""Worth enough to win alone: 明独, a grab, calling a four."""
REVEAL: Final = 10.0
REBEL: Final = 12.0


def _first(moves: Sequence[Move], kind: type) -> Move | None:
    return next((move for move in moves if isinstance(move, kind)), None)


def best_call(hand: Sequence[str], calls: Sequence[CallMove], *, alone: bool) -> CallMove:
    """The highest card held exactly three times (four times when playing alone)."""
    held = Counter("BJ" if code == "BJ*" else "SJ" if code == "SJ*" else code for code in hand)
    wanted = 4 if alone else 3
    return max(calls, key=lambda call: (held[call.card] == wanted, rank_of(call.card)))


def answer_before_play(view: SeatView, moves: Sequence[Move]) -> Move:
    """The answer to the question before play that ``view.seat`` is asked (``moves`` legal)."""
    worth = strength(view.hand)
    alone = worth >= ALONE
    grab = _first(moves, GrabMove)
    if grab is not None and alone and (view.phase == "guard" or view.seat != view.emperor):
        return grab
    solo = _first(moves, DeclareSoloMove)
    if solo is not None and alone:
        return solo
    calls = [move for move in moves if isinstance(move, CallMove)]
    accept = _first(moves, AcceptMove)
    decline = _first(moves, DeclineMove)
    taking = view.phase == "crown" and worth >= TAKE_CROWN
    if view.phase == "crown" and decline is not None and not taking:
        return decline
    if accept is not None and (taking or decline is None):
        return accept
    if calls and (view.phase == "guard" or taking or decline is None):
        return best_call(view.hand, calls, alone=alone)
    reveal = _first(moves, RevealMove)
    if reveal is not None and worth >= REVEAL:
        return reveal
    rebel = _first(moves, RebelMove)
    if rebel is not None and worth >= REBEL:
        return rebel
    return decline if decline is not None else moves[0]
