"""Snapshot wire types and whole-snapshot validation (docs/clients.md, D-5, T-1…T-9)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from baohuang.engine import (
    DealOverEvent,
    Event,
    FinishedEvent,
    InvalidInput,
    Move,
    PassMove,
    PlayMove,
    Snapshot,
    TrickWonEvent,
    validate_snapshot,
)

FIVE = [[f"{r}S", f"{r}H", f"7{s}", f"8{s}"] for r, s in zip("9TJQK", "SHCDS", strict=True)]


def wire(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "ruleset": "classic",
        "mode": "team",
        "emperor": 0,
        "guard": 3,
        "guard_revealed": False,
        "rebellion": [],
        "hands": [list(hand) for hand in FIVE],
        "finished": [],
        "turn": 0,
        "trick": {"top": None, "passed": [], "yielded": [], "circle": 1, "jiefeng": None},
        "over": False,
    }
    for key, value in changes.items():
        if key.startswith("trick_"):
            body["trick"][key[6:]] = value
        else:
            body[key] = value
    return body


def decode(body: dict[str, Any]) -> Snapshot:
    return msgspec.json.decode(msgspec.json.encode(body), type=Snapshot)


def invalid(body: dict[str, Any]) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(decode(body))
    return caught.value


def test_api_example_decodes_and_validates() -> None:
    snapshot = validate_snapshot(decode(wire()))
    assert snapshot.hands[0] == ["9S", "9H", "7S", "8S"]
    again = msgspec.json.decode(msgspec.json.encode(snapshot), type=Snapshot)
    assert again == snapshot


def test_ruleset_object_form() -> None:
    body = wire(ruleset={"base": "lianzhong-classic", "kaopai": True, "bie6": True})
    assert validate_snapshot(decode(body)).ruleset is not None
    assert invalid(wire(ruleset="poker")).code == "UNKNOWN_RULESET"
    with pytest.raises(msgspec.ValidationError):
        decode(wire(ruleset={"base": "classic", "colour": "red"}))


def test_wire_types_refuse_unknown_fields_and_bad_seats() -> None:
    with pytest.raises(msgspec.ValidationError):
        decode(wire(extra=1))
    with pytest.raises(msgspec.ValidationError):
        decode(wire(turn=5))
    with pytest.raises(msgspec.ValidationError):
        decode(wire(hands=FIVE[:4]))
    with pytest.raises(msgspec.ValidationError):
        decode(wire(trick_circle=3))


def test_moves_are_a_tagged_union_on_action() -> None:
    decoder = msgspec.json.Decoder(Move)
    assert decoder.decode(b'{"seat": 1, "action": "pass"}') == PassMove(1)
    assert decoder.decode(b'{"seat": 1, "action": "play", "cards": ["TH"]}') == PlayMove(1, ["TH"])
    with pytest.raises(msgspec.ValidationError):
        decoder.decode(b'{"seat": 1, "action": "fold"}')
    with pytest.raises(msgspec.ValidationError):
        decoder.decode(b'{"seat": 1, "action": "pass", "cards": []}')


def test_events_are_a_tagged_union_on_type() -> None:
    events: list[Event] = [
        FinishedEvent(2, 1),
        TrickWonEvent(2, 3),
        DealOverEvent([1, 2, 3, 4, 5]),
    ]
    encoded = msgspec.json.decode(msgspec.json.encode(events))
    assert encoded == [
        {"type": "finished", "seat": 2, "position": 1},
        {"type": "trick_won", "seat": 2, "lead": 3},
        {"type": "deal_over", "positions": [1, 2, 3, 4, 5]},
    ]


def test_D_3_codes_are_made_canonical() -> None:
    hands = [list(hand) for hand in FIVE]
    hands[1][0] = "10S"
    snapshot = validate_snapshot(decode(wire(hands=hands)))
    assert snapshot.hands[1][0] == "TS"


def test_unknown_card_names_its_path() -> None:
    hands = [list(hand) for hand in FIVE]
    hands[2][3] = "1X"
    error = invalid(wire(hands=hands))
    assert (error.code, error.at("$")) == ("UNKNOWN_CARD", "$.snapshot.hands[2][3]")
    short = [[c for c in hand if c[0] not in "345"] for hand in FIVE]
    short[4].append("3S")
    error = invalid(wire(hands=short, ruleset="lianzhong-classic"))
    assert (error.code, error.rule, error.at("$")) == (
        "UNKNOWN_CARD",
        "D-1",
        "$.snapshot.hands[4][4]",
    )


def test_D_5_too_many_copies_over_hands_and_top() -> None:
    hands = [list(hand) for hand in FIVE]
    hands[1] += ["7S", "7S"]
    hands[2] += ["7S"]
    error = invalid(wire(hands=hands))
    assert (error.code, error.rule, error.at("$")) == (
        "TOO_MANY_COPIES",
        "D-5",
        "$.snapshot.hands[4][2]",
    )
    hands = [list(hand) for hand in FIVE]
    hands[1] += ["7S", "7S"]
    body = wire(hands=hands, turn=1, trick_top={"seat": 0, "cards": ["7S"]})
    error = invalid(body)
    assert error.at("$") == "$.snapshot.trick.top.cards[0]"


def test_D_7_marked_jokers_fix_roles() -> None:
    """保皇游戏攻略: 牌中有一张带有权杖标记的大王牌称作皇牌，谁抓到可以当皇帝 … 简明玩法：牌中有一张带有
    宝剑标记的小王牌称作侍卫牌，该牌持有者皇帝的侍卫 (D-7): once the emperor is settled, BJ* is
    in his hand or played, and in lianzhong-simple SJ* is the guard's (the solo emperor's)."""

    def holding(seat: int, card: str) -> list[list[str]]:
        hands = [list(hand) for hand in FIVE]
        hands[seat].append(card)
        return hands

    error = invalid(wire(hands=holding(2, "BJ*")))
    assert (error.code, error.rule, error.at("$")) == (
        "INVALID_SNAPSHOT",
        "D-7",
        "$.snapshot.hands[2]",
    )
    assert validate_snapshot(decode(wire(hands=holding(0, "BJ*"))))  # the emperor's
    assert validate_snapshot(decode(wire()))  # already played
    grab = wire(hands=holding(0, "BJ*"), mode="grab", guard=None)
    assert validate_snapshot(decode(grab))
    error = invalid({**grab, "emperor": 1, "turn": 1})
    assert (error.rule, error.at("$")) == ("D-7", "$.snapshot.hands[0]")

    simple = {"ruleset": "lianzhong-simple"}
    error = invalid(wire(hands=holding(1, "SJ*"), **simple))
    assert (error.code, error.rule, error.at("$")) == (
        "INVALID_SNAPSHOT",
        "D-7",
        "$.snapshot.hands[1]",
    )
    assert validate_snapshot(decode(wire(hands=holding(3, "SJ*"), **simple)))  # the guard's
    for mode in ("solo_hidden", "solo_open"):
        solo = {**simple, "mode": mode, "guard": 0}
        assert validate_snapshot(decode(wire(hands=holding(0, "SJ*"), **solo)))
        error = invalid(wire(hands=holding(3, "SJ*"), **solo))
        assert (error.rule, error.at("$")) == ("D-7", "$.snapshot.hands[3]")
    # a grab (in a room with 抢独) has no guard: the sword names nobody, wherever it lies (reading)
    room = {"ruleset": {"base": "lianzhong-simple", "grab": True}}
    assert validate_snapshot(decode(wire(hands=holding(2, "SJ*"), mode="grab", guard=None, **room)))


def test_path_is_relative_to_the_arguments() -> None:
    hands = [list(hand) for hand in FIVE]
    hands[0][0] = "ZZ"
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(decode(wire(hands=hands)))
    assert caught.value.path == ".snapshot.hands[0][0]"
    assert caught.value.at("$.tables.t1") == "$.tables.t1.snapshot.hands[0][0]"


@pytest.mark.parametrize(
    ("changes", "path", "rule"),
    [
        ({"guard": 0}, "$.snapshot.guard", "G-1"),
        ({"guard": None}, "$.snapshot.guard", "G-1"),
        ({"mode": "grab", "guard": 2}, "$.snapshot.guard", "G-1"),
        ({"rebellion": [3]}, "$.snapshot.rebellion[0]", "G-8"),
        ({"finished": [2]}, "$.snapshot.hands[2]", "T-8"),
        ({"finished": [1, 1]}, "$.snapshot.finished[1]", None),
        ({"trick_passed": [1]}, "$.snapshot.trick", "T-3"),
        ({"over": True}, "$.snapshot.over", "T-9"),
        ({"positions": [1, 2, 3, 4, 5]}, "$.snapshot.positions", "T-9"),
        (
            {"turn": 2, "trick_top": {"seat": 0, "cards": ["9C", "8C"]}},
            "$.snapshot.trick.top.cards",
            "C-1",
        ),
        ({"turn": 2, "trick_top": {"seat": 0, "cards": ["9C"]}}, "$.snapshot.turn", "T-1"),
        (
            {"turn": 2, "trick_top": {"seat": 0, "cards": ["9C"]}, "trick_passed": [3]},
            "$.snapshot.turn",
            "T-1",
        ),
        (
            {"turn": 1, "trick_top": {"seat": 0, "cards": ["9C"]}, "trick_passed": [0]},
            "$.snapshot.trick.passed[0]",
            "T-5",
        ),
        (
            {"turn": 1, "trick_top": {"seat": 0, "cards": ["9C"]}, "trick_circle": 2},
            "$.snapshot.trick.circle",
            "T-6",
        ),
        (
            {"turn": 1, "trick_top": {"seat": 0, "cards": ["9C"]}, "trick_jiefeng": 1},
            "$.snapshot.trick.jiefeng",
            "T-7",
        ),
        (
            {"turn": 2, "trick_top": {"seat": 0, "cards": ["9C"]}, "trick_yielded": [1]},
            "$.snapshot.trick.yielded",
            "T-6",
        ),
    ],
)
def test_contradictions_are_invalid_snapshot(
    changes: dict[str, Any], path: str, rule: str | None
) -> None:
    if "trick_yielded" in changes:
        changes = {**changes, "ruleset": "tribute"}
    error = invalid(wire(**changes))
    assert (error.code, error.at("$"), error.rule) == ("INVALID_SNAPSHOT", path, rule)


def test_seat_to_act_holds_cards_and_empty_hands_are_finished() -> None:
    hands = [list(hand) for hand in FIVE]
    hands[1] = []
    error = invalid(wire(hands=hands))
    assert (error.at("$"), error.rule) == ("$.snapshot.finished", "T-7")
    error = invalid(wire(hands=hands, finished=[1], turn=1))
    assert (error.at("$"), error.rule) == ("$.snapshot.turn", "T-8")


def test_five_hands_when_built_in_python() -> None:
    snapshot = decode(wire())
    short = msgspec.structs.replace(snapshot, hands=snapshot.hands[:4])
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(short)
    assert caught.value.at("$") == "$.snapshot.hands"
    bad_seat = msgspec.structs.replace(snapshot, emperor=7)
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(bad_seat)
    assert (caught.value.at("$"), caught.value.rule) == ("$.snapshot.emperor", "T-1")
