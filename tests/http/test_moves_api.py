"""API tests for /v1/moves/* and /v1/scores (docs/clients.md)."""

from __future__ import annotations

from typing import Any

import pytest

from .problem_checks import assert_problem

Client = Any
HANDS = [["BJ*", "7S", "7H", "9D"], ["8S", "8H", "KD"], ["9S", "QH"], ["TS", "TH", "3C"], ["JS"]]
SNAPSHOT: dict[str, Any] = {
    "ruleset": "classic",
    "mode": "team",
    "emperor": 0,
    "guard": 3,
    "hands": HANDS,
    "turn": 0,
}
LEAD = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}


def test_validate_legal_move_returns_next_snapshot_and_events(client: Client) -> None:
    body = client.post("/v1/moves/validate", json={"snapshot": SNAPSHOT, "move": LEAD}).json()
    assert body["legal"] is True
    assert body["snapshot"]["hands"][0] == ["BJ*", "9D"]
    assert body["snapshot"]["trick"]["top"] == {"seat": 0, "cards": ["7S", "7H"]}
    assert body["events"] == [{"type": "played", "seat": 0, "cards": ["7S", "7H"]}]


@pytest.mark.parametrize(
    ("move", "code", "rule"),
    [
        ({"seat": 1, "action": "pass"}, "NOT_YOUR_TURN", "T-1"),
        ({"seat": 0, "action": "pass"}, "LEADER_CANNOT_PASS", "T-3"),
        ({"seat": 0, "action": "play", "cards": ["8S"]}, "CARDS_NOT_IN_HAND", "T-3"),
        ({"seat": 0, "action": "play", "cards": ["7S", "9D"]}, "MIXED_RANKS", "C-1"),
        ({"seat": 0, "action": "play", "cards": []}, "EMPTY_PLAY", "C-1"),
        ({"seat": 0, "action": "jiefeng"}, "JIEFENG_NOT_ALLOWED", "T-7"),
    ],
)
def test_validate_illegal_move_is_a_verdict(
    client: Client, move: dict[str, Any], code: str, rule: str
) -> None:
    response = client.post("/v1/moves/validate", json={"snapshot": SNAPSHOT, "move": move})
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False and "snapshot" not in body
    assert body["reason"]["code"] == code and body["reason"]["rule"] == rule


def test_validate_finished_seat_and_deal_over(client: Client) -> None:
    over = {
        **SNAPSHOT,
        "hands": [[], ["8S"], ["9S"], [], ["JS"]],
        "finished": [0, 3],
        "turn": 1,
        "over": True,
        "positions": [1, 3, 4, 2, 5],
    }
    body = client.post(
        "/v1/moves/validate", json={"snapshot": over, "move": {"seat": 1, "action": "pass"}}
    ).json()
    assert body["reason"]["code"] == "DEAL_OVER"


@pytest.mark.parametrize(
    ("snapshot", "code", "path"),
    [
        ({**SNAPSHOT, "hands": HANDS[:4]}, None, "$.snapshot.hands"),
        ({**SNAPSHOT, "guard": 0}, "INVALID_SNAPSHOT", None),
        ({**SNAPSHOT, "hands": [["XX"], *HANDS[1:]]}, "UNKNOWN_CARD", "$.snapshot.hands[0][0]"),
        ({**SNAPSHOT, "hands": [["7S"] * 3, ["7S"] * 2, *HANDS[2:]]}, "TOO_MANY_COPIES", None),
        ({**SNAPSHOT, "ruleset": "poker"}, "UNKNOWN_RULESET", "$.snapshot.ruleset"),
        ({**SNAPSHOT, "turn": 9}, "INVALID_SEAT", "$.snapshot.turn"),  # T-1
        ({**SNAPSHOT, "turn": "0"}, None, "$.snapshot.turn"),
    ],
)
def test_invalid_snapshot_is_a_problem_naming_the_path(
    client: Client, snapshot: dict[str, Any], code: str | None, path: str | None
) -> None:
    response = client.post("/v1/moves/validate", json={"snapshot": snapshot, "move": LEAD})
    if code is None:  # a schema violation: 400 naming the field
        assert_problem(response, 400, "INVALID_FIELD", path)
    else:
        assert_problem(response, 422, code, path)


def test_legal_lists_every_shape_cheapest_first(client: Client) -> None:
    body = client.post("/v1/moves/legal", json={"snapshot": SNAPSHOT}).json()
    assert body["seat"] == 0
    plays = [move["cards"] for move in body["moves"]]
    assert plays[0] == ["7S"]
    assert ["7S", "7H"] in plays and ["BJ*"] in plays
    assert all(move["action"] == "play" for move in body["moves"])  # a leader cannot pass
    jokers = [sum(card.startswith(("BJ", "SJ")) for card in cards) for cards in plays]
    assert jokers == sorted(jokers)
    for move in body["moves"]:
        verdict = client.post("/v1/moves/validate", json={"snapshot": SNAPSHOT, "move": move})
        assert verdict.json()["legal"] is True


def test_auto_leader_plays_lowest_single_follower_passes(client: Client) -> None:
    assert client.post("/v1/moves/auto", json={"snapshot": SNAPSHOT}).json() == {
        "move": {"action": "play", "seat": 0, "cards": ["7S"]}
    }
    after = client.post("/v1/moves/validate", json={"snapshot": SNAPSHOT, "move": LEAD}).json()
    assert client.post("/v1/moves/auto", json={"snapshot": after["snapshot"]}).json() == {
        "move": {"action": "pass", "seat": 1}
    }


def test_replay_stops_at_first_illegal_move(client: Client) -> None:
    moves = [
        LEAD,
        {"seat": 1, "action": "play", "cards": ["8S", "8H"]},
        {"seat": 2, "action": "pass"},
        {"seat": 3, "action": "play", "cards": ["8S", "8H"]},
        {"seat": 4, "action": "pass"},
    ]
    body = client.post("/v1/moves/replay", json={"snapshot": SNAPSHOT, "moves": moves}).json()
    assert body["valid"] is False and body["applied"] == 3
    assert body["failed"]["index"] == 3
    assert body["failed"]["reason"]["code"] == "CARDS_NOT_IN_HAND"
    assert body["snapshot"]["turn"] == 3 and body["scores"] is None


def test_replay_over_two_thousand_moves_is_400(client: Client) -> None:
    moves = [{"seat": 1, "action": "pass"}] * 2001
    response = client.post("/v1/moves/replay", json={"snapshot": SNAPSHOT, "moves": moves})
    assert_problem(response, 400, "INVALID_FIELD", "$.moves")


def test_scores_from_finishing_order_S_2_team(client: Client) -> None:
    body = client.post(
        "/v1/scores",
        json={"ruleset": "classic", "mode": "team", "emperor": 0, "guard": 3,
              "finished": [0, 3]},
    ).json()  # fmt: skip
    assert body["final"] is True and body["winner"] == "emperor"
    assert body["scores"] == [6, -3, -3, 3, -3] and sum(body["scores"]) == 0
    assert body["sides"] == {"emperor": 9, "rebels": -9}


def test_scores_not_final_has_null_figures(client: Client) -> None:
    body = client.post(
        "/v1/scores", json={"mode": "team", "emperor": 0, "guard": 3, "finished": [0]}
    ).json()
    assert body == {
        "final": False,
        "winner": None,
        "multiplier": 1,
        "positions": None,
        "scores": None,
        "sides": None,
        "void": None,
    }


def test_scores_from_snapshot_and_bad_combinations(client: Client) -> None:
    body = client.post("/v1/scores", json={"snapshot": SNAPSHOT}).json()
    assert body["final"] is False
    response = client.post("/v1/scores", json={"snapshot": SNAPSHOT, "mode": "team"})
    assert_problem(response, 400, "INVALID_FIELD", "$.mode")
    response = client.post("/v1/scores", json={"mode": "team", "emperor": 0})
    assert_problem(response, 400, "INVALID_FIELD", "$.finished")
    response = client.post(
        "/v1/scores", json={"mode": "team", "emperor": 0, "guard": 0, "finished": []}
    )
    assert_problem(response, 422, "GUARD_IS_EMPEROR", "$.guard")


@pytest.mark.parametrize(
    ("move", "path"),
    [
        ({"seat": 1, "action": "play", "cards": ["XX"]}, "$.move.cards[0]"),  # not its turn either
        ({"seat": 0, "action": "play", "cards": ["7S", "ZZ"]}, "$.move.cards[1]"),
        ({"seat": 2, "action": "call", "card": "7X"}, "$.move.card"),  # wrong phase either
    ],
)
def test_D_3_unknown_card_in_a_move_is_422_before_any_verdict(
    client: Client, move: dict[str, Any], path: str
) -> None:
    response = client.post("/v1/moves/validate", json={"snapshot": SNAPSHOT, "move": move})
    assert_problem(response, 422, "UNKNOWN_CARD", path)


def test_D_5_too_many_copies_in_a_move_is_422(client: Client) -> None:
    move = {"seat": 0, "action": "play", "cards": ["7S"] * 5}
    response = client.post("/v1/moves/validate", json={"snapshot": SNAPSHOT, "move": move})
    assert_problem(response, 422, "TOO_MANY_COPIES", "$.move.cards")


def test_T_10_a_leader_in_tuoguan_leads_the_highest_suit_of_its_lowest_rank(
    client: Client,
) -> None:
    """T-10's "single lowest card": the lowest rank; suits never decide a play (D-2), and the
    card named is the one ``/v1/moves/legal`` names for that single — ``S H C D``, highest
    first — so ``3S`` leads before ``3D``, ``3H`` and ``3C``."""
    hands = [["5S", "3D", "3C", "3H", "3S", "SJ"], *HANDS[1:]]
    snapshot = {**SNAPSHOT, "hands": hands}
    auto = client.post("/v1/moves/auto", json={"snapshot": snapshot}).json()
    assert auto["move"] == {"seat": 0, "action": "play", "cards": ["3S"]}
    listed = client.post("/v1/moves/legal", json={"snapshot": snapshot}).json()["moves"]
    singles = [m for m in listed if m["action"] == "play" and len(m["cards"]) == 1]
    assert singles[0] == auto["move"]
    without_spade = {**SNAPSHOT, "hands": [["5S", "3D", "3C", "3H"], *HANDS[1:]]}
    auto = client.post("/v1/moves/auto", json={"snapshot": without_spade}).json()
    assert auto["move"]["cards"] == ["3H"]
