"""Does a play beat the top play? Normal rules (docs/rules.md N) and 烤牌 (K).

``refusal(p, q, kaopai)`` is the hot path: ``None`` when ``p`` beats ``q``, else the reason.
``cover(p, q, kaopai)`` names which cards of ``p`` beat which card of ``q`` (K-6); it is only
called once ``refusal`` said yes.

Both work on combo shapes in O(1): under N-2 the sorted cards of each combo are at most three
runs (big jokers, small jokers, rank cards), and under K the groups are few enough that a cover is
fixed by how many small jokers of ``q`` are taken by single big jokers (see :func:`_kaopai_split`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

from .cards import COPIES_PER_CARD, JOKERS_PER_KIND
from .combos import NO_RANK, Combo
from .reasons import (
    BIG_JOKER_UNBEATABLE,
    EMPTY_PLAY,
    MIXED_RANKS,
    NO_COVER,
    NOT_HIGHER,
    SIZE_MISMATCH,
    Reason,
)


def normal_refusal(p: Combo, q: Combo) -> Reason | None:
    """N-1…N-3: ``None`` when ``p`` beats ``q`` card for card, else why not.

    Sorted high to low, ``p[i] > q[i]`` for all ``i`` (N-2) unfolds to: no big joker in ``q``
    (nothing beats one, N-3); a big joker of ``p`` for each small joker of ``q`` (N-4, N-5);
    and where both hold rank cards, ``p``'s rank is higher (any joker beats any rank card).
    """
    if p.count + p.small + p.big != q.count + q.small + q.big:
        return SIZE_MISMATCH
    if q.big:
        return BIG_JOKER_UNBEATABLE
    if p.big < q.small:
        return NOT_HIGHER
    if p.count and q.count and p.rank <= q.rank:
        return NOT_HIGHER
    return None


# N as arithmetic: the memo of plays' verdict (known_plays, judging).
#
# normal_refusal() asks up to five questions "is a >= b?", each about a number of p and a number
# of q: sizes both ways (N-1), q's big jokers against none (N-3), p's big jokers against q's small
# ones (N-2, N-5), p's rank against one above q's (N-2). Each number gets a bit field of its own,
# p's numbers (plus half the field) in one int and q's in another: subtracting the two ints
# subtracts every field at once, with no borrow from one field into the next, and a field's top
# bit is then set exactly when its "a >= b" holds. So the top bits of ``have(p) - need(q)`` are
# the answers to every question, and one dict maps them to the refusal. Three more fields carry
# a play that is no combo (C-1): a candidate's own reason comes first, as in judging.judge(),
# and a top that is none is bad input, which the dict leaves out (its lookup raises KeyError).

_SIZE_MAX: Final = 24
"""Sizes up to this (16 rank cards and 8 jokers) fit: the memo keeps no longer plays."""

_FIELDS: Final = {  # name: (width, p's values, q's values)
    "top_is_combo": (1, (0, 0), (0, 1)),  # C-1: q is a combo (1: it is none, bad input)
    "not_empty": (1, (-1, 0), (0, 0)),  # C-1: p holds a card (-1: it is EMPTY_PLAY)
    "one_rank": (1, (-1, 0), (0, 0)),  # C-1: p's cards are of one rank (-1: MIXED_RANKS)
    "no_fewer": (6, (0, _SIZE_MAX), (0, _SIZE_MAX)),  # N-1: p.size >= q.size
    "no_more": (6, (0, _SIZE_MAX), (0, _SIZE_MAX)),  # N-1: 24 - p.size >= 24 - q.size
    "no_big_on_top": (3, (0, 0), (0, JOKERS_PER_KIND)),  # N-3: 0 >= q.big
    "bigs_for_smalls": (4, (0, JOKERS_PER_KIND), (0, JOKERS_PER_KIND)),  # N-5: p.big >= q.small
    "rank_above": (5, (0, 13), (0, 13)),  # N-2: p.rank (13: no rank card) >= q.rank + 1 (0: none)
}
_AT: Final[dict[str, int]] = {}
_bit = 0
for _name, (_width, (_p_low, _p_high), (_q_low, _q_high)) in _FIELDS.items():
    _AT[_name] = _bit
    _bit += _width
    # a - b + half must stay within the field for any p and q: no borrow, no overflow
    assert _p_high - _q_low <= (1 << (_width - 1)) - 1 and _p_low - _q_high >= -(1 << (_width - 1))
assert _bit <= 30  # one digit of a CPython int: the arithmetic's fast path
NORMAL_GUARDS: Final = sum(1 << (_AT[name] + width - 1) for name, (width, _, _) in _FIELDS.items())
"""The top bit of every field: ``(have - need) & NORMAL_GUARDS`` is which questions hold."""


def _fields(values: dict[str, int], p_side: bool) -> int | None:
    """The fields' values in one int (``p``'s side: plus half the field); ``None`` if a value
    lies outside its field's range (then there is no arithmetic form: read the combos)."""
    total = 0
    for name, (width, p_values, q_values) in _FIELDS.items():
        value = values.get(name, 0)
        low, high = p_values if p_side else q_values
        if not low <= value <= high:
            return None
        total += (value + (1 << (width - 1)) if p_side else value) << _AT[name]
    return total


def normal_have(p: Combo | Reason) -> int | None:
    """``p``'s side of the N questions (see above), as the candidate; a reason (no combo)
    carries its own field. ``None`` when ``p`` does not fit (more than 24 cards, or more than
    four jokers of a kind, or a reason other than C-1's two): such plays are not remembered."""
    if isinstance(p, Reason):
        if p is not EMPTY_PLAY and p is not MIXED_RANKS:
            return None
        return _fields({"not_empty": -(p is EMPTY_PLAY), "one_rank": -(p is MIXED_RANKS)}, True)
    size = p.count + p.small + p.big
    return _fields(
        {
            "no_fewer": size,
            "no_more": _SIZE_MAX - size,
            "bigs_for_smalls": p.big,
            "rank_above": p.rank if p.count else 13,
        },
        True,
    )


def normal_need(q: Combo | Reason) -> int | None:
    """``q``'s side of the N questions, as the top play (a reason: no combo, so bad input as a
    top); ``None`` when it does not fit."""
    if isinstance(q, Reason):
        return _fields({"top_is_combo": 1}, False)
    size = q.count + q.small + q.big
    return _fields(
        {
            "no_fewer": size,
            "no_more": _SIZE_MAX - size,
            "no_big_on_top": q.big,
            "bigs_for_smalls": q.small,
            "rank_above": q.rank + 1 if q.count else 0,
        },
        False,
    )


def _normal_refusal_of(holds: dict[str, bool]) -> Reason | None:
    """The first refusal among the answers, in :func:`normal_refusal`'s order after C-1."""
    if not holds["not_empty"]:
        return EMPTY_PLAY
    if not holds["one_rank"]:
        return MIXED_RANKS
    if not (holds["no_fewer"] and holds["no_more"]):
        return SIZE_MISMATCH
    if not holds["no_big_on_top"]:
        return BIG_JOKER_UNBEATABLE
    if not (holds["bigs_for_smalls"] and holds["rank_above"]):
        return NOT_HIGHER
    return None


NORMAL_REFUSALS: Final[dict[int, Reason | None]] = {
    sum(1 << (_AT[name] + width - 1) for name, (width, _, _) in _FIELDS.items() if holds[name]): (
        _normal_refusal_of(holds)
    )
    for answers in range(1 << len(_FIELDS))
    for holds in [{name: bool(answers >> index & 1) for index, name in enumerate(_FIELDS)}]
    if holds["top_is_combo"]
}
"""``NORMAL_REFUSALS[(normal_have(p) - normal_need(q)) & NORMAL_GUARDS]`` is ``p``'s own reason
when it is no combo, else :func:`normal_refusal` ``(p, q)``; every answer pattern is a key but
those of a top that is no combo (the lookup raises ``KeyError``: read the plays, which raises
bad input)."""


class KaopaiSplit(NamedTuple):
    """How ``p``'s cards group against ``q``'s under K-1 (counts of each group kind).

    ``big_on_small``: single ``BJ`` on a ``SJ``; the rest of ``q``'s small jokers take ``SJ SJ``.
    ``pairs_on_big``: ``BJ BJ`` on a ``BJ``; the rest of ``q``'s big jokers take ``SJ SJ SJ``.
    ``big_on_rank`` / ``small_on_rank``: single jokers on ``q``'s rank cards; ``p``'s own rank
    cards take the remaining rank cards one for one.
    """

    big_on_small: int
    pairs_on_big: int
    big_on_rank: int
    small_on_rank: int


@lru_cache(maxsize=4096)
def _kaopai_split(
    big: int, small: int, count: int, q_big: int, q_small: int, q_count: int
) -> KaopaiSplit | None:
    """K-2/K-6: the cover with the most single-card groups, or ``None`` if there is none.

    Unknowns u (BJ on SJ), v (BJ BJ on BJ), x (BJ on rank), y (SJ on rank) satisfy
        x + u + 2v = big
        y + 2(q_small − u) + 3(q_big − v) = small
        x + y = q_count − count            (p's rank cards take one rank card each)
    Adding the three fixes v once u is chosen, so each u gives at most one cover, and the
    number of single-card groups, q_count + u, grows with u: trying u from high to low returns
    the K-6 choice first. Rank order (p's rank above q's) is checked by the caller.
    """
    rest = q_count - count
    if rest < 0:
        return None
    for u in range(min(q_small, big), -1, -1):
        v = rest - u + 2 * q_small + 3 * q_big - big - small
        if v < 0 or v > q_big:
            continue
        x = big - u - 2 * v
        if 0 <= x <= rest:
            return KaopaiSplit(u, v, x, rest - x)
    return None


def kaopai_refusal(p: Combo, q: Combo) -> Reason | None:
    """K-2: ``None`` when ``p``'s cards split into K-1 groups covering ``q`` with none left over.

    Without jokers in ``q`` there is nothing to roast and N applies (K-4).
    """
    if not (q.small or q.big):
        return normal_refusal(p, q)
    if p.count and p.rank <= q.rank:  # p's rank cards can only cover lower rank cards
        return NO_COVER
    if _kaopai_split(p.big, p.small, p.count, q.big, q.small, q.count) is None:
        return NO_COVER
    return None


def refusal(p: Combo, q: Combo, kaopai: bool) -> Reason | None:
    """Why ``p`` does not beat ``q`` under the ruleset's beating rule, or ``None`` if it does."""
    return kaopai_refusal(p, q) if kaopai else normal_refusal(p, q)


RANKS = 13
RANK_CARDS_MAX = 4 * COPIES_PER_CARD
"""D-1: four decks hold at most 16 cards of one rank (four of each suit)."""


def shapes_beating(
    q_rank: int, q_count: int, q_small: int, q_big: int, kaopai: bool
) -> tuple[Combo, ...]:
    """Every combo shape (``cards`` empty) that beats the shape ``q`` under N or K: what a
    follower may play (``play.legal`` caches it per shape of ``q``), found by asking
    :func:`refusal` about every shape four decks can make (C-1) that could beat at all.

    "Could" is two necessary conditions read off the refusals above, so that a new shape of
    ``q`` costs a few hundred probes rather than five thousand: under N the sizes are equal (N-1);
    under K each of ``p``'s rank cards covers one of ``q``'s (K-1), so ``p`` has no more. The
    refusal still decides every shape asked.
    """
    q = Combo(q_rank, q_count, q_small, q_big, ())
    roasting = kaopai and bool(q_small or q_big)  # K-4: with no joker in q, N applies
    size = q_count + q_small + q_big
    found: list[Combo] = []
    for small in range(JOKERS_PER_KIND + 1):
        for big in range(JOKERS_PER_KIND + 1):
            if roasting:
                counts = range(q_count + 1)  # K-1: no more rank cards than q has
            else:
                need = size - small - big  # N-1: as many cards as q
                counts = range(need, need + 1) if 0 <= need <= RANK_CARDS_MAX else range(0)
            for count in counts:
                for rank in range(RANKS) if count else (NO_RANK,) if small + big else ():
                    p = Combo(rank, count, small, big, ())
                    if refusal(p, q, kaopai) is None:
                        found.append(p)
    return tuple(found)


CoverEntry = tuple[int, tuple[int, ...]]


def cover(p: Combo, q: Combo, kaopai: bool) -> list[CoverEntry]:
    """K-6: for each card of ``q``, high to low, the cards of ``p`` that cover it.

    Call only when :func:`refusal` returned ``None``. Under N the groups are single cards,
    ``p[i]`` on ``q[i]``. Under K the split is :func:`_kaopai_split`'s; groups are dealt from
    ``p``'s cards high to low, big jokers before small ones, so the answer is deterministic.
    """
    if not kaopai or not (q.small or q.big):
        return [(card, (by,)) for card, by in zip(q.cards, p.cards, strict=True)]
    pc, qc = p.cards, q.cards
    template = _cover_template(p.big, p.small, p.count, q.big, q.small, q.count)
    return [(qc[index], pc[start:stop]) for index, start, stop in template]


@lru_cache(maxsize=4096)
def _cover_template(
    big: int, small: int, count: int, q_big: int, q_small: int, q_count: int
) -> tuple[tuple[int, int, int], ...]:
    """Each K-6 group as a slice of ``p.cards`` (big jokers, small jokers, rank cards, high to
    low): ``(index in q.cards, start, stop)``. One template per pair of shapes."""
    split = _kaopai_split(big, small, count, q_big, q_small, q_count)
    if split is None:
        raise ValueError("cover() called for a play that does not beat")
    next_big, next_small = 0, big  # where the unused big and small jokers start in p.cards
    groups: list[tuple[int, int, int]] = []
    for index in range(q_big):  # q's big jokers: BJ BJ first, then SJ SJ SJ
        if index < split.pairs_on_big:
            groups.append((index, next_big, next_big + 2))
            next_big += 2
        else:
            groups.append((index, next_small, next_small + 3))
            next_small += 3
    for index in range(q_big, q_big + q_small):  # q's small jokers: single BJ first, then SJ SJ
        if index - q_big < split.big_on_small:
            groups.append((index, next_big, next_big + 1))
            next_big += 1
        else:
            groups.append((index, next_small, next_small + 2))
            next_small += 2
    # q's rank cards take single cards: the big jokers left, the small ones left, p's rank cards
    singles = [
        *range(next_big, big),
        *range(next_small, big + small),
        *range(big + small, big + small + count),
    ]
    first_rank = q_big + q_small
    groups.extend((first_rank + n, at, at + 1) for n, at in enumerate(singles))
    return tuple(groups)
