"""Idempotency keys belong to their caller and are bounded per table, over HTTP on
a real Redis: a seat's key can be neither spent nor blocked by another seat, the same key with
the same move at another version is never a silent replay, and a table keeps only the newest
``BAOHUANG_IDEMPOTENCY_KEYS`` keys."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from redis_server import RedisServer
from table_support import SMALL_BODY

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

PLATFORM = {"Authorization": "Bearer owners-key"}
LEAD = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}


def _client(redis_server: RedisServer, **settings: Any) -> AsyncTestClient[Any]:
    return AsyncTestClient(
        create_app(
            Settings(
                redis_url=redis_server.url,
                api_keys=("owners-key", "other-platform-key"),
                token_secret="owners-secret",
                **settings,
            )
        )
    )


@pytest.fixture
async def client(redis_server: RedisServer) -> AsyncIterator[AsyncTestClient[Any]]:
    async with _client(redis_server) as made:
        yield made


async def _table(client: AsyncTestClient[Any]) -> tuple[str, list[str]]:
    path = f"/v1/tables/owners-{uuid.uuid4().hex[:8]}"
    created = await client.put(path, json={"snapshot": SMALL_BODY}, headers=PLATFORM)
    assert created.status_code == 201, created.text
    return path, created.json()["seat_tokens"]


def _as(token: str, key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Idempotency-Key": key}


async def test_another_seat_cannot_spend_or_block_a_seats_key(
    client: AsyncTestClient[Any],
) -> None:
    path, seats = await _table(client)
    # Seat 1 guesses seat 0's next key and spends it first, on a move the rules refuse.
    stolen = await client.post(
        f"{path}/moves",
        json={"move": {"seat": 1, "action": "pass"}, "version": 1},
        headers=_as(seats[1], "seat0-move-1"),
    )
    assert stolen.status_code == 422, stolen.text
    assert stolen.json()["errors"][0]["code"] == "NOT_YOUR_TURN"
    # Seat 0's move under that key is its own: applied, not refused as a reused key.
    moved = await client.post(
        f"{path}/moves", json={"move": LEAD, "version": 1}, headers=_as(seats[0], "seat0-move-1")
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["version"] == 2 and "replayed" not in moved.json()
    # Each retry gets its own caller's answer back.
    again = await client.post(
        f"{path}/moves", json={"move": LEAD, "version": 1}, headers=_as(seats[0], "seat0-move-1")
    )
    assert again.status_code == 200 and again.json()["replayed"] is True
    theirs = await client.post(
        f"{path}/moves",
        json={"move": {"seat": 1, "action": "pass"}, "version": 1},
        headers=_as(seats[1], "seat0-move-1"),
    )
    assert theirs.status_code == 422
    assert theirs.json()["errors"][0]["code"] == "NOT_YOUR_TURN"


async def test_a_seats_spent_key_is_a_new_key_for_a_platform_and_for_another_platform_key(
    client: AsyncTestClient[Any],
) -> None:
    path, seats = await _table(client)
    done = await client.post(
        f"{path}/moves", json={"move": LEAD, "version": 1}, headers=_as(seats[0], "k")
    )
    assert done.status_code == 200, done.text
    # The platform sending the same key and body is a new request: stale version, 409.
    platform = await client.post(
        f"{path}/moves",
        json={"move": LEAD, "version": 1},
        headers={**PLATFORM, "Idempotency-Key": "k"},
    )
    assert platform.status_code == 409, platform.text
    pass_ = {"move": {"seat": 1, "action": "pass"}, "version": 2}
    first = await client.post(
        f"{path}/moves", json=pass_, headers={**PLATFORM, "Idempotency-Key": "p"}
    )
    assert first.status_code == 200, first.text
    other = {"Authorization": "Bearer other-platform-key", "Idempotency-Key": "p"}
    second = await client.post(f"{path}/moves", json=pass_, headers=other)
    assert second.status_code == 409, second.text  # not the first platform key's replay


async def test_the_same_key_and_move_at_another_version_is_a_reused_key(
    client: AsyncTestClient[Any],
) -> None:
    """The fingerprint covers the version: the same move body sent at another version under an
    old key is another request, never the old move's answer given back as if applied."""
    path, seats = await _table(client)
    headers = _as(seats[0], "lead")
    first = await client.post(f"{path}/moves", json={"move": LEAD, "version": 1}, headers=headers)
    assert first.status_code == 200, first.text
    later = await client.post(f"{path}/moves", json={"move": LEAD, "version": 2}, headers=headers)
    assert later.status_code == 422, later.text
    assert later.json()["errors"][0]["code"] == "IDEMPOTENCY_KEY_REUSED"


async def test_a_table_keeps_only_its_newest_keys(redis_server: RedisServer) -> None:
    async with _client(redis_server, idempotency_keys=2) as client:
        path, seats = await _table(client)
        moves = [
            ({"move": LEAD, "version": 1}, seats[0]),
            ({"move": {"seat": 1, "action": "pass"}, "version": 2}, seats[1]),
            ({"move": {"seat": 2, "action": "pass"}, "version": 3}, seats[2]),
        ]
        for n, (body, token) in enumerate(moves):
            answer = await client.post(f"{path}/moves", json=body, headers=_as(token, f"m{n}"))
            assert answer.status_code == 200, answer.text
        for n in (1, 2):  # the newest two are replayed
            body, token = moves[n]
            again = await client.post(f"{path}/moves", json=body, headers=_as(token, f"m{n}"))
            assert again.status_code == 200 and again.json()["replayed"] is True
        body, token = moves[0]  # the oldest was dropped: a new request at a stale version
        dropped = await client.post(f"{path}/moves", json=body, headers=_as(token, "m0"))
        assert dropped.status_code == 409, dropped.text


async def test_a_seat_that_changed_hands_does_not_inherit_the_old_holders_keys(
    client: AsyncTestClient[Any],
) -> None:
    """A new token for a seat is a new owner of keys: the old holder's remembered answer is
    neither replayed to the new holder nor a reason to refuse the new holder's key."""
    path, seats = await _table(client)
    refused = {"move": {"seat": 0, "action": "pass"}, "version": 1}  # the leader cannot pass
    old = await client.post(f"{path}/moves", json=refused, headers=_as(seats[0], "kk"))
    assert old.status_code == 422, old.text
    rotated = await client.post(f"{path}/seats/0/token", headers=PLATFORM)
    assert rotated.status_code == 200, rotated.text
    new_token, version = rotated.json()["token"], rotated.json()["version"]
    moved = await client.post(
        f"{path}/moves", json={"move": LEAD, "version": version}, headers=_as(new_token, "kk")
    )
    assert moved.status_code == 200, moved.text  # not IDEMPOTENCY_KEY_REUSED
    assert "replayed" not in moved.json()
