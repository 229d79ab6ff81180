"""The routes of committed dealing and deal records (docs/dealing.md, docs/records.md): a table
created with a ``deal``, a seat's entropy, the next deal, the list of deals and a deal's record,
and the problems each answers with."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.engine import committed_deal, ruleset_of
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.records import decode_record, verify

from .problem_checks import assert_problem

KEY = "records-api-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    app = create_app(Settings(api_keys=(KEY,), token_secret="records-api"))
    with TestClient(app) as test_client:
        yield test_client


def _create(client: TestClient[Any], tid: str, **deal: Any) -> dict[str, Any]:
    body = {"deal": {"ruleset": "classic", "dealer": 1, "entropy_seconds": 600, **deal}}
    created = client.put(f"/v1/tables/{tid}", json=body, headers=PLATFORM)
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer


def _over(client: TestClient[Any], tid: str, headers: dict[str, str]) -> dict[str, Any]:
    """The table once 托管 has played its deal out (over a few writes of the service's clock)."""
    for _ in range(200):
        table: dict[str, Any] = client.get(f"/v1/tables/{tid}", headers=headers).json()
        if table["view"]["over"]:
            return table
        time.sleep(0.05)
    raise AssertionError("the deal was not played out")


def _seat(created: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['seat_tokens'][seat]}"}


def test_G_4_a_table_is_created_with_a_snapshot_or_a_deal(client: TestClient[Any]) -> None:
    both = {"snapshot": {"mode": "team", "emperor": 0, "hands": [[]] * 5, "turn": 0}, "deal": {}}
    for body in ({}, both):
        refused = client.put("/v1/tables/either", json=body, headers=PLATFORM)
        assert_problem(refused, 422, "SNAPSHOT_OR_DEAL")
    created = _create(client, "api-c1")
    assert created["snapshot"]["phase"] == "deal"
    dealing = created["table"]["dealing"]
    assert dealing["method"] == "committed" and len(dealing["commitment"]) == 64
    assert "seed" not in dealing and dealing["entropy"] == [None] * 5
    spectator = {"Authorization": f"Bearer {created['spectator_token']}"}
    seen = client.get("/v1/tables/api-c1", headers=spectator).json()
    assert seen["table"]["dealing"]["commitment"] == dealing["commitment"]
    assert seen["view"]["counts"] == [0] * 5
    log = client.get("/v1/tables/api-c1/events", headers=spectator).json()["events"]
    assert [event["type"] for event in log] == ["deal_committed"]
    assert log[0]["commitment"] == dealing["commitment"]
    # a stateless route judges no such snapshot
    judged = client.post("/v1/moves/legal", json={"snapshot": created["snapshot"]})
    assert_problem(judged, 422, "INVALID_SNAPSHOT", path="$.snapshot.phase")


def test_G_4_only_a_seats_own_token_adds_its_entropy(client: TestClient[Any]) -> None:
    created = _create(client, "api-c2")
    url = "/v1/tables/api-c2/seats/2/entropy"
    spectator = {"Authorization": f"Bearer {created['spectator_token']}"}
    for headers in (PLATFORM, spectator, _seat(created, 3)):
        assert_problem(client.post(url, json={"entropy": "aa"}, headers=headers), 403, "FORBIDDEN")
    for bad in ("", "AB", "a", "zz", "00" * 65):
        refused = client.post(url, json={"entropy": bad}, headers=_seat(created, 2))
        assert_problem(refused, 400, "INVALID_FIELD", path="$.entropy")
    added = client.post(url, json={"entropy": "beef"}, headers=_seat(created, 2))
    assert added.status_code == 200 and added.json()["audience"] == "seat"
    assert [e["type"] for e in added.json()["events"]] == ["entropy"]
    again = client.post(url, json={"entropy": "beef"}, headers=_seat(created, 2))
    assert again.status_code == 200 and again.json()["events"] == []
    other = client.post(url, json={"entropy": "beee"}, headers=_seat(created, 2))
    assert assert_problem(other, 422, "ENTROPY_ADDED")["errors"][0]["rule"] == "G-4"
    assert (
        other.json()["title"] == "Illegal move"
        and other.json()["reason"]["code"] == "ENTROPY_ADDED"
    )
    version = client.get("/v1/tables/api-c2", headers=PLATFORM).json()["version"]
    move = {"move": {"seat": 1, "action": "decline"}, "version": version}
    refused = client.post("/v1/tables/api-c2/moves", json=move, headers=_seat(created, 1))
    assert assert_problem(refused, 422, "NOT_DEALT")["reason"]["rule"] == "G-4"


def test_G_4_the_last_seats_entropy_deals_and_the_end_reveals_the_seed(
    client: TestClient[Any],
) -> None:
    created = _create(client, "api-c3", ruleset="lianzhong-classic")
    entropy = [f"{seat:02x}{seat:02x}" for seat in range(5)]
    hands = {}
    for seat in range(5):
        answer = client.post(
            f"/v1/tables/api-c3/seats/{seat}/entropy",
            json={"entropy": entropy[seat]},
            headers=_seat(created, seat),
        ).json()
        if seat < 4:
            assert answer["view"]["phase"] == "deal" and answer["view"]["hand"] == []
    for seat in range(5):
        hands[seat] = client.get("/v1/tables/api-c3", headers=_seat(created, seat)).json()["view"][
            "hand"
        ]
    for seat in range(5):
        version = client.get("/v1/tables/api-c3", headers=PLATFORM).json()["version"]
        body = {"on": True, "version": version}
        client.post(
            f"/v1/tables/api-c3/seats/{seat}/trustee", json=body, headers=_seat(created, seat)
        )
    table = _over(client, "api-c3", _seat(created, 0))
    dealing = table["table"]["dealing"]
    seed = dealing["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == dealing["commitment"]
    dealt = committed_deal(ruleset_of("lianzhong-classic"), seed, entropy, 1)
    assert dealt.hands == [hands[seat] for seat in range(5)]
    # the next deal, committed as this one was, until the platform passes a seed
    version = table["version"]
    refused = client.post(
        "/v1/tables/api-c3/deals",
        json={"version": version, "seed": 5, "committed": True},
        headers=PLATFORM,
    )
    assert_problem(refused, 422, "SEED_AND_COMMITTED", path="$.committed")
    started = client.post("/v1/tables/api-c3/deals", json={"version": version}, headers=PLATFORM)
    assert started.status_code == 200
    assert [e["type"] for e in started.json()["events"]] == ["deal_committed"]
    assert started.json()["table"]["dealing"]["seconds"] == 600


def test_the_deals_a_table_keeps_and_their_records(client: TestClient[Any]) -> None:
    created = _create(client, "api-r1", entropy_seconds=0)
    for seat in range(5):
        version = client.get("/v1/tables/api-r1", headers=PLATFORM).json()["version"]
        body = {"on": True, "version": version}
        client.post(f"/v1/tables/api-r1/seats/{seat}/trustee", json=body, headers=PLATFORM)
    version = _over(client, "api-r1", PLATFORM)["version"]
    body = {"version": version, "seed": 77}
    assert client.post("/v1/tables/api-r1/deals", json=body, headers=PLATFORM).status_code == 200
    listed = client.get("/v1/tables/api-r1/deals", headers=_seat(created, 4))
    assert listed.status_code == 200
    deals = listed.json()["deals"]
    assert [(d["deal"], d["method"]) for d in deals] == [(1, "committed"), (2, "seed")]
    assert deals[0]["result"]["score"]["void"]["code"] == "ALL_TRUSTEE"
    assert deals[1]["ended"] is None and deals[1]["result"] is None
    first = client.get("/v1/tables/api-r1/deals/1", headers=_seat(created, 4))
    assert first.headers["content-type"].startswith("application/json")
    record = decode_record(first.content)
    assert record.__struct_config__.tag == "full" and verify(record).valid
    second = client.get("/v1/tables/api-r1/deals/2", headers=_seat(created, 4)).json()
    assert second["record"] == "seat" and "seed" not in second["dealing"]
    assert second["dealing"]["chosen_by"] == "platform"
    whole = client.get("/v1/tables/api-r1/deals/2", headers=PLATFORM).json()
    assert whole["dealing"]["seed"] == 77 and whole["record"] == "full"
    missing = client.get("/v1/tables/api-r1/deals/3", headers=PLATFORM)
    assert_problem(missing, 404, "DEAL_NOT_KEPT", path="$.path.deal")
    assert_problem(
        client.get("/v1/tables/api-none/deals", headers=PLATFORM), 404, "TABLE_NOT_FOUND"
    )
    # a token of an earlier instance of the table reads none of it
    again = {"deal": {"ruleset": "classic"}}
    assert client.put("/v1/tables/api-r1", json=again, headers=PLATFORM).status_code == 200
    stale = client.get("/v1/tables/api-r1/deals/1", headers=_seat(created, 4))
    assert_problem(stale, 401, "UNAUTHORIZED")
