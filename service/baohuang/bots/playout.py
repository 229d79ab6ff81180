"""A deal played out to its end by the heuristic at every seat, in a world the search imagined.

A world (:func:`.knowledge.world`) is a whole snapshot, so every seat's role and hand is known
in it: each seat plays for its own side (:func:`.roles.partners_in`) and answers the questions
before play with the heuristic's thresholds (:func:`.before_play.answer_before_play`). The
search (:mod:`.search`) and the decisions before play (:mod:`.weighing`) score their options by
such play-outs, with the engine's own scoring.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import (
    SEATS,
    JiefengMove,
    Move,
    PassMove,
    PlayMove,
    Snapshot,
    YieldMove,
    apply_move,
    legal_moves,
    score,
    seat_view,
    verify_move,
)
from .before_play import answer_before_play
from .hand import ACE, held_ranks, rank_groups, rank_of
from .heuristic import choose_play
from .roles import partners_in


def quick_lead(hand: Sequence[str], seat: int) -> PlayMove:
    """The heuristic's lead without listing every legal lead (a leader may play any combo of
    its hand, T-3, so only 憋6 can refuse it): the whole hand when it is one combo, else the
    lowest whole set, premium sets last."""
    groups = rank_groups(hand)
    if len(groups) <= 1:
        return PlayMove(seat, list(hand))
    rank = min(groups, key=lambda rank: (rank >= ACE, rank))
    return PlayMove(seat, [code for code in hand if rank_of(code) == rank])


def quick_answer(state: Snapshot, allies: frozenset[int]) -> Move | None:
    """The heuristic's answer to a partner's top play without listing every legal move:
    its whole hand if that one combo may be played (it goes out), else 接风, a pass or a yield,
    the first legal (:func:`.heuristic.answer`). ``None`` when the top is an opponent's, or no
    answer is legal: then the moves must be listed."""
    top = state.trick.top
    if top is None or top.seat not in allies:
        return None
    seat = state.turn
    hand = state.hands[seat]
    if len(held_ranks(hand)) <= 1:
        whole = PlayMove(seat, list(hand))
        if verify_move(state, whole) is None:
            return whole
    for move in (JiefengMove(seat), PassMove(seat), YieldMove(seat)):
        if verify_move(state, move) is None:
            return move
    return None


def heuristic_move(state: Snapshot, moves: Sequence[Move] | None = None) -> Move:
    """What the heuristic plays for ``state.turn`` in the world ``state`` (roles known).

    Without ``moves``, a lead (:func:`quick_lead`) and an answer to a partner
    (:func:`quick_answer`) are found without listing every legal move, which is most of a
    play-out's time otherwise; they are the moves the list would give (tests/bots)."""
    seat = state.turn
    if state.phase != "play":
        return answer_before_play(seat_view(state, seat), moves or legal_moves(state))
    hand = state.hands[seat]
    allies = partners_in(state.mode, state.emperor, state.guard, seat)
    if moves is None:
        if state.trick.top is None:
            lead = quick_lead(hand, seat)
            if verify_move(state, lead) is None:
                return lead
        else:
            answer = quick_answer(state, allies)
            if answer is not None:
                return answer
    counts = [len(cards) for cards in state.hands]
    against = None if state.emperor in allies or seat == state.emperor else state.emperor
    return choose_play(hand, counts, state.trick.top, moves or legal_moves(state), allies, against)


def playout(state: Snapshot) -> Snapshot:
    """The deal played to its end with the heuristic at every seat, roles as the world says."""
    while not state.over:
        state = apply_move(state, heuristic_move(state))[0]
    return state


def final_scores(state: Snapshot) -> list[float]:
    """The seats' scores at the end of ``state`` (zero for a void deal)."""
    scores = score(state).scores
    return [float(value) for value in scores] if scores is not None else [0.0] * SEATS
