"""API tests for /v1/combos/*, /v1/kaopai/resolve and /v1/rulesets (docs/clients.md)."""

from __future__ import annotations

from typing import Any

import pytest

from .problem_checks import assert_problem

Client = Any


def test_classify_valid_combo_is_canonical_high_to_low(client: Client) -> None:
    response = client.post("/v1/combos/classify", json={"cards": ["7S", "BJ", "10H", "TH"][1:]})
    assert response.status_code == 200
    assert response.json() == {
        "valid": True,
        "combo": {"rank": "T", "count": 2, "small": 0, "big": 1, "size": 3,
                  "cards": ["BJ", "TH", "TH"]},
    }  # fmt: skip


def test_classify_mixed_ranks_is_a_verdict(client: Client) -> None:
    body = client.post("/v1/combos/classify", json={"cards": ["7S", "8S"]}).json()
    assert body["valid"] is False and body["reason"]["code"] == "MIXED_RANKS"
    assert body["reason"]["rule"] == "C-1" and "(" in body["reason"]["message"]


def test_classify_empty_play_is_a_verdict(client: Client) -> None:
    body = client.post("/v1/combos/classify", json={"cards": []}).json()
    assert body == {"valid": False, "reason": body["reason"]}
    assert body["reason"]["code"] == "EMPTY_PLAY"


def test_compare_beats_with_cover(client: Client) -> None:
    response = client.post(
        "/v1/combos/compare",
        json={
            "previous": ["SJ", "SJ", "9S", "9H", "9C"],
            "candidate": ["BJ", "BJ", "JS", "JH", "JC"],
        },
    )
    assert response.status_code == 200
    body = response.json()
    assert body["beats"] is True and body["reason"] is None
    assert body["cover"][0] == {"card": "SJ", "by": ["BJ"]}
    assert len(body["cover"]) == 5


def test_compare_refusal_names_reason_and_no_cover(client: Client) -> None:
    body = client.post(
        "/v1/combos/compare", json={"previous": ["BJ", "4S"], "candidate": ["BJ", "BJ"]}
    ).json()
    assert body == {
        "beats": False,
        "reason": {
            "code": "BIG_JOKER_UNBEATABLE",
            "rule": "N-3",
            "message": body["reason"]["message"],
        },
        "cover": None,
    }
    assert "挂大王的牌为最大" in body["reason"]["message"]


def test_compare_kaopai_ruleset_object(client: Client) -> None:
    body = client.post(
        "/v1/combos/compare",
        json={
            "previous": ["BJ", "SJ", "7S", "7H", "7C"],
            "candidate": ["BJ", "BJ", "BJ", "SJ", "8S", "8H"],
            "ruleset": {"base": "lianzhong-classic", "kaopai": True},
        },
    ).json()
    assert body["beats"] is True
    assert body["cover"][0] == {"card": "BJ", "by": ["BJ", "BJ"]}


def test_compare_candidate_not_a_combo_is_a_verdict(client: Client) -> None:
    body = client.post(
        "/v1/combos/compare", json={"previous": ["7S"], "candidate": ["8S", "9S"]}
    ).json()
    assert body["beats"] is False and body["reason"]["code"] == "MIXED_RANKS"
    body = client.post("/v1/combos/compare", json={"previous": ["7S"], "candidate": []}).json()
    assert body["reason"]["code"] == "EMPTY_PLAY"


def test_compare_previous_not_a_combo_is_422(client: Client) -> None:
    response = client.post(
        "/v1/combos/compare", json={"previous": ["7S", "8S"], "candidate": ["9S"]}
    )
    assert_problem(response, 422, "MIXED_RANKS", "$.previous")
    response = client.post("/v1/combos/compare", json={"previous": [], "candidate": ["9S"]})
    assert_problem(response, 422, "EMPTY_PLAY", "$.previous")


def test_unknown_card_names_its_path(client: Client) -> None:
    response = client.post(
        "/v1/combos/compare", json={"previous": ["7S"], "candidate": ["8S", "8Q"]}
    )
    document = assert_problem(response, 422, "UNKNOWN_CARD", "$.candidate[1]")
    assert document["errors"][0]["rule"] == "D-3"


def test_short_deck_has_no_five(client: Client) -> None:
    response = client.post(
        "/v1/combos/classify", json={"cards": ["5S"], "ruleset": "lianzhong-classic"}
    )
    assert_problem(response, 422, "UNKNOWN_CARD", "$.cards[0]")


def test_five_copies_of_a_card_is_422(client: Client) -> None:
    response = client.post("/v1/combos/classify", json={"cards": ["7S"] * 5})
    document = assert_problem(response, 422, "TOO_MANY_COPIES", "$.cards")
    assert document["errors"][0]["rule"] == "D-5"


def test_unknown_ruleset_is_422(client: Client) -> None:
    response = client.post("/v1/combos/classify", json={"cards": ["7S"], "ruleset": "poker"})
    assert_problem(response, 422, "UNKNOWN_RULESET", "$.ruleset")


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"previous": "7S", "candidate": ["8S"]}, "$.previous"),
        ({"previous": [7], "candidate": ["8S"]}, "$.previous[0]"),
        ({"previous": ["7S"]}, "$"),
        ({"previous": ["7S"], "candidate": ["8S"], "ruleset": 3}, "$.ruleset"),
        ({"previous": ["7S"], "candidate": ["8S"], "ruleset": {"base": "classic", "kaopai": "yes"}},
         "$.ruleset.kaopai"),
        ({"previous": ["7S"], "candidate": ["8S"], "surprise": True}, "$"),
    ],
)  # fmt: skip
def test_wrong_json_types_are_400_naming_the_field(
    client: Client, body: dict[str, Any], path: str
) -> None:
    assert_problem(client.post("/v1/combos/compare", json=body), 400, "INVALID_FIELD", path)


def test_malformed_json_is_400(client: Client) -> None:
    response = client.post(
        "/v1/combos/compare",
        content=b'{"previous": [',
        headers={"content-type": "application/json"},
    )
    assert_problem(response, 400, "INVALID_JSON")


def test_body_over_one_mebibyte_is_413(client: Client) -> None:
    response = client.post("/v1/combos/compare", content=b" " * (1024 * 1024 + 1))
    assert_problem(response, 413, "BODY_TOO_LARGE")


def test_batch_answers_in_order(client: Client) -> None:
    pairs = [
        {"previous": ["7S"], "candidate": ["8S"]},
        {"previous": ["7S"], "candidate": ["6S"]},
        {"previous": ["BJ"], "candidate": ["BJ", "BJ"]},
        {"previous": ["7S"], "candidate": ["8S", "9S"]},
    ]
    body = client.post("/v1/combos/compare-batch", json={"pairs": pairs}).json()
    assert body == {
        "results": [
            {"beats": True, "code": None},
            {"beats": False, "code": "NOT_HIGHER"},
            {"beats": False, "code": "SIZE_MISMATCH"},
            {"beats": False, "code": "MIXED_RANKS"},
        ]
    }
    kaopai = client.post(
        "/v1/combos/compare-batch",
        json={"pairs": pairs[2:3], "ruleset": {"base": "classic", "kaopai": True}},
    ).json()
    assert kaopai == {"results": [{"beats": True, "code": None}]}


def test_batch_of_ten_thousand_is_accepted_and_more_is_400(client: Client) -> None:
    pair = {"previous": ["7S"], "candidate": ["8S"]}
    body = client.post("/v1/combos/compare-batch", json={"pairs": [pair] * 10_000}).json()
    assert len(body["results"]) == 10_000
    response = client.post("/v1/combos/compare-batch", json={"pairs": [pair] * 10_001})
    assert_problem(response, 400, "INVALID_FIELD", "$.pairs")
    assert_problem(client.post("/v1/combos/compare-batch", json={"pairs": []}), 400,
                   "INVALID_FIELD", "$.pairs")  # fmt: skip


def test_batch_bad_pair_names_its_index(client: Client) -> None:
    pairs = [
        {"previous": ["7S"], "candidate": ["8S"]},
        {"previous": ["7S", "8S"], "candidate": ["9S"]},
    ]
    response = client.post("/v1/combos/compare-batch", json={"pairs": pairs})
    assert_problem(response, 422, "MIXED_RANKS", "$.pairs[1].previous")
    pairs[1] = {"previous": ["7S"], "candidate": ["XX"]}
    response = client.post("/v1/combos/compare-batch", json={"pairs": pairs})
    assert_problem(response, 422, "UNKNOWN_CARD", "$.pairs[1].candidate[0]")


def test_resolve_defaults_to_kaopai_and_reports_each_step(client: Client) -> None:
    body = client.post(
        "/v1/kaopai/resolve", json={"plays": [["SJ"], ["BJ"], ["BJ", "BJ"], ["SJ", "SJ", "SJ"]]}
    ).json()
    assert body["valid"] is False and body["winner"] == 2
    assert [step["beats"] for step in body["steps"]] == [True, True, False]
    assert body["steps"][2]["reason"]["code"] == "NO_COVER"
    assert body["steps"][1]["cover"] == [{"card": "BJ", "by": ["BJ", "BJ"]}]


def test_K_7_resolve_counts_copies_across_the_stack(client: Client) -> None:
    """保皇游戏攻略 (烤牌玩法): the plays of a trick are on the table together (K-7), so seven big
    jokers in one stack are more than four decks hold (D-5)."""
    plays = [["BJ"], ["BJ", "BJ"], ["BJ", "BJ", "BJ", "BJ"]]
    response = client.post("/v1/kaopai/resolve", json={"plays": plays})
    document = assert_problem(response, 422, "TOO_MANY_COPIES", "$.plays[2]")
    assert document["errors"][0]["rule"] == "D-5"
    pair = {"previous": ["BJ", "BJ"], "candidate": ["BJ", "BJ", "BJ", "BJ"]}
    kaopai = {"base": "lianzhong-classic", "kaopai": True}
    compared = client.post("/v1/combos/compare", json={**pair, "ruleset": kaopai}).json()
    assert compared["beats"] is True  # K-3: a comparison of two plays counts per play


def test_resolve_under_normal_rules_refuses_kaopai(client: Client) -> None:
    body = client.post(
        "/v1/kaopai/resolve", json={"plays": [["BJ"], ["BJ", "BJ"]], "ruleset": "classic"}
    ).json()
    assert body["valid"] is False and body["winner"] == 0
    assert body["steps"][0]["reason"]["code"] == "SIZE_MISMATCH"


def test_resolve_bad_bottom_and_bad_card(client: Client) -> None:
    response = client.post("/v1/kaopai/resolve", json={"plays": [["7S", "8S"], ["BJ"]]})
    assert_problem(response, 422, "MIXED_RANKS", "$.plays[0]")
    response = client.post("/v1/kaopai/resolve", json={"plays": [["BJ"], ["BJ", "QQ"]]})
    assert_problem(response, 422, "UNKNOWN_CARD", "$.plays[1][1]")
    assert_problem(client.post("/v1/kaopai/resolve", json={"plays": []}), 400, "INVALID_FIELD")


def test_rulesets_list_every_option(client: Client) -> None:
    body = client.get("/v1/rulesets").json()
    assert [r["base"] for r in body] == [
        "classic",
        "tribute",
        "lianzhong-classic",
        "lianzhong-simple",
    ]
    for ruleset in body:
        assert {"kaopai", "bie6", "deck", "grab"} <= ruleset.keys()
        assert "grab_solo" not in ruleset  # one name on the wire and in the list (R)
    assert [r["grab"] for r in body] == [True, False, False, False]
    assert client.get("/v1/rulesets/lianzhong-simple").json()["deck"] == "short"
    assert_problem(client.get("/v1/rulesets/poker"), 404, "UNKNOWN_RULESET")


def test_unknown_route_and_method_are_problems(client: Client) -> None:
    assert_problem(client.get("/v1/nothing"), 404, "NOT_FOUND")
    assert_problem(client.get("/v1/combos/compare"), 405, "METHOD_NOT_ALLOWED")


def test_R_grab_option_on_the_wire(client: Client) -> None:
    """保皇怎么玩 (tribute, G-6) has no grab: ``grab: true`` names a ruleset that does not exist."""
    body = {"previous": ["7S"], "candidate": ["8S"], "ruleset": {"base": "tribute", "grab": True}}
    document = assert_problem(
        client.post("/v1/combos/compare", json=body), 422, "UNKNOWN_RULESET", "$.ruleset.grab"
    )
    assert document["errors"][0]["rule"] == "G-6"
    body["ruleset"] = {"base": "tribute", "grab": False}
    assert client.post("/v1/combos/compare", json=body).json()["beats"] is True
    schema = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for name in ("Ruleset", "RulesetSpec"):
        assert "抢庄" in schema[name]["properties"]["grab"]["description"], name
