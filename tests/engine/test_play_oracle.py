"""A brute-force oracle for ``legal_moves``: every sub-multiset of a hand, judged card by card.

Written from docs/rules.md alone, without the engine's shape arithmetic: a candidate is a combo when its
rank cards share one rank (C-1); it beats under N when, sorted high to low, each card is higher
(N-1, N-2); under K when its cards split into K-1 groups, one per card of the top play, none left
(K-2), found by trying every split; 憋6 (B-1) needs a play with a 6 to be the whole hand.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang.engine import (
    BASES,
    NO_RANK,
    PassMove,
    PlayMove,
    Reason,
    Ruleset,
    Snapshot,
    TopPlay,
    Trick,
    classify,
    legal_moves,
    validate_snapshot,
    verify_move,
)
from baohuang.engine.rulesets import resolve_ruleset
from thorough import examples

from .play_support import deck_codes, spec_of

ORDER = "3456789TJQKA2"
SMALL, BIG = 13, 14


def value(code: str) -> int:
    """D-2 order; a marked joker is its plain twin (D-4)."""
    if code.startswith("SJ"):
        return SMALL
    if code.startswith("BJ"):
        return BIG
    return ORDER.index(code[0])


def is_combo(values: tuple[int, ...]) -> bool:
    return bool(values) and len({v for v in values if v < SMALL}) <= 1


def normal_beats(p: tuple[int, ...], q: tuple[int, ...]) -> bool:
    if len(p) != len(q):
        return False
    return all(a > b for a, b in zip(sorted(p, reverse=True), sorted(q, reverse=True), strict=True))


def groups_for(card: int) -> list[tuple[int, ...]]:
    """K-1: the groups that cover ``card`` (singles are added by value)."""
    extra: list[tuple[int, ...]] = []
    if card == BIG:
        extra = [(BIG, BIG), (SMALL, SMALL, SMALL)]
    elif card == SMALL:
        extra = [(SMALL, SMALL)]
    return [(v,) for v in range(card + 1, BIG + 1)] + extra


@cache
def kaopai_beats(p: tuple[int, ...], q: tuple[int, ...]) -> bool:
    """K-2 by search: cover ``q[0]`` with some group taken from ``p``, recurse on the rest."""
    if not q:
        return not p
    rest = Counter(p)
    for group in groups_for(q[0]):
        need = Counter(group)
        if all(rest[v] >= n for v, n in need.items()):
            left = tuple(sorted((rest - need).elements()))
            if kaopai_beats(left, q[1:]):
                return True
    return False


def oracle_shapes(
    hand: list[str], top: list[str] | None, ruleset: Ruleset
) -> set[tuple[int, int, int, int]]:
    """Every shape (rank, count, small, big) of a sub-multiset of ``hand`` that may be played."""
    counts = Counter(value(code) for code in hand)
    kinds = sorted(counts)
    q = None if top is None else tuple(sorted(value(code) for code in top))
    shapes: set[tuple[int, int, int, int]] = set()
    for picks in itertools.product(*(range(counts[v] + 1) for v in kinds)):
        values = tuple(v for v, n in zip(kinds, picks, strict=True) for _ in range(n))
        if not is_combo(values):
            continue
        if q is not None:
            beats = kaopai_beats(values, q) if ruleset.kaopai else normal_beats(values, q)
            if not beats:
                continue
        if ruleset.bie6 and 3 in values and len(values) != len(hand):
            continue
        ranks = [v for v in values if v < SMALL]
        shape = (
            ranks[0] if ranks else NO_RANK,
            len(ranks),
            values.count(SMALL),
            values.count(BIG),
        )
        shapes.add(shape)
    return shapes


RULESETS = [
    resolve_ruleset(base, kaopai=kaopai, bie6=bie6)
    for base in BASES
    for kaopai in (False, True)
    for bie6 in (False, True)
]


def position(rng: random.Random, ruleset: Ruleset) -> Snapshot:
    """Seat 1 to act with a small hand, rich in jokers; often against a joker-hung top."""
    deck = deck_codes(ruleset)
    rng.shuffle(deck)
    jokers = [c for c in deck if c[1] == "J" and c[0] in "SB"]
    plain = [c for c in deck if c not in jokers]
    size = rng.randint(1, 10)
    hand_jokers = rng.randint(0, min(size, 5))
    hand = [jokers.pop() for _ in range(hand_jokers)]
    ranks = ["6", *rng.sample(ORDER[4:], 2)]  # a few ranks only, so sets and sixes are common
    while len(hand) < size:
        pick = [c for c in plain if c[0] in ranks]
        card = rng.choice(pick) if pick else plain[-1]
        plain.remove(card)
        hand.append(card)
    top: list[str] | None = None
    if rng.random() < 0.8:
        rank = rng.choice(ORDER[3:])
        ranked = [c for c in plain if c[0] == rank][: rng.randint(0, 3)]
        for card in ranked:
            plain.remove(card)
        top = ranked + [jokers.pop() for _ in range(rng.randint(0 if ranked else 1, 2))]
    others = [[plain.pop()] for _ in range(3)]
    hands = [[plain.pop()], hand, *others]
    if top is None:
        hands = [hand, *hands[2:], hands[0]]
    snapshot = Snapshot(
        ruleset=spec_of(ruleset),
        hands=hands,
        turn=0 if top is None else 1,
        trick=Trick(top=None if top is None else TopPlay(0, top)),
        **roles(hands),
    )
    return validate_snapshot(snapshot)


def long_position(rng: random.Random, ruleset: Ruleset) -> Snapshot:
    """Seat 1 to act holding many cards of one rank (up to 16, D-1) and a few jokers, against a
    long top of a lower rank: the plays of six and more cards that :func:`position` never makes."""
    deck = deck_codes(ruleset)
    rng.shuffle(deck)
    jokers = [c for c in deck if c[1] == "J" and c[0] in "SB"]
    plain = [c for c in deck if c not in jokers]
    low, high = sorted(rng.sample(ORDER[4:], 2), key=ORDER.index)
    many = [c for c in plain if c[0] == high][: rng.randint(6, 16)]
    hand = many + [jokers.pop() for _ in range(rng.randint(0, 3))]
    ranked = [c for c in plain if c[0] == low][: rng.randint(4, len(many))]
    top = ranked + [jokers.pop() for _ in range(rng.randint(0, 2))]
    plain = [c for c in plain if c not in many and c not in ranked]
    hands = [[plain.pop()], hand, *([plain.pop()] for _ in range(3))]
    snapshot = Snapshot(
        ruleset=spec_of(ruleset),
        hands=hands,
        turn=1,
        trick=Trick(top=TopPlay(0, top)),
        **roles(hands),
    )
    return validate_snapshot(snapshot)


def roles(hands: list[list[str]]) -> dict[str, Any]:
    """Roles the marked jokers allow (D-7): the BJ* holder is emperor (else seat 0); the SJ*
    holder is the guard, or the emperor playing 暗独 (else seat 2, or 3)."""
    holding = {code: seat for seat, hand in enumerate(hands) for code in hand}
    emperor = holding.get("BJ*", 0)
    guard = holding.get("SJ*", 2 if emperor != 2 else 3)
    mode = "solo_hidden" if guard == emperor else "team"
    return {"mode": mode, "emperor": emperor, "guard": guard}


@settings(max_examples=examples(500), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, len(RULESETS) - 1))
def test_legal_moves_agree_with_brute_force_oracle(seed: int, index: int) -> None:
    ruleset = RULESETS[index]
    assert_agrees_with_oracle(position(random.Random(seed), ruleset), ruleset)


@settings(max_examples=examples(200), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, len(RULESETS) - 1))
def test_legal_moves_agree_with_oracle_on_long_plays_C_1_K_2(seed: int, index: int) -> None:
    """Up to 16 cards of one rank against a long top: follows of any length (C-1, N-2, K-2)."""
    ruleset = RULESETS[index]
    assert_agrees_with_oracle(long_position(random.Random(seed), ruleset), ruleset)


def assert_agrees_with_oracle(snapshot: Snapshot, ruleset: Ruleset) -> None:
    seat = snapshot.turn
    hand = snapshot.hands[seat]
    top = None if snapshot.trick.top is None else snapshot.trick.top.cards
    moves = legal_moves(snapshot)
    plays = [move for move in moves if isinstance(move, PlayMove)]
    listed = []
    for move in plays:
        combo = classify(ruleset.cards.parse(move.cards))
        assert not isinstance(combo, Reason)
        assert verify_move(snapshot, move) is None
        assert not (Counter(move.cards) - Counter(hand)), "cards not in hand"
        listed.append((combo.rank, combo.count, combo.small, combo.big))
    assert len(listed) == len(set(listed)), "a shape listed twice"
    cheapest_first = [
        (small + big, 99 if rank == NO_RANK else rank, count, big)
        for rank, count, small, big in listed
    ]
    assert cheapest_first == sorted(cheapest_first), "plays not cheapest first"
    assert set(listed) == oracle_shapes(hand, top, ruleset)
    assert (PassMove(seat) in moves) == (top is not None)


def test_oracle_knows_the_kaopai_examples() -> None:
    """K-3 and K-5 checked against the oracle itself, so the oracle is worth trusting."""

    def v(cards: str) -> tuple[int, ...]:
        return tuple(sorted(value(c) for c in cards.split()))

    assert kaopai_beats(v("BJ BJ SJ SJ"), v("BJ SJ"))
    assert kaopai_beats(v("BJ BJ SJ SJ SJ"), v("BJ BJ"))
    assert kaopai_beats(v("BJ BJ BJ"), v("BJ SJ"))
    assert kaopai_beats(v("BJ BJ 8S 8H 8C 8D"), v("BJ 7S 7H 7C 7D"))
    assert kaopai_beats(v("BJ BJ BJ SJ 8S 8H"), v("BJ SJ 7S 7H 7C"))
    assert not kaopai_beats(v("BJ BJ BJ"), v("BJ"))
    assert kaopai_beats(v("BJ BJ BJ BJ"), v("BJ BJ"))
    assert not kaopai_beats(v("BJ BJ BJ BJ"), v("BJ"))
