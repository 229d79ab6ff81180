"""Live tables over HTTP (docs/clients.md): versions, races, seat views, auth, fail closed.

Runs against the in-memory store and against a real Redis (our own redis-server, see
tests/redis_server.py; REDIS_URL is used when set). Two app instances on one Redis stand for two
replicas behind a load balancer.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from redis_server import RedisServer, shared_redis_url

from .problem_checks import assert_problem

pytestmark = pytest.mark.anyio

KEY = "platform-key-1"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
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
LEAD = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """Module-wide, so one app (:func:`client`) serves the module's tests on one event loop."""
    return "asyncio"


@pytest.fixture(scope="module", params=["memory", "redis"])
def redis_url(request: pytest.FixtureRequest) -> str | None:
    if request.param == "memory":
        return None
    shared = shared_redis_url()
    if shared is not None:
        return shared
    server: RedisServer = request.getfixturevalue("redis_server")
    return server.url


def settings(redis_url: str | None, keys: tuple[str, ...] = (KEY,)) -> Settings:
    return Settings(redis_url=redis_url, api_keys=keys, token_secret="test-secret")


@pytest.fixture(scope="module")
async def client(redis_url: str | None) -> AsyncIterator[AsyncTestClient[Any]]:
    """One app per store for the module (an app costs about 40 ms to build): each test plays
    tables of its own (:func:`table_id`), so none sees another's."""
    async with AsyncTestClient(create_app(settings(redis_url))) as test_client:
        yield test_client


def table_id() -> str:
    return f"t-{uuid.uuid4().hex}"


async def test_put_creates_then_replaces_and_get_has_etag(client: AsyncTestClient[Any]) -> None:
    tid = table_id()
    created = await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["version"] == 1 and body["id"] == tid and len(body["seat_tokens"]) == 5
    assert body["spectator_token"] not in body["seat_tokens"]
    # The answer that creates the table names it as a GET would: a client may go on from it.
    assert created.headers["etag"] == f'"{body["instance"]}.1"'
    first = await client.get(f"/v1/tables/{tid}", headers=PLATFORM)
    assert first.headers["etag"] == created.headers["etag"]
    replaced = await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    assert replaced.status_code == 200 and replaced.json()["version"] == 2
    instance = replaced.json()["instance"]
    assert instance != body["instance"]  # every PUT is a new instance
    assert replaced.headers["etag"] == f'"{instance}.2"'
    got = await client.get(f"/v1/tables/{tid}", headers=PLATFORM)
    assert got.status_code == 200 and got.headers["etag"] == f'"{instance}.2"'
    assert got.json()["view"]["hands"] == HANDS


async def test_move_applies_once_then_stale_version_is_409(client: AsyncTestClient[Any]) -> None:
    tid = table_id()
    await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    moved = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
    )
    assert moved.status_code == 200, moved.text
    body = moved.json()
    assert body["version"] == 2
    assert [e["type"] for e in body["events"]] == ["move", "played"]  # move: the platform's record
    assert body["view"]["turn"] == 1
    again = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
    )
    document = assert_problem(again, 409, "VERSION_CONFLICT", "$.version")
    assert document["current_version"] == 2


async def test_illegal_move_is_422_with_reason_and_changes_nothing(
    client: AsyncTestClient[Any],
) -> None:
    tid = table_id()
    await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    wrong_seat = {"seat": 2, "action": "play", "cards": ["9S"]}
    refused = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": wrong_seat, "version": 1}, headers=PLATFORM
    )
    document = assert_problem(refused, 422, "NOT_YOUR_TURN", "$.move")
    assert document["errors"][0]["rule"] == "T-1"
    assert document["title"] == "Illegal move"  # a verdict about the game, not bad input
    not_held = {"seat": 0, "action": "play", "cards": ["8S"]}
    refused = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": not_held, "version": 1}, headers=PLATFORM
    )
    assert_problem(refused, 422, "CARDS_NOT_IN_HAND")
    got = (await client.get(f"/v1/tables/{tid}", headers=PLATFORM)).json()
    assert got["version"] == 1 and got["view"]["turn"] == 0


async def test_missing_table_is_404_and_delete_is_204(client: AsyncTestClient[Any]) -> None:
    tid = table_id()
    assert_problem(await client.get(f"/v1/tables/{tid}", headers=PLATFORM), 404, "TABLE_NOT_FOUND")
    missing = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
    )
    assert_problem(missing, 404, "TABLE_NOT_FOUND")
    await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    assert (await client.delete(f"/v1/tables/{tid}", headers=PLATFORM)).status_code == 204
    assert (await client.get(f"/v1/tables/{tid}", headers=PLATFORM)).status_code == 404


async def test_bad_snapshot_is_422_and_bad_body_400(client: AsyncTestClient[Any]) -> None:
    tid = table_id()
    five_sevens = {**SNAPSHOT, "hands": [["7S"] * 3, ["7S"] * 2, *HANDS[2:]]}
    response = await client.put(
        f"/v1/tables/{tid}", json={"snapshot": five_sevens}, headers=PLATFORM
    )
    assert_problem(response, 422, "TOO_MANY_COPIES")
    response = await client.put(f"/v1/tables/{tid}", json={"snapshot": 3}, headers=PLATFORM)
    assert_problem(response, 400, "INVALID_FIELD", "$.snapshot")
    response = await client.put(
        "/v1/tables/bad%20id", json={"snapshot": SNAPSHOT}, headers=PLATFORM
    )
    assert_problem(response, 400, "INVALID_FIELD", "$.path.table_id")
    assert (await client.get(f"/v1/tables/{tid}", headers=PLATFORM)).status_code == 404


async def test_seat_view_shows_own_hand_and_counts_only(client: AsyncTestClient[Any]) -> None:
    tid = table_id()
    await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    view = (await client.get(f"/v1/tables/{tid}/seats/1", headers=PLATFORM)).json()
    assert view["hand"] == HANDS[1]
    assert view["counts"] == [4, 3, 2, 3, 2]
    assert view["guard"] is None and view["emperor"] == 0
    guard_view = (await client.get(f"/v1/tables/{tid}/seats/3", headers=PLATFORM)).json()
    assert guard_view["guard"] == 3
    text = str(view)
    for seat, hand in enumerate(HANDS):
        if seat != 1:
            assert not any(f"'{card}'" in text for card in hand if card not in ("KD", "8S", "8H"))


async def _race(clients: list[AsyncTestClient[Any]], tid: str, version: int) -> list[int]:
    gate = asyncio.Event()

    async def one(n: int) -> int:
        await gate.wait()
        response = await clients[n % len(clients)].post(
            f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": version}, headers=PLATFORM
        )
        return response.status_code

    tasks = [asyncio.create_task(one(n)) for n in range(32)]
    await asyncio.sleep(0)
    gate.set()
    return list(await asyncio.gather(*tasks))


async def test_32_racing_clients_exactly_one_wins_each_round(redis_url: str | None) -> None:
    replicas = 1 if redis_url is None else 2  # one process per memory store; Redis is shared
    apps = [create_app(settings(redis_url)) for _ in range(replicas)]
    async with AsyncTestClient(apps[0]) as first:
        clients = [first]
        if replicas == 2:
            second = AsyncTestClient(apps[1])
            clients.append(await second.__aenter__())
        try:
            tid = table_id()
            for _ in range(15):
                put = await first.put(
                    f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM
                )
                version = put.json()["version"]
                statuses = await _race(clients, tid, version)
                assert sorted(statuses) == [200] + [409] * 31, statuses
                table = (await first.get(f"/v1/tables/{tid}", headers=PLATFORM)).json()
                assert table["version"] == version + 1
                assert table["view"]["hands"][0] == ["BJ*", "9D"]
        finally:
            if replicas == 2:
                await clients[1].__aexit__(None, None, None)


# --- access control ---------------------------------------------------------------------------


def _routes(tid: str, seat: int) -> list[tuple[str, str, dict[str, Any] | None]]:
    move = {"seat": seat, "action": "play", "cards": ["7S"]}
    return [
        ("PUT", f"/v1/tables/{tid}", {"snapshot": SNAPSHOT}),
        ("GET", f"/v1/tables/{tid}", None),
        ("POST", f"/v1/tables/{tid}/moves", {"move": move, "version": 99}),
        ("GET", f"/v1/tables/{tid}/seats/{seat}", None),
        ("DELETE", f"/v1/tables/{tid}", None),
    ]


async def test_auth_matrix_on_every_table_route() -> None:
    async with AsyncTestClient(create_app(settings(None))) as client:
        tid = table_id()
        created = (
            await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
        ).json()
        tokens = created["seat_tokens"]
        own = {"Authorization": f"Bearer {tokens[0]}"}
        other = {"Authorization": f"Bearer {tokens[1]}"}
        spectator = {"Authorization": f"Bearer {created['spectator_token']}"}
        wrong = {"Authorization": "Bearer not-a-key"}
        for method, url, json in _routes(tid, 0):
            no_key = await client.request(method, url, json=json)
            assert_problem(no_key, 401, "UNAUTHORIZED")
            assert no_key.headers["www-authenticate"].startswith("Bearer")
            assert_problem(await client.request(method, url, json=json, headers=wrong), 401,
                           "UNAUTHORIZED")  # fmt: skip
            own_seat = await client.request(method, url, json=json, headers=own)
            other_seat = await client.request(method, url, json=json, headers=other)
            watcher = await client.request(method, url, json=json, headers=spectator)
            if method == "GET" and url.endswith(tid):  # everyone reads, each their own view
                assert own_seat.status_code == other_seat.status_code == 200
                assert own_seat.json()["view"]["seat"] == 0
                assert other_seat.json()["view"]["seat"] == 1
                assert watcher.status_code == 200 and "hand" not in watcher.json()["view"]
            elif url.endswith("/seats/0"):
                assert own_seat.status_code == 200
                assert_problem(other_seat, 403, "FORBIDDEN")
                assert_problem(watcher, 403, "FORBIDDEN")
            elif url.endswith("/moves"):
                assert own_seat.status_code == 409  # allowed through; the version is stale
                assert_problem(other_seat, 403, "FORBIDDEN")
                assert_problem(watcher, 403, "FORBIDDEN")
            else:  # PUT and DELETE are the platform's
                for response in (own_seat, other_seat, watcher):
                    assert_problem(response, 403, "FORBIDDEN")
        for method, url, json in _routes(tid, 0):
            response = await client.request(method, url, json=json, headers=PLATFORM)
            assert response.status_code in (200, 201, 204, 409), (method, url, response.text)


async def test_open_mode_without_keys_still_restricts_seat_tokens() -> None:
    async with AsyncTestClient(create_app(settings(None, keys=()))) as client:
        tid = table_id()
        put = await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT})
        assert put.status_code == 201
        tokens = put.json()["seat_tokens"]
        assert (await client.get(f"/v1/tables/{tid}/seats/2")).status_code == 200
        seat_two = {"Authorization": f"Bearer {tokens[2]}"}
        response = await client.get(f"/v1/tables/{tid}/seats/1", headers=seat_two)
        assert_problem(response, 403, "FORBIDDEN")
        response = await client.get(f"/v1/tables/{tid}", headers={"Authorization": "Bearer x"})
        assert_problem(response, 401, "UNAUTHORIZED")


async def test_seat_tokens_are_per_table() -> None:
    async with AsyncTestClient(create_app(settings(None))) as client:
        first, second = table_id(), table_id()
        token = (
            await client.put(f"/v1/tables/{first}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
        ).json()["seat_tokens"][0]
        await client.put(f"/v1/tables/{second}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
        response = await client.get(
            f"/v1/tables/{second}/seats/0", headers={"Authorization": f"Bearer {token}"}
        )
        assert_problem(response, 401, "UNAUTHORIZED")


# --- restarts and outages ------------------------------------------------------------------------


async def test_table_survives_a_service_restart(redis_server: RedisServer) -> None:
    url = shared_redis_url() or redis_server.url
    tid = table_id()
    async with AsyncTestClient(create_app(settings(url))) as client:
        await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    async with AsyncTestClient(create_app(settings(url))) as client:
        got = await client.get(f"/v1/tables/{tid}", headers=PLATFORM)
        assert got.status_code == 200 and got.json()["version"] == 1


async def test_redis_outage_fails_closed_and_recovers_without_restart() -> None:
    with RedisServer.from_environment() as server:
        async with AsyncTestClient(create_app(settings(server.url))) as client:
            tid = table_id()
            await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
            assert (await client.get("/readyz")).status_code == 200
            server.kill()
            for method, url, json in _routes(tid, 0):
                response = await client.request(method, url, json=json, headers=PLATFORM)
                assert_problem(response, 503, "STORE_UNAVAILABLE")
                assert response.headers["retry-after"] == "1"
            assert_problem(await client.get("/readyz"), 503, "STORE_UNAVAILABLE")
            assert (await client.get("/healthz")).status_code == 200
            compare = await client.post(
                "/v1/combos/compare", json={"previous": ["7S"], "candidate": ["8S"]}
            )
            assert compare.status_code == 200
            validate = await client.post(
                "/v1/moves/validate", json={"snapshot": SNAPSHOT, "move": LEAD}
            )
            assert validate.status_code == 200 and validate.json()["legal"] is True
            server.start()  # an empty Redis comes back on the same port
            for _ in range(50):
                if (await client.get("/readyz")).status_code == 200:
                    break
                await asyncio.sleep(0.1)
            assert (await client.get("/readyz")).status_code == 200
            put = await client.put(
                f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM
            )
            assert put.status_code == 201


async def test_a_replica_never_judges_a_move_on_a_table_it_no_longer_holds(
    redis_server: RedisServer,
) -> None:
    """Replica A wrote the table last and remembers it; replica B deletes it and creates a new
    table under the same id, which is at version 1 again. A move sent to A for version 1 must be
    judged on B's table (the write token tells them apart), even where A's memory says the move
    is illegal."""
    url = shared_redis_url() or redis_server.url
    tid = table_id()
    other_turn = {**SNAPSHOT, "turn": 1, "emperor": 1, "hands": [HANDS[1], HANDS[0], *HANDS[2:]]}
    other_hands = {**SNAPSHOT, "hands": [["BJ*", "7S", "7H", "2S"], *HANDS[1:]]}
    async with (
        AsyncTestClient(create_app(settings(url))) as replica_a,
        AsyncTestClient(create_app(settings(url))) as replica_b,
    ):
        await replica_a.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
        await replica_b.delete(f"/v1/tables/{tid}", headers=PLATFORM)
        created = await replica_b.put(
            f"/v1/tables/{tid}", json={"snapshot": other_turn}, headers=PLATFORM
        )
        assert created.json()["version"] == 1
        move = {"seat": 1, "action": "play", "cards": ["7S", "7H"]}  # seat 1 now holds them
        moved = await replica_a.post(
            f"/v1/tables/{tid}/moves", json={"move": move, "version": 1}, headers=PLATFORM
        )
        assert moved.status_code == 200, moved.text
        assert moved.json()["view"]["hands"][1] == ["BJ*", "9D"]
        stale = await replica_a.post(
            f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
        )
        assert_problem(stale, 409, "VERSION_CONFLICT")
        # the same move legal on both states: it must be applied to the stored one
        await replica_b.delete(f"/v1/tables/{tid}", headers=PLATFORM)
        await replica_a.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
        await replica_b.delete(f"/v1/tables/{tid}", headers=PLATFORM)
        await replica_b.put(f"/v1/tables/{tid}", json={"snapshot": other_hands}, headers=PLATFORM)
        moved = await replica_a.post(
            f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
        )
        assert moved.status_code == 200, moved.text
        assert moved.json()["view"]["hands"][0] == ["BJ*", "2S"]
