"""A seat's legal moves and the dry run of a move on a live table (docs/clients.md "A seat
client"): ``GET /v1/tables/{id}/legal-moves`` and ``POST /v1/tables/{id}/moves/check``.

Named examples, in process on the in-memory store; tests/http/test_table_legal_replicas.py holds
the property test through two replicas on Redis.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from baohuang.engine import deal, legal_moves, opening_snapshot, ruleset_of
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from caller_support import bearer
from table_support import SMALL, SMALL_BODY, put_table

from .problem_checks import assert_problem

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    app = create_app(Settings(api_keys=(KEY,), token_secret="legal-test"))
    with TestClient(app) as test_client:
        yield test_client


def test_the_seat_to_act_gets_its_moves_and_the_others_an_empty_list(
    client: TestClient[Any],
) -> None:
    tid, table = put_table(client, SMALL_BODY, PLATFORM, "legal")
    expected = msgspec.to_builtins(legal_moves(SMALL))
    mine = client.get(f"/v1/tables/{tid}/legal-moves", headers=bearer(table["seat_tokens"][0]))
    assert mine.status_code == 200, mine.text
    assert mine.json() == {
        "version": 1,
        "instance": table["instance"],
        "seat": 0,
        "moves": expected,
    }
    assert mine.headers["etag"] == f'"{table["instance"]}.1"'
    for seat in range(1, 5):
        other = client.get(
            f"/v1/tables/{tid}/legal-moves", headers=bearer(table["seat_tokens"][seat])
        )
        assert other.status_code == 200
        assert other.json()["seat"] == seat and other.json()["moves"] == []


def test_a_platform_asks_for_the_seat_to_act_or_any_seat(client: TestClient[Any]) -> None:
    tid, _ = put_table(client, SMALL_BODY, PLATFORM, "legal")
    default = client.get(f"/v1/tables/{tid}/legal-moves", headers=PLATFORM).json()
    assert default["seat"] == 0 and default["moves"]
    assert client.get(f"/v1/tables/{tid}/legal-moves?seat=0", headers=PLATFORM).json() == default
    three = client.get(f"/v1/tables/{tid}/legal-moves?seat=3", headers=PLATFORM).json()
    assert three["seat"] == 3 and three["moves"] == []


def test_a_seat_may_not_ask_for_another_seat_nor_a_spectator_at_all(
    client: TestClient[Any],
) -> None:
    tid, table = put_table(client, SMALL_BODY, PLATFORM, "legal")
    other = client.get(
        f"/v1/tables/{tid}/legal-moves?seat=0", headers=bearer(table["seat_tokens"][1])
    )
    assert_problem(other, 403, "FORBIDDEN", "$.query.seat")
    spectator = client.get(
        f"/v1/tables/{tid}/legal-moves", headers=bearer(table["spectator_token"])
    )
    assert_problem(spectator, 403, "FORBIDDEN", "$.query.seat")
    assert "7S" not in spectator.text and "7S" not in other.text
    bad = client.get(f"/v1/tables/{tid}/legal-moves?seat=5", headers=PLATFORM)
    assert_problem(bad, 422, "INVALID_SEAT", "$.query.seat")


def test_following_a_play_the_play_moves_are_the_plays_that_beat_the_top(
    client: TestClient[Any],
) -> None:
    """The hint (提示) cycle: seat 1 follows 7S 7H with its one beating pair, 8S 8H; its list is
    the pass, the yield (classic has 让牌, T-6), then that pair."""
    tid, table = put_table(client, SMALL_BODY, PLATFORM, "legal")
    lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
    moved = client.post(
        f"/v1/tables/{tid}/moves", json={"move": lead, "version": 1}, headers=PLATFORM
    )
    assert moved.status_code == 200, moved.text
    listed = client.get(
        f"/v1/tables/{tid}/legal-moves", headers=bearer(table["seat_tokens"][1])
    ).json()
    assert listed["version"] == 2
    assert listed["moves"] == [
        {"seat": 1, "action": "pass"},
        {"seat": 1, "action": "yield"},
        {"seat": 1, "action": "play", "cards": ["8S", "8H"]},
    ]


def test_an_out_of_turn_classic_grab_is_listed_for_its_seat(client: TestClient[Any]) -> None:
    """G-5: in classic, a seat not offered the crown may grab it; its list says so."""
    snapshot = msgspec.to_builtins(opening_snapshot("classic", deal(ruleset_of("classic"), 7, 0)))
    tid, table = put_table(client, snapshot, PLATFORM, "legal")
    other = (snapshot["turn"] + 1) % 5
    listed = client.get(
        f"/v1/tables/{tid}/legal-moves", headers=bearer(table["seat_tokens"][other])
    ).json()
    assert listed["moves"] == [{"seat": other, "action": "grab"}]
    check = client.post(
        f"/v1/tables/{tid}/moves/check",
        json={"move": listed["moves"][0], "version": 1},
        headers=bearer(table["seat_tokens"][other]),
    )
    assert check.json()["legal"] is True


def test_the_dry_run_answers_the_verdict_and_writes_nothing(client: TestClient[Any]) -> None:
    tid, table = put_table(client, SMALL_BODY, PLATFORM, "legal")
    seat0 = bearer(table["seat_tokens"][0])
    lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
    legal = client.post(
        f"/v1/tables/{tid}/moves/check",
        json={"move": lead, "version": 1},
        headers={**seat0, "Idempotency-Key": "k1"},
    )
    assert legal.status_code == 200, legal.text
    assert legal.json() == {"legal": True, "version": 1, "instance": table["instance"]}
    mixed = {"seat": 0, "action": "play", "cards": ["7S", "9D"]}
    refused = client.post(
        f"/v1/tables/{tid}/moves/check", json={"move": mixed, "version": 1}, headers=seat0
    )
    assert refused.status_code == 200
    assert refused.json()["legal"] is False and refused.json()["reason"]["code"] == "MIXED_RANKS"
    applied = client.post(
        f"/v1/tables/{tid}/moves", json={"move": mixed, "version": 1}, headers=seat0
    )
    assert_problem(applied, 422, "MIXED_RANKS", "$.move")
    # nothing was written, and the key the dry run saw is still unspent
    assert client.get(f"/v1/tables/{tid}", headers=PLATFORM).json()["version"] == 1
    assert client.get(f"/v1/tables/{tid}/events", headers=PLATFORM).json()["last_seq"] == 1
    moved = client.post(
        f"/v1/tables/{tid}/moves",
        json={"move": {"seat": 0, "action": "pass"}, "version": 1},
        headers={**seat0, "Idempotency-Key": "k1"},
    )
    assert_problem(moved, 422, "LEADER_CANNOT_PASS", "$.move")


def test_the_dry_run_refuses_what_post_moves_refuses_before_judging(
    client: TestClient[Any],
) -> None:
    tid, table = put_table(client, SMALL_BODY, PLATFORM, "legal")
    seat0 = bearer(table["seat_tokens"][0])
    lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
    stale = client.post(
        f"/v1/tables/{tid}/moves/check", json={"move": lead, "version": 9}, headers=seat0
    )
    assert_problem(stale, 409, "VERSION_CONFLICT", "$.version")
    assert stale.json()["current_version"] == 1
    other = client.post(
        f"/v1/tables/{tid}/moves/check",
        json={"move": {**lead, "seat": 1}, "version": 1},
        headers=seat0,
    )
    assert_problem(other, 403, "FORBIDDEN", "$.move.seat")
    unknown = client.post(
        f"/v1/tables/{tid}/moves/check",
        json={"move": {**lead, "cards": ["7X"]}, "version": 1},
        headers=seat0,
    )
    assert_problem(unknown, 422, "UNKNOWN_CARD", "$.move.cards[0]")
    missing = client.post(
        f"/v1/tables/nope-{uuid.uuid4().hex}/moves/check",
        json={"move": lead, "version": 1},
        headers=PLATFORM,
    )
    assert_problem(missing, 404, "TABLE_NOT_FOUND", "$.path.table_id")
    spectator = client.post(
        f"/v1/tables/{tid}/moves/check",
        json={"move": lead, "version": 1},
        headers=bearer(table["spectator_token"]),
    )
    assert spectator.status_code == 403
