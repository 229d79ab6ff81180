"""docs/rules.md G-1…G-8 and P before the first play: crown, guard, 明保/造反, void deals, tribute.

Each test cites the published text it implements by its title: 保皇规则 (classic), 保皇怎么玩
(the 进贡 text, tribute) and 保皇游戏攻略 (the 联众 room rules, lianzhong-*). Hands are either seeded deals (engine/before_play/deal.py) or laid out by
:func:`layout`, which places the named cards and spreads every other card so that no other seat
holds three of any (rank, suit): only the named cards can be called.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import msgspec
import pytest

from baohuang.engine import (
    AcceptMove,
    CallMove,
    DeclareSoloMove,
    DeclineMove,
    GrabMove,
    InvalidInput,
    Move,
    MoveRefused,
    PassMove,
    PlayMove,
    Reason,
    RebelMove,
    RevealMove,
    RulesetField,
    RulesetSpec,
    Snapshot,
    apply_move,
    auto_move,
    legal_moves,
    opening_snapshot,
    pay_tribute,
    ruleset_of,
    score,
    seat_view,
    validate_snapshot,
    verify_move,
)
from baohuang.engine.before_play.crown import kind_of
from baohuang.engine.before_play.deal import Dealt, canonical_deck, deal
from baohuang.engine.cards import BJ_SCEPTER, CODES

SEATS = range(5)
RULESET_FIELDS: list[RulesetField] = [
    "classic",
    "tribute",
    "lianzhong-classic",
    "lianzhong-simple",
    RulesetSpec(base="lianzhong-classic", grab=True),
    RulesetSpec(base="lianzhong-simple", grab=True),
]


def layout(field: RulesetField, wanted: dict[int, list[str]], crown: int) -> Snapshot:
    """A first snapshot whose seats hold ``wanted``; every other card is spread so that no seat
    holds more than two of a (rank, suit) besides what ``wanted`` gives it."""
    ruleset = ruleset_of(field)
    deck = Counter(canonical_deck(ruleset))
    if ruleset.tribute:
        deck[BJ_SCEPTER] += 1
    hands: list[list[int]] = [[] for _ in SEATS]
    for seat, codes in wanted.items():
        for card in ruleset.cards.parse(codes):
            deck[card] -= 1
            assert deck[card] >= 0, CODES[card]
            hands[seat].append(card)
    turn = 0
    for card in sorted(deck):
        for _ in range(deck[card]):
            held = [sum(kind_of(c) == kind_of(card) for c in hand) for hand in hands]
            seat = min(SEATS, key=lambda s: (held[s], (s - turn) % 5))
            turn += 1
            hands[seat].append(card)
    laid = [[CODES[c] for c in sorted(hand, reverse=True)] for hand in hands]
    return validate_snapshot(opening_snapshot(field, Dealt(hands=laid, crown=crown)))


def act(snapshot: Snapshot, move: Move) -> Snapshot:
    """Apply a legal move; the result must be a valid snapshot (validation round trip)."""
    assert verify_move(snapshot, move) is None, verify_move(snapshot, move)
    after, _ = apply_move(snapshot, move)
    encoded = msgspec.json.encode(after)
    return validate_snapshot(msgspec.json.decode(encoded, type=Snapshot))


def refused(snapshot: Snapshot, move: Move) -> str:
    reason = verify_move(snapshot, move)
    assert isinstance(reason, Reason), f"{move} was allowed"
    with pytest.raises(MoveRefused):
        apply_move(snapshot, move)
    return reason.code


def decline_all(snapshot: Snapshot, times: int) -> Snapshot:
    for _ in range(times):
        snapshot = act(snapshot, DeclineMove(snapshot.turn))
    return snapshot


def finish(snapshot: Snapshot, order: Sequence[int]) -> Snapshot:
    """The play snapshot as if ``order`` had finished (for scoring only)."""
    return msgspec.structs.replace(snapshot, finished=list(order))


# G-1 modes


def test_G_1_every_mode_is_reachable_in_classic() -> None:
    # 保皇规则: 叫庄 … 由持第四张该花色点数牌的人作为 … 侍卫; 独保：如果庄家的叫庄牌有 4 张 …;
    # 抢庄的情况下没有保皇派; 保皇游戏攻略: 還可以宣告自己“獨保”。
    start = layout("classic", {0: ["BJ*", "7S", "7S", "7S", "9H", "9H", "9H", "9H"]}, 0)
    team = act(start, CallMove(0, "7S"))
    assert (team.mode, team.emperor, team.phase) == ("team", 0, "guard")
    assert team.guard is not None and team.guard != 0 and "7S" in team.hands[team.guard]
    hidden = act(start, CallMove(0, "9H"))
    assert (hidden.mode, hidden.guard) == ("solo_hidden", 0)
    declared = act(start, DeclareSoloMove(0))
    assert (declared.mode, declared.guard, declared.phase) == ("solo_open", 0, "play")
    grabbed = act(start, GrabMove(3))
    assert (grabbed.mode, grabbed.emperor, grabbed.guard, grabbed.phase) == (
        "grab",
        3,
        None,
        "play",
    )


# G-2 calling a card


def test_G_2_call_needs_three_and_the_fourth_copy_names_the_guard() -> None:
    # 保皇规则: 叫庄需要有 3 张或 4 张同点数同花色的牌; 手中有与皇帝叫庄牌同点数同花色牌的玩家为“保皇派”。
    start = layout("classic", {1: ["BJ*", "KD", "KD", "KD", "5C", "5C"], 3: ["KD"]}, 1)
    assert refused(start, CallMove(1, "5C")) == "CANNOT_CALL"
    after = act(start, CallMove(1, "KD"))
    assert (after.mode, after.emperor, after.guard, after.called) == ("team", 1, 3, "KD")


def test_G_2_four_copies_make_a_hidden_solo() -> None:
    # 保皇游戏攻略: 也可以叫自己手中四張同花色同點數的牌“暗獨保”
    start = layout("lianzhong-classic", {2: ["BJ*", "QS", "QS", "QS", "QS"]}, 2)
    start = act(start, AcceptMove(2))
    after = act(start, CallMove(2, "QS"))
    assert (after.mode, after.guard) == ("solo_hidden", 2)


def test_G_2_jokers_are_callable_only_in_classic() -> None:
    # 保皇规则: （大王、小王也可以作为叫庄牌）; 保皇游戏攻略: 叫自己手中三張同花色同點數的牌
    start = layout("classic", {0: ["BJ*", "BJ", "BJ", "SJ", "SJ", "SJ"], 4: ["BJ"]}, 0)
    after = act(start, CallMove(0, "BJ"))
    assert (after.mode, after.guard, after.called) == ("team", 4, "BJ")
    assert act(start, CallMove(0, "SJ")).mode == "team"
    lianzhong = layout("lianzhong-classic", {0: ["BJ*", "BJ", "BJ", "8S", "8S", "8S"]}, 0)
    lianzhong = act(lianzhong, AcceptMove(0))
    assert refused(lianzhong, CallMove(0, "BJ")) == "CALL_CARD_NOT_ALLOWED"
    assert refused(lianzhong, CallMove(0, "BJ*")) == "CALL_CARD_NOT_ALLOWED"


def test_G_2_tribute_calls_no_joker_nor_two() -> None:
    # docs/rules.md R (tribute: calling a card, no joker nor 2); 保皇怎么玩: 叫牌不能叫王和2
    start = layout("tribute", {0: ["BJ*", "2S", "2S", "2S", "SJ", "SJ", "SJ", "JH", "JH", "JH"]}, 0)
    start = act(start, AcceptMove(0))
    assert refused(start, CallMove(0, "2S")) == "CALL_CARD_NOT_ALLOWED"
    assert refused(start, CallMove(0, "SJ")) == "CALL_CARD_NOT_ALLOWED"
    assert [m for m in legal_moves(start) if isinstance(m, CallMove)] == [CallMove(0, "JH")]
    after = act(start, CallMove(0, "JH"))
    assert after.phase == "play" and after.mode == "team"  # tribute has no 明保 round (S-3)


# G-3 lianzhong-simple: SJ* decides


def test_G_3_the_sword_holder_is_the_guard() -> None:
    # 保皇游戏攻略: 簡明玩法則是牌中有一張小王標有寶劍，當作“侍衛”牌，抓到保的人當侍衛。
    start = layout("lianzhong-simple", {0: ["BJ*"], 2: ["SJ*"]}, 0)
    start = act(start, AcceptMove(0))
    assert refused(start, CallMove(0, "8S")) == "CALL_CARD_NOT_ALLOWED"
    assert refused(start, DeclareSoloMove(0)) == "SOLO_NOT_ALLOWED"
    after = act(start, DeclineMove(0))
    assert (after.mode, after.guard, after.crown and after.crown.stage) == ("team", 2, "declare")


def test_G_3_emperor_holding_both_plays_solo_hidden_unless_declared() -> None:
    # 保皇游戏攻略: 當一個人同時抓到“皇牌”和“侍衛牌” … 若不宣告有“侍衛牌”，為暗獨保，再聲明瞭有“侍衛牌”，為“明獨保”。
    start = act(layout("lianzhong-simple", {1: ["BJ*", "SJ*"]}, 1), AcceptMove(1))
    hidden = act(start, DeclineMove(1))
    assert (hidden.mode, hidden.guard) == ("solo_hidden", 1)
    declared = act(start, DeclareSoloMove(1))
    assert (declared.mode, declared.guard, declared.phase) == ("solo_open", 1, "play")


# G-4 dealing


@pytest.mark.parametrize("field", RULESET_FIELDS[:4])
def test_G_4_a_deal_starts_in_the_crown_phase(field: RulesetField) -> None:
    # 保皇游戏攻略: 牌中有一張帶有權杖標記的大王牌稱作皇牌，誰抓到可以當皇帝
    ruleset = ruleset_of(field)
    dealt = deal(ruleset, 20261129, 3)
    snapshot = validate_snapshot(opening_snapshot(field, dealt))
    assert snapshot.phase == "crown" and snapshot.turn == dealt.crown == snapshot.emperor
    assert "BJ*" in snapshot.hands[dealt.crown]
    if ruleset.tribute:
        assert dealt.crown == 3  # the dealer is first offered the crown (dealing.py reading)
    assert any("SJ*" in hand for hand in snapshot.hands) == (ruleset.guard_by == "sword")
    assert deal(ruleset, 20261129, 3) == dealt  # reproducible


# G-5 classic crown


def test_G_5_crown_travels_to_previous_seat() -> None:
    """保皇规则: 让庄 hands the scepter on 顺时针 while play goes 逆时针, so the crown goes to the
    previous seat, (seat − 1) mod 5 (G-5); only the holder answers it."""
    start = layout("classic", {3: ["BJ*"]}, 3)
    assert refused(start, DeclineMove(1)) == "NOT_CROWN_HOLDER"
    assert refused(start, AcceptMove(3)) == "ACCEPT_BY_CALLING"
    after = act(start, DeclineMove(3))
    assert after.turn == 2 and "BJ*" in after.hands[2] and after.crown and after.crown.passes == 1
    again = act(after, DeclineMove(2))
    assert again.turn == 1 and again.emperor == 1 and "BJ*" in again.hands[1]
    assert decline_all(again, 3).turn == 3  # five hand-ons bring it back to the first holder


def test_G_5_forced_crown_searches_towards_earlier_seats_and_calls_exactly_three() -> None:
    """保皇规则: 逼庄 — 如果 5 个玩家都没有叫庄，就从第一个玩家开始按顺时针方向逼庄：如果玩家手里有且只有
    3 张同点数同花色的牌就必须叫庄. The search goes the crown's way (G-5): from the first holder
    towards earlier seats; the forced seat calls a card of which it holds exactly three."""
    start = layout(
        "classic",
        {
            1: ["BJ*", "6S", "6S", "6S", "6S"],
            3: ["TD", "TD", "TD"],
            4: ["AH", "AH", "AH", "KC", "KC", "KC", "KC"],
        },
        1,
    )
    forced = decline_all(start, 5)
    # seat 1 holds four, not exactly three; seat 0 holds no three; seat 4 comes before seat 3
    assert forced.turn == 4 and "BJ*" in forced.hands[4]
    assert refused(forced, DeclineMove(4)) == "MUST_CALL"
    assert refused(forced, DeclareSoloMove(4)) == "MUST_CALL"
    reason = verify_move(forced, CallMove(4, "KC"))
    assert reason is not None and (reason.code, reason.rule) == ("CANNOT_CALL", "G-5")
    assert [m for m in legal_moves(forced) if isinstance(m, CallMove)] == [CallMove(4, "AH")]
    assert auto_move(forced) == CallMove(4, "AH")
    called = act(forced, CallMove(4, "AH"))
    assert (called.emperor, called.mode, called.called) == (4, "team", "AH")


def test_G_5_nobody_with_exactly_three_voids_the_deal() -> None:
    # 保皇规则: 黄庄：如果没有玩家符合逼庄的条件就算黄庄，重新发牌。
    start = layout("classic", {0: ["BJ*"]}, 0)
    void = decline_all(start, 5)
    assert void.over and void.void and void.phase == "crown"
    assert legal_moves(void) == [] and refused(void, CallMove(0, "7S")) == "DEAL_OVER"
    result = score(void)
    assert result.final and result.scores == [0] * 5 and result.winner is None


def test_G_5_any_other_seat_may_grab_at_any_time() -> None:
    # 保皇规则: 抢庄：玩家可以强行将有特殊标记的大王拿到自己手里 … 也不需要等别人让庄就是抢庄。抢庄的情况下没有保皇派。
    start = decline_all(layout("classic", {0: ["BJ*"]}, 0), 2)
    assert refused(start, GrabMove(start.turn)) == "GRAB_NOT_ALLOWED"
    grabbed = act(start, GrabMove(0))  # out of turn
    assert (grabbed.mode, grabbed.emperor, grabbed.guard, grabbed.turn) == ("grab", 0, None, 0)
    assert "BJ*" in grabbed.hands[0]
    assert score(finish(grabbed, [0])).scores == [
        40,
        -10,
        -10,
        -10,
        -10,
    ]


def test_R_grab_option_is_honoured_by_every_base_that_grabs() -> None:
    """保皇规则 (抢庄, G-5) and 保皇游戏攻略 (可以“抢独”的房间中, G-7) make grabbing a table's
    choice; the option is ``grab`` everywhere, and tribute (保皇怎么玩, G-6) has no grab."""
    assert [ruleset_of(name).grab for name in ("classic", "tribute")] == [True, False]
    assert ruleset_of("lianzhong-classic").grab is False
    closed = RulesetSpec(base="classic", grab=False)
    assert ruleset_of(closed).name == "classic+grab=false"
    start = layout(closed, {0: ["BJ*", "7S", "7S", "7S"]}, 0)
    reason = verify_move(start, GrabMove(3))
    assert reason is not None and (reason.code, reason.rule) == ("GRAB_NOT_ALLOWED", "G-5")
    assert verify_move(layout("classic", {0: ["BJ*"]}, 0), GrabMove(3)) is None
    grabbed = act(layout("classic", {0: ["BJ*"]}, 0), GrabMove(3))
    with pytest.raises(InvalidInput) as caught:  # a grab deal at a table without grabs
        validate_snapshot(msgspec.structs.replace(grabbed, ruleset=closed))
    assert (caught.value.rule, caught.value.at("$")) == ("G-5", "$.snapshot.mode")
    room = RulesetSpec(base="lianzhong-simple", grab=True)
    assert ruleset_of(room).grab and ruleset_of(room).name == "lianzhong-simple+grab=true"
    assert ruleset_of(RulesetSpec(base="tribute", grab=False)) == ruleset_of("tribute")
    with pytest.raises(InvalidInput) as caught:
        ruleset_of(RulesetSpec(base="tribute", grab=True))
    assert (caught.value.rule, caught.value.path) == ("G-6", ".ruleset.grab")
    bad = msgspec.structs.replace(start, ruleset=RulesetSpec(base="tribute", grab=True))
    with pytest.raises(InvalidInput) as invalid:
        validate_snapshot(bad)
    assert (invalid.value.code, invalid.value.rule, invalid.value.at("$")) == (
        "UNKNOWN_RULESET",
        "G-6",
        "$.snapshot.ruleset.grab",
    )


# G-6 tribute crown


def test_G_6_tribute_crown_travels_to_previous_seat() -> None:
    """保皇怎么玩: the 皇帝 post is passed on 顺时针 while play goes 逆时针, so a passing seat hands
    BJ* to the previous seat (G-6, in G-5's direction); only a seat with a callable three
    (neither joker nor 2) accepts."""
    start = layout("tribute", {0: ["BJ*", "2S", "2S", "2S"], 4: ["9C", "9C", "9C"]}, 0)
    assert refused(start, AcceptMove(0)) == "CANNOT_ACCEPT"
    assert legal_moves(start) == [DeclineMove(0)]
    after = act(start, DeclineMove(0))
    assert after.turn == 4 and "BJ*" in after.hands[4]
    assert after.crown and after.crown.pile == []  # the first adds no 2
    assert act(after, AcceptMove(4)).phase == "guard"
    assert act(after, DeclineMove(4)).turn == 3


def test_G_6_passing_seats_add_a_two_and_the_first_seat_chooses_once_more() -> None:
    # docs/rules.md G-6 (每个放弃的玩家贴一张2): every passing seat after the first adds one 2 it has.
    start = layout(
        "tribute",
        {2: ["BJ*", "8D", "8D", "8D"], 3: ["2H"], 4: ["2C", "2D"], 0: ["2S"], 1: []},
        2,
    )
    back = decline_all(start, 5)
    assert back.turn == 2 and back.crown and back.crown.passes == 5
    pile = list(back.crown.pile)
    assert len(pile) == 4 and all(code.startswith("2") for code in pile)
    before = len(back.hands[2])
    accepted = act(back, AcceptMove(2))
    assert len(accepted.hands[2]) == before + 4 and accepted.crown and accepted.crown.pile == []
    void = act(back, DeclineMove(2))  # passing again voids
    assert void.over and void.void


def test_G_6_tribute_declared_solo_needs_a_shown_four() -> None:
    """保皇怎么玩: 明独：皇帝叫牌时直接亮出四张牌点相同且花色相同的牌（不能为“花”和2），表明自己一打四
    (G-6): without such a four, 明独 is refused."""
    wanted = ["BJ*", "5H", "5H", "5H", "2S", "2S", "2S", "2S", "SJ", "SJ", "SJ", "SJ"]
    start = act(layout("tribute", {0: wanted}, 0), AcceptMove(0))
    reason = verify_move(start, DeclareSoloMove(0))
    assert reason is not None and (reason.code, reason.rule) == ("SOLO_NOT_ALLOWED", "G-6")
    assert DeclareSoloMove(0) not in legal_moves(start)
    four = act(
        layout("tribute", {0: ["BJ*", "5H", "5H", "5H", "8C", "8C", "8C", "8C"]}, 0), AcceptMove(0)
    )
    solo = act(four, DeclareSoloMove(0))
    assert (solo.mode, solo.guard, solo.phase) == ("solo_open", 0, "play")


def test_G_6_tribute_has_no_grab() -> None:
    """保皇怎么玩 knows no 抢庄: the crown is only accepted or passed on (G-6), so a grab is refused
    in every phase of a tribute deal, in turn or not."""
    crown = layout("tribute", {0: ["BJ*", "5H", "5H", "5H"]}, 0)
    guard = act(crown, AcceptMove(0))
    play = act(guard, CallMove(0, "5H"))
    for snapshot, seat in ((crown, 2), (guard, 0), (guard, 3), (play, 0), (play, 4)):
        reason = verify_move(snapshot, GrabMove(seat))
        assert reason is not None and (reason.code, reason.rule) == ("GRAB_NOT_ALLOWED", "G-6")
    # a snapshot saying a tribute deal has a grab round, or was grabbed, contradicts itself
    assert guard.crown is not None
    grab_round = msgspec.structs.replace(
        guard, crown=msgspec.structs.replace(guard.crown, stage="grab", pending=[0, 4, 3, 2, 1])
    )
    grabbed = msgspec.structs.replace(play, mode="grab", guard=None)
    for snapshot, path in ((grab_round, "$.snapshot.crown.stage"), (grabbed, "$.snapshot.mode")):
        with pytest.raises(InvalidInput) as caught:
            validate_snapshot(snapshot)
        assert (caught.value.code, caught.value.rule, caught.value.at("$")) == (
            "INVALID_SNAPSHOT",
            "G-6",
            path,
        )


# G-7 lianzhong crown


def test_G_7_the_crown_goes_to_the_previous_seat_with_a_two_in_simple() -> None:
    # 保皇游戏攻略: 如果沒有實力當皇帝，可以讓位給上家; 接手皇牌的玩家如不當皇帝，則應貼一張2，連同皇牌一起再傳給自己的上家;
    # 貼牌時，如沒有2的話，必須貼除了王之外最大的牌
    twos = {2: ["BJ*"] + ["2S"] * 4 + ["2H"] * 4, 0: ["SJ*"] + ["2C"] * 4 + ["2D"] * 4}
    start = layout("lianzhong-simple", twos, 2)
    first = act(start, DeclineMove(2))
    assert first.turn == 1 and first.crown and first.crown.pile == []  # dealt, not received
    highest = next(code for code in first.hands[1] if "J" not in code or code[0] == "J")
    second = act(first, DeclineMove(1))  # seat 1 holds no 2: its highest card below jokers
    assert second.turn == 0 and second.crown and second.crown.pile == [highest]
    third = act(second, DeclineMove(0))
    assert third.turn == 4 and third.crown and third.crown.pile == [highest, "2C"]
    accepted = act(third, AcceptMove(4))
    assert highest in accepted.hands[4] and "2C" in accepted.hands[4]


def test_G_7_lianzhong_classic_adds_no_two_and_must_accept_after_a_round() -> None:
    # 保皇游戏攻略: （經典玩法中不貼2）; 經典玩法中，傳完一輪後自己必須當皇帝（除非沒有能力登基…）
    start = layout("lianzhong-classic", {0: ["BJ*", "JS", "JS", "JS"]}, 0)
    round_done = decline_all(start, 5)
    assert round_done.turn == 0 and round_done.crown and round_done.crown.pile == []
    assert refused(round_done, DeclineMove(0)) == "MUST_ACCEPT"
    assert auto_move(round_done) == AcceptMove(0)
    assert act(round_done, AcceptMove(0)).emperor == 0


def test_G_7_after_a_round_a_seat_holding_four_of_one_card_may_hand_on() -> None:
    """保皇游戏攻略: 经典玩法中，传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）
    (G-7): holding four of one (rank, suit) frees the holder from accepting."""
    start = layout("lianzhong-classic", {0: ["BJ*", "JS", "JS", "JS", "9H", "9H", "9H", "9H"]}, 0)
    round_done = decline_all(start, 5)
    assert round_done.turn == 0 and round_done.crown and round_done.crown.passes == 5
    assert verify_move(round_done, DeclineMove(0)) is None
    assert auto_move(round_done) == DeclineMove(0)  # T-10: decline where it may
    assert act(round_done, DeclineMove(0)).turn == 4
    accepted = act(act(round_done, AcceptMove(0)), CallMove(0, "9H"))
    assert (accepted.mode, accepted.guard) == ("solo_hidden", 0)


def test_G_7_two_rounds_without_an_emperor_void_the_deal() -> None:
    # 保皇游戏攻略: 兩輪之內仍然沒有決定誰是皇帝時，系統重新發牌
    classic = decline_all(layout("lianzhong-classic", {0: ["BJ*"]}, 0), 10)  # nobody can call
    assert classic.over and classic.void
    simple = layout("lianzhong-simple", {0: ["BJ*"]}, 0)
    simple = decline_all(simple, 9)
    assert not simple.over and verify_move(simple, DeclineMove(simple.turn)) is None
    void = act(simple, DeclineMove(simple.turn))
    assert void.void and void.crown and len(void.crown.pile) == 9
    assert refused(void, AcceptMove(void.turn)) == "DEAL_OVER"


def test_G_7_grab_priority_emperor_first_then_nearest_earlier_seat() -> None:
    # 保皇游戏攻略: 可以“搶獨”的房間中 … 皇帝“獨保”優先成功，如果皇帝不“獨保”，平民有多個人“獨保”，在上家方向上離皇帝最近的人“獨保”成功
    field = RulesetSpec(base="lianzhong-classic", grab=True)
    start = act(layout(field, {2: ["BJ*", "9S", "9S", "9S"]}, 2), AcceptMove(2))
    assert start.crown and start.crown.stage == "grab" and start.crown.pending == [2, 1, 0, 4, 3]
    assert refused(start, GrabMove(2)) == "GRAB_NOT_ALLOWED"
    assert refused(start, GrabMove(1)) == "NOT_YOUR_TURN"
    own = act(start, DeclareSoloMove(2))
    assert (own.mode, own.emperor) == ("solo_open", 2)
    asked = act(start, DeclineMove(2))
    assert asked.turn == 1  # the nearest seat towards earlier seats (上家)
    grabbed = act(act(asked, DeclineMove(1)), GrabMove(0))
    assert (grabbed.mode, grabbed.emperor, grabbed.guard) == ("grab", 0, None)
    # scored as S-5: the grabber first +24, each other −6
    assert score(finish(grabbed, [0])).scores == [24, -6, -6, -6, -6]
    nobody = decline_all(asked, 4)
    assert nobody.crown and nobody.crown.stage == "call" and nobody.turn == 2


def test_G_7_no_grab_without_the_room_option() -> None:
    # 保皇游戏攻略: 可以“搶獨”的房間中 (only in rooms that allow it)
    start = act(layout("lianzhong-classic", {2: ["BJ*", "9S", "9S", "9S"]}, 2), AcceptMove(2))
    assert start.crown and start.crown.stage == "call"
    assert refused(start, GrabMove(2)) == "GRAB_NOT_ALLOWED"
    crown = layout("lianzhong-classic", {2: ["BJ*"]}, 2)
    assert refused(crown, GrabMove(0)) == "GRAB_NOT_ALLOWED"


# G-8 guard: call or 明独, 明保, 造反, the first play


def test_G_8_the_emperor_calls_or_declares_and_cannot_decline() -> None:
    # 保皇游戏攻略: 皇帝可以選擇叫自己手中三張同花色同點數的牌 … 或是直接宣告“明獨保”
    # G-6: 明独 in tribute shows four of one (rank, suit): the emperor holds 8C four times
    wanted = ["BJ*", "5H", "5H", "5H", "8C", "8C", "8C", "8C"]
    start = act(layout("tribute", {0: wanted}, 0), AcceptMove(0))
    assert refused(start, DeclineMove(0)) == "MUST_CALL"
    assert refused(start, RevealMove(0)) == "REVEAL_NOT_ALLOWED"
    assert {type(m) for m in legal_moves(start)} == {CallMove, DeclareSoloMove}
    solo = act(start, DeclareSoloMove(0))
    assert (solo.mode, solo.phase, solo.turn) == ("solo_open", "play", 0)


def test_G_8_the_guard_reveals_before_the_first_play_and_scores_double() -> None:
    # 保皇规则: 保皇派如果觉得实力够强，可以在开牌前直接选择“明保”按钮 … 如果打明保分数翻倍。
    start = layout("classic", {0: ["BJ*", "4C", "4C", "4C"], 2: ["4C"]}, 0)
    called = act(start, CallMove(0, "4C"))
    assert called.crown and called.crown.stage == "declare" and called.crown.pending == [1, 2, 3, 4]
    assert refused(called, PlayMove(1, [called.hands[1][0]])) == "WRONG_PHASE"
    assert refused(called, RevealMove(1)) == "REVEAL_NOT_ALLOWED"
    after = act(called, DeclineMove(1))
    revealed = act(after, RevealMove(2))
    assert revealed.guard_revealed
    play = decline_all(revealed, 2)
    assert (play.phase, play.turn, play.trick.top) == ("play", 0, None)  # T-2: the emperor leads
    assert refused(play, RevealMove(2)) == "WRONG_PHASE"
    plain = decline_all(called, 4)
    order = [0, 2, 1, 3, 4]
    doubled = score(finish(play, order))
    single = score(finish(plain, order))
    assert doubled.multiplier == 2 and single.multiplier == 1
    assert doubled.scores == [2 * s for s in single.scores or []]


def test_G_8_two_rebels_reveal_the_guard_and_a_won_rebellion_doubles() -> None:
    # 保皇游戏攻略: 在簡明玩法中，當有兩個或兩個以上起義軍造反時，強制亮明侍衛的身份，造反成功後輸贏的分數加倍（包括暗獨保）。
    start = act(layout("lianzhong-simple", {0: ["BJ*"], 3: ["SJ*"]}, 0), AcceptMove(0))
    declare = act(start, DeclineMove(0))
    assert declare.guard == 3 and seat_view(declare, 1).guard is None
    assert refused(declare, RevealMove(1)) == "REVEAL_NOT_ALLOWED"
    one = act(declare, RebelMove(1))
    assert seat_view(one, 4).guard is None
    two = act(one, RebelMove(2))
    assert seat_view(two, 4).guard == 3  # two 造反 reveal the guard to all
    assert refused(two, RebelMove(3)) == "REBEL_NOT_ALLOWED"  # the guard does not rebel
    play = decline_all(two, 2)
    assert play.phase == "play" and play.rebellion == [1, 2]
    lost = score(finish(play, [1, 2, 4]))  # the rebels' side won
    assert lost.multiplier == 2 and lost.winner == "rebels"
    classic = act(layout("classic", {0: ["BJ*", "4C", "4C", "4C"]}, 0), CallMove(0, "4C"))
    assert refused(classic, RebelMove(classic.turn)) == "REBEL_NOT_ALLOWED"


def test_G_8_a_hidden_solo_looks_like_team_play_in_seat_views() -> None:
    # 保皇游戏攻略: 皇帝可以選擇叫自己手中四張同花色同點數的牌“暗獨保”; 保皇规则: 侍卫可以隐藏自己的身份，即暗保
    start = act(layout("lianzhong-classic", {1: ["BJ*", "QS", "QS", "QS", "QS"]}, 1), AcceptMove(1))
    hidden = act(start, CallMove(1, "QS"))
    assert hidden.mode == "solo_hidden" and hidden.crown and hidden.crown.pending == [2, 3, 4, 0]
    for seat in (0, 2, 3, 4):
        view = seat_view(hidden, seat)
        assert (view.mode, view.guard, view.called) == ("team", None, "QS")
        assert view.hand == hidden.hands[seat]
    team = act(
        act(layout("lianzhong-classic", {1: ["BJ*", "QS", "QS", "QS"]}, 1), AcceptMove(1)),
        CallMove(1, "QS"),
    )
    assert seat_view(team, 0).mode == "team" and seat_view(team, 0).guard in (None, 0)


def cited(snapshot: Snapshot, move: Move) -> tuple[str, str]:
    reason = verify_move(snapshot, move)
    assert reason is not None, f"{move} was allowed"
    return reason.code, reason.rule


def test_reasons_cite_the_rule_that_refuses() -> None:
    """保皇规则 (G-5), 保皇怎么玩 (G-6) and 保皇游戏攻略 (G-7) each govern their own crown: a refusal
    cites the rule of the ruleset in play, not one rule for all."""
    classic = layout("classic", {0: ["BJ*", "4C", "4C", "4C"]}, 0)
    assert cited(classic, GrabMove(0)) == ("GRAB_NOT_ALLOWED", "G-5")
    assert cited(classic, DeclineMove(2)) == ("NOT_CROWN_HOLDER", "G-5")
    declare = act(classic, CallMove(0, "4C"))
    assert declare.crown and declare.crown.stage == "declare" and declare.turn == 1
    # grabbing is over once the emperor is settled: out of turn too, it is not a turn question
    assert cited(declare, GrabMove(3)) == ("GRAB_NOT_ALLOWED", "G-5")
    assert cited(declare, GrabMove(1)) == ("GRAB_NOT_ALLOWED", "G-5")
    tribute = layout("tribute", {0: ["BJ*", "5H", "5H", "5H"], 1: ["2S", "2S", "2S"]}, 0)
    assert cited(tribute, DeclineMove(3)) == ("NOT_CROWN_HOLDER", "G-6")
    assert cited(act(tribute, DeclineMove(0)), AcceptMove(4)) == ("CANNOT_ACCEPT", "G-6")
    assert cited(act(tribute, AcceptMove(0)), DeclineMove(0)) == ("MUST_CALL", "G-6")
    lianzhong = layout("lianzhong-classic", {0: ["BJ*", "9S", "9S", "9S"]}, 0)
    assert cited(lianzhong, GrabMove(2)) == ("GRAB_NOT_ALLOWED", "G-7")
    assert cited(lianzhong, DeclineMove(3)) == ("NOT_CROWN_HOLDER", "G-7")
    assert cited(act(lianzhong, DeclineMove(0)), AcceptMove(4)) == ("CANNOT_ACCEPT", "G-7")
    call = act(lianzhong, AcceptMove(0))
    assert cited(call, DeclineMove(0)) == ("MUST_CALL", "G-7")
    assert cited(call, GrabMove(2)) == ("GRAB_NOT_ALLOWED", "G-7")  # out of turn, no grab round
    play = act(call, CallMove(0, "9S"))
    assert cited(decline_all(play, 4), GrabMove(3)) == ("GRAB_NOT_ALLOWED", "G-7")


def test_D_7_once_the_emperor_is_settled_before_play_the_scepter_is_his() -> None:
    """保皇游戏攻略: 皇牌 (BJ*) makes the 皇帝 and 侍卫牌 (SJ*) the 侍卫 (D-7): in the guard phase,
    after acceptance, a snapshot placing them elsewhere contradicts itself."""

    def moved(snapshot: Snapshot, card: str, source: int, target: int) -> Snapshot:
        hands = [list(hand) for hand in snapshot.hands]
        hands[source].remove(card)
        hands[target].append(card)
        return msgspec.structs.replace(snapshot, hands=hands)

    guard = act(layout("lianzhong-classic", {1: ["BJ*", "9S", "9S", "9S"]}, 1), AcceptMove(1))
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(moved(guard, "BJ*", 1, 4))
    assert (caught.value.code, caught.value.rule, caught.value.at("$")) == (
        "INVALID_SNAPSHOT",
        "D-7",
        "$.snapshot.hands[4]",
    )
    crown = layout("lianzhong-classic", {1: ["BJ*"]}, 1)  # not settled: the crown travels
    assert validate_snapshot(act(crown, DeclineMove(1))).turn == 0
    simple = act(layout("lianzhong-simple", {0: ["BJ*"], 3: ["SJ*"]}, 0), AcceptMove(0))
    declare = act(simple, DeclineMove(0))
    assert declare.guard == 3
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(moved(declare, "SJ*", 3, 2))
    assert (caught.value.rule, caught.value.at("$")) == ("D-7", "$.snapshot.hands[2]")
    assert validate_snapshot(moved(simple, "SJ*", 3, 2))  # the guard is not settled yet


def test_moves_of_the_wrong_phase_are_refused() -> None:
    # 保皇规则: 默认每局最初都由皇帝开牌 — play starts once the emperor is settled
    start = layout("classic", {0: ["BJ*"]}, 0)
    assert refused(start, PlayMove(0, ["BJ*"])) == "WRONG_PHASE"
    assert refused(start, PassMove(0)) == "WRONG_PHASE"
    play = act(start, DeclareSoloMove(0))
    assert refused(play, DeclineMove(0)) == "WRONG_PHASE"


# P tribute, applied to the new hands before the crown is offered


def tribute_start(previous: tuple[str, int, int | None, list[int]]) -> tuple[Snapshot, Snapshot]:
    ruleset = ruleset_of("tribute")
    dealt = deal(ruleset, 77, 0)
    mode, emperor, guard, finished = previous
    paid = pay_tribute(ruleset, mode, emperor, guard, finished, dealt.hands)  # type: ignore[arg-type]
    before = validate_snapshot(opening_snapshot("tribute", dealt))
    after = validate_snapshot(msgspec.structs.replace(before, hands=paid.hands))
    return before, after


def test_P_1_a_draw_pays_nothing() -> None:
    # 保皇怎么玩: 进贡是根据上一局的输赢决定的 (no result, no tribute)
    before, after = tribute_start(("team", 0, 1, [0, 2, 3, 4]))
    assert before.hands == after.hands


def test_P_2_payers_give_their_highest_and_keep_the_scepter() -> None:
    # 保皇怎么玩: 进贡方必须将自己的最大牌给吃贡方，吃贡方获得进贡方的牌，不还贡。
    before, after = tribute_start(("team", 0, 1, [2, 3, 4]))  # the rebels won
    assert "BJ*" in after.hands[0] and len(after.hands[0]) == len(before.hands[0]) - 2
    assert after.phase == "crown" and legal_moves(after)  # the crown is offered next


def test_P_3_team_counts_two_for_the_emperor_one_for_the_others() -> None:
    # 保皇怎么玩: “皇帝”吃2张贡或进2张贡，其他人吃或进1张贡牌。
    before, after = tribute_start(("team", 0, 1, [0, 1]))
    gained = [len(a) - len(b) for a, b in zip(after.hands, before.hands, strict=True)]
    assert gained[0] == 2 and gained[1] == 1 and gained[2:] == [-1, -1, -1]


def test_P_4_solo_emperor_pays_four() -> None:
    # 保皇怎么玩: 皇帝打“独”时进贡则进四张，吃贡其他人各进一张。
    before, after = tribute_start(("solo_hidden", 0, 0, [1, 2, 3, 4]))
    gained = [len(a) - len(b) for a, b in zip(after.hands, before.hands, strict=True)]
    assert gained == [-4, 1, 1, 1, 1]


# The property: a random agent always reaches the first play or a void deal.

BOUND = 40  # crown ≤ 11 answers, guard ≤ 1 + 5 + 4


def run_to_play(snapshot: Snapshot, rng: random.Random) -> tuple[Snapshot, int]:
    moves = 0
    while snapshot.phase != "play" and not snapshot.over:
        listed = legal_moves(snapshot)
        assert listed, "a seat to act always has a legal answer"
        for move in listed:
            assert verify_move(snapshot, move) is None
        auto = auto_move(snapshot)
        assert auto in listed
        move = rng.choice(listed)
        if snapshot.phase == "crown" and snapshot.crown and rng.random() < 0.02:
            move = GrabMove((snapshot.turn + rng.randrange(1, 5)) % 5)  # out of turn
            if verify_move(snapshot, move) is not None:
                move = rng.choice(listed)
        snapshot = act(snapshot, move)
        moves += 1
        assert moves <= BOUND
    return snapshot, moves


@pytest.mark.parametrize("field", RULESET_FIELDS, ids=str)
def test_random_agents_reach_the_first_play_or_a_void_deal(field: RulesetField) -> None:
    ruleset = ruleset_of(field)
    outcomes: Counter[str] = Counter()
    for seed in range(200):
        rng = random.Random(seed)
        start = validate_snapshot(opening_snapshot(field, deal(ruleset, seed, seed % 5)))
        end, _ = run_to_play(start, rng)
        if end.void:
            assert end.over and score(end).scores == [0] * 5
            outcomes["void"] += 1
            continue
        assert end.phase == "play" and end.turn == end.emperor and end.crown is None
        assert "BJ*" in end.hands[end.emperor]
        outcomes[end.mode] += 1
        for seat in SEATS:  # hidden information stays hidden
            view = seat_view(end, seat)
            exposed = end.guard_revealed or len(end.rebellion) >= 2  # 明保, or two 造反
            if seat not in (end.emperor, end.guard) and not exposed:
                assert view.mode != "solo_hidden" and view.guard is None
        if seed % 20 == 0:  # play on to the end with 托管 moves: the deal scores
            state = end
            for _ in range(3000):
                if state.over:
                    break
                state = apply_move(state, auto_move(state))[0]
            assert state.over and score(state).final
            outcomes["played out"] += 1
    assert outcomes["team"] > 0 and outcomes["played out"] > 0


def test_T_10_auto_calls_the_lowest_exact_three_and_a_four_only_without_one() -> None:
    """保皇游戏攻略: 托管策略为在决定皇帝和侍卫阶段按默认应答方式处理 (T-10): a seat in 托管 that
    must call names the lowest card it holds exactly three of, keeping team play; a four, which
    would make the deal a 1-against-4 暗独, only when it holds no three."""
    wanted = ["BJ*", *["6S"] * 4, *["QH"] * 3, *["JS"] * 3]
    start = act(layout("lianzhong-classic", {0: wanted}, 0), AcceptMove(0))
    assert auto_move(start) == CallMove(0, "JS")
    assert act(start, auto_move(start)).mode == "team"
    tribute = act(layout("tribute", {1: ["BJ*", *["7D"] * 4, *["9C"] * 3]}, 1), AcceptMove(1))
    assert auto_move(tribute) == CallMove(1, "9C")
    four = act(layout("lianzhong-classic", {2: ["BJ*", *["8C"] * 4]}, 2), AcceptMove(2))
    assert auto_move(four) == CallMove(2, "8C")
    assert act(four, auto_move(four)).mode == "solo_hidden"
    classic = layout("classic", {3: ["BJ*", *["5S"] * 4, *["KD"] * 3]}, 3)
    assert auto_move(classic) == DeclineMove(3)  # not forced: it hands the crown on


def test_auto_answers_default_to_decline_and_reach_play_or_void() -> None:
    # 保皇游戏攻略: 託管策略為在決定皇帝和侍衛階段按預設應答方式處理
    for field in RULESET_FIELDS:
        ruleset = ruleset_of(field)
        for seed in range(10):
            state = opening_snapshot(field, deal(ruleset, seed, 0))
            first = auto_move(state)
            assert isinstance(first, DeclineMove)
            for _ in range(BOUND):
                if state.phase == "play" or state.over:
                    break
                state = act(state, auto_move(state))
            assert state.phase == "play" or state.void
