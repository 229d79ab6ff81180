"""Table instances (docs/clients.md "Callers"): every PUT makes a new instance, and nothing held from an
earlier one — a replica's memory of its last write, a seat token, a version — can reach the new
table. Two app instances on one real Redis stand for two replicas.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from caller_support import assert_stale_tokens_are_401_on_every_route
from redis_server import RedisServer, shared_redis_url
from table_support import SMALL_BODY

from .problem_checks import assert_problem

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

KEY = "platform-key-1"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
CLASSIC = SMALL_BODY
# lianzhong-simple (G-3): seat 2 holds SJ* and is the guard; it is seat 2's turn to lead.
SIMPLE: dict[str, Any] = {
    "ruleset": "lianzhong-simple",
    "mode": "team",
    "emperor": 0,
    "guard": 2,
    "hands": [["BJ*", "7S", "7H"], ["8S", "8H", "KD"], ["SJ*", "QH"], ["TS", "TH"], ["JS"]],
    "turn": 2,
}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """Module-wide, so the module's two replicas (:func:`replicas`) and its tests share one
    event loop."""
    return "asyncio"


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    shared = shared_redis_url()
    if shared is not None:
        yield shared
        return
    with RedisServer.from_environment() as server:
        yield server.url


@pytest.fixture(scope="module")
async def replicas(redis_url: str) -> AsyncIterator[tuple[Any, Any]]:
    """Two replicas for the module (an app costs about 40 ms to build): each test plays tables
    of its own (:func:`_tid`), so none sees another's."""
    settings = Settings(redis_url=redis_url, api_keys=(KEY,), token_secret="test-secret")
    async with (
        AsyncTestClient(create_app(settings)) as replica_a,
        AsyncTestClient(create_app(settings)) as replica_b,
    ):
        yield replica_a, replica_b


def _tid() -> str:
    return f"inst-{uuid.uuid4().hex}"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_replica_judges_a_move_on_the_new_instance_not_its_memory(
    replicas: tuple[Any, Any],
) -> None:
    """Replica A wrote a classic table last; replica B deletes it and puts a lianzhong-simple
    table under the same id. ``SJ*`` is no card at all in classic, yet legal on B's table: A
    must judge the move on the stored table, not refuse it from what it remembers."""
    replica_a, replica_b = replicas
    tid = _tid()
    await replica_a.put(f"/v1/tables/{tid}", json={"snapshot": CLASSIC}, headers=PLATFORM)
    await replica_b.delete(f"/v1/tables/{tid}", headers=PLATFORM)
    created = await replica_b.put(f"/v1/tables/{tid}", json={"snapshot": SIMPLE}, headers=PLATFORM)
    assert created.status_code == 201 and created.json()["version"] == 1
    move = {"seat": 2, "action": "play", "cards": ["SJ*"]}
    moved = await replica_a.post(
        f"/v1/tables/{tid}/moves", json={"move": move, "version": 1}, headers=PLATFORM
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["instance"] == created.json()["instance"]


async def test_tokens_of_an_earlier_instance_are_refused_on_every_replica(
    replicas: tuple[Any, Any],
) -> None:
    """A client still holding a seat token and version 1 of a deleted game cannot move in, nor
    read, the new game under the same id, which is at version 1 too."""
    replica_a, replica_b = replicas
    tid = _tid()
    old = (
        await replica_a.put(f"/v1/tables/{tid}", json={"snapshot": CLASSIC}, headers=PLATFORM)
    ).json()
    await replica_b.delete(f"/v1/tables/{tid}", headers=PLATFORM)
    new = (
        await replica_b.put(f"/v1/tables/{tid}", json={"snapshot": CLASSIC}, headers=PLATFORM)
    ).json()
    assert new["version"] == old["version"] == 1 and new["instance"] != old["instance"]
    lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
    for replica in (replica_a, replica_b):
        stale_seat = _bearer(old["seat_tokens"][0])
        moved = await replica.post(
            f"/v1/tables/{tid}/moves", json={"move": lead, "version": 1}, headers=stale_seat
        )
        assert_problem(moved, 401, "UNAUTHORIZED")
        assert_problem(
            await replica.get(f"/v1/tables/{tid}", headers=stale_seat), 401, "UNAUTHORIZED"
        )
        spectator = _bearer(old["spectator_token"])
        assert_problem(
            await replica.get(f"/v1/tables/{tid}", headers=spectator), 401, "UNAUTHORIZED"
        )
    # the new tokens work, and the table never moved
    fresh = await replica_a.post(
        f"/v1/tables/{tid}/moves",
        json={"move": lead, "version": 1},
        headers=_bearer(new["seat_tokens"][0]),
    )
    assert fresh.status_code == 200, fresh.text
    assert fresh.json()["version"] == 2


async def test_a_platform_version_with_its_instance_never_lands_on_a_new_table(
    replicas: tuple[Any, Any],
) -> None:
    """A platform that sends the instance it saw gets 409 after the table was created again,
    even at the same version; the same request with the current instance goes through."""
    replica_a, replica_b = replicas
    tid = _tid()
    old = (
        await replica_a.put(f"/v1/tables/{tid}", json={"snapshot": CLASSIC}, headers=PLATFORM)
    ).json()
    await replica_b.delete(f"/v1/tables/{tid}", headers=PLATFORM)
    new = (
        await replica_b.put(f"/v1/tables/{tid}", json={"snapshot": CLASSIC}, headers=PLATFORM)
    ).json()
    lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
    for replica in (replica_a, replica_b):
        stale = await replica.post(
            f"/v1/tables/{tid}/moves",
            json={"move": lead, "version": 1, "instance": old["instance"]},
            headers=PLATFORM,
        )
        document = assert_problem(stale, 409, "VERSION_CONFLICT", "$.version")
        assert document["current_version"] == 1
    current = await replica_a.post(
        f"/v1/tables/{tid}/moves",
        json={"move": lead, "version": 1, "instance": new["instance"]},
        headers=PLATFORM,
    )
    assert current.status_code == 200, current.text


async def test_a_seat_token_for_another_instance_than_the_body_names_is_refused(
    replicas: tuple[Any, Any],
) -> None:
    replica_a, _ = replicas
    tid = _tid()
    created = (
        await replica_a.put(f"/v1/tables/{tid}", json={"snapshot": CLASSIC}, headers=PLATFORM)
    ).json()
    lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
    moved = await replica_a.post(
        f"/v1/tables/{tid}/moves",
        json={"move": lead, "version": 1, "instance": "0" * 16},
        headers=_bearer(created["seat_tokens"][0]),
    )
    assert_problem(moved, 401, "UNAUTHORIZED")


async def test_tokens_of_an_earlier_instance_are_401_before_any_role_check(
    replicas: tuple[Any, Any],
) -> None:
    await assert_stale_tokens_are_401_on_every_route(replicas[0], PLATFORM)
