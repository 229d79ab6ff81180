"""Property tests: reading a play (D-3, D-5, C-1) against a plain reference, any list of codes."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang.engine import (
    BASES,
    NO_RANK,
    Combo,
    InvalidInput,
    Ruleset,
    compare,
    read_combo,
    read_shape,
)
from baohuang.engine.reasons import EMPTY_PLAY, MIXED_RANKS, Reason
from thorough import examples

from .combo_oracle import BJ_VALUE, SJ_VALUE, value_of

RULESETS = [BASES["classic"], BASES["lianzhong-simple"]]


def reference(codes: list[str], ruleset: Ruleset) -> str | tuple[int, int, int, int]:
    """What docs/rules.md says, counted plainly: an error code, a reason code, or the shape."""
    canonical = [("T" + code[2:]) if code.startswith("10") else code for code in codes]
    lowest = 3 if ruleset.deck == "short" else 0
    for code in canonical:
        if code == "SJ*" and ruleset.guard_by != "sword":
            return "UNKNOWN_CARD"
        if value_of(code) < lowest:
            return "UNKNOWN_CARD"
    counts = Counter(canonical)
    bigs = counts["BJ"] + counts["BJ*"]
    smalls = counts["SJ"] + counts["SJ*"]
    rank_copies = [n for code, n in counts.items() if value_of(code) < SJ_VALUE]
    if (
        counts["BJ*"] > 1
        or counts["SJ*"] > 1
        or bigs > 4
        or smalls > 4
        or any(n > 4 for n in rank_copies)
    ):
        return "TOO_MANY_COPIES"
    if not canonical:
        return EMPTY_PLAY.code
    ranks = {value_of(code) for code in canonical} - {SJ_VALUE, BJ_VALUE}
    if len(ranks) > 1:
        return MIXED_RANKS.code
    rank = ranks.pop() if ranks else NO_RANK
    return (rank, len(canonical) - bigs - smalls, smalls, bigs)


def codes_for(ruleset: Ruleset) -> list[str]:
    ranks = "3456789TJQKA2" if ruleset.deck == "full" else "6789TJQKA2"
    plain = [r + s for r in ranks for s in "SHCD"] + ["10S", "10D"]
    return [*plain, "SJ", "SJ", "BJ", "BJ", "BJ*", "SJ*"]


@st.composite
def lists(draw: st.DrawFn) -> tuple[Ruleset, list[str]]:
    ruleset = draw(st.sampled_from(RULESETS))
    pool = codes_for(ruleset)
    # a few ranks at a time, so that one-rank lists and near-limit copies are common
    ranks = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
    codes = draw(st.lists(st.sampled_from([*ranks, "SJ", "BJ"]), max_size=20))
    if draw(st.booleans()):
        codes += ["3C"] if draw(st.booleans()) else []
    return ruleset, codes


@settings(max_examples=examples(3000), deadline=None)
@given(lists())
def test_D_5_C_1_reading_a_play_agrees_with_plain_counting(
    case: tuple[Ruleset, list[str]],
) -> None:
    ruleset, codes = case
    expected = reference(codes, ruleset)
    for read in (read_shape, read_combo):
        try:
            found = read(codes, ruleset.cards)
        except InvalidInput as error:
            assert error.code == expected, (codes, expected)
            continue
        if isinstance(found, Reason):
            assert found.code == expected, (codes, expected)
        else:
            assert isinstance(found, Combo)
            assert (found.rank, found.count, found.small, found.big) == expected, codes


@settings(max_examples=examples(3000), deadline=None)
@given(lists())
def test_D_5_C_1_compare_reads_each_play_as_read_combo_does(
    case: tuple[Ruleset, list[str]],
) -> None:
    """``compare`` reads its plays on a path of its own (a cached combo per count); bad input and
    non-combos must come out as plain counting says, at the play they belong to."""
    ruleset, codes = case
    expected = reference(codes, ruleset)
    low = ["6S"]  # a single in both decks: beaten by any higher single
    try:
        judgement = compare(low, codes, ruleset)
    except InvalidInput as error:
        assert (error.code, error.path[:10]) == (expected, ".candidate"), codes
    else:
        reason = judgement.reason
        if isinstance(expected, tuple):
            assert reason is None or reason.code not in (EMPTY_PLAY.code, MIXED_RANKS.code)
        else:
            assert reason is not None and reason.code == expected, codes
    try:
        compare(codes, low, ruleset)
    except InvalidInput as error:  # a previous that is no combo is bad input too (C-1)
        assert (error.code, error.path[:9]) == (expected, ".previous"), codes
    else:
        assert isinstance(expected, tuple), codes


@pytest.mark.parametrize("codes", [["TS"] * 3 + ["10S"] * 2, ["7S"] * 5 + ["8S"], ["BJ*", "BJ*"]])
def test_D_5_aliases_and_mixed_lists_still_count_copies(codes: list[str]) -> None:
    with pytest.raises(InvalidInput) as raised:
        read_shape(codes, BASES["classic"].cards)
    assert raised.value.code == "TOO_MANY_COPIES"
