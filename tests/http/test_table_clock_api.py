"""``POST /v1/tables/{id}/clock`` (docs/clients.md "When the clock starts"): the clock starts at
this write, not at ``PUT``; it can be changed or stopped; only a platform may; it is a write
like any other (409 for a stale version). On the in-memory store and on a real Redis."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from redis_server import RedisServer, shared_redis_url
from table_support import SMALL_BODY

from .problem_checks import assert_problem

pytestmark = pytest.mark.anyio

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
CLOCK = {"turn_seconds": 25, "before_play_seconds": 40}


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def redis_url(request: pytest.FixtureRequest) -> str | None:
    if request.param == "memory":
        return None
    shared = shared_redis_url()
    if shared is not None:
        return shared
    server: RedisServer = request.getfixturevalue("redis_server")
    return server.url


@pytest.fixture
async def client(redis_url: str | None) -> AsyncIterator[AsyncTestClient[Any]]:
    settings = Settings(redis_url=redis_url, api_keys=(KEY,), token_secret="clock-route")
    async with AsyncTestClient(create_app(settings)) as test_client:
        yield test_client


async def _table(client: AsyncTestClient[Any]) -> tuple[str, dict[str, Any]]:
    tid = f"clock-{uuid.uuid4().hex}"
    created = await client.put(f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=PLATFORM)
    assert created.status_code == 201, created.text
    return tid, created.json()


async def test_the_clock_starts_at_the_clock_write_and_stops_with_null(
    client: AsyncTestClient[Any],
) -> None:
    tid, created = await _table(client)
    assert created["table"]["deadline"] is None and created["table"]["clock"] is None
    before = time.time()
    started = await client.post(
        f"/v1/tables/{tid}/clock", json={"clock": CLOCK, "version": 1}, headers=PLATFORM
    )
    assert started.status_code == 200, started.text
    body = started.json()
    assert body["version"] == 2 and body["table"]["clock"] == CLOCK
    assert before + 25 <= body["table"]["deadline"] <= time.time() + 25
    assert [(e["type"], e["seat"]) for e in body["events"]] == [("clock", 0)]
    seat = {"Authorization": f"Bearer {created['seat_tokens'][0]}"}
    seen = (await client.get(f"/v1/tables/{tid}", headers=seat)).json()
    assert seen["table"]["deadline"] == body["table"]["deadline"]
    log = (await client.get(f"/v1/tables/{tid}/events?after=1", headers=seat)).json()
    assert [e["type"] for e in log["events"]] == ["clock"]  # public, as every clock event
    stopped = await client.post(f"/v1/tables/{tid}/clock", json={"clock": None}, headers=PLATFORM)
    assert stopped.status_code == 200, stopped.text
    assert stopped.json()["table"]["deadline"] is None and stopped.json()["table"]["clock"] is None
    assert [(e["type"], e["seat"], e["deadline"]) for e in stopped.json()["events"]] == [
        ("clock", None, None)
    ]


async def test_only_a_platform_sets_the_clock_stale_tokens_401_stale_versions_409(
    client: AsyncTestClient[Any],
) -> None:
    tid, created = await _table(client)
    url = f"/v1/tables/{tid}/clock"
    for token in [*created["seat_tokens"], created["spectator_token"]]:
        refused = await client.post(
            url, json={"clock": CLOCK}, headers={"Authorization": f"Bearer {token}"}
        )
        assert_problem(refused, 403, "FORBIDDEN")
    rotated = await client.post(f"/v1/tables/{tid}/seats/2/token", headers=PLATFORM)
    assert rotated.status_code == 200
    revoked = {"Authorization": f"Bearer {created['seat_tokens'][2]}"}
    assert_problem(
        await client.post(url, json={"clock": CLOCK}, headers=revoked), 401, "TOKEN_REVOKED"
    )
    stale = await client.post(url, json={"clock": CLOCK, "version": 1}, headers=PLATFORM)
    assert_problem(stale, 409, "VERSION_CONFLICT", "$.version")
    bad = await client.post(
        url, json={"clock": {"turn_seconds": 0, "before_play_seconds": 9}}, headers=PLATFORM
    )
    assert_problem(bad, 400, "INVALID_FIELD", "$.clock.turn_seconds")
    missing = await client.post(url, json={"version": 2}, headers=PLATFORM)
    assert_problem(missing, 400, "INVALID_FIELD")  # "clock" is required (null to stop)
    gone = await client.post(
        f"/v1/tables/nope-{uuid.uuid4().hex}/clock", json={"clock": None}, headers=PLATFORM
    )
    assert_problem(gone, 404, "TABLE_NOT_FOUND")
    again = await client.put(f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=PLATFORM)
    assert again.status_code == 200
    earlier = {"Authorization": f"Bearer {created['seat_tokens'][0]}"}
    assert_problem(
        await client.post(url, json={"clock": CLOCK}, headers=earlier), 401, "UNAUTHORIZED"
    )
