"""Cards and decks (docs/rules.md, section D).

A card is a small int whose order is the canonical order, so sorting ids high to low sorts cards
high to low (D-2) with a fixed suit order ``S H C D`` and a marked joker before its plain twin:

* rank cards: ``rank * 4 + (3 - suit)``, rank 0 (``3``) … 12 (``2``), ids 0–51;
* ``SJ`` 52, ``SJ*`` 53 (rank 13), ``BJ`` 56, ``BJ*`` 57 (rank 14).

``card >> 2`` is the card's rank for every card, jokers included; suits never matter for beating.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final, Literal

from .errors import InvalidInput

RANK_SYMBOLS: Final = "3456789TJQKA2"
SUIT_SYMBOLS: Final = "SHCD"
SMALL_RANK: Final = 13
BIG_RANK: Final = 14
SIX_RANK: Final = 3
TWO_RANK: Final = 12
SHORT_DECK_LOWEST_RANK: Final = SIX_RANK  # D-1: the short deck leaves out 3, 4 and 5

SJ: Final = 52
SJ_SWORD: Final = 53  # D-4 侍卫牌, only in lianzhong-simple
BJ: Final = 56
BJ_SCEPTER: Final = 57  # D-4 皇牌
CARD_IDS: Final = tuple([*range(52), SJ, SJ_SWORD, BJ, BJ_SCEPTER])
COPIES_PER_CARD: Final = 4  # D-1: four decks
JOKERS_PER_KIND: Final = 4  # D-1: four big and four small jokers, marked ones included (D-4)

Deck = Literal["full", "short"]


def rank_card(rank: int, suit: int) -> int:
    """The id of a rank card; ``suit`` indexes ``S H C D``."""
    return rank * 4 + (3 - suit)


def _code_of(card: int) -> str:
    if card == SJ:
        return "SJ"
    if card == SJ_SWORD:
        return "SJ*"
    if card == BJ:
        return "BJ"
    if card == BJ_SCEPTER:
        return "BJ*"
    return RANK_SYMBOLS[card >> 2] + SUIT_SYMBOLS[3 - (card & 3)]


CODES: Final[dict[int, str]] = {card: _code_of(card) for card in CARD_IDS}
"""Canonical code of every card id (D-3): ``TH`` never ``10H``."""

FIELD_BITS: Final = 8
"""Counting cards by adding powers of two: each kind of card owns an 8-bit field of one int."""


def _field_of(card: int) -> int:
    """Fields 0–12: rank cards by rank; 13 ``SJ``, 14 ``SJ*``, 15 ``BJ``, 16 ``BJ*``."""
    if card < SJ:
        return card >> 2
    return {SJ: 13, SJ_SWORD: 14, BJ: 15, BJ_SCEPTER: 16}[card]


PACKED: Final[dict[int, int]] = {card: 1 << (FIELD_BITS * _field_of(card)) for card in CARD_IDS}
"""``sum(PACKED[c] for c in cards)`` counts cards per rank and joker kind in one int, in C
(``sum(map(...))``): the hot path's way to classify without a Python loop per card. Lists are
at most 216 cards long, so no field overflows."""


EXACT: Final[dict[int, int]] = {
    card: 1 << (FIELD_BITS * field) for field, card in enumerate(CARD_IDS)
}
"""Like :data:`PACKED`, but one 8-bit field per card id (suits and marks kept): the sum over a
list of at most 255 cards is the list as a multiset, whatever its order, so a play's sorted cards
and its copy limits are functions of that one int (``combos.read_combo`` caches them)."""


_WIDE_BITS: Final = 16
_OVER_FOUR: Final = sum((0x8000 - COPIES_PER_CARD - 1) << (_WIDE_BITS * card) for card in range(SJ))
_TOP_BITS: Final = sum(0x8000 << (_WIDE_BITS * card) for card in range(SJ))


class CardSet:
    """The cards of one ruleset's deck: which codes exist and how many copies of each (D-1, D-4).

    One instance per (deck, sword) pair, built once; its lookups are plain dict reads.
    """

    __slots__ = ("_ids", "_per_card", "deck", "exact", "packed", "size", "sword")

    def __init__(self, deck: Deck, sword: bool) -> None:
        self.deck: Deck = deck
        self.sword = sword
        lowest = SHORT_DECK_LOWEST_RANK if deck == "short" else 0
        ids: dict[str, int] = {}
        for card in CARD_IDS:
            if card == SJ_SWORD and not sword:
                continue
            if card < SJ and card >> 2 < lowest:
                continue
            ids[CODES[card]] = card
            if CODES[card][0] == "T":
                ids["10" + CODES[card][1]] = card  # D-3: "10H" is read as "TH"
        self._ids = ids
        self.packed: dict[str, int] = {code: PACKED[card] for code, card in ids.items()}
        self.exact: dict[str, int] = {code: EXACT[card] for code, card in ids.items()}
        self._per_card = {
            code: (1 << (_WIDE_BITS * card) if card < SJ else 0) for code, card in ids.items()
        }
        rank_cards = (13 - lowest) * 4 * COPIES_PER_CARD
        self.size = rank_cards + 2 * JOKERS_PER_KIND

    def card(self, code: str, path: str = "") -> int:
        """The id of ``code``; an unknown code is ``UNKNOWN_CARD`` bad input at ``path``."""
        card = self._ids.get(code)
        if card is None:
            raise InvalidInput(
                "UNKNOWN_CARD", self._rule_for_unknown(code), self._unknown(code), path
            )
        return card

    def parse(self, codes: Sequence[str]) -> list[int]:
        """Card ids of ``codes``; an unknown one is bad input at its index (``[3]``)."""
        ids = self._ids
        try:
            return [ids[code] for code in codes]
        except KeyError:
            for index, code in enumerate(codes):
                self.card(code, f"[{index}]")
            raise  # pragma: no cover - the loop above raises first

    def pack(self, codes: Sequence[str]) -> int:
        """The :data:`PACKED` count of ``codes``; bad input as for :meth:`parse`."""
        try:
            return sum(map(self.packed.__getitem__, codes))
        except (KeyError, TypeError):
            self.parse(codes)
            raise

    def rank_copies_exceeded(self, codes: Sequence[str]) -> bool:
        """Whether some rank card appears more than four times in ``codes`` (D-1, D-5).

        One C-level sum of a 16-bit field per rank card; adding ``0x7FFB`` to every field sets a
        field's top bit exactly when its count is five or more (counts stay below 217).
        """
        return bool((sum(map(self._per_card.__getitem__, codes)) + _OVER_FOUR) & _TOP_BITS)

    def codes(self) -> list[str]:
        """Every canonical code of this deck, high to low."""
        return [CODES[c] for c in sorted(set(self._ids.values()), reverse=True)]

    def _rule_for_unknown(self, code: str) -> str:
        if code == "SJ*":
            return "D-4"
        if self.deck == "short" and code[:1] in ("3", "4", "5"):
            return "D-1"
        return "D-3"

    def _unknown(self, code: str) -> str:
        if code == "SJ*":
            return "'SJ*' (侍卫牌) exists only in lianzhong-simple (D-4)"
        if self.deck == "short" and code[:1] in ("3", "4", "5"):
            return f"'{code}' is not in the short deck, which has no 3, 4 or 5 (D-1)"
        return (
            f"'{code}' is not a card code: rank 3456789TJQKA2 (or 10) then suit SHCD, "
            "or SJ, BJ, BJ*, SJ* (D-3)"
        )


def copies_excess(cards: Iterable[int]) -> int | None:
    """A card of which ``cards`` hold more copies than four decks allow (D-1, D-4), or ``None``.

    Rank cards: four of each (rank, suit). Jokers: four of each kind in all, of which at most one
    is marked.
    """
    counts = Counter(cards)
    for card, count in counts.items():
        if card < SJ:
            if count > COPIES_PER_CARD:
                return card
        elif card in (SJ_SWORD, BJ_SCEPTER):
            if count > 1 or count + counts[card - 1] > JOKERS_PER_KIND:
                return card
        elif count + counts[card + 1] > JOKERS_PER_KIND:
            return card
    return None


def check_copies(cards: Iterable[int], where: str = "the input") -> None:
    """Raise ``TOO_MANY_COPIES`` (D-5) when ``cards`` hold more copies than the decks do."""
    excess = copies_excess(cards)
    if excess is not None:
        code = CODES[excess]
        if excess >= SJ:
            what = "four jokers of each kind in all, at most one of them marked"
        else:
            what = "four copies of each card"
        raise InvalidInput(
            "TOO_MANY_COPIES",
            "D-5",
            f"{where} holds more '{code}' than four decks do: there are {what} (D-1)",
        )


def parse_cards(codes: Sequence[str], card_set: CardSet, path: str) -> list[int]:
    """Card ids of ``codes``, which sit at ``path``; an unknown code is ``UNKNOWN_CARD`` bad input
    at ``path[index]`` (D-3)."""
    try:
        return card_set.parse(codes)
    except InvalidInput as error:
        raise error.within(path) from None


CARD_SETS: Final[dict[tuple[Deck, bool], CardSet]] = {
    (deck, sword): CardSet(deck, sword) for deck in ("full", "short") for sword in (False, True)
}
