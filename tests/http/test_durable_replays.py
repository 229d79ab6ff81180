"""Every 200 is durable, idempotent replays included, against a real
``baohuang serve`` process on one primary and one replica with ``REDIS_WAIT_REPLICAS=1``.

The replica's link is cut as a network would cut it: the replica can no longer authenticate
(``CONFIG SET masterauth bogus``) and the primary drops it (``CLIENT KILL TYPE replica``). A
move then runs on the primary but no replica holds it: 503 ``OUTCOME_UNKNOWN``. Its retry with
the same ``Idempotency-Key`` finds the remembered answer on the primary — and must not answer
200 while the replica still lacks the write (a failover would promote a replica without it, and
the acknowledged move would be gone). Once the link is back, the same retry answers 200.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from live_server import ProcessServer
from redis_server import RedisServer
from replica_link import ask, cut_link, link_up, primary_with_replica
from table_support import SMALL_BODY

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.slow]

KEY = "durable-replay-platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
MOVE = {"move": {"seat": 0, "action": "play", "cards": ["7S", "7H"]}, "version": 1}


@pytest.fixture(scope="module")
def primary_and_replica() -> Iterator[tuple[RedisServer, RedisServer]]:
    with primary_with_replica() as pair:
        yield pair


@pytest.fixture
async def service(
    primary_and_replica: tuple[RedisServer, RedisServer],
) -> AsyncIterator[httpx.AsyncClient]:
    primary, replica = primary_and_replica
    await link_up(primary, replica)
    environment = {
        "REDIS_URL": primary.url,
        "REDIS_WAIT_REPLICAS": "1",
        "REDIS_WAIT_TIMEOUT_MS": "300",
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "durable-replay-secret",
    }
    server = ProcessServer(environment)
    async with server, httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        yield client
    await link_up(primary, replica)


async def _version_on(server: RedisServer, table: str) -> int | None:
    version = await ask(server, "HGET", f"baohuang:table:{{{table}}}", "v")
    return None if version is None else int(version)


async def test_a_replay_answers_200_only_once_the_replica_holds_the_write(
    service: httpx.AsyncClient, primary_and_replica: tuple[RedisServer, RedisServer]
) -> None:
    primary, replica = primary_and_replica
    table = f"replay-{uuid.uuid4().hex[:8]}"
    created = await service.put(
        f"/v1/tables/{table}", json={"snapshot": SMALL_BODY}, headers=PLATFORM
    )
    assert created.status_code == 201, created.text
    await link_up(primary, replica)
    headers = {**PLATFORM, "Idempotency-Key": "move-1"}

    await cut_link(primary, replica)
    first = await service.post(f"/v1/tables/{table}/moves", json=MOVE, headers=headers)
    assert first.status_code == 503, first.text
    assert first.json()["errors"][0]["code"] == "OUTCOME_UNKNOWN"
    assert await _version_on(primary, table) == 2  # it ran on the primary...
    assert await _version_on(replica, table) == 1  # ...and no replica holds it

    for _ in range(3):  # every retry tries again, and none may claim the move is kept
        retry = await service.post(f"/v1/tables/{table}/moves", json=MOVE, headers=headers)
        assert retry.status_code == 503, retry.text
        assert retry.headers["retry-after"]
        assert retry.json()["errors"][0]["code"] == "OUTCOME_UNKNOWN"
    assert await _version_on(replica, table) == 1

    await link_up(primary, replica)
    replayed = await service.post(f"/v1/tables/{table}/moves", json=MOVE, headers=headers)
    assert replayed.status_code == 200, replayed.text
    assert replayed.json()["replayed"] is True and replayed.json()["version"] == 2
    assert await _version_on(replica, table) == 2


async def test_a_remembered_refusal_needs_no_replica(
    service: httpx.AsyncClient, primary_and_replica: tuple[RedisServer, RedisServer]
) -> None:
    """A refused move changed nothing: its remembered 422 is answered again without a replica
    (the refusal was remembered while the link was up; nothing the replica lacks is claimed)."""
    primary, replica = primary_and_replica
    table = f"refused-{uuid.uuid4().hex[:8]}"
    created = await service.put(
        f"/v1/tables/{table}", json={"snapshot": SMALL_BODY}, headers=PLATFORM
    )
    assert created.status_code == 201, created.text
    headers = {**PLATFORM, "Idempotency-Key": "wrong-seat"}
    wrong = {"move": {"seat": 1, "action": "pass"}, "version": 1}
    refused = await service.post(f"/v1/tables/{table}/moves", json=wrong, headers=headers)
    assert refused.status_code == 422, refused.text
    await cut_link(primary, replica)
    again = await service.post(f"/v1/tables/{table}/moves", json=wrong, headers=headers)
    assert again.status_code == 422, again.text
    assert again.json()["errors"] == refused.json()["errors"]
