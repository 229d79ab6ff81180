"""docs/rules.md G-4: the seeded, reproducible shuffle and deal (engine/before_play/deal.py).

``reference_deal`` below re-implements the algorithm from the module docstring alone, the way a
client in another language would, and must agree with the engine on every ruleset, seed and
dealer tried. ``test_published_vector`` pins the first cards so other implementations can check
themselves.
"""

from __future__ import annotations

from collections import Counter

import pytest

from baohuang.engine import BASES, Ruleset
from baohuang.engine.before_play.deal import (
    SplitMix64,
    canonical_deck,
    deal,
    shuffled_deck,
)
from baohuang.engine.rulesets import resolve_ruleset

CLASSIC = BASES["classic"]
TRIBUTE = BASES["tribute"]
LZ_CLASSIC = BASES["lianzhong-classic"]
LZ_SIMPLE = BASES["lianzhong-simple"]

RANKS = "3456789TJQKA2"
SUITS = "SHCD"


def reference_deal(ruleset: Ruleset, seed: int, dealer: int) -> tuple[list[list[str]], int]:
    """The documented algorithm, from the docstring only, over codes rather than engine ids."""
    # step 1 and 2: canonical deck, ids ascending: within a rank D C H S, i.e. suits reversed
    lowest = 3 if ruleset.deck == "short" else 0
    deck = [r + s for r in RANKS[lowest:] for s in reversed(SUITS) for _ in range(4)]
    deck += ["SJ", "SJ", "SJ", "SJ*"] if ruleset.base == "lianzhong-simple" else ["SJ"] * 4
    deck += ["BJ", "BJ", "BJ"] + ([] if ruleset.base == "tribute" else ["BJ*"])

    # step 3: SplitMix64
    state = seed % 2**64

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    # steps 4 and 5: Fisher–Yates from the top with rejection sampling
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**64 - 2**64 % n
        r = draw()
        while r >= limit:
            r = draw()
        j = r % n
        deck[i], deck[j] = deck[j], deck[i]

    # step 6: one card at a time from the dealer on
    hands: list[list[str]] = [[] for _ in range(5)]
    for k, code in enumerate(deck):
        hands[(dealer + k) % 5].append(code)
    if ruleset.base == "tribute":
        crown = dealer
        hands[crown].append("BJ*")
    else:
        crown = next(s for s in range(5) if "BJ*" in hands[s])

    # step 8: high to low
    def key(code: str) -> tuple[int, int]:
        if code.startswith(("SJ", "BJ")):
            return (13 if code[0] == "S" else 14, 1 if code.endswith("*") else 0)
        return (RANKS.index(code[0]), 3 - SUITS.index(code[1]))

    return [sorted(hand, key=key, reverse=True) for hand in hands], crown


def test_splitmix64_reference_vector() -> None:
    # Vigna's splitmix64.c from seed 1234567.
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    rng = SplitMix64(1)
    assert [rng.next() for _ in range(2)] == [10451216379200822465, 13757245211066428519]


def test_below_is_in_range_and_rejects_the_biased_tail() -> None:
    rng = SplitMix64(7)
    assert all(0 <= rng.below(n) < n for n in range(1, 300) for _ in range(5))
    with pytest.raises(ValueError):
        rng.below(0)

    class Fixed(SplitMix64):
        """Draws 2**64 − 1 (in the rejected tail for n = 3), then 5."""

        def __init__(self) -> None:
            super().__init__(0)
            self.values = [2**64 - 1, 5]

        def next(self) -> int:
            return self.values.pop(0)

    assert Fixed().below(3) == 2  # 2**64 − 1 is rejected (2**64 mod 3 = 1); 5 mod 3 = 2


def test_published_vector() -> None:
    """Seed 1, dealer 0: the test vector other implementations check themselves against."""
    from baohuang.engine import CODES

    assert [CODES[c] for c in shuffled_deck(CLASSIC, 1)[:12]] == [
        "QS", "QD", "5S", "8C", "6H", "6H", "3H", "KD", "AS", "5D", "7D", "JD",
    ]  # fmt: skip
    dealt = deal(CLASSIC, 1, 0)
    assert dealt.crown == 4
    assert [hand[:6] for hand in dealt.hands] == [
        ["SJ", "2H", "2C", "2C", "2D", "AH"],
        ["SJ", "2S", "2D", "2D", "AS", "AD"],
        ["BJ", "BJ", "2S", "2S", "2H", "2C"],
        ["BJ", "2H", "2D", "AS", "AS", "AC"],
        ["BJ*", "SJ", "SJ", "2S", "2H", "2C"],
    ]
    simple = deal(LZ_SIMPLE, 1, 0)
    assert simple.crown == 4
    assert simple.hands[4][:6] == ["BJ*", "BJ", "BJ", "SJ*", "SJ", "2H"]
    tribute = deal(TRIBUTE, 1, 0)
    assert tribute.crown == 0
    assert tribute.hands[0][:6] == ["BJ*", "SJ", "SJ", "2S", "AH", "AH"]


@pytest.mark.parametrize("base", list(BASES))
def test_G_4_matches_the_documented_algorithm(base: str) -> None:
    ruleset = BASES[base]
    for seed in [0, 1, 2, 42, 2**32 + 5, 2**63, 2**64 - 1, -1, -12345]:
        for dealer in range(5):
            dealt = deal(ruleset, seed, dealer)
            assert (dealt.hands, dealt.crown) == reference_deal(ruleset, seed, dealer)


def test_G_4_same_seed_same_hands() -> None:
    for ruleset in BASES.values():
        assert deal(ruleset, 20240601, 3) == deal(ruleset, 20240601, 3)
        assert deal(ruleset, 20240601, 3) != deal(ruleset, 20240602, 3)
    # Seeds are taken modulo 2**64, negative ones in two's complement.
    assert deal(CLASSIC, -1, 0) == deal(CLASSIC, 2**64 - 1, 0)
    assert deal(CLASSIC, 5 + 2**64, 0) == deal(CLASSIC, 5, 0)


def _full_deck_counts(ruleset: Ruleset) -> Counter[str]:
    lowest = 3 if ruleset.deck == "short" else 0
    counts: Counter[str] = Counter({r + s: 4 for r in RANKS[lowest:] for s in SUITS})
    if ruleset.guard_by == "sword":
        counts.update({"SJ": 3, "SJ*": 1})
    else:
        counts["SJ"] = 4
    counts.update({"BJ": 3, "BJ*": 1})
    return counts


@pytest.mark.parametrize("base", list(BASES))
def test_G_4_every_card_dealt_exactly_once(base: str) -> None:
    """D-1, D-4, G-4: four of each card, four jokers of each kind, one BJ*, one SJ* in simple."""
    ruleset = BASES[base]
    size = 168 if ruleset.deck == "short" else 216
    assert len(canonical_deck(ruleset)) == (size - 1 if ruleset.tribute else size)
    for seed in range(30):
        dealt = deal(ruleset, seed, seed % 5)
        counts = Counter(code for hand in dealt.hands for code in hand)
        assert sum(counts.values()) == size
        assert counts == _full_deck_counts(ruleset)
        if ruleset.deck == "short":
            assert not any(code[0] in "345" for code in counts)


@pytest.mark.parametrize("dealer", range(5))
def test_G_4_hand_sizes(dealer: int) -> None:
    # 216 cards one at a time from the dealing seat: that seat holds 44.
    sizes = [len(h) for h in deal(CLASSIC, 9, dealer).hands]
    assert sizes[dealer] == 44 and sorted(sizes) == [43, 43, 43, 43, 44]
    # The short deck's 168: the first three seats dealt hold 34.
    for ruleset in (LZ_CLASSIC, LZ_SIMPLE):
        sizes = [len(h) for h in deal(ruleset, 9, dealer).hands]
        assert [sizes[(dealer + i) % 5] for i in range(5)] == [34, 34, 34, 33, 33]
    # tribute: BJ* set aside, 43 each, then BJ* to the seat first offered the crown.
    dealt = deal(TRIBUTE, 9, dealer)
    sizes = [len(h) for h in dealt.hands]
    assert sizes[dealt.crown] == 44 and sorted(sizes) == [43, 43, 43, 43, 44]


def test_G_4_crown() -> None:
    """The crown is first offered to the BJ* holder; under tribute to the dealer (reading)."""
    for seed in range(40):
        for ruleset in (CLASSIC, LZ_CLASSIC, LZ_SIMPLE):
            dealt = deal(ruleset, seed, seed % 5)
            holders = [s for s in range(5) if "BJ*" in dealt.hands[s]]
            assert holders == [dealt.crown]
        dealt = deal(TRIBUTE, seed, seed % 5)
        assert dealt.crown == seed % 5 and "BJ*" in dealt.hands[dealt.crown]
        assert dealt.hands[dealt.crown][0] == "BJ*"


def test_G_4_only_lianzhong_simple_has_the_sword() -> None:
    for ruleset in BASES.values():
        codes = {code for hand in deal(ruleset, 3, 0).hands for code in hand}
        assert ("SJ*" in codes) is (ruleset.guard_by == "sword")
        assert "BJ*" in codes


def test_hands_are_sorted_high_to_low() -> None:
    ruleset = resolve_ruleset("classic")
    for hand in deal(ruleset, 77, 2).hands:
        ids = ruleset.cards.parse(hand)
        assert ids == sorted(ids, reverse=True)


def test_options_follow_the_deck_option() -> None:
    short_classic = resolve_ruleset("classic", deck="short")
    sizes = sorted(len(h) for h in deal(short_classic, 1, 0).hands)
    assert sizes == [33, 33, 34, 34, 34]


def test_dealer_must_be_a_seat() -> None:
    with pytest.raises(ValueError):
        deal(CLASSIC, 1, 5)
    with pytest.raises(ValueError):
        deal(CLASSIC, 1, -1)
