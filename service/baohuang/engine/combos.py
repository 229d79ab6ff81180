"""Combos, 一套牌 (docs/rules.md, section C).

A combo is ``count`` cards of one rank plus ``small`` small and ``big`` big jokers (C-1). Its
shape ``(rank, count, small, big)`` is all that beating looks at; ``cards`` keeps the actual
cards, high to low, for covers and hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import msgspec

from .cards import CARD_IDS, CODES, EXACT, FIELD_BITS, PACKED, CardSet, check_copies, copies_excess
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


_RANK_FIELDS = (1 << (FIELD_BITS * 13)) - 1
_FIELD = (1 << FIELD_BITS) - 1


@lru_cache(maxsize=1 << 16)  # every one-rank shape fits (13 ranks × counts × joker mixes)
def _shape(total: int) -> tuple[Combo | Reason, bool | None]:
    """C-1/C-2 from a :data:`~.cards.PACKED` count: the combo's shape (``cards`` empty) or why it
    is none, and what D-5 still needs to know: ``True`` when a joker limit is broken, ``None``
    when some rank card might appear five times (more than four of one rank, or mixed ranks),
    ``False`` when no limit can be broken.

    The lowest non-empty rank field is the rank; anything above it is a second rank.
    """
    if not total:
        return EMPTY_PLAY, False
    small_sword = total >> 112 & _FIELD
    big_scepter = total >> 128
    small = (total >> 104 & _FIELD) + small_sword
    big = (total >> 120 & _FIELD) + big_scepter
    jokers_over = small > 4 or big > 4 or small_sword > 1 or big_scepter > 1
    ranks = total & _RANK_FIELDS
    if not ranks:
        return Combo(NO_RANK, 0, small, big, ()), jokers_over
    shift = ((ranks & -ranks).bit_length() - 1) & ~(FIELD_BITS - 1)
    count = ranks >> shift
    if count > _FIELD:
        return MIXED_RANKS, jokers_over or None
    found = Combo(shift // FIELD_BITS, count, small, big, ())
    return found, jokers_over or (None if count > 4 else False)


def classify(cards: Sequence[int]) -> Combo | Reason:
    """C-1/C-2: the combo ``cards`` make, or why they make none (``EMPTY_PLAY``, ``MIXED_RANKS``).

    The order of ``cards`` does not matter (C-4).
    """
    found = _shape(sum(map(PACKED.__getitem__, cards)))[0]
    if isinstance(found, Reason):
        return found
    return Combo(
        found.rank, found.count, found.small, found.big, tuple(sorted(cards, reverse=True))
    )


def read_shape(codes: Sequence[str], card_set: CardSet, where: str = "the play") -> Combo | Reason:
    """Parse and classify without keeping the cards (``cards`` is empty): all that beating needs.

    Bad input (:class:`~.errors.InvalidInput`, its path within ``codes``): an unknown code (D-3)
    or more copies than the decks (D-5).
    """
    found, over = _shape(card_set.pack(codes))
    if over or (over is None and card_set.rank_copies_exceeded(codes)):
        check_copies(card_set.parse(codes), where)  # raises, naming the card
    return found


def read_combo(codes: Sequence[str], card_set: CardSet, where: str = "the play") -> Combo | Reason:
    """:func:`read_shape` with the cards kept, canonical, high to low (for covers and hands).

    The cards are counted into one :data:`~.cards.EXACT` int in C; the combo, with its sorted
    cards, and whether the cards break a copy limit are cached per count (:func:`_exact_play`),
    so a play seen before costs one count and one cache lookup.
    """
    if len(codes) > _EXACT_MAX:  # a field would overflow: no play is this long, but be exact
        return _read_combo_sorting(codes, card_set, where)
    try:
        exact = sum(map(card_set.exact.__getitem__, codes))
    except (KeyError, TypeError):
        card_set.parse(codes)  # raises UNKNOWN_CARD at the code's index
        raise
    found, broken = _exact_play(exact)
    if broken:
        check_copies(card_set.parse(codes), where)  # raises, naming the card
    return found


_EXACT_MAX = (1 << FIELD_BITS) - 1
_EXACT_IDS = {FIELD_BITS * field: card for field, card in enumerate(CARD_IDS)}


@lru_cache(maxsize=1 << 14)
def _exact_play(exact: int) -> tuple[Combo | Reason, bool]:
    """From an :data:`~.cards.EXACT` count: :func:`classify`'s answer and whether the cards hold
    more copies than the decks (D-5). Decoded field by field, lowest card first."""
    cards: list[int] = []
    rest = exact
    while rest:
        shift = ((rest & -rest).bit_length() - 1) & ~(FIELD_BITS - 1)
        copies = rest >> shift & _FIELD
        cards.extend([_EXACT_IDS[shift]] * copies)
        rest -= copies << shift
    cards.reverse()
    assert sum(map(EXACT.__getitem__, cards)) == exact
    return classify(cards), copies_excess(cards) is not None


def _read_combo_sorting(
    codes: Sequence[str], card_set: CardSet, where: str = "the play"
) -> Combo | Reason:
    """:func:`read_combo` without the cache: read the shape, then parse and sort the cards."""
    found = read_shape(codes, card_set, where)
    if isinstance(found, Reason):
        return found
    cards = tuple(sorted(card_set.parse(codes), reverse=True))
    return Combo(found.rank, found.count, found.small, found.big, cards)


shape_of_count = _shape
"""The cached C-1/C-2 decode of a :data:`~.cards.PACKED` count (see :func:`_shape`), for loops
that inline :func:`read_shape`."""

combo_of_count = _exact_play
"""The cached combo of an :data:`~.cards.EXACT` count and whether it breaks a copy limit (see
:func:`_exact_play`), for paths that inline :func:`read_combo`; lists longer than
:data:`EXACT_MAX` codes must go through :func:`read_combo` (a field would overflow)."""

EXACT_MAX = _EXACT_MAX
