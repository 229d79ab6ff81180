"""Property tests: the engine's beating against the brute-force oracle (N, K), both decks, every
joker mix, marked jokers included. Over 10,000 generated pairs in all."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baohuang.engine import (
    BASES,
    CODES,
    NO_RANK,
    Combo,
    Reason,
    Ruleset,
    cover,
    read_combo,
    refusal,
)
from baohuang.engine.beating import (
    NORMAL_GUARDS,
    NORMAL_REFUSALS,
    normal_have,
    normal_need,
    normal_refusal,
    shapes_beating,
)
from baohuang.engine.reasons import (
    BIG_JOKER_UNBEATABLE,
    EMPTY_PLAY,
    MIXED_RANKS,
    NO_COVER,
    NOT_HIGHER,
    SIZE_MISMATCH,
)
from thorough import examples

from .combo_oracle import group_covers, kaopai_singles, normal_beats, value_of

RULESETS = [BASES["classic"], BASES["lianzhong-simple"], BASES["lianzhong-classic"]]
SETTINGS = settings(
    max_examples=examples(3500), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def combos(draw: st.DrawFn, ruleset: Ruleset, size_hint: int | None = None) -> Combo:
    """Any combo of ``ruleset``'s deck: a rank (or none), up to 16 of it, up to 4+4 jokers."""
    lowest = 3 if ruleset.deck == "short" else 0
    rank = draw(st.sampled_from([None, *("3456789TJQKA2"[lowest:])]))
    big = draw(st.integers(0, 4))
    small = draw(st.integers(0, 4))
    count = 0 if rank is None else draw(st.integers(0, 16))
    if size_hint is not None and draw(st.booleans()):
        # steer towards interesting sizes: equal, or a few more cards (烤牌)
        target = size_hint + draw(st.integers(0, 3))
        count = 0 if rank is None else max(0, min(16, target - big - small))
    if big + small + count == 0:
        big = 1
    codes = ["BJ"] * big + ["SJ"] * small
    if big and draw(st.booleans()):
        codes[0] = "BJ*"
    if small and ruleset.guard_by == "sword" and draw(st.booleans()):
        codes[big] = "SJ*"
    if rank is not None:
        codes += [rank + "SHCD"[i % 4] for i in range(count)]
    codes = draw(st.permutations(codes))
    found = read_combo(codes, ruleset.cards)
    assert isinstance(found, Combo)
    return found


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Ruleset, Combo, Combo]:
    ruleset = draw(st.sampled_from(RULESETS))
    previous = draw(combos(ruleset))
    candidate = draw(combos(ruleset, size_hint=previous.size))
    return ruleset, previous, candidate


def values(found: Combo) -> list[int]:
    return [value_of(CODES[c]) for c in found.cards]


@SETTINGS
@given(pairs())
def test_N_normal_beating_agrees_with_card_for_card_oracle(
    pair: tuple[Ruleset, Combo, Combo],
) -> None:
    _, q, p = pair
    why = refusal(p, q, False)
    assert (why is None) == normal_beats(values(p), values(q))
    if why is not None:
        if p.size != q.size:
            assert why is SIZE_MISMATCH
        elif q.big:
            assert why is BIG_JOKER_UNBEATABLE


@SETTINGS
@given(pairs())
def test_K_kaopai_beating_agrees_with_every_split_oracle(
    pair: tuple[Ruleset, Combo, Combo],
) -> None:
    _, q, p = pair
    singles = kaopai_singles(values(p), values(q))
    why = refusal(p, q, True)
    assert (why is None) == bool(singles)
    if why is not None and q.jokers:
        assert why is NO_COVER
    if why is None:
        entries = cover(p, q, True)
        # every returned cover is a valid split: one group per card of q, high to low, each
        # covering its card, using every card of p exactly once
        assert [card for card, _ in entries] == list(q.cards)
        assert Counter(c for _, group in entries for c in group) == Counter(p.cards)
        for card, group in entries:
            group_values = tuple(sorted((value_of(CODES[c]) for c in group), reverse=True))
            assert group_covers(group_values, value_of(CODES[card]))
        # K-6: the most single-card groups of any cover
        assert sum(len(group) == 1 for _, group in entries) == max(singles)


@SETTINGS
@given(pairs())
def test_N_K_normal_beats_implies_kaopai_beats_and_beating_is_asymmetric(
    pair: tuple[Ruleset, Combo, Combo],
) -> None:
    _, q, p = pair
    if refusal(p, q, False) is None:
        assert refusal(p, q, True) is None
    for kaopai in (False, True):
        assert not (refusal(p, q, kaopai) is None and refusal(q, p, kaopai) is None)
        assert refusal(p, p, kaopai) is not None  # nothing beats an equal combo
        assert refusal(q, q, kaopai) is not None


SHAPES = [
    Combo(rank, count, small, big, ())
    for rank, counts in [(NO_RANK, [0]), *((rank, range(1, 17)) for rank in range(13))]
    for count in counts
    for small in range(5)
    for big in range(5)
    if count + small + big
]
"""Every combo shape four decks can make (C-1): up to 16 cards of a rank, up to 4+4 jokers."""


@settings(max_examples=examples(400), deadline=None)
@given(top=st.sampled_from(SHAPES), kaopai=st.booleans())
def test_N_1_K_1_the_shapes_beating_a_top_are_every_shape_refusal_accepts(
    top: Combo, kaopai: bool
) -> None:
    """``shapes_beating`` skips shapes that cannot beat (N-1 sizes, K-1 rank cards); asking
    ``refusal`` about every shape must find exactly the same ones."""
    found = shapes_beating(top.rank, top.count, top.small, top.big, kaopai)
    assert len(found) == len(set(found))
    assert set(found) == {shape for shape in SHAPES if refusal(shape, top, kaopai) is None}


@pytest.mark.slow
def test_N_1_K_1_the_shapes_beating_every_top_are_every_shape_refusal_accepts() -> None:
    """The same for every shape of the top, both beating rules (10,448 tops, ~8 s)."""
    for kaopai in (False, True):
        for top in SHAPES:
            found = shapes_beating(top.rank, top.count, top.small, top.big, kaopai)
            expected = {shape for shape in SHAPES if refusal(shape, top, kaopai) is None}
            assert set(found) == expected and len(found) == len(expected), (top, kaopai)


def arithmetic_refusal(p: Combo | Reason, q: Combo) -> Reason | None:
    """The memo's verdict (engine/beating.py, "N as arithmetic"), from the two numbers alone."""
    have, need = normal_have(p), normal_need(q)
    assert have is not None and need is not None  # every shape four decks make fits the fields
    return NORMAL_REFUSALS[(have - need) & NORMAL_GUARDS]


def test_N_the_arithmetic_verdict_is_normal_refusal_for_every_pair_of_equal_size() -> None:
    """Every pair of shapes of one size (1,457,800 pairs: every branch past N-1) and every pair
    of at most eight cards whatever the sizes: the two numbers and one lookup give exactly
    normal_refusal's answer, the same constant."""
    numbers = [(shape, normal_have(shape), normal_need(shape)) for shape in SHAPES]
    by_size: dict[int, list[tuple[Combo, int | None, int | None]]] = {}
    for entry in numbers:
        by_size.setdefault(entry[0].size, []).append(entry)
    small = [entry for entry in numbers if entry[0].size <= 8]
    for group in [*by_size.values(), small]:
        for p, have, _ in group:
            assert have is not None
            for q, _, need in group:
                assert need is not None
                assert NORMAL_REFUSALS[(have - need) & NORMAL_GUARDS] is normal_refusal(p, q)


def test_C_1_N_a_candidate_that_is_no_combo_keeps_its_own_reason_against_every_top() -> None:
    for reason in (EMPTY_PLAY, MIXED_RANKS):
        assert all(arithmetic_refusal(reason, q) is reason for q in SHAPES)
    assert normal_have(NOT_HIGHER) is None  # no other reason has a number: it is read again


@pytest.mark.slow
def test_N_the_arithmetic_verdict_is_normal_refusal_for_every_pair_of_shapes() -> None:
    """Every pair of shapes, whatever the sizes (27,290,176 pairs, ~15 s)."""
    tops = [(q, normal_need(q)) for q in SHAPES]
    for p in SHAPES:
        have = normal_have(p)
        assert have is not None
        for q, need in tops:
            assert need is not None
            assert NORMAL_REFUSALS[(have - need) & NORMAL_GUARDS] is normal_refusal(p, q), (p, q)


@SETTINGS
@given(pairs())
def test_N_the_arithmetic_verdict_agrees_with_the_card_for_card_oracle(
    pair: tuple[Ruleset, Combo, Combo],
) -> None:
    """Read plays (cards kept, marked jokers included) against the oracle, not only shapes."""
    _, q, p = pair
    assert (arithmetic_refusal(p, q) is None) == normal_beats(values(p), values(q))
    assert arithmetic_refusal(p, q) is normal_refusal(p, q)
