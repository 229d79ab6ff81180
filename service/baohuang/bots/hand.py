"""A hand as a bot weighs it: ranks, groups, jokers and a rough strength (D-2, C-1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from ..engine import RANK_SYMBOLS

SMALL: Final = 13  # rank of a small joker, above 2 (D-2)
BIG: Final = 14
TWO: Final = RANK_SYMBOLS.index("2")
ACE: Final = RANK_SYMBOLS.index("A")
_RANKS: Final[dict[str, int]] = {symbol: rank for rank, symbol in enumerate(RANK_SYMBOLS)}


def rank_of(code: str) -> int:
    """A card code's rank: 0 for ``3`` … 12 for ``2``, 13 small joker, 14 big joker (D-2)."""
    rank = _RANKS.get(code[0])
    if rank is not None:
        return rank
    return BIG if code[0] == "B" else SMALL


def rank_groups(hand: Sequence[str]) -> Counter[int]:
    """How many cards of each rank the hand holds, jokers left out (C-1: a combo is one rank)."""
    return Counter(rank for rank in map(rank_of, hand) if rank < SMALL)


def held_ranks(hand: Sequence[str]) -> Mapping[int, int]:
    """:func:`rank_groups` read-only and remembered: a seat's hand is unchanged through all the
    passes between its plays, and a play-out asks about it at each."""
    return _held_ranks(tuple(hand))


@lru_cache(maxsize=1 << 14)
def _held_ranks(hand: tuple[str, ...]) -> Mapping[int, int]:
    return MappingProxyType(dict(rank_groups(hand)))


def jokers(cards: Sequence[str]) -> tuple[int, int]:
    """(small, big) jokers among ``cards``."""
    small = big = 0
    for code in cards:
        if code[0] == "B":
            big += 1
        elif code[0] == "S" and code[1] == "J":
            small += 1
    return small, big


def play_rank(cards: Sequence[str]) -> int:
    """The rank of a play's rank cards, or of its jokers when it has none."""
    return min(map(rank_of, cards))


def is_premium(cards: Sequence[str]) -> bool:
    """Cards worth keeping for when they matter: jokers, 2s and aces."""
    return any(rank_of(code) >= ACE for code in cards)


def strength(hand: Sequence[str]) -> float:
    """A rough worth of a dealt hand: a big joker 3, a small one 2, a 2 one, an ace a half, and a
    half for every card of a rank beyond three (big sets are hard to beat).

    An average dealt hand scores about 9 (0.8 of each joker, 3.3 twos and aces, a few big sets),
    in the full deck's 44 cards and the short deck's 34 alike.
    """
    small, big = jokers(hand)
    groups = rank_groups(hand)
    worth = 3.0 * big + 2.0 * small + groups[TWO] + 0.5 * groups[ACE]
    worth += 0.5 * sum(count - 3 for count in groups.values() if count > 3)
    return worth
