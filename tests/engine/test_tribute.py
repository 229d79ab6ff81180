"""docs/rules.md P-1 … P-4: tribute (进贡) under the ``tribute`` ruleset (engine/before_play/tribute.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import msgspec
import pytest

from baohuang.engine import BASES, InvalidInput, Transfer, TributeResult, deal, pay_tribute
from baohuang.engine.scoring import MODES, Mode, score_deal

TRIBUTE = BASES["tribute"]
SEATS = range(5)


def moves(result: TributeResult) -> list[tuple[int, int, str]]:
    return [(t.from_, t.to, t.card) for t in result.transfers]


# Small hands (tribute does not need full hands): seat 0 emperor, seat 1 guard, 2–4 rebels.
HANDS = [
    ["BJ*", "BJ", "2S", "9D", "3C"],  # 0
    ["SJ", "KD", "3D"],  # 1
    ["AS", "TH", "4C"],  # 2
    ["BJ", "QC", "5D"],  # 3
    ["KH", "KH", "6S"],  # 4
]


def test_P_1_draw_pays_nothing() -> None:
    # 每局结束后按组计分，如果两组都是0分，则本局为平局，无输赢。
    result = pay_tribute(TRIBUTE, "team", 0, 1, [0, 2, 3, 4], HANDS)  # 4 + (−4) = 0
    assert result.transfers == []
    assert result.hands == HANDS
    solo_third = pay_tribute(TRIBUTE, "solo_hidden", 0, None, [2, 3, 0], HANDS)
    assert solo_third.transfers == []


def test_P_1_losers_pay_winners_eat_and_nothing_is_returned() -> None:
    # 上一局胜利的一方为吃贡方，失败的一方为进贡方。……吃贡方获得进贡方的牌，不还贡。
    result = pay_tribute(TRIBUTE, "team", 0, 1, [0, 1], HANDS)
    assert {t.from_ for t in result.transfers} == {2, 3, 4}
    assert {t.to for t in result.transfers} == {0, 1}
    assert Counter(c for h in result.hands for c in h) == Counter(c for h in HANDS for c in h)


def test_P_2_highest_cards_never_the_scepter() -> None:
    # 进贡方必须将自己的最大牌给吃贡方 — never BJ* (P-2).
    result = pay_tribute(TRIBUTE, "team", 0, 1, [3, 2, 4], HANDS)  # rebels 1-2-3: they eat
    given_by_emperor = [t.card for t in result.transfers if t.from_ == 0]
    assert given_by_emperor == ["BJ", "2S"]
    assert "BJ*" in result.hands[0]


def test_P_2_suits_in_canonical_order() -> None:
    # (reading) D-2 ignores suits; among equal ranks the canonical order S H C D decides.
    hands = [["2D", "2S", "2H", "3D"], ["3S"], ["3H"], ["3C"], ["4S"]]
    result = pay_tribute(TRIBUTE, "team", 0, 1, [2, 3, 4], hands)
    assert [t.card for t in result.transfers if t.from_ == 0] == ["2S", "2H"]


def test_P_3_emperor_side_wins_guard_takes_the_middle_card() -> None:
    # “保皇派”吃贡时得到其他三人贡牌中中间大小的牌。
    result = pay_tribute(TRIBUTE, "team", 0, 1, [0, 1], HANDS)
    # The rebels' highest: BJ (3), AS (2), KH (4). Guard: the middle, AS; emperor: BJ and KH.
    assert moves(result) == [(3, 0, "BJ"), (2, 1, "AS"), (4, 0, "KH")]
    assert result.hands[0] == ["BJ*", "BJ", "BJ", "2S", "KH", "9D", "3C"]
    assert result.hands[1] == ["SJ", "AS", "KD", "3D"]
    assert result.hands[2] == ["TH", "4C"]


def test_P_3_guard_middle_card_is_the_middle_whatever_the_seats() -> None:
    for guard in (2, 3, 4):
        rebels = [s for s in (1, 2, 3, 4) if s != guard]
        result = pay_tribute(TRIBUTE, "team", 0, guard, [0, guard], HANDS)
        cards = sorted((TRIBUTE.cards.card(t.card) for t in result.transfers), reverse=True)
        (to_guard,) = [t.card for t in result.transfers if t.to == guard]
        assert TRIBUTE.cards.card(to_guard) == cards[1]
        assert {t.from_ for t in result.transfers} == set(rebels)


def test_P_3_rebels_eat_in_finishing_order_highest_first() -> None:
    # 皇帝一方失败时，“革命党”一方按走客顺序从大到小吃贡。皇帝……进2张贡，其他人……进1张贡牌。
    result = pay_tribute(TRIBUTE, "team", 0, 1, [3, 2, 4], HANDS)
    # Emperor pays BJ, 2S; guard pays SJ. High to low: BJ, SJ, 2S to rebels 3, 2, 4.
    assert moves(result) == [(0, 3, "BJ"), (1, 2, "SJ"), (0, 4, "2S")]
    order = pay_tribute(TRIBUTE, "team", 0, 1, [4, 2, 3], HANDS)
    assert moves(order) == [(0, 4, "BJ"), (1, 2, "SJ"), (0, 3, "2S")]
    # Rebels interleaved with the emperor's side: finishing order 2, 0, 4, 3 → rebels 2, 4, 3.
    mixed = pay_tribute(TRIBUTE, "team", 0, 1, [2, 0, 4, 3], HANDS)
    assert [t.to for t in mixed.transfers] == [2, 4, 3]


def test_P_4_solo_emperor_loses_pays_four_highest_to_the_earliest_first() -> None:
    # 皇帝打“独”时进贡则进四张 — one to each other, highest to the earliest finisher.
    hands = [["BJ*", "BJ", "SJ", "2H", "AD", "3C"], ["3S"], ["3H"], ["4C"], ["4S"]]
    result = pay_tribute(TRIBUTE, "solo_hidden", 0, None, [2, 4, 3, 1], hands)
    assert moves(result) == [(0, 2, "BJ"), (0, 4, "SJ"), (0, 3, "2H"), (0, 1, "AD")]
    assert result.hands[0] == ["BJ*", "3C"]


def test_P_4_solo_emperor_wins_eats_one_from_each() -> None:
    # 吃贡其他人各进一张。
    result = pay_tribute(TRIBUTE, "solo_hidden", 0, None, [0], HANDS)
    assert sorted(moves(result)) == [(1, 0, "SJ"), (2, 0, "AS"), (3, 0, "BJ"), (4, 0, "KH")]
    assert [t.card for t in result.transfers] == ["BJ", "SJ", "AS", "KH"]  # high to low
    assert len(result.hands[0]) == len(HANDS[0]) + 4


def test_P_4_solo_open_doubles_every_count() -> None:
    # “明独”时贡牌翻番。
    hands = [
        ["BJ*", "BJ", "BJ", "SJ", "2H", "2H", "AD", "KS", "KS", "QD", "3C"],
        ["3S", "9S"],
        ["3H", "9H"],
        ["4C", "TC"],
        ["4S", "JS"],
    ]
    lost = pay_tribute(TRIBUTE, "solo_open", 0, None, [2, 4, 1, 3], hands)
    assert moves(lost) == [
        (0, 2, "BJ"), (0, 2, "BJ"), (0, 4, "SJ"), (0, 4, "2H"),
        (0, 1, "2H"), (0, 1, "AD"), (0, 3, "KS"), (0, 3, "KS"),
    ]  # fmt: skip
    assert lost.hands[0] == ["BJ*", "QD", "3C"]
    won = pay_tribute(TRIBUTE, "solo_open", 0, None, [0], hands)
    assert Counter(t.from_ for t in won.transfers) == {1: 2, 2: 2, 3: 2, 4: 2}
    assert sorted(won.hands[0]) == sorted([*hands[0], *hands[1], *hands[2], *hands[3], *hands[4]])
    assert all(h == [] for h in won.hands[1:])


def test_grab_pays_as_a_declared_solo() -> None:
    # (reading) tribute has no grab (G-6); a grab is scored and pays as 明独.
    won = pay_tribute(TRIBUTE, "grab", 3, None, [3], [["9S", "8S"]] * 3 + [["3S"], ["7S", "6S"]])
    assert Counter(t.from_ for t in won.transfers) == {0: 2, 1: 2, 2: 2, 4: 2}
    assert {t.to for t in won.transfers} == {3}


def test_transfer_encodes_with_from() -> None:
    result = pay_tribute(TRIBUTE, "team", 0, 1, [3, 2, 4], HANDS)
    encoded = msgspec.json.decode(msgspec.json.encode(result))
    assert encoded["transfers"][0] == {"from": 0, "to": 3, "card": "BJ"}
    assert msgspec.json.decode(b'{"from": 1, "to": 2, "card": "SJ"}', type=Transfer) == Transfer(
        from_=1, to=2, card="SJ"
    )


# ---------------------------------------------------------------------------------------------
# Every finishing order of every mode on real deals


def _expected_net(mode: Mode, emperor: int, guard: int | None, winner: str) -> list[int]:
    """Cards each seat gains (+) or loses (−): P-3 2/1, P-4 4 × (2 for 明独 and grab)."""
    net = [0] * 5
    if winner == "draw":
        return net
    sign = 1 if winner == "emperor" else -1
    if mode == "team":
        assert guard is not None
        for s in SEATS:
            net[s] = -sign
        net[emperor], net[guard] = 2 * sign, sign
    else:
        each = 2 if mode in ("solo_open", "grab") else 1
        for s in SEATS:
            net[s] = -sign * each
        net[emperor] = 4 * each * sign
    return net


def _top(hand: Sequence[str], count: int) -> list[int]:
    ids = sorted((TRIBUTE.cards.card(c) for c in hand if c != "BJ*"), reverse=True)
    return ids[:count]


@pytest.mark.parametrize("mode", MODES)
def test_every_finishing_order_on_real_deals(mode: Mode) -> None:
    roles = [(0, 1), (2, 4)] if mode == "team" else [(1, None), (4, None)]
    for index, (order, (emperor, guard)) in enumerate(
        itertools.product(itertools.permutations(SEATS), roles)
    ):
        hands = deal(TRIBUTE, index, index % 5).hands
        previous = score_deal(TRIBUTE, mode, emperor, guard, False, False, order)
        result = pay_tribute(TRIBUTE, mode, emperor, guard, order, hands)
        assert previous.winner is not None and previous.positions is not None
        net = _expected_net(mode, emperor, guard, previous.winner)
        assert [len(a) - len(b) for a, b in zip(result.hands, hands, strict=True)] == net
        # No card created or lost; BJ* never moves.
        assert Counter(c for h in result.hands for c in h) == Counter(c for h in hands for c in h)
        assert all(t.card != "BJ*" for t in result.transfers)
        # P-2: each payer gave exactly its highest cards.
        for payer in SEATS:
            given = sorted(
                (TRIBUTE.cards.card(t.card) for t in result.transfers if t.from_ == payer),
                reverse=True,
            )
            assert given == _top(hands[payer], len(given))
        # P-1: from losers to winners only.
        emperor_side = {emperor} if guard is None else {emperor, guard}
        for t in result.transfers:
            assert (t.from_ in emperor_side) is (previous.winner == "rebels")
            assert (t.to in emperor_side) is (previous.winner == "emperor")
        cards = [TRIBUTE.cards.card(t.card) for t in result.transfers]
        assert cards == sorted(cards, reverse=True)  # listed highest first
        # Eaters that take one each take them in finishing order, highest first (P-3, P-4).
        takers = [t.to for t in result.transfers]
        if previous.winner == "rebels":
            assert takers == sorted(takers, key=lambda s: previous.positions[s])  # type: ignore[index]
        if previous.winner == "emperor" and mode == "team":
            assert takers == [emperor, guard, emperor]
        # Hands come back high to low.
        for hand in result.hands:
            ids = TRIBUTE.cards.parse(hand)
            assert ids == sorted(ids, reverse=True)


# ---------------------------------------------------------------------------------------------
# Bad input


def test_only_the_tribute_ruleset_pays() -> None:
    with pytest.raises(InvalidInput) as caught:
        pay_tribute(BASES["classic"], "team", 0, 1, [0, 1], HANDS)
    assert caught.value.code == "NO_TRIBUTE" and caught.value.rule == "P"


def test_previous_deal_must_be_over() -> None:
    with pytest.raises(InvalidInput) as caught:
        pay_tribute(TRIBUTE, "team", 0, 1, [0, 2], HANDS)
    assert caught.value.code == "PREVIOUS_NOT_OVER" and caught.value.path == ".finished"


def test_bad_roles_and_hands() -> None:
    with pytest.raises(InvalidInput):
        pay_tribute(TRIBUTE, "team", 0, 0, [0, 1], HANDS)
    with pytest.raises(InvalidInput):
        pay_tribute(TRIBUTE, "team", 0, 1, [0, 1], HANDS[:4])
    with pytest.raises(InvalidInput) as unknown:
        pay_tribute(TRIBUTE, "team", 0, 1, [0, 1], [*HANDS[:2], ["XX"], *HANDS[3:]])
    assert unknown.value.code == "UNKNOWN_CARD" and unknown.value.path == ".hands[2][0]"
    with pytest.raises(InvalidInput) as sword:
        pay_tribute(TRIBUTE, "team", 0, 1, [0, 1], [["SJ*"], *HANDS[1:]])
    assert sword.value.rule == "D-4"
    with pytest.raises(InvalidInput) as copies:
        pay_tribute(TRIBUTE, "team", 0, 1, [0, 1], [["AS"] * 5, *HANDS[1:]])
    assert copies.value.code == "TOO_MANY_COPIES"
    with pytest.raises(InvalidInput) as short:
        pay_tribute(TRIBUTE, "team", 0, 1, [3, 2, 4], [["BJ*", "AS"], *HANDS[1:]])
    assert short.value.code == "CANNOT_PAY_TRIBUTE" and short.value.rule == "P-2"
