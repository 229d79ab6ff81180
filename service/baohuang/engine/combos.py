"""Combos, 一套牌 (RULES.md section C).

A combo is ``count`` cards of one rank plus ``small`` small and ``big`` big jokers (C-1). Its
shape ``(rank, count, small, big)`` is all that beating looks at; ``cards`` keeps the actual
cards, high to low, for covers and hands.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .cards import BIG_RANK, CODES, SMALL_RANK, CardSet, check_copies
from .reasons import EMPTY_PLAY, MIXED_RANKS, Reason

NO_RANK = -1


class Combo(msgspec.Struct, frozen=True, gc=False):
    """A legal combo (C-1…C-4). ``rank`` is ``NO_RANK`` for a joker combo (王牌, C-2)."""

    rank: int
    count: int
    small: int
    big: int
    cards: tuple[int, ...]

    @property
    def size(self) -> int:
        """C-3: number of cards."""
        return self.count + self.small + self.big

    @property
    def jokers(self) -> int:
        return self.small + self.big

    def codes(self) -> list[str]:
        return [CODES[c] for c in self.cards]


def classify(cards: Sequence[int]) -> Combo | Reason:
    """C-1/C-2: the combo ``cards`` make, or why they make none (``EMPTY_PLAY``, ``MIXED_RANKS``).

    The order of ``cards`` does not matter (C-4).
    """
    if not cards:
        return EMPTY_PLAY
    big = small = count = 0
    rank = NO_RANK
    for card in cards:
        card_rank = card >> 2
        if card_rank == BIG_RANK:
            big += 1
        elif card_rank == SMALL_RANK:
            small += 1
        elif card_rank == rank or rank == NO_RANK:
            rank = card_rank
            count += 1
        else:
            return MIXED_RANKS
    return Combo(rank, count, small, big, tuple(sorted(cards, reverse=True)))


def read_combo(codes: Sequence[str], card_set: CardSet, where: str = "the play") -> Combo | Reason:
    """Parse, check copies (D-5) and classify: bad input raises ``CardError``, a non-combo is a
    reason."""
    cards = card_set.parse(codes)
    if len(cards) > 1:  # one card never exceeds a limit
        check_copies(cards, where)
    return classify(cards)
