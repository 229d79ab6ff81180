"""Realistic random plays and pairs for the benchmarks (both decks, every joker mix).

A play is drawn from the deck itself: ``count`` copies of one rank (any suits, at most four of each
(rank, suit)) plus ``small`` small and ``big`` big jokers, marked ones (``BJ*``, and ``SJ*`` in
lianzhong-simple) included at most once. ``10`` is used for ``T`` now and then (D-3).

Pairs come in three flavours so that every branch of beating runs:
* ``normal``: the candidate has the top's size most of the time (else N-1 refuses at once);
* ``kaopai``: the top holds jokers and the candidate is built as a K-1 cover of it (then kept
  only if it is a legal play), mixed with plain random candidates;
* every pair is checked by reading it through the engine, so no pair is bad input.
Seeded: the same seed gives the same pairs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from baohuang.engine import RANK_SYMBOLS, CardSet, Combo, InvalidInput, Ruleset, read_combo
from baohuang.engine.rulesets import resolve_ruleset

SUITS = "SHCD"
# The rulesets a benchmark mixes: both decks, with and without kaopai, and the sword deck (SJ*).
NORMAL_RULESETS = ("classic", "lianzhong-classic", "lianzhong-simple")


def kaopai_ruleset(base: str = "lianzhong-classic") -> Ruleset:
    return resolve_ruleset(base, kaopai=True)


def _rank_code(rng: random.Random, rank: int, suit: str) -> str:
    symbol = RANK_SYMBOLS[rank]
    if symbol == "T" and rng.random() < 0.1:
        return "10" + suit
    return symbol + suit


def _jokers(rng: random.Random, kind: str, n: int, marked_ok: bool) -> list[str]:
    codes = [kind] * n
    if n and marked_ok and rng.random() < 0.25:
        codes[0] = kind + "*"
    return codes


def random_play(
    rng: random.Random,
    card_set: CardSet,
    *,
    count: int | None = None,
    small: int | None = None,
    big: int | None = None,
    min_rank: int | None = None,
) -> list[str]:
    """One legal combo as card codes, shuffled (C-4: order does not matter)."""
    lowest = 3 if card_set.deck == "short" else 0
    if min_rank is not None:
        lowest = max(lowest, min_rank)
    if count is None:
        count = rng.choice((0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 8))
    if small is None:
        small = rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4))
    if big is None:
        big = rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4))
    if count + small + big == 0:
        count = 1
    codes: list[str] = []
    if count:
        if lowest > 12:
            raise ValueError("no rank above the top's")
        rank = rng.randint(lowest, 12)
        pool = [s for s in SUITS for _ in range(4)]  # four decks: four of each (rank, suit)
        for suit in rng.sample(pool, count):
            codes.append(_rank_code(rng, rank, suit))
    codes += _jokers(rng, "SJ", small, card_set.sword)
    codes += _jokers(rng, "BJ", big, True)
    rng.shuffle(codes)
    return codes


def kaopai_cover_play(rng: random.Random, card_set: CardSet, top: Combo) -> list[str]:
    """A candidate built as a K-1 cover of ``top`` (it may still break a copy limit)."""
    big = small = 0
    for _ in range(top.big):
        if rng.random() < 0.5:
            big += 2  # BJ BJ on BJ
        else:
            small += 3  # SJ SJ SJ on BJ
    for _ in range(top.small):
        if rng.random() < 0.5:
            big += 1  # BJ on SJ
        else:
            small += 2  # SJ SJ on SJ
    rank_singles = 0
    for _ in range(top.count):
        roll = rng.random()
        if roll < 0.15:
            big += 1
        elif roll < 0.3:
            small += 1
        else:
            rank_singles += 1
    min_rank = top.rank + 1 if top.count else None
    if rank_singles and min_rank is not None and min_rank > 12:
        small += rank_singles  # no rank card is above 2: cover with small jokers instead
        rank_singles = 0
    return random_play(rng, card_set, count=rank_singles, small=small, big=big, min_rank=min_rank)


def _readable(codes: list[str], card_set: CardSet) -> Combo | None:
    try:
        combo = read_combo(codes, card_set)
    except InvalidInput:
        return None
    return combo if isinstance(combo, Combo) else None


def normal_pairs(rng: random.Random, card_set: CardSet) -> Iterator[tuple[list[str], list[str]]]:
    """Top and candidate; same size 80 % of the time (mostly the rank/joker branches run)."""
    while True:
        previous = random_play(rng, card_set)
        top = _readable(previous, card_set)
        if top is None:
            continue
        if rng.random() < 0.8:
            size = top.count + top.small + top.big
            small = rng.choice((0, 0, 0, 1, 1, 2))
            big = rng.choice((0, 0, 0, 1, 1, 2))
            small, big = min(small, size), min(big, max(0, size - small))
            candidate = random_play(rng, card_set, count=size - small - big, small=small, big=big)
        else:
            candidate = random_play(rng, card_set)
        if _readable(candidate, card_set) is None:
            continue
        yield previous, candidate


def kaopai_pairs(
    rng: random.Random, card_set: CardSet, cover_share: float = 0.7
) -> Iterator[tuple[list[str], list[str]]]:
    """Tops that hold at least one joker (joker-hung); ``cover_share`` of candidates are covers."""
    while True:
        small = rng.choice((0, 1, 1, 2, 2, 3))
        big = rng.choice((0, 0, 1, 1, 2))
        if small + big == 0:
            small = 1
        previous = random_play(rng, card_set, small=small, big=big, count=rng.choice((0, 1, 2, 3)))
        top = _readable(previous, card_set)
        if top is None:
            continue
        if rng.random() < cover_share:
            candidate = kaopai_cover_play(rng, card_set, top)
        else:
            candidate = random_play(rng, card_set)
        if _readable(candidate, card_set) is None:
            continue
        yield previous, candidate


def mixed_pairs(
    n: int, seed: int = 2024, kaopai_share: float = 0.3
) -> list[tuple[str, list[str], list[str]]]:
    """``n`` (ruleset, previous, candidate) triples across both decks and all joker mixes."""
    rng = random.Random(seed)
    out: list[tuple[str, list[str], list[str]]] = []
    normal_gens = {}
    kaopai_gens = {}
    for name in NORMAL_RULESETS:
        card_set = resolve_ruleset(name).cards
        normal_gens[name] = normal_pairs(rng, card_set)
        kaopai_gens[name] = kaopai_pairs(rng, card_set)
    while len(out) < n:
        name = rng.choice(NORMAL_RULESETS)
        if rng.random() < kaopai_share:
            previous, candidate = next(kaopai_gens[name])
            out.append((f"{name}+kaopai", previous, candidate))
        else:
            previous, candidate = next(normal_gens[name])
            out.append((name, previous, candidate))
    return out


def ruleset_named(name: str) -> Ruleset:
    base, _, option = name.partition("+")
    return resolve_ruleset(base, kaopai=True) if option == "kaopai" else resolve_ruleset(base)


def ruleset_wire(name: str) -> str | dict[str, object]:
    base, _, option = name.partition("+")
    return {"base": base, "kaopai": True} if option == "kaopai" else base


class Pair(NamedTuple):
    """A batch question; unpacks like a tuple and reads like the wire ``Pair``."""

    previous: list[str]
    candidate: list[str]


def batch_pairs(n: int, base: str, kaopai: bool, seed: int = 7) -> list[Pair]:
    """``n`` pairs for one ruleset (a batch has one ruleset): 60 % normal-style, 40 % joker-hung."""
    rng = random.Random(seed)
    card_set = resolve_ruleset(base).cards
    normal = normal_pairs(rng, card_set)
    roast = kaopai_pairs(rng, card_set)
    return [Pair(*(next(roast) if rng.random() < 0.4 else next(normal))) for _ in range(n)]
