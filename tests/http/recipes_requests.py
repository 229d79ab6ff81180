"""Recipes for the codes of the request itself and of input the referee cannot judge
(docs/errors.md, "Problems"): one request each on the shared app, but the body that does not
arrive in time."""

from __future__ import annotations

from typing import Any

from asgi_exchange import Exchange
from baohuang.http.settings import MAX_BODY_BYTES

from .code_recipes import Answer, Recipes, Senders

RECIPES = Recipes()
sends = RECIPES.sends

JSON = {"content-type": "application/json"}
TEAM = {"ruleset": "classic", "mode": "team", "emperor": 0, "guard": 1}
"""The roles of a classic team deal, as ``/v1/scores`` takes them."""
TRIBUTE_HANDS = [
    ["BJ*", "BJ", "2S", "9D", "3C"],
    ["SJ", "KD", "3D"],
    ["AS", "TH", "4C"],
    ["BJ", "QC", "5D"],
    ["KH", "KH", "6S"],
]
"""Small hands for ``/v1/tribute`` (it needs no full deal): seat 0 the emperor, seat 1 the guard."""
REBELS_WON = [2, 3, 4]
LOST = {"mode": "team", "emperor": 0, "guard": 1, "finished": REBELS_WON}
"""A previous deal the rebels won: the emperor and the guard pay tribute."""


def _scores(senders: Senders, **body: Any) -> Answer:
    return senders.client.post("/v1/scores", json={**TEAM, **body})


def _tribute(senders: Senders, previous: dict[str, Any], **body: Any) -> Answer:
    sent = {"ruleset": "tribute", "previous": previous, "hands": TRIBUTE_HANDS, **body}
    return senders.client.post("/v1/tribute", json=sent)


@sends("INVALID_FIELD")
def a_field_of_the_wrong_json_type(senders: Senders) -> Answer:
    return senders.client.post("/v1/combos/classify", json={"cards": "7S"})


@sends("INVALID_JSON")
def a_body_that_is_not_json(senders: Senders) -> Answer:
    return senders.client.post("/v1/combos/classify", content=b'{"cards": [', headers=JSON)


@sends("DUPLICATE_KEY")
def an_object_naming_a_key_twice(senders: Senders) -> Answer:
    body = b'{"cards": ["7S"], "cards": ["8S"]}'
    return senders.client.post("/v1/combos/classify", content=body, headers=JSON)


@sends("BODY_TOO_LARGE")
def a_body_over_one_mebibyte(senders: Senders) -> Answer:
    body = b'{"cards": [' + b" " * MAX_BODY_BYTES + b"]}"
    return senders.client.post("/v1/combos/classify", content=body, headers=JSON)


@sends("UNSUPPORTED_MEDIA_TYPE")
def a_body_sent_as_text(senders: Senders) -> Answer:
    return senders.client.post(
        "/v1/combos/classify", content=b'{"cards": []}', headers={"content-type": "text/plain"}
    )


@sends("REQUEST_TIMEOUT")
def a_body_that_does_not_arrive_within_the_body_timeout(senders: Senders) -> Answer:
    async def slow(app: Any, _: Any) -> Answer:
        exchange = Exchange(app, "/v1/combos/compare")
        exchange.feed(b'{"previous": ', more=True)  # and nothing more
        return await exchange.response()

    return senders.on_tight(slow)


@sends("NOT_FOUND")
def a_path_no_route_answers(senders: Senders) -> Answer:
    return senders.client.get("/no/such/route")


@sends("METHOD_NOT_ALLOWED")
def a_route_asked_with_another_method(senders: Senders) -> Answer:
    return senders.client.delete("/healthz")


@sends("HTTP_ERROR")
def a_framework_error_with_no_code_of_its_own(senders: Senders) -> Answer:
    """The framework refuses a ``Host`` header that names no host (400)."""
    return senders.client.get("/healthz", headers={"host": "x/y"})


@sends("UNKNOWN_CARD")
def a_card_code_that_does_not_exist(senders: Senders) -> Answer:
    return senders.client.post("/v1/combos/classify", json={"cards": ["ZZ"]})


@sends("TOO_MANY_COPIES")
def more_copies_than_the_decks_hold(senders: Senders) -> Answer:
    return senders.client.post("/v1/combos/classify", json={"cards": ["7S"] * 5})


@sends("UNKNOWN_RULESET")
def a_ruleset_that_does_not_exist(senders: Senders) -> list[Answer]:
    """A name in a body (422) and in ``GET /v1/rulesets/{name}`` (404)."""
    return [
        senders.client.post("/v1/combos/classify", json={"cards": ["7S"], "ruleset": "poker"}),
        senders.client.get("/v1/rulesets/poker"),
    ]


@sends("INVALID_SNAPSHOT")
def a_snapshot_that_contradicts_itself(senders: Senders) -> Answer:
    """Seat 1 finished (T-8) yet holds cards."""
    snapshot = {**TEAM, "hands": [["7S"], ["8S"], ["9S"], ["TS"], ["JS"]], "turn": 0}
    return senders.client.post("/v1/moves/legal", json={"snapshot": {**snapshot, "finished": [1]}})


@sends("INVALID_SEAT")
def a_seat_that_is_not_0_to_4(senders: Senders) -> Answer:
    return _scores(senders, emperor=7, finished=[])


@sends("INVALID_MODE")
def a_mode_that_is_none_of_g_1s(senders: Senders) -> Answer:
    return _scores(senders, mode="duo", finished=[])


@sends("GUARD_REQUIRED")
def a_team_deal_without_a_guard(senders: Senders) -> Answer:
    return _scores(senders, guard=None, finished=[])


@sends("GUARD_IS_EMPEROR")
def a_team_deal_whose_guard_is_the_emperor(senders: Senders) -> Answer:
    return _scores(senders, guard=0, finished=[])


@sends("UNEXPECTED_GUARD")
def a_grab_deal_that_names_a_guard(senders: Senders) -> Answer:
    return _scores(senders, mode="grab", guard=3, finished=[])


@sends("INVALID_FINISHED")
def a_finishing_order_with_a_seat_twice(senders: Senders) -> Answer:
    return _scores(senders, finished=[0, 3, 0])


@sends("INVALID_REBELLION")
def a_rebellion_declared_by_a_seat_that_is_no_rebel(senders: Senders) -> Answer:
    return _scores(senders, ruleset="lianzhong-simple", finished=REBELS_WON, rebellion=[0, 2])


@sends("NO_REBELLION")
def a_rebellion_claimed_where_the_ruleset_has_none(senders: Senders) -> Answer:
    return _scores(senders, finished=[2], rebellion_succeeded=True)


@sends("REBELLION_MISMATCH")
def a_rebellion_succeeded_although_the_rebels_did_not_win(senders: Senders) -> Answer:
    return _scores(
        senders, ruleset="lianzhong-simple", finished=[0, 1, 2], rebellion_succeeded=True
    )


@sends("NO_TRIBUTE")
def tribute_under_a_ruleset_that_has_none(senders: Senders) -> Answer:
    return _tribute(senders, LOST, ruleset="classic")


@sends("PREVIOUS_NOT_OVER")
def tribute_after_a_deal_whose_score_can_still_change(senders: Senders) -> Answer:
    return _tribute(senders, {**LOST, "finished": [2]})


@sends("CANNOT_PAY_TRIBUTE")
def a_seat_holding_fewer_payable_cards_than_its_tribute(senders: Senders) -> Answer:
    """The emperor holds two cards, and owes the rebels who finished 3, 2, 4 more (P-2)."""
    previous = {**LOST, "finished": [3, 2, 4]}
    return _tribute(senders, previous, hands=[["BJ*", "AS"], *TRIBUTE_HANDS[1:]])
