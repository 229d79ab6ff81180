"""Named tests for rules of docs/rules.md that had none, through the HTTP API: T-11 (托管 as a
state at live tables), S-9 (the charge for leaving) and S-10 (a void deal scores nothing).

T-11 and S-9 are written against the live-table routes the contract names (``/trustee``,
``/leave``, the event log); they are expected to fail until those routes exist.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from litestar.testing import TestClient

HANDS = [
    ["BJ*", "7S", "7H", "9D"],
    ["8S", "8H", "KD"],
    ["9S", "QH"],
    ["TS", "TH", "3C"],
    ["JS", "4D"],
]
SNAPSHOT: dict[str, Any] = {
    "ruleset": "classic",
    "mode": "team",
    "emperor": 0,
    "guard": 3,
    "hands": HANDS,
    "turn": 0,
}
NOT_IMPLEMENTED = "托管 and leaving at live tables (T-11, S-9) are not implemented yet"


def post(client: TestClient[Any], path: str, body: Any) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def new_table(client: TestClient[Any], snapshot: dict[str, Any]) -> str:
    table = f"t-{uuid.uuid4().hex}"
    created = client.put(f"/v1/tables/{table}", json={"snapshot": snapshot})
    assert created.status_code == 201, created.text
    return table


def version(client: TestClient[Any], table: str) -> int:
    got = client.get(f"/v1/tables/{table}")
    assert got.status_code == 200, got.text
    current: int = got.json()["version"]
    return current


def view(client: TestClient[Any], table: str) -> dict[str, Any]:
    """The platform's view of the table: the whole snapshot."""
    got = client.get(f"/v1/tables/{table}")
    assert got.status_code == 200, got.text
    whole: dict[str, Any] = got.json()["view"]
    return whole


def move(client: TestClient[Any], table: str, body: dict[str, Any]) -> None:
    answer = client.post(
        f"/v1/tables/{table}/moves", json={"move": body, "version": version(client, table)}
    )
    assert answer.status_code == 200, answer.text


def trustee(client: TestClient[Any], table: str, seat: int, on: bool) -> int:
    answer = client.post(
        f"/v1/tables/{table}/seats/{seat}/trustee",
        json={"on": on, "version": version(client, table)},
    )
    return answer.status_code


def deal_over(client: TestClient[Any], table: str) -> dict[str, Any]:
    got = client.get(f"/v1/tables/{table}/events", params={"after": 0})
    assert got.status_code == 200, got.text
    events = [event for event in got.json()["events"] if event["type"] == "deal_over"]
    assert len(events) == 1, events
    event: dict[str, Any] = events[0]
    return event


def values_under(document: Any, word: str) -> Iterator[Any]:
    """Every value, at any depth, under a key that contains ``word``."""
    if isinstance(document, dict):
        for key, value in document.items():
            if word in key:
                yield value
            yield from values_under(value, word)
    elif isinstance(document, list):
        for item in document:
            yield from values_under(item, word)


def per_seat(value: Any) -> list[Any] | None:
    """A per-seat figure given as a list of five, or as a mapping from seat to figure."""
    if isinstance(value, list) and len(value) == 5:
        return value
    if isinstance(value, dict):
        return [value.get(str(seat), value.get(seat, 0)) for seat in range(5)]
    return None


# --- T-11: 托管 as a state --------------------------------------------------------------------


def test_T_11_a_seat_in_tuoguan_has_its_turn_played_at_once(client: TestClient[Any]) -> None:
    table = new_table(client, SNAPSHOT)
    move(client, table, {"seat": 0, "action": "play", "cards": ["7S", "7H"]})
    assert view(client, table)["turn"] == 1
    assert trustee(client, table, 1, on=True) == 200
    after = view(client, table)
    assert after["trick"]["passed"] == [1]  # T-10: a follower in 托管 passes
    assert after["turn"] == 2


def test_T_11_after_a_fourth_entry_tuoguan_can_no_longer_be_left(
    client: TestClient[Any],
) -> None:
    table = new_table(client, SNAPSHOT)
    for _ in range(3):
        assert trustee(client, table, 2, on=True) == 200
        assert trustee(client, table, 2, on=False) == 200
    assert trustee(client, table, 2, on=True) == 200
    assert trustee(client, table, 2, on=False) == 422  # 托管超过三次的，系统不再允许取消托管
    assert view(client, table)["turn"] == 0  # seat 2 never had a turn to play


def test_T_11_a_deal_ending_with_every_seat_in_tuoguan_is_not_scored(
    client: TestClient[Any],
) -> None:
    table = new_table(client, SNAPSHOT)
    for seat in range(5):
        assert trustee(client, table, seat, on=True) == 200
    assert view(client, table)["over"] is True  # 托管 played the deal out (T-10)
    scores = [per_seat(value) for value in values_under(deal_over(client, table), "scores")]
    assert [0] * 5 in scores


# --- S-9: leaving costs 40 points, outside the seat scores ---------------------------------------


def test_S_9_leaving_after_the_first_play_is_charged_40_and_the_seat_plays_on(
    client: TestClient[Any],
) -> None:
    table = new_table(
        client,
        {
            "ruleset": "lianzhong-classic",
            "mode": "team",
            "emperor": 0,
            "guard": 1,
            "hands": [["BJ*"], ["7S"], ["8S", "9S"], ["TS", "JS"], ["QS", "KS"]],
            "turn": 0,
        },
    )
    move(client, table, {"seat": 0, "action": "play", "cards": ["BJ*"]})  # 底牌: seat 0 is 头科
    move(client, table, {"seat": 1, "action": "pass"})
    left = client.post(
        f"/v1/tables/{table}/seats/2/leave", json={"version": version(client, table)}
    )
    assert left.status_code == 200, left.text
    assert view(client, table)["turn"] == 3  # seat 2 plays on under 托管: it passed at once
    move(client, table, {"seat": 3, "action": "pass"})
    move(client, table, {"seat": 4, "action": "pass"})
    move(client, table, {"seat": 1, "action": "play", "cards": ["7S"]})  # 接风, then 二科
    result = deal_over(client, table)
    scores = [per_seat(value) for value in values_under(result, "scores")]
    assert [6, 3, -3, -3, -3] in scores  # S-4, still zero-sum: the charge stands apart
    charges = [per_seat(value) for value in values_under(result, "penalt")]
    assert [0, 0, 40, 0, 0] in charges or [0, 0, -40, 0, 0] in charges


# --- S-10: a void deal ---------------------------------------------------------------------------


def test_S_10_a_void_deal_scores_zero_with_no_winner_over_http(client: TestClient[Any]) -> None:
    snapshot = post(client, "/v1/deal", {"ruleset": "lianzhong-simple", "seed": 5, "dealer": 1})[
        "snapshot"
    ]
    for _ in range(10):  # two rounds of hand-ons without an emperor (G-7)
        assert not snapshot["over"]
        decline = {"seat": snapshot["turn"], "action": "decline"}
        verdict = post(client, "/v1/moves/validate", {"snapshot": snapshot, "move": decline})
        snapshot = verdict["snapshot"]
    assert snapshot["over"] and snapshot["void"]
    assert {"type": "deal_void"} in verdict["events"]
    scores = post(client, "/v1/scores", {"snapshot": snapshot})
    assert scores["final"] is True
    assert scores["winner"] is None and scores["positions"] is None
    assert scores["scores"] == [0] * 5
    assert post(client, "/v1/moves/legal", {"snapshot": snapshot})["moves"] == []
