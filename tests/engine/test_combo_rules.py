"""One named test per rule and per example of docs/rules.md D, C, N and K."""

from __future__ import annotations

import itertools

import pytest

from baohuang.engine import (
    BASES,
    CODES,
    KAOPAI_DEFAULT_RULESET,
    Combo,
    InvalidInput,
    compare,
    cover,
    read_combo,
    refusal,
)
from baohuang.engine.reasons import (
    BIG_JOKER_UNBEATABLE,
    EMPTY_PLAY,
    MIXED_RANKS,
    NO_COVER,
    NOT_HIGHER,
    SIZE_MISMATCH,
    Reason,
)
from baohuang.engine.rulesets import resolve_ruleset

CLASSIC = BASES["classic"]
KAOPAI_FULL = resolve_ruleset("classic", kaopai=True)


def combo(text: str, ruleset: str = "classic") -> Combo:
    found = read_combo(text.split(), BASES[ruleset].cards)
    assert isinstance(found, Combo), text
    return found


def beats(candidate: str, previous: str, kaopai: bool = False) -> bool:
    return refusal(combo(candidate), combo(previous), kaopai) is None


def why(candidate: str, previous: str, kaopai: bool = False) -> Reason | None:
    return refusal(combo(candidate), combo(previous), kaopai)


def cover_text(candidate: str, previous: str) -> list[str]:
    entries = cover(combo(candidate), combo(previous), True)
    return [f"{CODES[card]}<{' '.join(CODES[c] for c in group)}" for card, group in entries]


# --- D: deck and cards -------------------------------------------------------------------------


def test_D_1_full_deck_has_216_cards_short_deck_168() -> None:
    assert BASES["classic"].cards.size == 216
    assert BASES["lianzhong-classic"].cards.size == 168


def test_D_1_short_deck_has_no_3_4_5() -> None:
    with pytest.raises(InvalidInput) as raised:
        read_combo(["5S"], BASES["lianzhong-classic"].cards)
    assert raised.value.code == "UNKNOWN_CARD" and raised.value.rule == "D-1"
    assert isinstance(read_combo(["6S"], BASES["lianzhong-classic"].cards), Combo)


def test_D_2_rank_order_low_to_high() -> None:
    order = [
        "3S",
        "4S",
        "5S",
        "6S",
        "7S",
        "8S",
        "9S",
        "TS",
        "JS",
        "QS",
        "KS",
        "AS",
        "2S",
        "SJ",
        "BJ",
    ]
    for low, high in itertools.pairwise(order):
        assert beats(high, low) and not beats(low, high), (high, low)


def test_D_2_suits_never_matter() -> None:
    assert not beats("8S", "8D") and not beats("8D", "8S")


def test_D_3_ten_alias_is_written_back_as_T() -> None:
    assert combo("10H 10S").codes() == ["TS", "TH"]


@pytest.mark.parametrize("code", ["1H", "TX", "BJ**", "sj", "", "11S", "ZZ"])
def test_D_3_unknown_codes_are_bad_input(code: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        read_combo([code], CLASSIC.cards)
    assert raised.value.code == "UNKNOWN_CARD" and raised.value.path == "[0]"


def test_D_4_marked_jokers_beat_as_their_plain_twins() -> None:
    assert not beats("BJ*", "BJ") and not beats("BJ", "BJ*")
    assert beats("BJ*", "SJ")
    simple = BASES["lianzhong-simple"].cards
    sword = read_combo(["SJ*"], simple)
    plain = read_combo(["SJ"], simple)
    assert isinstance(sword, Combo) and isinstance(plain, Combo)
    assert refusal(sword, plain, False) is NOT_HIGHER


def test_D_4_sword_joker_only_in_lianzhong_simple() -> None:
    with pytest.raises(InvalidInput) as raised:
        read_combo(["SJ*"], CLASSIC.cards)
    assert raised.value.rule == "D-4"


def test_D_4_at_most_one_marked_joker_and_it_counts_toward_four() -> None:
    with pytest.raises(InvalidInput) as raised:
        read_combo(["BJ*", "BJ*"], CLASSIC.cards)
    assert raised.value.code == "TOO_MANY_COPIES"
    with pytest.raises(InvalidInput):
        read_combo(["BJ*", "BJ", "BJ", "BJ", "BJ"], CLASSIC.cards)
    assert isinstance(read_combo(["BJ*", "BJ", "BJ", "BJ"], CLASSIC.cards), Combo)


def test_D_5_five_copies_of_a_card_are_bad_input() -> None:
    with pytest.raises(InvalidInput) as raised:
        read_combo(["7S"] * 5, CLASSIC.cards)
    assert raised.value.code == "TOO_MANY_COPIES" and raised.value.rule == "D-5"
    assert isinstance(read_combo(["7S"] * 4 + ["7H"] * 4, CLASSIC.cards), Combo)


def test_D_6_two_is_an_ordinary_rank_never_wild() -> None:
    assert read_combo(["2S", "7S"], CLASSIC.cards) is MIXED_RANKS
    assert beats("2S", "AS") and not beats("2S", "SJ")


# --- C: combos ---------------------------------------------------------------------------------


def test_C_1_one_rank_plus_jokers() -> None:
    found = combo("SJ BJ 7S 7H")
    assert (found.rank, found.count, found.small, found.big) == (4, 2, 1, 1)


def test_C_1_empty_play_is_no_combo() -> None:
    assert read_combo([], CLASSIC.cards) is EMPTY_PLAY


def test_C_1_mixed_ranks_and_straights_are_no_combo() -> None:
    assert read_combo(["7S", "8S"], CLASSIC.cards) is MIXED_RANKS
    assert read_combo(["5S", "6S", "7S", "8S", "9S"], CLASSIC.cards) is MIXED_RANKS


def test_C_2_jokers_of_both_kinds_mix() -> None:
    found = combo("BJ SJ SJ")
    assert (found.count, found.small, found.big, found.size) == (0, 2, 1, 3)


def test_C_3_largest_combo_is_24_cards() -> None:
    biggest = ["7S", "7H", "7C", "7D"] * 4 + ["SJ"] * 4 + ["BJ"] * 4
    assert combo(" ".join(biggest)).size == 24


def test_C_4_order_does_not_matter() -> None:
    assert combo("7S BJ 7H SJ").cards == combo("SJ 7H BJ 7S").cards


# --- N: normal beating -------------------------------------------------------------------------


def test_N_1_same_size() -> None:
    assert why("8S 8H 8C", "7S 7H") is SIZE_MISMATCH


def test_N_2_every_card_beats_a_distinct_card() -> None:
    assert beats("8S 8H", "7S 7H")
    assert why("8S 8H", "8C 8D") is NOT_HIGHER
    assert why("BJ", "BJ") is BIG_JOKER_UNBEATABLE  # equal cards never beat each other


def test_N_3_big_joker_combo_never_beaten_normally() -> None:
    assert why("BJ BJ", "BJ 4S") is BIG_JOKER_UNBEATABLE
    assert why("BJ BJ BJ BJ SJ", "BJ 4S 4H 4C 4D") is BIG_JOKER_UNBEATABLE


def test_N_4_plain_set_never_beats_joker_set_of_same_size() -> None:
    assert why("9S 9H 9C 9D", "8S 8H 8C SJ") is NOT_HIGHER


def test_N_5_small_joker_set_needs_big_jokers_and_higher_rank() -> None:
    assert beats("BJ BJ JS JH JC", "SJ SJ 9S 9H 9C")
    assert beats("BJ BJ BJ JS JH", "SJ SJ 9S 9H 9C")
    assert why("BJ BJ 9S 9H 9D", "SJ SJ 9S 9H 9C") is NOT_HIGHER


@pytest.mark.parametrize(
    ("candidate", "previous"),
    [
        ("8S 8H 8C 8D", "7S 7H 7C 7D"),
        ("BJ SJ SJ SJ", "AS AH AC AD"),
        ("SJ 7S 7H 7C", "6S 6H 6C 6D"),
        ("BJ 6S 6H 6C 6D", "SJ 5S 5H 5C 5D"),
        ("SJ", "2S"),
        ("BJ", "SJ"),
    ],
)
def test_N_6_examples_that_hold(candidate: str, previous: str) -> None:
    assert beats(candidate, previous)
    assert not beats(previous, candidate)


# --- K: kaopai ---------------------------------------------------------------------------------


def test_K_1_cover_groups() -> None:
    assert beats("BJ BJ", "BJ", kaopai=True)
    assert beats("SJ SJ", "SJ", kaopai=True)
    assert beats("SJ SJ SJ", "BJ", kaopai=True)
    assert beats("BJ", "SJ", kaopai=True)


def test_K_2_no_card_left_over() -> None:
    assert why("BJ BJ SJ", "BJ", kaopai=True) is NO_COVER


def test_K_3_three_big_jokers_are_no_group() -> None:
    assert why("BJ BJ BJ", "BJ", kaopai=True) is NO_COVER


def test_K_3_beating_is_not_transitive() -> None:
    assert beats("BJ BJ BJ BJ", "BJ BJ", kaopai=True)
    assert beats("BJ BJ", "BJ", kaopai=True)
    assert not beats("BJ BJ BJ BJ", "BJ", kaopai=True)


def test_K_4_without_jokers_in_previous_normal_rules_apply() -> None:
    assert why("BJ BJ", "7S", kaopai=True) is SIZE_MISMATCH
    assert why("8S 8H", "8C 8D", kaopai=True) is NOT_HIGHER
    assert beats("SJ 8S", "7S 7H", kaopai=True)


@pytest.mark.parametrize(
    ("candidate", "previous"),
    [
        ("BJ BJ SJ SJ", "BJ SJ"),
        ("BJ BJ SJ SJ SJ", "BJ BJ"),
        ("BJ BJ BJ", "BJ SJ"),
        ("BJ SJ SJ", "SJ SJ"),
        ("BJ SJ SJ SJ", "BJ SJ"),
        ("BJ BJ BJ SJ SJ", "BJ SJ SJ"),
        ("BJ BJ 8S 8H 8C 8D", "BJ 7S 7H 7C 7D"),
        ("BJ BJ BJ SJ 8S 8H", "BJ SJ 7S 7H 7C"),
    ],
)
def test_K_5_examples_that_hold(candidate: str, previous: str) -> None:
    assert beats(candidate, previous, kaopai=True)
    assert not beats(candidate, previous, kaopai=False)  # only 烤牌 allows these


def test_K_6_cover_is_returned_for_each_card_high_to_low() -> None:
    assert cover_text("BJ BJ BJ SJ 8S 8H", "BJ SJ 7S 7H 7C") == [
        "BJ<BJ BJ",
        "SJ<BJ",
        "7S<SJ",
        "7H<8S",
        "7C<8H",
    ]


def test_K_6_prefers_most_single_groups() -> None:
    # BJ BJ SJ SJ over BJ SJ: either BJ<BJ BJ + SJ<SJ SJ (no single) is the only cover here
    assert cover_text("BJ BJ SJ SJ", "BJ SJ") == ["BJ<BJ BJ", "SJ<SJ SJ"]
    # SJ SJ: BJ<.. impossible; BJ SJ SJ covers SJ SJ as SJ<BJ and SJ<SJ SJ? No: that leaves
    # nothing over only as one single (BJ) and one pair (SJ SJ).
    assert cover_text("BJ SJ SJ", "SJ SJ") == ["SJ<BJ", "SJ<SJ SJ"]


def test_K_6_big_jokers_before_small_ones_on_rank_cards() -> None:
    assert cover_text("BJ SJ SJ 9S", "SJ 8S 8H 8C") == ["SJ<BJ", "8S<SJ", "8H<SJ", "8C<9S"]


def test_K_7_each_play_judged_against_the_one_under_it() -> None:
    from baohuang.engine import resolve_trick

    trick = resolve_trick([["SJ"], ["SJ", "SJ"], ["BJ", "BJ"]], KAOPAI_DEFAULT_RULESET)
    assert trick.valid and trick.winner == 2
    trick = resolve_trick([["SJ"], ["BJ"], ["BJ", "BJ", "BJ"]], KAOPAI_DEFAULT_RULESET)
    assert not trick.valid and trick.winner == 1
    assert trick.steps[-1].judgement.reason is NO_COVER


def test_compare_reports_cover_under_normal_rules_card_for_card() -> None:
    judgement = compare(["SJ", "9S"], ["BJ", "TS"], CLASSIC)
    assert judgement.reason is None and judgement.cover is not None
    assert [(CODES[c], [CODES[x] for x in g]) for c, g in judgement.cover] == [
        ("SJ", ["BJ"]),
        ("9S", ["TS"]),
    ]


def test_kaopai_cover_works_on_any_base() -> None:
    assert compare(["BJ"], ["BJ", "BJ"], KAOPAI_FULL).reason is None


def test_K_7_the_plays_of_a_trick_count_their_copies_together() -> None:
    """保皇游戏攻略 (烤牌玩法): the plays of one trick lie on the table together, so D-5 counts
    their cards together (K-7); a comparison of two plays stays per play (K-3)."""
    from baohuang.engine import resolve_trick

    seven = [["BJ"], ["BJ", "BJ"], ["BJ", "BJ", "BJ", "BJ"]]  # seven big jokers: four exist
    with pytest.raises(InvalidInput) as caught:
        resolve_trick(seven, KAOPAI_DEFAULT_RULESET)
    assert caught.value.path == ".plays[2]"
    assert (caught.value.code, caught.value.rule) == ("TOO_MANY_COPIES", "D-5")
    with pytest.raises(InvalidInput) as caught:
        resolve_trick([["SJ"], ["BJ*"], ["BJ", "BJ", "BJ*"]], KAOPAI_DEFAULT_RULESET)
    assert caught.value.path == ".plays[2]" and caught.value.code == "TOO_MANY_COPIES"
    four = resolve_trick([["BJ"], ["BJ", "BJ", "BJ*"]], KAOPAI_DEFAULT_RULESET)
    assert four.winner == 0 and not four.valid  # four big jokers in all: judged, K-3 no group
    assert compare(["BJ", "BJ"], ["BJ", "BJ", "BJ", "BJ"], KAOPAI_FULL).reason is None  # K-3
