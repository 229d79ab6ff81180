"""Streams never show a history that did not happen, against a real
``baohuang serve`` process on a real primary and replica.

The rollback is made as a failover makes it: the replica's link is cut, moves run on the primary
alone (503 ``OUTCOME_UNKNOWN``, but their events reach the followers), then the primary takes
the replica's data (``REPLICAOF`` it, a full resync) and becomes primary again — exactly the
state of a promoted replica that lacked the last writes. The next move logs other events under
the same seqs. Every follower — SSE, NDJSON, a resume with the rolled-back ``Last-Event-ID``,
a poller — must be told (a reset), and end on the log as it now is.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from followers import Stream
from live_server import ProcessServer
from redis_server import RedisServer
from replica_link import ask, cut_link, in_sync, link_up, primary_with_replica, replication, until
from table_support import SMALL_BODY

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.slow]

KEY = "rollback-platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
LEAD = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
OTHER_LEAD = {"seat": 0, "action": "play", "cards": ["9D"]}
PASS_1 = {"seat": 1, "action": "pass"}


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[RedisServer, RedisServer]]:
    with primary_with_replica() as both:
        yield both


async def roll_back(primary: RedisServer, replica: RedisServer) -> None:
    """The replica is promoted; the old primary takes its (older) data, then serves again as
    the primary (so the service's URL names the rolled-back data)."""
    await ask(replica, "REPLICAOF", "NO", "ONE")
    await ask(primary, "REPLICAOF", replica.host, str(replica.port))

    async def resynced() -> bool:
        return (await replication(primary)).get("master_link_status") == "up"

    await until(resynced)
    await ask(primary, "REPLICAOF", "NO", "ONE")
    await ask(replica, "CONFIG", "SET", "masterauth", "")
    await ask(replica, "REPLICAOF", primary.host, str(primary.port))
    await until(lambda: in_sync(primary))


@pytest.fixture
async def service(pair: tuple[RedisServer, RedisServer]) -> AsyncIterator[httpx.AsyncClient]:
    primary, replica = pair
    await link_up(primary, replica)
    environment = {
        "REDIS_URL": primary.url,
        "REDIS_WAIT_REPLICAS": "1",
        "REDIS_WAIT_TIMEOUT_MS": "300",
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "rollback-secret",
        "BAOHUANG_STREAM_HEARTBEAT_SECONDS": "1",
    }
    server = ProcessServer(environment)
    async with server, httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        yield client


def _events(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        f["data"]
        for f in frames
        if "seq" in f["data"] and f.get("event") not in ("snapshot", "reset", "closed")
    ]


async def test_followers_and_pollers_are_reset_after_a_rollback_and_end_on_the_log(
    service: httpx.AsyncClient, pair: tuple[RedisServer, RedisServer]
) -> None:
    primary, replica = pair
    table = f"/v1/tables/rollback-{uuid.uuid4().hex[:8]}"
    created = await service.put(table, json={"snapshot": SMALL_BODY}, headers=PLATFORM)
    assert created.status_code == 201, created.text
    spectator = {"Authorization": f"Bearer {created.json()['spectator_token']}"}
    await until(lambda: in_sync(primary))
    sse = Stream(service, f"{table}/events", {**PLATFORM, "Accept": "text/event-stream"})
    ndjson = Stream(service, f"{table}/events", {**spectator, "Accept": "application/x-ndjson"})
    for follower in (sse, ndjson):
        await follower.wait_for(lambda f: f.kinds()[:1] == ["snapshot"])

    # The replica is cut off; two moves run on the primary alone and reach the followers.
    await cut_link(primary, replica)
    lost = []
    for body in ({"move": LEAD, "version": 1}, {"move": PASS_1, "version": 2}):
        answer = await service.post(f"{table}/moves", json=body, headers=PLATFORM)
        assert answer.status_code == 503, answer.text  # never acknowledged
        lost.append(answer)
    await sse.wait_for(lambda f: any(e["type"] == "passed" for e in _events(f.frames)))
    await ndjson.wait_for(lambda f: any(e["type"] == "passed" for e in _events(f.frames)))
    seen = (await service.get(f"{table}/events", headers=PLATFORM)).json()
    gone_id = seen["last_event_id"]
    assert seen["version"] == 3

    await roll_back(primary, replica)
    rolled = (await service.get(table, headers=PLATFORM)).json()
    assert rolled["version"] == 1 and rolled["last_seq"] == 1  # the two moves are gone

    # A poller whose last event is past the log's end learns it from the page.
    page = (await service.get(f"{table}/events?after={gone_id}", headers=PLATFORM)).json()
    assert page["reset"] is True and page["events"] == []
    assert page["last_event_id"] == rolled["last_event_id"]

    # Another move logs other events under the same seqs.
    other = await service.post(
        f"{table}/moves", json={"move": OTHER_LEAD, "version": 1}, headers=PLATFORM
    )
    assert other.status_code == 200, other.text
    log = (await service.get(f"{table}/events", headers=PLATFORM)).json()
    assert [e["seq"] for e in log["events"]] == [1, 2, 3]
    for follower in (sse, ndjson):  # told within the feed's poll, or at the next write
        await follower.wait_for(lambda f: "reset" in f.kinds())
    # A poller whose last event was logged again by another write learns it too: same seq,
    # another id.
    same_seq = gone_id.partition(".")[0]
    assert int(same_seq) == 5 and log["last_seq"] == 3
    moved_id = next(e["id"] for e in log["events"] if e["seq"] == 2)
    lost_id = next(e["id"] for e in _events(sse.frames) if e["seq"] == 2)
    assert moved_id != lost_id  # no id names two events
    again = (await service.get(f"{table}/events?after={lost_id}", headers=PLATFORM)).json()
    assert again["reset"] is True
    fine = (await service.get(f"{table}/events?after={moved_id}", headers=PLATFORM)).json()
    assert fine["reset"] is False and [e["seq"] for e in fine["events"]] == [3]

    # A resume from the rolled-back id opens with a reset, never a silent clamp.
    resumed = Stream(
        service,
        f"{table}/events",
        {**PLATFORM, "Accept": "text/event-stream", "Last-Event-ID": lost_id},
    )
    await resumed.wait_for(lambda f: len(f.items) >= 1)
    assert resumed.kinds()[0] == "reset"
    assert resumed.frames[0]["id"] == log["last_event_id"]
    assert resumed.items[0]["version"] == 2

    # A resume from past the log's new end (the follower saw seq 5, the log ends at 3): a reset.
    beyond = Stream(
        service,
        f"{table}/events?after={gone_id}",
        {**spectator, "Accept": "application/x-ndjson"},
    )
    await beyond.wait_for(lambda f: len(f.items) >= 1)
    assert beyond.kinds()[0] == "reset" and beyond.items[0]["last_seq"] == 3
    assert "hands" not in beyond.items[0]["view"]

    await service.delete(table, headers=PLATFORM)
    for follower in (sse, ndjson, resumed, beyond):
        await follower.end()
    # Every follower ends on the log as it now is: the events after its last reset are the
    # log's (as its caller may see them), and its reset carried the view as it then was.
    logged = {e["id"]: e for e in log["events"]}
    for follower, platform in ((sse, True), (ndjson, False), (resumed, True)):
        kinds = follower.kinds()
        last_reset = len(kinds) - 1 - kinds[::-1].index("reset")
        reset = follower.items[last_reset]
        after = _events(follower.frames[last_reset + 1 :])
        assert all(e["id"] in logged for e in after), kinds
        expected = [
            e["id"]
            for e in log["events"]
            if e["seq"] > reset["last_seq"] and (platform or e["type"] not in ("move", "dealt"))
        ]
        assert [e["id"] for e in after] == expected
        assert kinds[-1] == "closed"
        if not platform:
            assert "hands" not in reset["view"]  # a reset is cut to its caller like the rest
