"""The heuristic level in play (T-3…T-7): role-aware rules over the engine's legal moves.

* Go out whenever one play empties the hand.
* Lead what the hand can get rid of: the lowest whole set that is not a 2, an ace or a joker
  (a set split would leave a card to be led again), those only once nothing else is left.
* Follow a partner by passing (接风 where it may); beat an opponent with the cheapest play that
  keeps the hand's strength: no jokers, 2s or aces and no split set, unless the opponent is close
  to going out or the hand itself is, when any beating play will do, cheapest first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Final

from ..engine import JiefengMove, Move, PassMove, PlayMove, TopPlay, YieldMove
from .hand import held_ranks, is_premium, jokers, play_rank, rank_groups, rank_of

CLOSE_TO_OUT: Final = 8
"""A seat holding this many cards or fewer is close to going out: strength is spent on it."""
PRESSED: Final = 14
"""Rebels spend strength on the emperor sooner: his going out early decides their score."""


def choose_play(
    hand: Sequence[str],
    counts: Sequence[int],
    top: TopPlay | None,
    moves: Sequence[Move],
    partners: frozenset[int],
    emperor: int | None = None,
) -> Move:
    """The heuristic's choice among ``moves`` (the engine's legal moves, not empty); ``emperor``
    is the emperor's seat when the choosing seat plays against him."""
    plays = [move for move in moves if isinstance(move, PlayMove)]
    for play in plays:
        if len(play.cards) == len(hand):
            return play
    if top is None:
        return lead(hand, plays) if plays else moves[0]
    if top.seat not in partners:
        close = PRESSED if top.seat == emperor else CLOSE_TO_OUT
        urgent = counts[top.seat] <= close or len(hand) <= CLOSE_TO_OUT
        beating = cheapest_beating(hand, plays, spend=urgent)
        if beating is not None:
            return beating
    return answer(moves, partner=top.seat in partners)


def lead(hand: Sequence[str], plays: Sequence[PlayMove]) -> PlayMove:
    """The lowest whole set the hand can get rid of, premium sets last."""
    groups = rank_groups(hand)
    whole = [
        play
        for play in plays
        if jokers(play.cards) == (0, 0) and len(play.cards) == groups[rank_of(play.cards[0])]
    ]
    if whole:
        return min(whole, key=lambda play: (is_premium(play.cards), play_rank(play.cards)))
    return plays[0]


def play_cost(hand_groups: Mapping[int, int], play: PlayMove) -> tuple[int, int, int, int]:
    """What a play spends: jokers, then premium cards, then a split set, then its rank."""
    spent, premium, ranked, rank = _spent(tuple(play.cards))
    split = int(ranked > 0 and ranked < hand_groups.get(rank, 0))
    return (spent, premium, split, rank)


@lru_cache(maxsize=1 << 16)
def _spent(cards: tuple[str, ...]) -> tuple[int, int, int, int]:
    """The hand-free part of :func:`play_cost` (jokers, premium, rank cards, rank): the same
    few plays are costed thousands of times in a search's play-outs."""
    small, big = jokers(cards)
    return (small + 2 * big, int(is_premium(cards)), len(cards) - small - big, play_rank(cards))


def cheapest_beating(
    hand: Sequence[str], plays: Sequence[PlayMove], *, spend: bool
) -> PlayMove | None:
    """The cheapest beating play; without ``spend``, only one that costs no strength."""
    if not plays:
        return None
    groups = held_ranks(hand)
    costed = sorted(((play_cost(groups, play), index) for index, play in enumerate(plays)))
    cost, index = costed[0]
    if not spend and (cost[0] or cost[1]):
        return None
    return plays[index]


def answer(moves: Sequence[Move], *, partner: bool) -> Move:
    """Not beating: 接风 where it may (a pass that may win the lead, T-7), else a pass, or a
    yield on an opponent's play (T-6: it keeps a second look if nobody beats)."""
    order = (JiefengMove, PassMove, YieldMove) if partner else (JiefengMove, YieldMove, PassMove)
    for kind in order:
        for move in moves:
            if isinstance(move, kind):
                return move
    return moves[0]
