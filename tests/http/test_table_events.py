"""The event log and idempotent moves (docs/clients.md "Events", "Idempotency"), on the in-memory store
and on a real Redis.

Every committed write appends its events — with ``seq`` 1, 2, 3 … per instance and the
``version`` it produced — atomically with the write; ``GET …/events?after=SEQ`` pages them, cut
to the caller. A retry under the same ``Idempotency-Key`` gets the original answer; racing
retries apply once; the same key with another request is refused.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, get_args

import httpx
import pytest
from litestar.testing import AsyncTestClient

from baohuang.engine import Event
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.tables.views import CUT_EVENTS, PLATFORM_EVENTS, PUBLIC_EVENTS
from redis_server import shared_redis_url
from table_support import SMALL_BODY

from .problem_checks import assert_problem

pytestmark = pytest.mark.anyio

KEY = "platform-key-1"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
SNAPSHOT = SMALL_BODY
LEAD = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
BEAT = {"seat": 1, "action": "play", "cards": ["8S", "8H"]}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """Module-wide, so one app (:func:`client`) serves the module's tests on one event loop."""
    return "asyncio"


@pytest.fixture(scope="module", params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def settings(request: pytest.FixtureRequest) -> Settings:
    url: str | None = None
    if request.param == "redis":
        url = shared_redis_url() or request.getfixturevalue("redis_server").url
    return Settings(redis_url=url, api_keys=(KEY,), token_secret="events-test")


@pytest.fixture(scope="module")
async def client(settings: Settings) -> AsyncIterator[AsyncTestClient[Any]]:
    """One app per store for the module (an app costs about 40 ms to build): each test plays
    tables of its own (:func:`_table`), so none sees another's."""
    async with AsyncTestClient(create_app(settings)) as test_client:
        yield test_client


async def _table(client: AsyncTestClient[Any]) -> tuple[str, dict[str, Any]]:
    tid = f"ev-{uuid.uuid4().hex}"
    created = await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    assert created.status_code == 201, created.text
    return tid, created.json()


def _timeless(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events without the time they were logged (``at``) and their ids."""
    return [{k: v for k, v in event.items() if k not in ("at", "id")} for event in events]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_event_type_is_classified_as_public_or_not() -> None:
    """Adding an event type forces a decision in tables/views.py: until it is listed there, no
    seat or spectator ever sees it."""
    classified = [PUBLIC_EVENTS, PLATFORM_EVENTS, CUT_EVENTS]
    assert set(get_args(Event)) == set().union(*classified)
    assert sum(map(len, classified)) == len(get_args(Event))  # each decided once


async def test_every_move_logs_its_events_with_seq_and_version(
    client: AsyncTestClient[Any],
) -> None:
    tid, created = await _table(client)
    dealt = (await client.get(f"/v1/tables/{tid}/events", headers=PLATFORM)).json()["events"]
    assert [e["type"] for e in dealt] == ["dealt"] and dealt[0]["seq"] == 1  # the deal's record
    assert dealt[0]["snapshot"]["hands"] == SNAPSHOT["hands"] and dealt[0]["version"] == 1
    first = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
    )
    assert all(e.pop("at") == pytest.approx(time.time(), abs=60) for e in first.json()["events"])
    ids = [e["id"] for e in first.json()["events"]]
    token = ids[0].partition(".")[2]  # each event's id: its seq and its write's token
    assert token and ids == [f"2.{token}", f"3.{token}"]
    assert _timeless(first.json()["events"]) == [
        {"type": "move", "move": LEAD, "by": "seat", "seq": 2, "version": 2},
        {"type": "played", "seat": 0, "cards": ["7S", "7H"], "seq": 3, "version": 2},
    ]
    seat1 = _bearer(created["seat_tokens"][1])
    second = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": BEAT, "version": 2}, headers=seat1
    )
    shown = [(e["type"], e["seq"]) for e in second.json()["events"]]
    assert shown == [("played", 5)]  # seq 4 is its move's record, the platform's to see
    page = (await client.get(f"/v1/tables/{tid}/events", headers=PLATFORM)).json()
    assert page["last_seq"] == 5 and page["version"] == 3
    assert [e["seq"] for e in page["events"]] == [1, 2, 3, 4, 5]
    assert _timeless(page["events"][1:3]) == _timeless(first.json()["events"])
    assert [e["id"] for e in page["events"][1:3]] == ids
    after = (await client.get(f"/v1/tables/{tid}/events?after=3", headers=PLATFORM)).json()
    assert [e["type"] for e in after["events"]] == ["move", "played"]
    limited = (await client.get(f"/v1/tables/{tid}/events?limit=1", headers=PLATFORM)).json()
    assert limited["events"] == dealt and limited["last_seq"] == 5
    read = (await client.get(f"/v1/tables/{tid}", headers=PLATFORM)).json()
    assert read["last_seq"] == 5


async def test_a_refused_move_logs_nothing_and_a_put_starts_a_new_log(
    client: AsyncTestClient[Any],
) -> None:
    tid, _ = await _table(client)
    events = f"/v1/tables/{tid}/events"
    refused = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": BEAT, "version": 1}, headers=PLATFORM
    )
    assert_problem(refused, 422, "NOT_YOUR_TURN")
    stale = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 5}, headers=PLATFORM
    )
    assert_problem(stale, 409, "VERSION_CONFLICT")
    page = (await client.get(events, headers=PLATFORM)).json()
    assert [e["type"] for e in page["events"]] == ["dealt"]
    await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
    )
    await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    page = (await client.get(events, headers=PLATFORM)).json()
    assert [e["type"] for e in page["events"]] == ["dealt"] and page["last_seq"] == 1
    moved = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 3}, headers=PLATFORM
    )
    assert moved.json()["events"][0]["seq"] == 2  # seq counts per instance


async def test_the_log_answers_each_caller_as_it_may_see(client: AsyncTestClient[Any]) -> None:
    tid, created = await _table(client)
    await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
    )
    for token in [*created["seat_tokens"], created["spectator_token"]]:
        page = await client.get(f"/v1/tables/{tid}/events", headers=_bearer(token))
        assert page.status_code == 200 and page.json()["last_seq"] == 3
        shown = [(e["type"], e["seq"]) for e in page.json()["events"]]
        assert shown == [("played", 3)]  # the deal's and the move's records are the platform's
    assert_problem(await client.get(f"/v1/tables/{tid}/events"), 401, "UNAUTHORIZED")
    assert_problem(
        await client.get(f"/v1/tables/nope-{tid}/events", headers=PLATFORM), 404, "TABLE_NOT_FOUND"
    )
    await client.put(f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM)
    stale = await client.get(f"/v1/tables/{tid}/events", headers=_bearer(created["seat_tokens"][0]))
    assert_problem(stale, 401, "UNAUTHORIZED")
    bad = await client.get(f"/v1/tables/{tid}/events?after=-1", headers=PLATFORM)
    assert_problem(bad, 400, "INVALID_FIELD")


async def test_a_retry_after_a_lost_answer_gets_the_original_answer(
    client: AsyncTestClient[Any],
) -> None:
    tid, created = await _table(client)
    seat0 = {**_bearer(created["seat_tokens"][0]), "Idempotency-Key": "move-1"}
    first = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=seat0
    )
    assert first.status_code == 200 and "replayed" not in first.json()
    await client.post(
        f"/v1/tables/{tid}/moves", json={"move": BEAT, "version": 2}, headers=PLATFORM
    )
    again = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=seat0
    )
    assert again.status_code == 200, again.text
    body = again.json()
    assert body["replayed"] is True
    assert body["version"] == first.json()["version"] == 2
    assert body["events"] == first.json()["events"]
    assert body["view"]["seat"] == 0 and body["view"]["turn"] == 2  # the table as it is now
    assert (await client.get(f"/v1/tables/{tid}", headers=PLATFORM)).json()["version"] == 3


async def test_the_same_key_with_another_request_is_refused(client: AsyncTestClient[Any]) -> None:
    tid, _ = await _table(client)
    headers = {**PLATFORM, "Idempotency-Key": "k"}
    await client.post(f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=headers)
    other = {"seat": 1, "action": "pass"}
    reused = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": other, "version": 2}, headers=headers
    )
    assert_problem(reused, 422, "IDEMPOTENCY_KEY_REUSED", "$.headers.idempotency-key")
    bad_key = await client.post(
        f"/v1/tables/{tid}/moves",
        json={"move": other, "version": 2},
        headers={**PLATFORM, "Idempotency-Key": "has space"},
    )
    assert_problem(bad_key, 400, "INVALID_FIELD")


async def test_a_refusal_under_a_key_is_answered_again_the_same(
    client: AsyncTestClient[Any],
) -> None:
    tid, _ = await _table(client)
    headers = {**PLATFORM, "Idempotency-Key": "refused-once"}
    refused = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": BEAT, "version": 1}, headers=headers
    )
    assert_problem(refused, 422, "NOT_YOUR_TURN")
    await client.post(
        f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=PLATFORM
    )
    again = await client.post(
        f"/v1/tables/{tid}/moves", json={"move": BEAT, "version": 1}, headers=headers
    )
    first, second = refused.json(), again.json()
    assert first.pop("instance") != second.pop("instance")  # each answer names its own request
    assert second == first  # not a 409: the same answer as the first time


async def test_racing_requests_under_one_key_apply_once_and_answer_alike(
    settings: Settings,
) -> None:
    """Sixteen copies of one request, sent at once through two replicas (one on the memory
    store): one move is applied and all get the same version and events."""
    apps = [create_app(settings)]
    if settings.redis_url is not None:
        apps.append(create_app(settings))
    async with apps[0].lifespan(), apps[-1].lifespan() if len(apps) > 1 else _nothing():
        clients = [
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")
            for app in apps
        ]
        tid = f"race-{uuid.uuid4().hex}"
        put = await clients[0].put(
            f"/v1/tables/{tid}", json={"snapshot": SNAPSHOT}, headers=PLATFORM
        )
        assert put.status_code == 201
        headers = {**PLATFORM, "Idempotency-Key": "one-move"}
        answers = await asyncio.gather(
            *(
                clients[n % len(clients)].post(
                    f"/v1/tables/{tid}/moves", json={"move": LEAD, "version": 1}, headers=headers
                )
                for n in range(16)
            )
        )
        assert {a.status_code for a in answers} == {200}, [a.text for a in answers]
        assert {a.json()["version"] for a in answers} == {2}
        assert len({str(a.json()["events"]) for a in answers}) == 1
        assert sum(not a.json().get("replayed", False) for a in answers) == 1
        page = (await clients[0].get(f"/v1/tables/{tid}/events", headers=PLATFORM)).json()
        assert [e["type"] for e in page["events"]] == ["dealt", "move", "played"]
        assert page["version"] == 2
        for each in clients:
            await each.aclose()


class _nothing:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None
