"""docs/clients.md: ``/v1/deal``, ``/v1/tribute``, and the crown/guard phases driven through
``/v1/moves/*`` from the deal to the first play (docs/rules.md G-4…G-8, P)."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.engine import deal, ruleset_of

RULESETS: list[Any] = [
    "classic",
    "tribute",
    "lianzhong-classic",
    "lianzhong-simple",
    {"base": "lianzhong-simple", "grab": True},
]


def post(client: TestClient[Any], path: str, body: Any) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def problem(client: TestClient[Any], path: str, body: Any, status: int) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    error: dict[str, Any] = response.json()["errors"][0]
    return error


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_deal_is_reproducible_and_starts_in_the_crown_phase(
    client: TestClient[Any], ruleset: Any
) -> None:
    body = {"ruleset": ruleset, "seed": 123456789, "dealer": 2}
    first = post(client, "/v1/deal", body)
    assert post(client, "/v1/deal", body) == first
    expected = deal(ruleset_of("classic" if ruleset == "classic" else _spec(ruleset)), 123456789, 2)
    assert first["hands"] == expected.hands and first["crown"] == expected.crown
    snapshot = first["snapshot"]
    assert snapshot["phase"] == "crown" and snapshot["turn"] == first["crown"]
    assert snapshot["hands"] == first["hands"] and snapshot["crown"]["first"] == first["crown"]
    other = post(client, "/v1/deal", {**body, "seed": 987654321})
    assert other["hands"] != first["hands"]


def _spec(ruleset: Any) -> Any:
    from baohuang.engine import RulesetSpec

    if isinstance(ruleset, str):
        return ruleset
    return RulesetSpec(**ruleset)


def test_deal_defaults_to_classic_and_refuses_bad_input(client: TestClient[Any]) -> None:
    result = post(client, "/v1/deal", {"seed": -1, "dealer": 0})
    assert result["snapshot"]["ruleset"] == "classic"
    assert sum(len(hand) for hand in result["hands"]) == 216
    seat = problem(client, "/v1/deal", {"seed": 1, "dealer": 5}, 422)
    assert (seat["code"], seat["path"], seat["rule"]) == ("INVALID_SEAT", "$.dealer", "T-1")
    assert problem(client, "/v1/deal", {"seed": "1", "dealer": 0}, 400)["path"] == "$.seed"
    assert (
        problem(client, "/v1/deal", {"seed": 1, "dealer": 0, "x": 1}, 400)["code"]
        == "INVALID_FIELD"
    )
    error = problem(client, "/v1/deal", {"seed": 1, "dealer": 0, "ruleset": "poker"}, 422)
    assert error["code"] == "UNKNOWN_RULESET"


def test_tribute_route(client: TestClient[Any]) -> None:
    hands = post(client, "/v1/deal", {"ruleset": "tribute", "seed": 5, "dealer": 0})["hands"]
    previous = {"mode": "team", "emperor": 0, "guard": 1, "finished": [2, 3, 4]}
    result = post(
        client, "/v1/tribute", {"ruleset": "tribute", "previous": previous, "hands": hands}
    )
    assert sorted(t["from"] for t in result["transfers"]) == [0, 0, 1]  # P-3: 2 + 1
    assert {t["to"] for t in result["transfers"]} == {2, 3, 4}
    assert sum(map(len, result["hands"])) == 216 and "BJ*" in result["hands"][0]
    draw = {"mode": "team", "emperor": 0, "guard": 1, "finished": [0, 2, 3, 4]}
    assert (
        post(client, "/v1/tribute", {"ruleset": "tribute", "previous": draw, "hands": hands})[
            "transfers"
        ]
        == []
    )
    body = {"ruleset": "classic", "previous": previous, "hands": hands}
    assert problem(client, "/v1/tribute", body, 422)["code"] == "NO_TRIBUTE"
    bad = [list(hand) for hand in hands]
    bad[3][1] = "1X"
    body = {"ruleset": "tribute", "previous": previous, "hands": bad}
    assert problem(client, "/v1/tribute", body, 422)["path"] == "$.hands[3][1]"
    unfinished = {"mode": "team", "emperor": 0, "guard": 1, "finished": [2]}
    body = {"ruleset": "tribute", "previous": unfinished, "hands": hands}
    error = problem(client, "/v1/tribute", body, 422)
    assert (error["code"], error["path"]) == ("PREVIOUS_NOT_OVER", "$.previous.finished")


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_a_deal_is_driven_to_the_first_play_through_the_moves_routes(
    client: TestClient[Any],
    ruleset: Any,
) -> None:
    for seed in (1, 2, 3):
        snapshot = post(client, "/v1/deal", {"ruleset": ruleset, "seed": seed, "dealer": seed})[
            "snapshot"
        ]
        start, moves = snapshot, list[Any]()
        for _ in range(40):
            if snapshot.get("phase", "play") == "play" or snapshot["over"]:
                break
            legal = post(client, "/v1/moves/legal", {"snapshot": snapshot})
            assert legal["seat"] == snapshot["turn"] and legal["moves"]
            auto = post(client, "/v1/moves/auto", {"snapshot": snapshot})["move"]
            assert auto in legal["moves"]
            move = legal["moves"][(seed + len(moves)) % len(legal["moves"])]
            verdict = post(client, "/v1/moves/validate", {"snapshot": snapshot, "move": move})
            assert verdict["legal"] is True and verdict["events"]
            snapshot = verdict["snapshot"]
            moves.append(move)
        assert snapshot["phase"] == "play" or snapshot["void"]
        replayed = post(client, "/v1/moves/replay", {"snapshot": start, "moves": moves})
        assert replayed["valid"] and replayed["snapshot"] == snapshot
        if snapshot["void"]:
            assert replayed["scores"]["final"] and replayed["scores"]["scores"] == [0] * 5
        else:
            assert snapshot["turn"] == snapshot["emperor"]  # T-2
            first = post(client, "/v1/moves/legal", {"snapshot": snapshot})
            assert first["moves"][0]["action"] == "play"


def test_before_play_verdicts_and_bad_snapshots(client: TestClient[Any]) -> None:
    snapshot = post(client, "/v1/deal", {"seed": 9, "dealer": 0})["snapshot"]
    holder = snapshot["turn"]
    other = (holder + 1) % 5
    verdict = post(
        client,
        "/v1/moves/validate",
        {"snapshot": snapshot, "move": {"seat": other, "action": "decline"}},
    )
    assert verdict == {"legal": False, "reason": verdict["reason"]}
    assert (verdict["reason"]["code"], verdict["reason"]["rule"]) == ("NOT_CROWN_HOLDER", "G-5")
    play = {"seat": holder, "action": "play", "cards": ["BJ*"]}
    verdict = post(client, "/v1/moves/validate", {"snapshot": snapshot, "move": play})
    assert verdict["reason"]["code"] == "WRONG_PHASE"
    call = {"seat": holder, "action": "call", "card": "ZZ"}
    error = problem(client, "/v1/moves/validate", {"snapshot": snapshot, "move": call}, 422)
    assert (error["code"], error["path"]) == ("UNKNOWN_CARD", "$.move.card")
    moved = {**snapshot, "turn": other, "emperor": other}
    error = problem(client, "/v1/moves/validate", {"snapshot": moved, "move": play}, 422)
    assert error["code"] == "INVALID_SNAPSHOT"
    hands = [list(hand) for hand in snapshot["hands"]]
    hands[other].pop()  # a card missing: before play the whole deck is out (G-4)
    error = problem(client, "/v1/moves/legal", {"snapshot": {**snapshot, "hands": hands}}, 422)
    assert (error["code"], error["rule"]) == ("INVALID_SNAPSHOT", "G-4")
    no_crown = {**snapshot, "crown": None}
    assert (
        problem(client, "/v1/moves/legal", {"snapshot": no_crown}, 422)["path"]
        == "$.snapshot.crown"
    )


def test_R_classic_grab_option_is_honoured(client: TestClient[Any]) -> None:
    """保皇规则: 抢庄 is classic's (G-5); a table that turns ``grab`` off refuses it."""
    for grab, code in ((True, None), (False, "GRAB_NOT_ALLOWED")):
        ruleset = {"base": "classic", "grab": grab}
        snapshot = post(client, "/v1/deal", {"ruleset": ruleset, "seed": 9, "dealer": 0})[
            "snapshot"
        ]
        move = {"seat": (snapshot["turn"] + 1) % 5, "action": "grab"}
        verdict = post(client, "/v1/moves/validate", {"snapshot": snapshot, "move": move})
        if code is None:
            assert verdict["legal"] is True
        else:
            assert (verdict["reason"]["code"], verdict["reason"]["rule"]) == (code, "G-5")
    body = {"ruleset": {"base": "tribute", "grab": True}, "seed": 9, "dealer": 0}
    error = problem(client, "/v1/deal", body, 422)
    assert (error["code"], error["rule"], error["path"]) == (
        "UNKNOWN_RULESET",
        "G-6",
        "$.ruleset.grab",
    )
