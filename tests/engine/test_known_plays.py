"""The memo of plays (engine/known_plays.py) changes no answer: cold, warm and evicted alike."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from baohuang.engine import BASES, InvalidInput, Ruleset, compare, compare_many, judging, verdict
from baohuang.engine.judging import judge
from baohuang.engine.known_plays import KNOWN_BY_RULES, PLAYS_BY_RULES, KnownPlays
from baohuang.engine.reasons import NOT_HIGHER, Reason
from baohuang.engine.rulesets import resolve_ruleset
from thorough import examples

from .test_combo_properties import codes_for

T = TypeVar("T")

RULESETS = [
    BASES["classic"],
    BASES["lianzhong-simple"],
    resolve_ruleset("lianzhong-classic", kaopai=True),
]


def uncached(previous: list[str], candidate: list[str], ruleset: Ruleset) -> object:
    """The judgement read without any memo (read_combo and judge), or the bad input's code and
    path; what every state of the memo must give."""
    card_set = ruleset.cards
    try:
        top = KnownPlays(card_set).read_once(previous, "previous")
    except InvalidInput as error:
        return ("bad", error.code, ".previous" + error.path)
    if isinstance(top, Reason):
        return ("bad", top.code, ".previous")
    try:
        play = KnownPlays(card_set).read_once(candidate, "candidate")
    except InvalidInput as error:
        return ("bad", error.code, ".candidate" + error.path)
    return judge(top, play, ruleset)


def answered(previous: list[str], candidate: list[str], ruleset: Ruleset) -> object:
    """compare, verdict and the batch, checked to agree with one another."""
    try:
        judgement = compare(previous, candidate, ruleset)
    except InvalidInput as error:
        for other in (verdict, lambda p, c, r: compare_many([Pair(p, c)], r)):
            with pytest.raises(InvalidInput) as raised:
                other(previous, candidate, ruleset)
            assert raised.value.code == error.code
        return ("bad", error.code, error.path)
    reason = verdict(previous, candidate, ruleset)
    assert reason == judgement.reason
    assert compare_many([Pair(previous, candidate)], ruleset) == [reason and reason.code]
    return judgement


class Pair:
    def __init__(self, previous: list[str], candidate: list[str]) -> None:
        self.previous = previous
        self.candidate = candidate


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Ruleset, list[tuple[list[str], list[str]]]]:
    ruleset = draw(st.sampled_from(RULESETS))
    pool = codes_for(ruleset)
    play = st.lists(
        st.sampled_from(
            [*draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2)), "SJ", "BJ"]
        ),
        max_size=7,
    )
    return ruleset, draw(st.lists(st.tuples(play, play), min_size=1, max_size=6))


@settings(max_examples=examples(400), deadline=None)
@given(pairs())
def test_D_5_C_1_N_K_the_memo_of_plays_changes_no_answer(
    case: tuple[Ruleset, list[tuple[list[str], list[str]]]],
) -> None:
    ruleset, questions = case
    memo = PLAYS_BY_RULES[ruleset.deck, ruleset.guard_by].memo
    limit = memo.limit
    try:
        memo.clear()
        expected = [uncached(p, c, ruleset) for p, c in questions]
        cold = [answered(p, c, ruleset) for p, c in questions]
        with read_again() as reads:  # warm: only bad input is read again (to raise)
            warm = [answered(p, c, ruleset) for p, c in questions]
        assert cold == expected
        assert warm == expected
        bad = sum(isinstance(answer, tuple) for answer in expected)
        assert reads == {"verdict": 2 * bad, "compare": bad}  # verdict() and the batch
        memo.clear()
        memo.limit = 2  # every two plays start a generation: plays are dropped and read again
        for _ in range(2):
            assert [answered(p, c, ruleset) for p, c in questions] == expected
            assert len(memo) <= 2 * memo.limit
            # the hot paths' dict is the memo's young generation still, after every flip
            assert KNOWN_BY_RULES[ruleset.deck][ruleset.guard_by] is memo.young
    finally:
        memo.limit = limit
        memo.clear()


@contextlib.contextmanager
def read_again() -> Iterator[dict[str, int]]:
    """Counts the verdicts and judgements read the uncached way (the memo's misses, bad input)
    while inside: a warm memo answers every other question by its arithmetic alone."""
    counts = {"verdict": 0, "compare": 0}
    verdict_read, compare_read = judging._verdict_read, judging._compare_read

    def counting(name: str, read: Callable[..., T]) -> Callable[..., T]:
        def counted(*args: object) -> T:
            counts[name] += 1
            return read(*args)

        return counted

    judging._verdict_read = counting("verdict", verdict_read)  # verdict() and the batch
    judging._compare_read = counting("compare", compare_read)
    try:
        yield counts
    finally:
        judging._verdict_read, judging._compare_read = verdict_read, compare_read


def test_the_memo_keeps_no_bad_input_and_no_request_strings() -> None:
    ruleset = BASES["classic"]
    memo = PLAYS_BY_RULES[ruleset.deck, ruleset.guard_by].memo
    limit = memo.limit
    memo.clear()
    try:
        with pytest.raises(InvalidInput):
            verdict(["9S"], ["XX"], ruleset)
        assert list(memo.young) == [("9S",)]
        request = ["".join(["1", "0H"])]  # a string of the request's own, not the card set's
        verdict(["9S"], request, ruleset)
        (key,) = [key for key in memo.young if key == ("10H",)]
        assert key[0] is not request[0]
        # a play found in the old generation goes back to the young one under the card set's
        # strings too, not the request's that found it
        memo.clear()
        memo.limit = 2
        for code in ("9S", "8S", "7S"):
            verdict([code], [code], ruleset)  # the third starts a generation: 9S and 8S are old
        assert ("9S",) in memo.old and ("9S",) not in memo.young
        request = ["".join(["9", "S"])]
        assert verdict(request, ["7S"], ruleset) is NOT_HIGHER
        (key,) = [key for key in memo.young if key == ("9S",)]
        assert key[0] is not request[0]
        assert ("9S",) not in memo.old  # moved, not copied
    finally:
        memo.limit = limit
        memo.clear()


@settings(max_examples=examples(100), deadline=None)
@given(reads=st.lists(st.sampled_from(["9S", "8S", "7S", "6S", "5S", "4S"]), max_size=40))
@example(reads=["9S", "8S", "7S", "9S"])  # 9S is old after the flip, then found there
def test_a_remembered_play_is_in_exactly_one_generation_and_the_memo_stays_bounded(
    reads: list[str],
) -> None:
    """A play found in the old generation moves to the young one: it leaves the old one, so a
    memo never holds a play twice nor more than two generations' worth, whatever is read."""
    plays = KnownPlays(BASES["classic"].cards, limit=2)
    memo = plays.memo
    for code in reads:
        plays.read([code], "cards")
        assert (code,) in memo.young
        assert not memo.young.keys() & memo.old.keys(), (memo.young, memo.old)
        assert len(memo.young) <= 2 and len(memo.old) <= 2
