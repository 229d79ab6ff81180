"""docs/rules.md S-1 … S-8 and the deal end of T-9 (engine/scoring.py).

The table tests score every one of the 120 finishing orders, and every prefix of each, for every
ruleset × mode × 明保/造反 flag × role seats, against :func:`expected_full` — the formulas written
out again here, from the position tables, independently of the engine. Whether a prefix is
``final`` is checked by brute force: it must be final exactly when every way to finish the deal
gives the same scores.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache

import msgspec
import pytest

from baohuang.engine import BASES, InvalidInput, Ruleset
from baohuang.engine.rulesets import resolve_ruleset
from baohuang.engine.scoring import (
    MODES,
    Mode,
    ScoreResult,
    Sides,
    is_final,
    rebellion_succeeded,
    rebels_won,
    score_deal,
    score_with_rebellion,
)

CLASSIC = BASES["classic"]
TRIBUTE = BASES["tribute"]
LZ_CLASSIC = BASES["lianzhong-classic"]
LZ_SIMPLE = BASES["lianzhong-simple"]
SEATS = range(5)

# ---------------------------------------------------------------------------------------------
# The formulas, independently: position -> points tables straight from docs/rules.md.

S2_TEAM = {1: 6, 2: 3, 3: 0, 4: -3, 5: -6}  # 头科 6 二科 3 第三 0 二落 -3 大落 -6
S2_SOLO = {1: 16, 2: 4, 3: 0, 4: -4, 5: -16}  # 独保
S3 = {1: 4, 2: 2, 3: 0, 4: -2, 5: -4}  # 进贡 rules' 4/2/0
S5_EMPEROR = {1: 24, 2: -24, 3: -24, 4: -24, 5: -24}  # 明独保 (and 抢独, S-8)
S6_EMPEROR = {1: 12, 2: 0, 3: -12, 4: -12, 5: -12}  # 暗独保
S2_GRAB_EMPEROR = {1: 40, 2: -40, 3: -40, 4: -40, 5: -40}  # 抢杠
S3_GRAB_EMPEROR = {1: 4, 2: -4, 3: -4, 4: -4, 5: -4}  # (reading) first, else last by T-9

MULTIPLIER: dict[tuple[str, str], tuple[int, int, int, int]] = {
    # (base, mode) -> multiplier for (plain, 明保, 造反 succeeded, both)
    ("classic", "team"): (1, 2, 1, 2),
    ("classic", "solo_hidden"): (1, 1, 1, 1),
    ("classic", "solo_open"): (2, 2, 2, 2),
    ("classic", "grab"): (1, 1, 1, 1),
    ("tribute", "team"): (1, 1, 1, 1),
    ("tribute", "solo_hidden"): (1, 1, 1, 1),
    ("tribute", "solo_open"): (2, 2, 2, 2),
    ("tribute", "grab"): (2, 2, 2, 2),
    ("lianzhong-classic", "team"): (1, 2, 1, 2),
    ("lianzhong-classic", "solo_hidden"): (1, 1, 1, 1),
    ("lianzhong-classic", "solo_open"): (1, 1, 1, 1),
    ("lianzhong-classic", "grab"): (1, 1, 1, 1),
    ("lianzhong-simple", "team"): (1, 2, 2, 2),  # never ×4
    ("lianzhong-simple", "solo_hidden"): (1, 1, 2, 2),
    ("lianzhong-simple", "solo_open"): (1, 1, 1, 1),
    ("lianzhong-simple", "grab"): (1, 1, 1, 1),
}


def expected_multiplier(base: str, mode: str, revealed: bool, rebellion: bool) -> int:
    return MULTIPLIER[(base, mode)][int(revealed) + 2 * int(rebellion)]


class Expected(msgspec.Struct, frozen=True):
    scores: tuple[int, ...]
    side_emperor: int
    side_rebels: int


def _int(value: Fraction) -> int:
    assert value.denominator == 1, f"S-1: {value} is not an integer"
    return int(value)


@cache
def expected_full(
    base: str,
    mode: str,
    emperor: int,
    guard: int | None,
    revealed: bool,
    rebellion: bool,
    order: tuple[int, ...],
) -> Expected:
    """Every seat's score for the complete finishing order ``order``, from the tables above."""
    position = {seat: index + 1 for index, seat in enumerate(order)}
    m = expected_multiplier(base, mode, revealed, rebellion)
    side = {emperor} if mode != "team" else {emperor, guard}
    rebels = [s for s in SEATS if s not in side]
    pe = position[emperor]
    scores: dict[int, Fraction] = {}
    if mode == "team":
        assert guard is not None
        pg = position[guard]
        if base == "classic":
            own = Fraction(S2_TEAM[pe] + S2_TEAM[pg] * 1)
            theirs = Fraction(sum(S2_TEAM[position[r]] for r in rebels))
            scores[emperor] = own * 2 / 3 * m
            scores[guard] = own / 3 * m
            for r in rebels:
                scores[r] = theirs / 3 * m
            sides = (own * m, theirs * m)
        elif base == "tribute":
            own = Fraction(S3[pe] + S3[pg])
            theirs = Fraction(sum(S3[position[r]] for r in rebels))
            scores[emperor] = scores[guard] = own
            for r in rebels:
                scores[r] = theirs
            sides = (own, theirs)
        else:
            guard_score = Fraction(6 - (pe + pg)) * m
            scores[guard] = guard_score
            scores[emperor] = 2 * guard_score
            for r in rebels:
                scores[r] = -guard_score
            sides = (3 * guard_score, -3 * guard_score)
    else:
        if base == "classic":
            table = S2_GRAB_EMPEROR if mode == "grab" else S2_SOLO
            x = Fraction(table[pe] * m)
            each = -x / 4
        elif base == "tribute":
            table = S3_GRAB_EMPEROR if mode == "grab" else S3
            x = Fraction(table[pe] * m)
            rebels_side = -x  # the four rebels' position points sum to minus the emperor's
            each = rebels_side
        else:
            table = S6_EMPEROR if mode == "solo_hidden" else S5_EMPEROR
            x = Fraction(table[pe] * m)
            each = -x / 4
        scores[emperor] = x
        for r in rebels:
            scores[r] = each
        sides = (x, -x)
    return Expected(
        scores=tuple(_int(scores[s]) for s in SEATS),
        side_emperor=_int(sides[0]),
        side_rebels=_int(sides[1]),
    )


def expected_winner(e: Expected) -> str:
    if e.side_emperor > e.side_rebels:
        return "emperor"
    if e.side_emperor < e.side_rebels:
        return "rebels"
    return "draw"


def expected_positions(mode: str, emperor: int, prefix: Sequence[int]) -> list[int]:
    """T-9 fill: unfinished seats in seat order after the last finisher; a solo emperor last."""
    last = prefix[-1] if prefix else emperor - 1
    rest = sorted(
        (s for s in SEATS if s not in prefix),
        key=lambda s: (mode != "team" and s == emperor, (s - last - 1) % 5),
    )
    order = [*prefix, *rest]
    return [order.index(s) + 1 for s in SEATS]


def role_cases(mode: str) -> Iterator[tuple[int, int | None]]:
    if mode == "team":
        yield from ((e, g) for e in SEATS for g in SEATS if g != e)
    else:
        yield from ((e, None) for e in SEATS)


ALL_ORDERS = list(itertools.permutations(SEATS))
assert len(ALL_ORDERS) == 120
ALL_PREFIXES = sorted({order[:k] for order in ALL_ORDERS for k in range(6)})


# ---------------------------------------------------------------------------------------------
# Tables: every order, every prefix, every ruleset × mode × flags × roles.


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("base", list(BASES))
def test_every_finishing_order_and_prefix(base: str, mode: Mode) -> None:
    ruleset = BASES[base]
    checked_final = 0
    for emperor, guard in role_cases(mode):
        for revealed, rebellion in itertools.product((False, True), repeat=2):
            m = expected_multiplier(base, mode, revealed, rebellion)
            for prefix in ALL_PREFIXES:
                result = score_deal(ruleset, mode, emperor, guard, revealed, rebellion, prefix)
                assert result.multiplier == m
                remaining = [s for s in SEATS if s not in prefix]
                outcomes = {
                    expected_full(base, mode, emperor, guard, revealed, rebellion, prefix + rest)
                    for rest in itertools.permutations(remaining)
                }
                can_change = len({o.scores for o in outcomes}) > 1
                context = (base, mode, emperor, guard, revealed, rebellion, prefix)
                assert result.final is not can_change, context
                if can_change:
                    assert result.winner is None, context
                    assert result.positions is None, context
                    assert result.scores is None, context
                    assert result.sides is None, context
                    continue
                checked_final += 1
                (only,) = outcomes
                assert result.scores == list(only.scores), context
                assert result.sides == Sides(only.side_emperor, only.side_rebels), context
                assert result.winner == expected_winner(only), context
                assert result.positions == expected_positions(mode, emperor, prefix), context
                # The reported positions are a finishing order that gives this very score.
                assert result.positions is not None
                order = tuple(sorted(SEATS, key=lambda s: result.positions[s]))  # type: ignore[index]
                full = expected_full(base, mode, emperor, guard, revealed, rebellion, order)
                assert full.scores == only.scores
    assert checked_final > 0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("base", list(BASES))
def test_T_9_final_exactly_when_the_rule_says(base: str, mode: Mode) -> None:
    """T-9 / S-7 / S-8 restated as rules, prefix by prefix of every order."""
    ruleset = BASES[base]
    for emperor, guard in role_cases(mode):
        for order in ALL_ORDERS:
            for k in range(6):
                prefix = order[:k]
                done = set(prefix)
                others_done = len(done - {emperor})
                if mode == "team":
                    assert guard is not None
                    want = {emperor, guard} <= done or len(done - {emperor, guard}) == 3
                elif mode == "grab" or (mode == "solo_open" and ruleset.scoring == "S-4"):
                    want = k >= 1  # S-8; S-5 "其他任何一家如果先走掉，則牌局結束"
                elif mode == "solo_hidden" and ruleset.scoring == "S-4":
                    want = emperor in done or others_done >= 2  # S-6 / S-7
                else:
                    want = emperor in done or others_done == 4  # S-2 (and S-3) solo, S-7
                assert is_final(ruleset, mode, emperor, guard, prefix) is want
                result = score_deal(ruleset, mode, emperor, guard, False, False, prefix)
                assert result.final is want


# ---------------------------------------------------------------------------------------------
# S-1


def test_S_1_integers_and_zero_sum() -> None:
    """S-1: all scores are integers; seat scores sum to zero, except S-3 where the sides do."""
    for base, ruleset in BASES.items():
        for mode in MODES:
            for emperor, guard in role_cases(mode):
                for revealed, rebellion in itertools.product((False, True), repeat=2):
                    for order in ALL_ORDERS:
                        r = score_deal(ruleset, mode, emperor, guard, revealed, rebellion, order)
                        assert r.final and r.scores is not None and r.sides is not None
                        assert all(type(s) is int for s in r.scores)
                        assert type(r.sides.emperor) is int and type(r.sides.rebels) is int
                        assert r.sides.emperor + r.sides.rebels == 0
                        if base != "tribute":
                            assert sum(r.scores) == 0
                            # the sides are the sums of their members' seat scores
                            members = {emperor} if guard is None else {emperor, guard}
                            assert r.sides.emperor == sum(r.scores[s] for s in members)


def test_S_1_seat_scores_do_not_sum_to_zero_under_S_3() -> None:
    # 皇帝 头科, 保皇派 二落: side 2; each of two members credited 2, each of three rebels −2.
    r = score_deal(TRIBUTE, "team", 0, 1, False, False, [0, 2, 3, 1, 4])
    assert r.scores == [2, 2, -2, -2, -2]
    assert sum(r.scores) == -2
    assert r.sides == Sides(emperor=2, rebels=-2)


# ---------------------------------------------------------------------------------------------
# S-2 classic


def test_S_2_team_seed_example() -> None:
    # 例如：“皇帝”获得“头科”，“保皇派”为“二落”，“革命党”获得“二科”、第三、“大落”，则“皇帝”一组得分：
    # 6+-3=3 ，革命党组得分为： 3+0+-6=-3 分。皇帝的得分为：组分 *2/3 ，保皇派的得分为：组分 /3，
    # 革命党的得分：组分 /3。
    r = score_deal(CLASSIC, "team", 0, 1, False, False, [0, 2, 3, 1, 4])
    assert r.final and r.winner == "emperor" and r.multiplier == 1
    assert r.positions == [1, 4, 2, 3, 5]
    assert r.scores == [2, 1, -1, -1, -1]
    assert r.sides == Sides(emperor=3, rebels=-3)


def test_S_2_team_guard_revealed_doubles() -> None:
    # 如果打明保分数翻倍。
    r = score_deal(CLASSIC, "team", 0, 1, True, False, [0, 2, 3, 1, 4])
    assert r.multiplier == 2
    assert r.scores == [4, 2, -2, -2, -2]
    assert r.sides == Sides(emperor=6, rebels=-6)


def test_S_2_team_best_and_worst() -> None:
    r = score_deal(CLASSIC, "team", 3, 4, False, False, [3, 4])  # 头科 + 二科: 9
    assert r.final and r.scores == [-3, -3, -3, 6, 3] and r.winner == "emperor"
    r = score_deal(CLASSIC, "team", 3, 4, True, False, [0, 1, 2])  # rebels 1-2-3: side −9, ×2
    assert r.final and r.scores == [6, 6, 6, -12, -6] and r.winner == "rebels"


def test_S_2_team_zero_side_is_a_draw() -> None:
    # (reading) 头科 + 大落 = 6 − 6 = 0: nobody wins.
    r = score_deal(CLASSIC, "team", 0, 1, False, False, [0, 2, 3, 4])
    assert r.final and r.scores == [0, 0, 0, 0, 0] and r.winner == "draw"


def test_S_2_solo_seed_example() -> None:
    # “独保”的算分规则：“头科”得 16 分，“二科”得 4 分，第三无分，“二落”得 -4 分，“大落”得 -16 分。
    # “皇帝”获得“头科”，则“皇帝”得分： 16，革命党组得分为： -16 分，革命党的得分：组分 /4=-4。
    r = score_deal(CLASSIC, "solo_hidden", 2, None, False, False, [2])
    assert r.final and r.scores == [-4, -4, 16, -4, -4] and r.multiplier == 1
    assert r.sides == Sides(emperor=16, rebels=-16)
    for position, points in S2_SOLO.items():
        order = [s for s in SEATS if s != 2]
        order.insert(position - 1, 2)
        r = score_deal(CLASSIC, "solo_hidden", 2, None, False, False, order)
        assert r.scores is not None and r.scores[2] == points
        assert all(r.scores[s] == -points // 4 for s in SEATS if s != 2)


def test_S_2_solo_open_doubles() -> None:
    # 如果皇帝打“明独”分数翻倍。
    r = score_deal(CLASSIC, "solo_open", 2, None, False, False, [2])
    assert r.multiplier == 2 and r.scores == [-8, -8, 32, -8, -8]
    r = score_deal(CLASSIC, "solo_open", 2, None, False, False, [0, 1, 3, 4])
    assert r.final and r.positions == [1, 2, 5, 3, 4] and r.scores == [8, 8, -32, 8, 8]


def test_S_2_solo_ignores_guard_revealed() -> None:
    r = score_deal(CLASSIC, "solo_hidden", 2, None, True, True, [2])
    assert r.multiplier == 1 and r.scores == [-4, -4, 16, -4, -4]


def test_S_2_grab() -> None:
    # “抢杠”的算分规则：抢杠的情况下，皇帝“头科”得 40 分，革命党每人得 -10 分；皇帝不是“头科”得 -40 ，
    # 革命党每人得 10 分
    r = score_deal(CLASSIC, "grab", 1, None, False, False, [1])
    assert r.final and r.scores == [-10, 40, -10, -10, -10] and r.winner == "emperor"
    r = score_deal(CLASSIC, "grab", 1, None, False, False, [3])
    assert r.final and r.scores == [10, -40, 10, 10, 10] and r.winner == "rebels"
    assert r.positions == [3, 5, 4, 1, 2]  # 3 first, then 4, 0, 2 from seat 4; the grabber last


# ---------------------------------------------------------------------------------------------
# S-3 tribute


def test_S_3_seed_example() -> None:
    # 记分：“头科”得4分，“二科”得2分，第三无分，“二落”得-2分，“大落”得-4分。例如：“皇帝”获得“头科”，
    # “保皇派”为“二落”，“革命党”获得“二科”、第三、“大落”。则“皇帝”一组得分：4+-2=2，敌方得分为：
    # 2+0+-4=-2分。
    r = score_deal(TRIBUTE, "team", 0, 1, False, False, [0, 2, 3, 1, 4])
    assert r.sides == Sides(emperor=2, rebels=-2)
    assert r.scores == [2, 2, -2, -2, -2]  # each member is credited the side's score
    assert r.winner == "emperor" and r.multiplier == 1


def test_S_3_zero_zero_is_a_draw() -> None:
    # 每局结束后按组计分，如果两组都是0分，则本局为平局，无输赢。
    r = score_deal(TRIBUTE, "team", 0, 1, False, False, [0, 2, 3, 4])  # 4 + −4
    assert r.final and r.sides == Sides(0, 0) and r.winner == "draw"
    assert r.scores == [0, 0, 0, 0, 0]
    r = score_deal(TRIBUTE, "team", 0, 1, False, False, [2, 0, 3, 1])  # 2 + −2
    assert r.final and r.winner == "draw"


def test_S_3_has_no_guard_revealed_bonus() -> None:
    # (reading) G-8: 明保 is scored only under S-2 and S-4.
    r = score_deal(TRIBUTE, "team", 0, 1, True, True, [0, 1])
    assert r.multiplier == 1 and r.sides == Sides(emperor=6, rebels=-6)
    assert r.scores == [6, 6, -6, -6, -6]


def test_S_3_solo_and_solo_open_doubles() -> None:
    # 明独：皇帝叫牌时直接亮出四张牌点相同且花色相同的牌……则得分翻番，进贡翻番。
    r = score_deal(TRIBUTE, "solo_hidden", 4, None, False, False, [0, 4])
    assert r.final and r.scores == [-2, -2, -2, -2, 2] and r.sides == Sides(2, -2)
    r = score_deal(TRIBUTE, "solo_open", 4, None, False, False, [0, 4])
    assert r.multiplier == 2 and r.scores == [-4, -4, -4, -4, 4] and r.sides == Sides(4, -4)
    r = score_deal(TRIBUTE, "solo_hidden", 4, None, False, False, [0, 1, 4])
    assert r.winner == "draw" and r.scores == [0, 0, 0, 0, 0]
    # S-7 as for S-2 solo: not over while the emperor's position still matters.
    assert not score_deal(TRIBUTE, "solo_hidden", 4, None, False, False, [0, 1, 2]).final


def test_S_3_grab_reading() -> None:
    # (reading) the rules are silent: a grab is a declared solo (×2) ending at the first finisher.
    r = score_deal(TRIBUTE, "grab", 0, None, False, False, [0])
    assert r.final and r.multiplier == 2 and r.scores == [8, -8, -8, -8, -8]
    r = score_deal(TRIBUTE, "grab", 0, None, False, False, [2])
    assert r.final and r.positions == [5, 4, 1, 2, 3] and r.scores == [-8, 8, 8, 8, 8]
    assert r.sides == Sides(-8, 8) and r.winner == "rebels"


# ---------------------------------------------------------------------------------------------
# S-4 lianzhong team


def test_S_4_guard_formula() -> None:
    # 侍衛得分=6－（皇帝走完順序＋侍衛走完順序） 皇帝得分=2x侍衛得分 起義者得分=－1x侍衛得分
    for ruleset in (LZ_CLASSIC, LZ_SIMPLE):
        for pe, pg in itertools.permutations(range(1, 6), 2):
            order = [2, 3, 4]
            for position, seat in sorted([(pe, 0), (pg, 1)]):
                order.insert(position - 1, seat)
            r = score_deal(ruleset, "team", 0, 1, False, False, order)
            g = 6 - (pe + pg)
            assert r.scores == [2 * g, g, -g, -g, -g]
            assert r.winner == ("emperor" if g > 0 else "rebels" if g < 0 else "draw")


def test_S_4_guard_revealed_doubles() -> None:
    # 保皇者若明保，或起義軍造反成功，則所有輸贏分數加倍。
    r = score_deal(LZ_CLASSIC, "team", 0, 1, True, False, [0, 1])  # guard 3, doubled
    assert r.multiplier == 2 and r.scores == [12, 6, -6, -6, -6]


def test_S_4_rebellion_doubles_never_four_times() -> None:
    # 造反成功後輸贏的分數加倍 — with 明保 as well still ×2 (reading).
    order = [2, 3, 4, 0, 1]  # guard = 6 − 9 = −3
    plain = score_deal(LZ_SIMPLE, "team", 0, 1, False, False, order)
    rebel = score_deal(LZ_SIMPLE, "team", 0, 1, False, True, order)
    both = score_deal(LZ_SIMPLE, "team", 0, 1, True, True, order)
    assert plain.scores == [-6, -3, 3, 3, 3]
    assert rebel.multiplier == 2 and rebel.scores == [-12, -6, 6, 6, 6]
    assert both.multiplier == 2 and both.scores == rebel.scores


def test_S_4_rebellion_only_in_lianzhong_simple() -> None:
    # 造反功能： 在簡明玩法中 … (reading: the flag is ignored elsewhere)
    r = score_deal(LZ_CLASSIC, "team", 0, 1, False, True, [2, 3, 4])
    assert r.multiplier == 1 and r.scores == [-6, -3, 3, 3, 3]
    r = score_deal(CLASSIC, "team", 0, 1, False, True, [2, 3, 4])
    assert r.multiplier == 1


def test_S_4_rebellion_succeeded() -> None:
    # S-4: two or more rebels declared it and the rebels' side won.
    assert rebellion_succeeded([2, 3], "rebels")
    assert rebellion_succeeded([2, 3, 4], "rebels")
    assert not rebellion_succeeded([2], "rebels")
    assert not rebellion_succeeded([2, 2], "rebels")
    assert not rebellion_succeeded([2, 3], "emperor")
    assert not rebellion_succeeded([2, 3], "draw")
    assert not rebellion_succeeded([2, 3], None)


def test_S_4_score_with_rebellion() -> None:
    lost = score_with_rebellion(LZ_SIMPLE, "team", 0, 1, False, [2, 3], [2, 3, 4])
    assert lost.multiplier == 2 and lost.scores == [-12, -6, 6, 6, 6] and rebels_won(lost)
    won = score_with_rebellion(LZ_SIMPLE, "team", 0, 1, False, [2, 3], [0, 1])
    assert won.multiplier == 1 and won.scores == [6, 3, -3, -3, -3] and not rebels_won(won)
    one = score_with_rebellion(LZ_SIMPLE, "team", 0, 1, False, [2], [2, 3, 4])
    assert one.multiplier == 1
    pending = score_with_rebellion(LZ_SIMPLE, "team", 0, 1, False, [2, 3], [2, 3])
    assert not pending.final and pending.multiplier == 1
    hidden = score_with_rebellion(LZ_SIMPLE, "solo_hidden", 0, 0, False, [2, 3], [2, 3])
    assert hidden.final and hidden.scores == [-24, 6, 6, 6, 6]


# ---------------------------------------------------------------------------------------------
# S-5 … S-8 lianzhong solo and grab


def test_S_5_solo_open() -> None:
    # 明獨保的情況： 皇帝走頭客得24分，其他四人各得-6分； 其他任何一家如果先走掉，則牌局結束，
    # 皇帝得-24分，其他四人各得6分。
    for ruleset in (LZ_CLASSIC, LZ_SIMPLE):
        r = score_deal(ruleset, "solo_open", 3, None, True, True, [3])
        assert r.final and r.multiplier == 1 and r.scores == [-6, -6, -6, 24, -6]
        r = score_deal(ruleset, "solo_open", 3, None, False, False, [1])
        assert r.final and r.scores == [6, 6, 6, -24, 6]
        assert r.positions == [4, 1, 2, 5, 3]


def test_S_6_solo_hidden() -> None:
    # 暗獨保的情況： 皇帝走頭客得12分，其他四人各得-3分； 皇帝走二客得0分，其他四人各得0分；
    # 皇帝走三客得-12分，其他四人各得3分； 如果起義者造反成功，暗獨保身份被揭開，則得失分按上述規則加倍。
    e = 0
    assert score_deal(LZ_SIMPLE, "solo_hidden", e, e, False, False, [0]).scores == [
        12, -3, -3, -3, -3,
    ]  # fmt: skip
    assert score_deal(LZ_CLASSIC, "solo_hidden", e, None, False, False, [1, 0]).scores == [
        0, 0, 0, 0, 0,
    ]  # fmt: skip
    third = score_deal(LZ_CLASSIC, "solo_hidden", e, None, False, False, [1, 2])
    assert third.final and third.scores == [-12, 3, 3, 3, 3] and third.positions == [5, 1, 2, 3, 4]
    # (reading) 'third' is 'third or worse'
    worst = score_deal(LZ_CLASSIC, "solo_hidden", e, None, False, False, [1, 2, 3, 4, 0])
    assert worst.scores == [-12, 3, 3, 3, 3]
    doubled = score_deal(LZ_SIMPLE, "solo_hidden", e, e, False, True, [1, 2])
    assert doubled.multiplier == 2 and doubled.scores == [-24, 6, 6, 6, 6]


def test_S_7_solo_deal_ends() -> None:
    # S-5: at the first finisher.
    assert score_deal(LZ_CLASSIC, "solo_open", 0, None, False, False, [1]).final
    # S-6: when the emperor finishes, or once two others have.
    assert not score_deal(LZ_CLASSIC, "solo_hidden", 0, None, False, False, [1]).final
    assert score_deal(LZ_CLASSIC, "solo_hidden", 0, None, False, False, [1, 0]).final
    assert score_deal(LZ_CLASSIC, "solo_hidden", 0, None, False, False, [1, 2]).final
    # S-2 solo: when the emperor finishes, or all four others have.
    for mode in ("solo_hidden", "solo_open"):
        assert not score_deal(CLASSIC, mode, 0, None, False, False, [1, 2, 3]).final
        assert score_deal(CLASSIC, mode, 0, None, False, False, [1, 2, 3, 0]).final
        assert score_deal(CLASSIC, mode, 0, None, False, False, [1, 2, 3, 4]).final


def test_S_8_grab_ends_at_first_finisher_and_lianzhong_grab_is_S_5() -> None:
    for ruleset in BASES.values():
        assert not score_deal(ruleset, "grab", 0, None, False, False, []).final
        assert score_deal(ruleset, "grab", 0, None, False, False, [4]).final
    for ruleset in (LZ_CLASSIC, LZ_SIMPLE):
        for order in ALL_ORDERS:
            grab = score_deal(ruleset, "grab", 2, None, False, False, order[:1])
            solo = score_deal(ruleset, "solo_open", 2, None, False, False, order[:1])
            assert grab == solo


# ---------------------------------------------------------------------------------------------
# T-9 positions, contract shape, bad input


def test_T_9_side_that_finished_holds_the_better_positions() -> None:
    # rebels 2, 3, 4 finished: the emperor's side takes 4 and 5, in seat order after seat 4.
    r = score_deal(CLASSIC, "team", 1, 0, False, False, [2, 3, 4])
    assert r.positions == [4, 5, 1, 2, 3]
    # emperor 3 and guard 1 finished first: the rebels take 3, 4, 5 from seat 2 on.
    r = score_deal(CLASSIC, "team", 3, 1, False, False, [3, 1])
    assert r.positions == [5, 2, 3, 1, 4]


def test_not_final_reports_only_the_multiplier() -> None:
    r = score_deal(CLASSIC, "team", 0, 1, True, False, [0, 2])
    assert r == ScoreResult(
        final=False, winner=None, multiplier=2, positions=None, scores=None, sides=None, void=None
    )
    assert msgspec.json.decode(msgspec.json.encode(r)) == {
        "final": False,
        "winner": None,
        "multiplier": 2,
        "positions": None,
        "scores": None,
        "sides": None,
        "void": None,
    }


def test_result_encodes_as_the_api_shape() -> None:
    r = score_deal(CLASSIC, "team", 0, 1, False, False, [0, 2, 3, 1, 4])
    assert msgspec.json.decode(msgspec.json.encode(r)) == {
        "final": True,
        "winner": "emperor",
        "multiplier": 1,
        "positions": [1, 4, 2, 3, 5],
        "scores": [2, 1, -1, -1, -1],
        "sides": {"emperor": 3, "rebels": -3},
        "void": None,
    }


def test_options_do_not_change_scoring() -> None:
    ruleset: Ruleset = resolve_ruleset("classic", kaopai=True, bie6=True, deck="short")
    assert score_deal(ruleset, "team", 0, 1, False, False, [0, 2, 3, 1, 4]).scores == [
        2, 1, -1, -1, -1,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("mode", "emperor", "guard", "finished", "code", "field"),
    [
        ("duo", 0, 1, [], "INVALID_MODE", "mode"),
        ("team", 5, 1, [], "INVALID_SEAT", "emperor"),
        ("team", 0, None, [], "GUARD_REQUIRED", "guard"),
        ("team", 0, 0, [], "GUARD_IS_EMPEROR", "guard"),
        ("team", 0, 7, [], "INVALID_SEAT", "guard"),
        ("solo_hidden", 0, 1, [], "UNEXPECTED_GUARD", "guard"),
        ("grab", 0, 3, [], "UNEXPECTED_GUARD", "guard"),
        ("team", 0, 1, [2, 2], "INVALID_FINISHED", "finished[1]"),
        ("team", 0, 1, [2, 9], "INVALID_SEAT", "finished[1]"),
        ("team", 0, 1, [0, 1, 2, 3, 4, 0], "INVALID_FINISHED", "finished"),
    ],
)
def test_bad_input_is_refused(
    mode: str, emperor: int, guard: int | None, finished: list[int], code: str, field: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        score_deal(CLASSIC, mode, emperor, guard, False, False, finished)  # type: ignore[arg-type]
    assert caught.value.code == code and caught.value.path == "." + field


def test_solo_accepts_the_emperor_as_his_own_guard() -> None:
    # G-3: lianzhong-simple emperor holding BJ* and SJ* plays solo; guard == emperor is accepted.
    a = score_deal(LZ_SIMPLE, "solo_hidden", 1, 1, False, False, [1])
    b = score_deal(LZ_SIMPLE, "solo_hidden", 1, None, False, False, [1])
    assert a == b and a.scores == [-3, 12, -3, -3, -3]
