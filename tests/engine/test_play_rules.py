"""One named test per T and B rule of docs/rules.md, and per reason code of the play phase."""

from __future__ import annotations

import random

import msgspec
import pytest

from baohuang.engine import (
    BASES,
    DealOverEvent,
    Event,
    FinishedEvent,
    InvalidInput,
    JiefengEvent,
    JiefengMove,
    Mode,
    Move,
    MoveRefused,
    PassedEvent,
    PassMove,
    PlayedEvent,
    PlayMove,
    Reason,
    RulesetField,
    RulesetSpec,
    Snapshot,
    TopPlay,
    Trick,
    TrickWonEvent,
    YieldedEvent,
    YieldMove,
    apply_move,
    auto_move,
    legal_moves,
    replay,
    validate_snapshot,
    verify_move,
)

from .play_support import deal

FILLER = "3S 4S 5S 7S 8S"  # low cards so that no seat finishes by accident


def h(cards: str) -> list[str]:
    return cards.split()


def make(
    hands: list[str],
    turn: int,
    top: tuple[int, str] | None = None,
    *,
    passed: list[int] | None = None,
    yielded: list[int] | None = None,
    circle: int = 1,
    jiefeng: int | None = None,
    ruleset: RulesetField = "classic",
    mode: Mode = "team",
    emperor: int = 0,
    guard: int | None = 1,
    finished: list[int] | None = None,
) -> Snapshot:
    """A validated snapshot; ``hands`` are space-separated codes, ``""`` for a finished seat."""
    trick = Trick(
        top=None if top is None else TopPlay(top[0], h(top[1])),
        passed=passed or [],
        yielded=yielded or [],
        circle=2 if circle == 2 else 1,
        jiefeng=jiefeng,
    )
    snapshot = Snapshot(
        ruleset=ruleset,
        mode=mode,
        emperor=emperor,
        guard=guard,
        hands=[h(hand) for hand in hands],
        turn=turn,
        trick=trick,
        finished=finished or [],
    )
    return validate_snapshot(snapshot)


def play(seat: int, cards: str) -> PlayMove:
    return PlayMove(seat, h(cards))


def run(snapshot: Snapshot, *moves: Move) -> tuple[Snapshot, list[Event]]:
    """Apply ``moves``, validating every snapshot on the way; the events of the last move."""
    events: list[Event] = []
    for move in moves:
        snapshot, events = apply_move(snapshot, move)
        snapshot = validate_snapshot(snapshot)
    return snapshot, events


def refused(snapshot: Snapshot, move: Move) -> Reason:
    reason = verify_move(snapshot, move)
    assert reason is not None
    before = snapshot.hands[move.seat][:]
    with pytest.raises(MoveRefused) as caught:
        apply_move(snapshot, move)
    assert caught.value.reason == reason
    assert snapshot.hands[move.seat] == before
    return reason


def filler(seat: int) -> str:
    suit = "SHCDS"[seat]
    return f"3{suit} 4{suit} 5{suit} 7{suit} 8{suit}"


FIVE = [f"{rank}S {rank}H {filler(seat)}" for seat, rank in enumerate("9TJQK")]


SHORT = [f"{rank}S {rank}H 7{'SHCDS'[seat]}" for seat, rank in enumerate("9TJQK")]


# T-1 … T-10


def test_T_1_turn_passes_to_next_seat_skipping_finished() -> None:
    snapshot = make(
        ["9S " + FILLER, "", "JS " + FILLER, "QS " + FILLER, "KS " + FILLER],
        0,
        finished=[1],
        mode="team",
        guard=2,
    )
    after, _ = run(snapshot, play(0, "9S"))
    assert after.turn == 2
    assert refused(after, PassMove(3)).code == "NOT_YOUR_TURN"


def test_T_1_not_your_turn() -> None:
    snapshot = make(FIVE, 0)
    reason = refused(snapshot, play(1, "TS"))
    assert (reason.code, reason.rule) == ("NOT_YOUR_TURN", "T-1")


def test_T_2_emperor_leads_the_first_trick() -> None:
    snapshot = deal(random.Random(3), BASES["classic"], "team")
    assert validate_snapshot(snapshot).turn == snapshot.emperor
    other = (snapshot.emperor + 1) % 5
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(msgspec.structs.replace(snapshot, turn=other))
    assert (caught.value.code, caught.value.rule) == ("INVALID_SNAPSHOT", "T-2")


def test_T_3_leader_plays_any_combo() -> None:
    snapshot = make(["9S 9H 9C SJ " + FILLER, *FIVE[1:]], 0)
    after, events = run(snapshot, play(0, "SJ 9S 9H 9C"))
    assert events == [PlayedEvent(0, ["SJ", "9S", "9H", "9C"])]
    assert after.trick.top == TopPlay(0, ["SJ", "9S", "9H", "9C"])
    assert after.turn == 1


def test_T_3_leader_cannot_pass() -> None:
    snapshot = make(FIVE, 0)
    reason = refused(snapshot, PassMove(0))
    assert (reason.code, reason.rule) == ("LEADER_CANNOT_PASS", "T-3")


def test_T_4_follower_beats_or_passes() -> None:
    snapshot = make(FIVE, 1, (0, "8H 8D"))
    assert verify_move(snapshot, play(1, "TS TH")) is None
    assert verify_move(snapshot, PassMove(1)) is None
    assert refused(snapshot, play(1, "7H")).code == "SIZE_MISMATCH"


def test_T_4_pass_holds_for_the_current_top_only() -> None:
    snapshot = make(FIVE, 1, (0, "8H 8D"))
    after, _ = run(snapshot, PassMove(1), play(2, "JS JH"), play(3, "QS QH"), play(4, "KS KH"))
    # Seat 0 owned the old top; seat 1 passed on it. Both answer the new top again.
    assert after.trick.passed == []
    after, _ = run(after, PassMove(0))
    assert after.turn == 1
    assert verify_move(after, PassMove(1)) is None


def test_T_5_trick_ends_when_everyone_passed_and_owner_leads() -> None:
    snapshot = make(FIVE, 1, (0, "8H 8D"))
    after, events = run(snapshot, PassMove(1), PassMove(2), PassMove(3), PassMove(4))
    assert events == [PassedEvent(4), TrickWonEvent(0, 0)]
    assert after.trick == Trick()
    assert after.turn == 0


def test_T_6_yield_then_second_circle_only_yielders() -> None:
    snapshot = make(FIVE, 1, (0, "8H 8D"))
    after, events = run(snapshot, YieldMove(1), PassMove(2), YieldMove(3))
    assert events == [YieldedEvent(3)]
    after, events = run(after, PassMove(4))
    assert after.trick.circle == 2
    assert after.turn == 1  # the first yielder in seat order after the top play
    assert refused(after, PassMove(2)).code == "NOT_YOUR_TURN"  # a first-circle pass counts
    after, _ = run(after, PassMove(1))
    assert after.turn == 3
    assert after.trick.yielded == [3]


def test_T_6_second_circle_without_a_beat_is_kou_pai() -> None:
    snapshot = make(FIVE, 1, (0, "8H 8D"))
    after, events = run(snapshot, YieldMove(1), PassMove(2), PassMove(3), PassMove(4), PassMove(1))
    assert events == [PassedEvent(1), TrickWonEvent(0, 0)]
    assert after.turn == 0 and after.trick.top is None


def test_T_6_yielder_beating_in_second_circle_starts_a_fresh_circle() -> None:
    snapshot = make(FIVE, 1, (0, "8H 8D"))
    after, _ = run(snapshot, YieldMove(1), PassMove(2), YieldMove(3), PassMove(4))
    after, _ = run(after, play(1, "TS TH"))
    assert after.trick == Trick(top=TopPlay(1, ["TS", "TH"]))
    assert after.turn == 2  # seat 2 passed on the old top, answers the new one
    assert verify_move(after, YieldMove(2)) is None


def test_T_6_yield_not_allowed_in_second_circle_for_leader_and_without_the_option() -> None:
    snapshot = make(FIVE, 1, (0, "8H 8D"))
    second, _ = run(snapshot, YieldMove(1), PassMove(2), PassMove(3), PassMove(4))
    reason = refused(second, YieldMove(1))
    assert (reason.code, reason.rule) == ("YIELD_NOT_ALLOWED", "T-6")
    assert refused(make(FIVE, 0), YieldMove(0)).code == "YIELD_NOT_ALLOWED"
    tribute = make(FIVE, 1, (0, "8H 8D"), ruleset="tribute")
    assert refused(tribute, YieldMove(1)).code == "YIELD_NOT_ALLOWED"
    assert YieldMove(1) not in legal_moves(tribute)
    assert YieldMove(1) in legal_moves(snapshot)


def test_T_7_final_play_finishes_at_next_position() -> None:
    snapshot = make(["9S 9H", "", *FIVE[2:]], 0, finished=[1], guard=2)
    after, events = run(snapshot, play(0, "9S 9H"))
    assert events == [PlayedEvent(0, ["9S", "9H"]), FinishedEvent(0, 2)]
    assert after.finished == [1, 0]
    assert after.turn == 2


def test_T_7_jiefeng_declared_and_claims_the_lead() -> None:
    snapshot = make(["9S 9H", *FIVE[1:]], 0, finished=[], guard=2)
    after, _ = run(snapshot, play(0, "9S 9H"))
    assert after.trick.top == TopPlay(0, ["9S", "9H"]) and after.finished == [0]
    assert JiefengMove(1) in legal_moves(after)
    after, events = run(after, JiefengMove(1))
    assert events == [JiefengEvent(1)]
    assert after.trick.jiefeng == 1
    after, events = run(after, PassMove(2), PassMove(3), PassMove(4))
    assert events[-1] == TrickWonEvent(0, 1)
    assert after.turn == 1 and after.trick.top is None


def test_T_7_jiefeng_fails_when_the_final_play_is_beaten() -> None:
    snapshot = make(["9S 9H", *FIVE[1:]], 0, guard=2)
    after, _ = run(snapshot, play(0, "9S 9H"), JiefengMove(1), play(2, "JS JH"))
    assert after.trick.jiefeng is None
    after, events = run(after, PassMove(3), PassMove(4), PassMove(1))
    assert events[-1] == TrickWonEvent(2, 2)


def test_T_7_jiefeng_lead_without_declaring() -> None:
    snapshot = make(["9S 9H", *FIVE[1:]], 0, guard=2)
    after, events = run(
        snapshot, play(0, "9S 9H"), PassMove(1), PassMove(2), PassMove(3), PassMove(4)
    )
    assert events[-1] == TrickWonEvent(0, 1)
    assert after.turn == 1


def test_T_7_jiefeng_not_allowed() -> None:
    snapshot = make(["9S 9H", *FIVE[1:]], 0, guard=2)
    after, _ = run(snapshot, play(0, "9S 9H"), PassMove(1))
    reason = refused(after, JiefengMove(2))  # only the next seat after the 底牌
    assert (reason.code, reason.rule) == ("JIEFENG_NOT_ALLOWED", "T-7")
    assert JiefengMove(2) not in legal_moves(after)
    on_plain_top = make(FIVE, 1, (0, "8H 8D"))
    assert refused(on_plain_top, JiefengMove(1)).code == "JIEFENG_NOT_ALLOWED"
    assert refused(make(FIVE, 0), JiefengMove(0)).code == "JIEFENG_NOT_ALLOWED"


def test_T_8_finished_player_never_acts() -> None:
    snapshot = make(["", *FIVE[1:]], 1, finished=[0], guard=2)
    reason = refused(snapshot, play(0, "9S"))
    assert (reason.code, reason.rule) == ("PLAYER_FINISHED", "T-8")
    after, _ = run(snapshot, play(1, "TS"), PassMove(2), PassMove(3), PassMove(4))
    assert after.turn == 1  # seat 0 skipped


def test_T_9_team_deal_ends_when_a_side_has_finished() -> None:
    snapshot = make(["9S", "", *FIVE[2:]], 0, finished=[1], guard=1)
    after, events = run(snapshot, play(0, "9S"))
    assert after.over
    assert after.positions is not None and after.positions[1] == 1 and after.positions[0] == 2
    assert sorted(after.positions) == [1, 2, 3, 4, 5]
    assert events[-1] == DealOverEvent(after.positions)
    reason = refused(after, PassMove(2))
    assert (reason.code, reason.rule) == ("DEAL_OVER", "T-9")
    assert legal_moves(after) == []


def test_T_9_grab_deal_ends_at_first_finisher() -> None:
    snapshot = make(
        ["9S " + FILLER, *FIVE[1:]], 1, (0, "8H"), mode="grab", guard=None, ruleset="classic"
    )
    after, events = run(snapshot, play(1, "TS"), PassMove(2), PassMove(3), PassMove(4), PassMove(0))
    assert not after.over
    one = make(["9S " + FILLER, "TS", *FIVE[2:]], 1, (0, "8H"), mode="grab", guard=None)
    after, events = run(one, play(1, "TS"))
    assert after.over and events[-1] == DealOverEvent(after.positions or [])
    assert after.positions is not None and after.positions[1] == 1


def test_T_9_team_deal_continues_while_both_sides_hold_cards() -> None:
    snapshot = make(["9S " + FILLER, "TS", *FIVE[2:]], 1, guard=2)
    after, events = run(snapshot, play(1, "TS"))
    assert events == [PlayedEvent(1, ["TS"]), FinishedEvent(1, 1)]
    assert not after.over and after.turn == 2


def test_T_10_auto_leader_plays_lowest_single_follower_passes() -> None:
    snapshot = make(["9S 4H 4D 3S SJ", *FIVE[1:]], 0)
    assert auto_move(snapshot) == PlayMove(0, ["3S"])
    follower = make(FIVE, 1, (0, "8H"))
    assert auto_move(follower) == PassMove(1)
    jokers = make(["BJ SJ", *FIVE[1:]], 0)
    assert auto_move(jokers) == PlayMove(0, ["SJ"])


def test_T_10_auto_respects_bie6() -> None:
    bie6 = RulesetSpec(base="classic", bie6=True)
    snapshot = make(["6S 6H 9D", *FIVE[1:]], 0, ruleset=bie6)
    assert auto_move(snapshot) == PlayMove(0, ["9D"])
    sixes = make(["6S 6H", *FIVE[1:]], 0, ruleset=bie6)
    assert auto_move(sixes) == PlayMove(0, ["6S", "6H"])
    over = run(make(["9S", "", *FIVE[2:]], 0, finished=[1]), play(0, "9S"))[0]
    with pytest.raises(MoveRefused):
        auto_move(over)


# B-1 憋6


def test_B_1_six_held_back_until_final_play() -> None:
    bie6 = RulesetSpec(base="lianzhong-classic", bie6=True)
    hands = ["6S 6H 9D 7S", *SHORT[1:]]
    snapshot = make(hands, 0, ruleset=bie6)
    reason = refused(snapshot, play(0, "6S 6H"))
    assert (reason.code, reason.rule) == ("SIX_HELD_BACK", "B-1")
    assert all(
        "6S" not in move.cards for move in legal_moves(snapshot) if isinstance(move, PlayMove)
    )
    plain = make(hands, 0, ruleset="lianzhong-classic")
    assert verify_move(plain, play(0, "6S 6H")) is None


def test_B_1_sixes_with_jokers_as_the_whole_hand() -> None:
    bie6 = RulesetSpec(base="lianzhong-classic", bie6=True)
    hands = ["6S 6H BJ", *SHORT[1:]]
    snapshot = make(hands, 0, ruleset=bie6)
    assert verify_move(snapshot, play(0, "6S 6H BJ")) is None
    assert refused(snapshot, play(0, "6S BJ")).code == "SIX_HELD_BACK"
    assert verify_move(snapshot, play(0, "BJ")) is None


# K in play, and the beating reasons


def test_K_kaopai_in_play_follows_the_ruleset() -> None:
    hands = ["BJ " + FILLER, "BJ BJ " + FILLER, *FIVE[2:]]
    normal = make(hands, 1, (0, "BJ"))
    assert refused(normal, play(1, "BJ BJ")).code == "SIZE_MISMATCH"
    kaopai = make(hands, 1, (0, "BJ"), ruleset=RulesetSpec(base="classic", kaopai=True))
    assert verify_move(kaopai, play(1, "BJ BJ")) is None
    assert PlayMove(1, ["BJ", "BJ"]) in legal_moves(kaopai)


def test_reason_no_cover() -> None:
    kaopai = RulesetSpec(base="classic", kaopai=True)
    snapshot = make(["SJ " + FILLER, "BJ BJ BJ " + FILLER, *FIVE[2:]], 1, (0, "BJ"), ruleset=kaopai)
    reason = refused(snapshot, play(1, "BJ BJ BJ"))
    assert (reason.code, reason.rule) == ("NO_COVER", "K-2")


def test_reason_big_joker_unbeatable() -> None:
    snapshot = make(["BJ " + FILLER, "BJ SJ " + FILLER, *FIVE[2:]], 1, (0, "BJ"))
    assert refused(snapshot, play(1, "BJ")).code == "BIG_JOKER_UNBEATABLE"


def test_reason_not_higher_and_size_mismatch() -> None:
    snapshot = make(FIVE, 1, (0, "JD JC"))
    assert refused(snapshot, play(1, "TS TH")).code == "NOT_HIGHER"
    assert refused(snapshot, play(1, "TS")).code == "SIZE_MISMATCH"


def test_reason_empty_play_and_mixed_ranks() -> None:
    snapshot = make(FIVE, 0)
    assert refused(snapshot, PlayMove(0, [])).code == "EMPTY_PLAY"
    assert refused(snapshot, play(0, "9S 7S")).code == "MIXED_RANKS"


def test_T_3_cards_not_in_hand_names_the_marked_joker() -> None:
    """保皇规则: the 皇帝's big joker is the one with the special mark (有特殊标记的大王), BJ*: a plain
    BJ is not in a hand that holds only BJ*, and the refusal (T-3) says which joker it holds."""
    snapshot = make(["BJ* 9S " + FILLER, *FIVE[1:]], 0)
    reason = refused(snapshot, play(0, "9S 9H"))
    assert (reason.code, reason.rule) == ("CARDS_NOT_IN_HAND", "T-3")
    assert "BJ*" not in reason.message
    # a marked joker is its own card: BJ is not BJ*
    reason = refused(snapshot, play(0, "BJ"))
    assert (reason.code, reason.rule) == ("CARDS_NOT_IN_HAND", "T-3")
    assert "big joker" in reason.message and "BJ*" in reason.message
    assert verify_move(snapshot, play(0, "BJ*")) is None
    both = make(["BJ* BJ " + FILLER, *FIVE[1:]], 0)
    assert "BJ*" in refused(both, play(0, "BJ BJ")).message
    assert "BJ*" not in refused(both, play(0, "BJ* BJ BJ")).message  # not a mix-up: too few
    simple = make(["BJ* SJ 9S", "SJ* 9H", "TS", "JS", "QS"], 1, ruleset="lianzhong-simple")
    reason = refused(simple, play(1, "SJ"))
    assert reason.code == "CARDS_NOT_IN_HAND" and "SJ*" in reason.message
    assert "small joker" in reason.message


def test_bad_input_in_a_move_is_not_a_verdict() -> None:
    snapshot = make(FIVE, 0)
    with pytest.raises(InvalidInput) as caught:
        verify_move(snapshot, play(0, "9S XX"))
    assert (caught.value.code, caught.value.at("$")) == ("UNKNOWN_CARD", "$.move.cards[1]")
    with pytest.raises(InvalidInput) as caught:
        verify_move(snapshot, play(0, "9S 9S 9S 9S 9S"))
    assert caught.value.code == "TOO_MANY_COPIES"


def test_ten_is_written_back_canonically() -> None:
    snapshot = make(["10S 9H " + FILLER, *FIVE[1:]], 0)
    assert snapshot.hands[0][0] == "TS"
    after, events = run(snapshot, play(0, "10S"))
    assert events == [PlayedEvent(0, ["TS"])]
    assert after.trick.top == TopPlay(0, ["TS"])


def test_refused_move_changes_nothing() -> None:
    snapshot = make(FIVE, 0)
    before = msgspec.json.encode(snapshot)
    for move in (PassMove(0), play(0, "9S 7S"), play(1, "TS"), YieldMove(0), JiefengMove(0)):
        with pytest.raises(MoveRefused):
            apply_move(snapshot, move)
    assert msgspec.json.encode(snapshot) == before


def test_replay_stops_at_first_illegal_move() -> None:
    snapshot = make(FIVE, 0)
    moves: list[Move] = [play(0, "9S"), play(1, "TS"), PassMove(1), play(2, "JS")]
    result = replay(snapshot, moves)
    assert result.applied == 2
    assert result.failed is not None
    assert (result.failed.index, result.failed.reason.code) == (2, "NOT_YOUR_TURN")
    assert result.snapshot == run(snapshot, *moves[:2])[0]
    whole = replay(snapshot, moves[:2])
    assert (whole.applied, whole.failed) == (2, None)
    with pytest.raises(InvalidInput) as caught:
        replay(snapshot, [play(0, "9S"), play(1, "ZZ")])
    assert caught.value.at("$") == "$.moves[1].cards[0]"
