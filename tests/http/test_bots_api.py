"""``POST /v1/bots/suggest``: a legal move for the view's seat; bad input is a problem document
naming the field (docs/clients.md, "Bots")."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from baohuang.engine import (
    Move,
    apply_move,
    deal,
    legal_moves,
    opening_snapshot,
    ruleset_of,
    seat_view,
    verify_move,
)
from baohuang.http.settings import Settings

from .problem_checks import assert_problem

Client = TestClient[Any]
MOVE = msgspec.json.Decoder(Move)


def position(seed: int, ruleset: str, moves: int) -> tuple[Any, Any, list[dict[str, Any]]]:
    """A deal after ``moves`` random moves; the real snapshot, and the seat's body parts."""
    rng = random.Random(seed)
    snapshot = opening_snapshot(ruleset, deal(ruleset_of(ruleset), seed, 0))
    events: list[Any] = []
    for _ in range(moves):
        after, new = apply_move(snapshot, rng.choice(legal_moves(snapshot)))
        if after.over:
            break
        snapshot, events = after, events + new
    view = msgspec.to_builtins(seat_view(snapshot, snapshot.turn))
    return snapshot, view, msgspec.to_builtins(events)


@pytest.mark.parametrize("ruleset", ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"])
@pytest.mark.parametrize("level", ["heuristic", "search"])
def test_a_suggestion_is_legal_in_the_real_deal(client: Client, ruleset: str, level: str) -> None:
    for seed, moves in ((1, 0), (2, 3), (3, 60), (4, 150)):
        snapshot, view, events = position(seed, ruleset, moves)
        body = {"view": view, "history": events, "level": level, "budget_ms": 20}
        response = client.post("/v1/bots/suggest", json=body)
        assert response.status_code == 200, response.text
        answer = response.json()
        assert answer["level"] == level
        move = MOVE.decode(msgspec.json.encode(answer["move"]))
        assert verify_move(snapshot, move) is None, (seed, moves, move)


def test_the_log_is_sent_as_it_is(client: Client) -> None:
    """Every event type of a table's log decodes; only the public acts are read."""
    snapshot, view, events = position(5, "classic", 80)
    logged = [
        {**event, "seq": index + 1, "version": index, "at": 1.5}
        for index, event in enumerate(events)
    ]
    logged.append({"type": "clock", "seat": 2, "deadline": 3.0, "seq": 999})
    response = client.post("/v1/bots/suggest", json={"view": view, "history": logged})
    assert response.status_code == 200, response.text
    move = MOVE.decode(msgspec.json.encode(response.json()["move"]))
    assert verify_move(snapshot, move) is None


def test_a_seat_not_to_act_is_refused(client: Client) -> None:
    snapshot, _, events = position(6, "classic", 40)
    other = (snapshot.turn + 1) % 5
    view = msgspec.to_builtins(seat_view(snapshot, other))
    response = client.post("/v1/bots/suggest", json={"view": view, "history": events})
    assert_problem(response, 422, "NOT_TO_ACT", "$.view.turn")


def test_a_view_whose_counts_contradict_the_hand_is_refused(client: Client) -> None:
    _, view, _ = position(7, "classic", 30)
    view["counts"][view["seat"]] += 1
    response = client.post("/v1/bots/suggest", json={"view": view})
    assert_problem(response, 422, "INVALID_VIEW", f"$.view.counts[{view['seat']}]")


def test_an_unknown_card_in_the_hand_is_refused(client: Client) -> None:
    _, view, _ = position(8, "lianzhong-classic", 0)
    view["hand"][0] = "3S"  # the short deck has no 3 (D-1)
    response = client.post("/v1/bots/suggest", json={"view": view})
    assert_problem(response, 422, "UNKNOWN_CARD", "$.view.hand[0]")


def test_a_played_event_without_its_seat_is_refused(client: Client) -> None:
    _, view, _ = position(9, "classic", 30)
    body = {"view": view, "history": [{"type": "played", "cards": ["3S"]}]}
    response = client.post("/v1/bots/suggest", json=body)
    assert_problem(response, 422, "INVALID_HISTORY", "$.history[0].seat")


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"level": "grandmaster"}, "$.level"),
        ({"budget_ms": 0}, "$.budget_ms"),
        ({"budget_ms": 60_000}, "$.budget_ms"),
        ({"snapshot": {}}, "$"),
    ],
)
def test_bad_fields_are_named(client: Client, change: dict[str, Any], path: str) -> None:
    _, view, _ = position(10, "classic", 30)
    response = client.post("/v1/bots/suggest", json={"view": view, **change})
    document = assert_problem(response, 400, response.json()["errors"][0]["code"])
    assert document["errors"][0]["path"] == path, document


def test_BAOHUANG_BOT_DELAY_SECONDS_is_read_and_checked() -> None:
    assert Settings.from_env({}).bot_delay_seconds == 1.0
    assert Settings.from_env({"BAOHUANG_BOT_DELAY_SECONDS": "0.25"}).bot_delay_seconds == 0.25
    with pytest.raises(ValueError, match="BAOHUANG_BOT_DELAY_SECONDS"):
        Settings.from_env({"BAOHUANG_BOT_DELAY_SECONDS": "0"})


def test_bot_seats_are_shown_to_every_caller_and_set_by_the_platform_only(client: Client) -> None:
    snapshot = msgspec.to_builtins(opening_snapshot("classic", deal(ruleset_of("classic"), 3, 0)))
    bots = [{"seat": 2, "level": "search"}, {"seat": 4, "level": "heuristic"}]
    created = client.put("/v1/tables/bots", json={"snapshot": snapshot, "bots": bots})
    assert created.status_code == 201, created.text
    tokens = created.json()["seat_tokens"]
    for token in (tokens[0], created.json()["spectator_token"]):
        read = client.get("/v1/tables/bots", headers={"Authorization": f"Bearer {token}"})
        seats = read.json()["table"]["seats"]
        assert [seat["bot"] for seat in seats] == [None, None, "search", None, "heuristic"]
    version = created.json()["version"]
    as_seat = client.post(
        "/v1/tables/bots/seats/1/bot",
        json={"level": "heuristic", "version": version},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert_problem(as_seat, 403, as_seat.json()["errors"][0]["code"])
    unchanged = client.get("/v1/tables/bots").json()
    assert unchanged["version"] == version
    seated = client.post(
        "/v1/tables/bots/seats/1/bot", json={"level": "heuristic", "version": version}
    )
    assert seated.status_code == 200, seated.text
    assert seated.json()["table"]["seats"][1]["bot"] == "heuristic"


def test_a_seat_given_two_bots_is_refused(client: Client) -> None:
    snapshot = msgspec.to_builtins(opening_snapshot("classic", deal(ruleset_of("classic"), 3, 0)))
    bots = [{"seat": 2, "level": "search"}, {"seat": 2, "level": "heuristic"}]
    response = client.put("/v1/tables/twice", json={"snapshot": snapshot, "bots": bots})
    assert_problem(response, 422, "DUPLICATE_SEAT", "$.bots[1].seat")
    assert client.get("/v1/tables/twice").status_code == 404
    bad = client.put(
        "/v1/tables/twice", json={"snapshot": snapshot, "bots": [{"seat": 5, "level": "search"}]}
    )
    assert_problem(bad, 422, "INVALID_SEAT", "$.bots[0].seat")
