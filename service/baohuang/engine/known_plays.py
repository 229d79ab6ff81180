"""Plays already read, remembered within a bound: the combo routes' first lookup.

A combo route reads the same plays again and again (a single, a pair, a joker-hung triple), so
the cheapest reading of a play is none at all: its codes, as a tuple, look up what
:func:`~.combos.read_combo` gave for them before (D-3, D-5, C-1), with the play's two numbers
for the normal rules' verdict beside it (:func:`~.beating.normal_have` as the candidate,
:func:`~.beating.normal_need` as the top): a verdict from two remembered plays is then one
subtraction and one dict lookup (:data:`~.beating.NORMAL_REFUSALS`), with no call. Measured
against the other tables one could build (bench/RESULTS.md, sections 15 and 16): a memo per pair
of plays is faster only while the same pairs come back, and real play seldom repeats a pair.

Bounds. Each card set's memo keeps at most two generations of :data:`GENERATION` entries: when
the young one fills, it becomes the old one and the old one is dropped; a hit in the old
generation moves back to the young one. So a memo holds at most ``2 * GENERATION`` plays
whatever callers send, and what is asked often stays. The young generation is one dict for the
memo's life (a flip copies it into the old one and empties it), so the hot paths hold it
directly (:data:`KNOWN_BY_RULES`). Only plays of at most :data:`KEY_CODES_MAX` codes are
remembered, keyed by the card set's own code strings (never a request's); an entry is about 300
bytes for a play of five cards and 700 for the longest (the two numbers are shared by every play
of one shape): 10–23 MB per card set when full, of the four card sets only those the rulesets in
use read. Bad input is never remembered: it is read again, and raises again, each time.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Generic, TypeVar, get_args

import msgspec

from .beating import normal_have, normal_need
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
"""A play as read: its combo (cards kept, for the K-6 cover) or why it is none."""


class KnownPlay(msgspec.Struct, frozen=True, gc=False):
    """A play as remembered: ``combo`` as read, and its numbers for the normal rules' verdict,
    ``NORMAL_REFUSALS[(candidate.have - top.need) & NORMAL_GUARDS]`` (engine/beating.py). A
    play that is no combo has numbers too: as a candidate its reason, as the top a pattern the
    dict leaves out (``KeyError``: the caller reads the plays again, which raises bad input)."""

    combo: Known
    have: int
    need: int


@lru_cache(maxsize=8192)  # bounded by the shapes four decks make (about 5,300)
def _numbers(rank: int, count: int, small: int, big: int) -> tuple[int | None, int | None]:
    """A shape's (have, need), one pair of int objects per shape, shared by its plays."""
    shape = Combo(rank, count, small, big, ())
    return normal_have(shape), normal_need(shape)


def known_play(known: Known) -> KnownPlay | None:
    """``known`` with its numbers for the verdict; ``None`` if it has none (it does not fit the
    numbers' fields: not remembered, read every time)."""
    if isinstance(known, Reason):
        have, need = normal_have(known), normal_need(known)
    else:
        have, need = _numbers(known.rank, known.count, known.small, known.big)
    if have is None or need is None:
        return None
    return KnownPlay(known, have, need)


class Generations(Generic[K, V]):
    """A bounded memo in two generations (see the module's docstring).

    The hot paths read ``young`` themselves (one dict lookup); on a miss, the owner looks in
    ``old`` and :meth:`keep` s what it finds, or what it reads, young. ``young`` is the same dict
    for the memo's life: a flip copies it into ``old`` and empties it.
    """

    __slots__ = ("limit", "old", "young")

    def __init__(self, limit: int = GENERATION) -> None:
        self.limit = limit
        self.young: dict[K, V] = {}
        self.old: dict[K, V] = {}

    def keep(self, key: K, value: V) -> None:
        """``value`` in the young generation, after a flip if it is full."""
        young = self.young
        if len(young) >= self.limit:
            self.old = young.copy()
            young.clear()
        young[key] = value

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def clear(self) -> None:
        self.young.clear()
        self.old = {}


class KnownPlays:
    """The plays of one card set, by their codes."""

    __slots__ = ("_canonical", "card_set", "memo")

    def __init__(self, card_set: CardSet, limit: int = GENERATION) -> None:
        self.card_set = card_set
        self.memo: Generations[tuple[str, ...], KnownPlay] = Generations(limit)
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
            return found.combo
        return self.learn(key, where)

    def learn(self, key: tuple[str, ...], where: str) -> Known:
        """:meth:`read` after the young generation missed ``key``."""
        memo = self.memo
        found = memo.old.pop(key, None)
        if found is not None:  # back to the young generation
            memo.keep(self._own(key), found)
            return found.combo
        known = self.read_once(key, where)  # raises bad input before anything is kept
        remembered = known_play(known) if len(key) <= KEY_CODES_MAX else None
        if remembered is not None:
            memo.keep(self._own(key), remembered)
        return known

    def _own(self, key: tuple[str, ...]) -> tuple[str, ...]:
        """``key`` in the card set's own strings (valid codes only): an entry holds nothing of a
        request."""
        return tuple(map(self._canonical.__getitem__, key))

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

KNOWN_BY_RULES: Final[dict[Deck, dict[str, dict[tuple[str, ...], KnownPlay]]]] = {}
"""The young generation of :data:`PLAYS_BY_RULES`' memos, as ``[deck][guard_by]``: the dict the
hot paths look plays up in (the same dict for each memo's life; two lookups by a string cost
less than building and hashing the pair)."""
for (_deck, _guard_by), _plays in PLAYS_BY_RULES.items():
    KNOWN_BY_RULES.setdefault(_deck, {})[_guard_by] = _plays.memo.young
