"""Plays already read, remembered within a bound: the combo routes' first lookup.

A combo route reads the same plays again and again (a single, a pair, a joker-hung triple), so
the cheapest reading of a play is none at all: its codes, as a tuple, look up the combo
:func:`~.combos.read_combo` gave for them before (D-3, D-5, C-1). Measured against the other
tables one could build (bench/RESULTS.md, section 12): a memo per pair of plays is faster only
while the same pairs come back, and verdicts per pair of shapes cost more to look up than
:func:`~.beating.normal_refusal` costs to compute, so a verdict is computed from the two combos.

Bounds. Each card set's memo keeps at most two generations of :data:`GENERATION` entries: when
the young one fills, it becomes the old one and the old one is dropped; a hit in the old
generation moves back to the young one. So a memo holds at most ``2 * GENERATION`` plays
whatever callers send, and what is asked often stays. Only plays of at most
:data:`KEY_CODES_MAX` codes are remembered, keyed by the card set's own code strings (never a
request's), so an entry is about 300 bytes for a play of five cards and 700 for the longest:
10–23 MB per card set when full, of the four card sets only those the rulesets in use read.
Bad input is never remembered: it is read again, and raises again, each time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Generic, TypeVar, get_args

from .cards import CARD_SETS, CardSet, Deck
from .combos import Combo, read_combo
from .reasons import Reason
from .rulesets import GuardChoice

K = TypeVar("K")
V = TypeVar("V")

GENERATION: Final = 16_384
"""Entries per generation of each memo (two generations at most)."""

KEY_CODES_MAX: Final = 24
"""Longer plays are read every time (16 cards of a rank and 8 jokers is the longest real play)."""

Known = Combo | Reason
"""A play as remembered: its combo (cards kept, for the K-6 cover) or why it is none."""


class Generations(Generic[K, V]):
    """A bounded memo in two generations (see the module's docstring).

    The hot paths read ``young`` themselves (one dict lookup) and call :meth:`recall` only when
    it misses.
    """

    __slots__ = ("limit", "old", "young")

    def __init__(self, limit: int = GENERATION) -> None:
        self.limit = limit
        self.young: dict[K, V] = {}
        self.old: dict[K, V] = {}

    def recall(self, key: K, make: Callable[[], V]) -> V:
        """The value for ``key`` from the old generation, else ``make()``; kept young either way
        (an exception from ``make`` keeps nothing)."""
        value = self.old.pop(key) if key in self.old else make()
        self.keep(key, value)
        return value

    def keep(self, key: K, value: V) -> None:
        if len(self.young) >= self.limit:
            self.old = self.young
            self.young = {}
        self.young[key] = value

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def clear(self) -> None:
        self.young = {}
        self.old = {}


class KnownPlays:
    """The plays of one card set, by their codes."""

    __slots__ = ("_canonical", "card_set", "memo")

    def __init__(self, card_set: CardSet, limit: int = GENERATION) -> None:
        self.card_set = card_set
        self.memo: Generations[tuple[str, ...], Known] = Generations(limit)
        self._canonical = {code: code for code in card_set.exact}

    def read(self, codes: Sequence[str], where: str) -> Known:
        """The play ``codes`` make, remembered; bad input raises as :func:`read_combo` does
        (its path within ``codes``) and is not remembered. A list that cannot be a key (an
        unhashable item) is read without the memo."""
        try:
            key = tuple(codes)
            found = self.memo.young.get(key)
        except TypeError:
            return self.read_once(codes, where)
        if found is not None:
            return found
        return self.learn(key, where)

    def learn(self, key: tuple[str, ...], where: str) -> Known:
        """:meth:`read` after the young generation missed ``key``."""
        memo = self.memo
        if key in memo.old:
            return memo.recall(key, lambda: self.read_once(key, where))
        known = self.read_once(key, where)  # raises bad input before anything is kept
        if len(key) <= KEY_CODES_MAX:
            # the card set's own strings: an entry holds nothing of a request
            memo.keep(tuple(map(self._canonical.__getitem__, key)), known)
        return known

    def read_once(self, codes: Sequence[str], where: str) -> Known:
        """:func:`read_combo`, without the memo."""
        return read_combo(codes, self.card_set, where)


PLAYS: Final[dict[CardSet, KnownPlays]] = {
    card_set: KnownPlays(card_set) for card_set in CARD_SETS.values()
}
"""One memo of plays per card set (D-1, D-4): the same codes are other cards in another deck."""

PLAYS_BY_RULES: Final[dict[tuple[Deck, str], KnownPlays]] = {
    (deck, guard_by): PLAYS[CARD_SETS[deck, guard_by == "sword"]]
    for deck, _ in CARD_SETS
    for guard_by in get_args(GuardChoice)
}
""":data:`PLAYS` by a ruleset's ``(deck, guard_by)``: what ``Ruleset.cards`` reads, found by
one dict lookup (the property costs more than the memo it leads to)."""
