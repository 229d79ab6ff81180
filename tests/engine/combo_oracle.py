"""A brute-force oracle for beating, written from docs/rules.md without the engine's algebra.

Cards are plain D-2 values (3 → 0 … 2 → 12, SJ 13, BJ 14). Normal beating compares the sorted
lists card for card (N-1, N-2). Kaopai tries every split of the candidate into K-1 groups, one
group per card of the top play, with nothing left over (K-2), memoised on what is left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement

SJ_VALUE = 13
BJ_VALUE = 14


def value_of(code: str) -> int:
    if code.startswith("BJ"):
        return BJ_VALUE
    if code.startswith("SJ"):
        return SJ_VALUE
    rank = "T" if code.startswith("10") else code[0]
    return "3456789TJQKA2".index(rank)


def normal_beats(p: Sequence[int], q: Sequence[int]) -> bool:
    if len(p) != len(q):
        return False
    return all(a > b for a, b in zip(sorted(p, reverse=True), sorted(q, reverse=True), strict=True))


def group_covers(group: tuple[int, ...], card: int) -> bool:
    """K-1, literally."""
    if len(group) == 1:
        return group[0] > card
    if group == (BJ_VALUE, BJ_VALUE):
        return card == BJ_VALUE
    if group == (SJ_VALUE, SJ_VALUE):
        return card == SJ_VALUE
    if group == (SJ_VALUE, SJ_VALUE, SJ_VALUE):
        return card == BJ_VALUE
    return False


def _groups(rest: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every distinct sub-multiset of 1–3 cards of ``rest``, and what remains.

    Larger groups are not tried: K-1 names no group of four or more, so none could cover.
    """
    values = sorted(set(rest), reverse=True)
    counts = Counter(rest)
    for size in (1, 2, 3):
        for group in combinations_with_replacement(values, size):
            need = Counter(group)
            if any(counts[v] < n for v, n in need.items()):
                continue
            remaining = list(rest)
            for value in group:
                remaining.remove(value)
            yield group, tuple(remaining)


@cache
def _splits(q: tuple[int, ...], rest: tuple[int, ...]) -> frozenset[int]:
    """The numbers of single-card groups over all complete splits of ``rest`` covering ``q``."""
    if not q:
        return frozenset({0}) if not rest else frozenset()
    card, others = q[0], q[1:]
    found: set[int] = set()
    for group, remaining in _groups(rest):
        if group_covers(group, card):
            found.update(n + (len(group) == 1) for n in _splits(others, remaining))
    return frozenset(found)


def kaopai_singles(p: Sequence[int], q: Sequence[int]) -> frozenset[int]:
    """Empty when ``p`` does not beat ``q`` under K-2; else every cover's number of singles."""
    return _splits(tuple(sorted(q, reverse=True)), tuple(sorted(p, reverse=True)))


def kaopai_beats(p: Sequence[int], q: Sequence[int]) -> bool:
    return bool(kaopai_singles(p, q))


def is_combo(values: Sequence[int]) -> bool:
    """C-1: at least one card, one rank besides jokers."""
    return bool(values) and len({v for v in values if v < SJ_VALUE}) <= 1


def multiset(values: Sequence[int]) -> Counter[int]:
    return Counter(values)
