"""Candidate hot-path changes, measured A/B against the engine as it is (bench-only; proposals).

    .venv/bin/python bench/hotpath.py [--rounds 7]

Each candidate is a drop-in replacement for one engine function. Before timing, it is checked
against the current function on random inputs, valid and invalid (same Combo, same Reason, or a
CardError with the same code, rule, message and index; same cover), so a faster answer is never a
different answer. Then old and new are timed interleaved, round by round, in one process, and the
median of the per-round ratios is reported (drift on a shared machine hits both alike).

Candidates:
  read_combo  one sorted() over map(ids.__getitem__) instead of a listcomp, the copy check done
              on the sorted cards (a run of five equal ids, two marked jokers, more than four
              jokers of a kind), falling back to the current check_copies() only to word the error;
              classification by bisect on the ascending sort instead of a Python loop per card.
  compare_many  the same, plus ``refuse`` bound once outside the loop (normal_refusal or
              kaopai_refusal), saving one call per pair.
  cover       K-6 groups are contiguous slices of p.cards (bigs, then smalls, then the rest, in
              order), so the cover is a cached per-shape template of (q index, start, stop) and the
              answer is ``[(qc[i], pc[a:b]) ...]``; the normal cover a listcomp over zip.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from time import perf_counter_ns
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baohuang.engine import beating, judging
from baohuang.engine.beating import (
    _kaopai_split,
    kaopai_refusal,
    normal_refusal,
)
from baohuang.engine.cards import BJ, SJ, CardError, CardSet, check_copies
from baohuang.engine.combos import NO_RANK, Combo, read_combo
from baohuang.engine.judging import BadPair, NotACombo
from baohuang.engine.reasons import EMPTY_PLAY, MIXED_RANKS, Reason
from baohuang.engine.rulesets import Ruleset, resolve_ruleset
from pairs import batch_pairs, kaopai_pairs, random_play

# ----------------------------------------------------------------------------- candidates


def read_combo_new(
    codes: Sequence[str], card_set: CardSet, where: str = "the play"
) -> Combo | Reason:
    ids = card_set._ids
    try:
        cards = sorted(map(ids.__getitem__, codes))  # ascending
    except (KeyError, TypeError):
        card_set.parse(codes)  # raises the CardError naming the first unknown code
        raise
    n = len(cards)
    if not n:
        return EMPTY_PLAY
    first_joker = bisect_left(cards, SJ)
    first_big = bisect_left(cards, BJ, first_joker)
    small = first_big - first_joker
    big = n - first_big
    # D-5 on sorted cards: 5 equal rank ids, 2 marked jokers of a kind, 5 jokers of a kind.
    excess = small > 4 or big > 4
    if not excess and small > 1 and cards[first_big - 2] == SJ + 1:
        excess = True
    if not excess and big > 1 and cards[n - 2] == BJ + 1:
        excess = True
    if not excess and first_joker > 4:
        for i in range(first_joker - 4):
            if cards[i] == cards[i + 4]:
                excess = True
                break
    if excess:
        check_copies(list(map(ids.__getitem__, codes)), where)  # words the error as today
    if first_joker:
        rank = cards[0] >> 2
        if cards[first_joker - 1] >> 2 != rank:
            return MIXED_RANKS
    else:
        rank = NO_RANK
    cards.reverse()
    return Combo(rank, first_joker, small, big, tuple(cards))


def compare_many_new(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    ruleset: Ruleset,
    read: Callable[..., Any] = read_combo_new,
) -> list[str | None]:
    card_set = ruleset.cards
    refuse = kaopai_refusal if ruleset.kaopai else normal_refusal
    seen: dict[tuple[str, ...], Combo | Reason] = {}
    codes: list[str | None] = []
    append = codes.append
    for index, (previous, candidate) in enumerate(pairs):
        key = tuple(previous)
        top = seen.get(key)
        if top is None:
            try:
                top = seen[key] = read(previous, card_set, "previous")
            except CardError as error:
                raise BadPair(index, "previous", error) from None
        if top.__class__ is Reason:
            raise BadPair(index, "previous", NotACombo(top))  # type: ignore[arg-type]
        key = tuple(candidate)
        play = seen.get(key)
        if play is None:
            try:
                play = seen[key] = read(candidate, card_set, "candidate")
            except CardError as error:
                raise BadPair(index, "candidate", error) from None
        if play.__class__ is Reason:
            append(play.code)  # type: ignore[union-attr]
            continue
        why = refuse(play, top)  # type: ignore[arg-type]
        append(None if why is None else why.code)
    return codes


@lru_cache(maxsize=4096)
def _cover_template(
    big: int, small: int, count: int, q_big: int, q_small: int, q_count: int
) -> tuple[tuple[int, int, int], ...] | None:
    split = _kaopai_split(big, small, count, q_big, q_small, q_count)
    if split is None:
        return None
    b, s = 0, big  # next big joker, next small joker (indices into p.cards)
    out = []
    for i in range(q_big):
        if i < split.pairs_on_big:
            out.append((i, b, b + 2))
            b += 2
        else:
            out.append((i, s, s + 3))
            s += 3
    for j in range(q_small):
        if j < split.big_on_small:
            out.append((q_big + j, b, b + 1))
            b += 1
        else:
            out.append((q_big + j, s, s + 2))
            s += 2
    # singles: remaining bigs [b, big), remaining smalls [s, big+small), then rank cards.
    singles = [*range(b, big), *range(s, big + small), *range(big + small, big + small + count)]
    base = q_big + q_small
    out.extend((base + k, idx, idx + 1) for k, idx in enumerate(singles))
    return tuple(out)


def cover_new(p: Combo, q: Combo, kaopai: bool) -> list[tuple[int, tuple[int, ...]]]:
    pc, qc = p.cards, q.cards
    if not kaopai or not (q.small or q.big):
        return [(a, (b,)) for a, b in zip(qc, pc, strict=True)]
    template = _cover_template(p.big, p.small, p.count, q.big, q.small, q.count)
    if template is None or (p.count and p.rank <= q.rank):
        raise ValueError("cover() called for a play that does not beat")
    return [(qc[i], pc[a:b]) for i, a, b in template]


# ----------------------------------------------------------------------------- equivalence


def _outcome(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return ("ok", fn(*args))
    except CardError as e:
        return ("CardError", e.code, e.rule, e.message, e.index)


def random_codes(rng: random.Random, card_set: CardSet) -> list[str]:
    """Mostly legal plays, plus broken ones: mixed ranks, unknown codes, too many copies, empty."""
    roll = rng.random()
    if roll < 0.5:
        return random_play(rng, card_set)
    pool = [*card_set.codes(), "10H", "10S", "ZZ", "SJ*", "BJ*", "3S", "1H"]
    weights = [1.0] * len(pool)
    if roll < 0.7:
        weights = [0.02 if c in ("ZZ", "1H") else 1.0 for c in pool]
        return rng.choices(pool, weights, k=rng.randint(0, 6))
    code = rng.choice([*pool[:20], "BJ", "SJ", "BJ*", "SJ*"])
    return [code] * rng.randint(1, 6) + rng.choices(pool, k=rng.randint(0, 2))


def check_equivalence(n: int = 60_000, seed: int = 5) -> None:
    rng = random.Random(seed)
    sets = [resolve_ruleset(b).cards for b in ("classic", "lianzhong-classic", "lianzhong-simple")]
    for _ in range(n):
        card_set = rng.choice(sets)
        codes = random_codes(rng, card_set)
        old, new = (
            _outcome(read_combo, codes, card_set, "x"),
            _outcome(read_combo_new, codes, card_set, "x"),
        )
        assert old == new, (codes, old, new)
    # covers, normal and kaopai
    checked = 0
    for card_set in sets:
        gen = kaopai_pairs(rng, card_set, cover_share=0.8)
        for _ in range(n // 6):
            previous, candidate = next(gen)
            p, q = read_combo(candidate, card_set), read_combo(previous, card_set)
            assert isinstance(p, Combo) and isinstance(q, Combo)
            for kaopai in (False, True):
                if beating.refusal(p, q, kaopai) is None:
                    old = [(a, tuple(b)) for a, b in beating.cover(p, q, kaopai)]
                    assert old == cover_new(p, q, kaopai), (p, q, kaopai)
                    checked += 1
    for base, kaopai in (("classic", False), ("lianzhong-classic", True)):
        pairs = batch_pairs(10_000, base, kaopai, seed=11)
        ruleset = resolve_ruleset(base, kaopai=kaopai)
        assert judging.compare_many(pairs, ruleset) == compare_many_new(pairs, ruleset)
    print(f"equivalence: {n} read_combo inputs, {checked} covers, 2 batches of 10,000: identical")


# ----------------------------------------------------------------------------- timing


def ab(
    label: str, old: Callable[[], Any], new: Callable[[], Any], per: int, rounds: int, inner: int
) -> dict[str, float]:
    """Interleaved A/B: per round, ``inner`` calls of each, median ns per item; ratio per round."""
    old(), new()
    olds, news, ratios = [], [], []
    for _ in range(rounds):
        a, b = [], []
        for _ in range(inner):
            t = perf_counter_ns()
            old()
            a.append(perf_counter_ns() - t)
            t = perf_counter_ns()
            new()
            b.append(perf_counter_ns() - t)
        ma, mb = statistics.median(a) / per, statistics.median(b) / per
        olds.append(ma)
        news.append(mb)
        ratios.append(mb / ma)
    out = {
        "old": statistics.median(olds),
        "new": statistics.median(news),
        "ratio": statistics.median(ratios),
    }
    unit, scale = ("ms", 1e6) if out["old"] > 1e6 else ("ns", 1.0)
    print(
        f"{label:<34} old {out['old'] / scale:>9.2f} {unit}  new {out['new'] / scale:>9.2f} "
        f"{unit}  new/old {out['ratio']:.2f}"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    check_equivalence()
    rng = random.Random(3)
    sets = [resolve_ruleset(b).cards for b in ("classic", "lianzhong-classic", "lianzhong-simple")]
    plays = []
    while len(plays) < 2000:
        cs = rng.choice(sets)
        codes = random_play(rng, cs)
        if isinstance(_outcome(read_combo, codes, cs)[1], Combo):
            plays.append((codes, cs))

    def old_read() -> None:
        for codes, cs in plays:
            read_combo(codes, cs, "candidate")

    def new_read() -> None:
        for codes, cs in plays:
            read_combo_new(codes, cs, "candidate")

    ab("read_combo (legal plays)", old_read, new_read, len(plays), args.rounds, 15)

    roast = []
    for cs in sets:
        gen = kaopai_pairs(rng, cs, cover_share=1.0)
        while len(roast) < 700 * (sets.index(cs) + 1):
            previous, candidate = next(gen)
            p, q = read_combo(candidate, cs), read_combo(previous, cs)
            if beating.refusal(p, q, True) is None:  # type: ignore[arg-type]
                roast.append((p, q))

    def old_cover() -> None:
        for p, q in roast:
            beating.cover(p, q, True)

    def new_cover() -> None:
        for p, q in roast:
            cover_new(p, q, True)

    ab("cover, kaopai (joker-hung tops)", old_cover, new_cover, len(roast), args.rounds, 15)

    def old_both() -> None:
        for p, q in roast:
            if beating.refusal(p, q, True) is None:
                beating.cover(p, q, True)

    def new_both() -> None:
        for p, q in roast:
            if kaopai_refusal(p, q) is None:
                cover_new(p, q, True)

    ab("refusal + cover, kaopai", old_both, new_both, len(roast), args.rounds, 15)

    for base, kaopai in (("classic", False), ("lianzhong-classic", True)):
        pairs = batch_pairs(10_000, base, kaopai)
        ruleset = resolve_ruleset(base, kaopai=kaopai)
        ab(
            f"compare_many 10k ({base}{'+kaopai' if kaopai else ''})",
            lambda p=pairs, r=ruleset: judging.compare_many(p, r),
            lambda p=pairs, r=ruleset: compare_many_new(p, r),
            1,
            args.rounds,
            5,
        )
        ab(
            "  of which: loop only (read_combo old)",
            lambda p=pairs, r=ruleset: judging.compare_many(p, r),
            lambda p=pairs, r=ruleset: compare_many_new(p, r, read_combo),
            1,
            args.rounds,
            5,
        )


if __name__ == "__main__":
    main()
