"""Following live tables over Server-Sent Events and NDJSON (docs/clients.md "Streams"), on real sockets.

Five seats, a spectator and a platform follow one table while a random agent plays the deal
through every replica. Each follower must receive exactly the committed events it may see, in
``seq`` order, with no gap and no duplicate — also after its connection is dropped and it
reconnects with ``Last-Event-ID``, and after the replica serving it restarts. On Redis two
replicas share the table; on the in-memory store there is one.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from redis import Redis as SyncRedis

from baohuang.engine import Snapshot, deal, legal_moves, opening_snapshot, ruleset_of
from baohuang.http.settings import Settings
from baohuang.tables.callers import PLATFORM as PLATFORM_CALLER
from baohuang.tables.callers import Caller
from followers import Follower
from live_server import LiveServer, ProcessServer
from redis_server import RedisServer, shared_redis_url

pytestmark = pytest.mark.anyio

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
MAX_MOVES = 90
TIMEOUT = httpx.Timeout(10.0, read=20.0)


def _settings(redis_url: str | None) -> Settings:
    return Settings(
        redis_url=redis_url, api_keys=(KEY,), token_secret="streams", stream_heartbeat_seconds=1.0
    )


PLATFORM_ONLY = {"dealt", "move"}  # the deal's and the moves' records


def _shown(events: list[dict[str, Any]], follower: Follower) -> list[dict[str, Any]]:
    """The events of the log this follower may see since it opened the stream (a classic deal
    has no tribute to cut)."""
    opened = follower.opening["last_seq"] if follower.opening else 0
    return [
        event
        for event in events
        if event["seq"] > opened
        and (follower.caller.kind == "platform" or event["type"] not in PLATFORM_ONLY)
    ]


async def _play(servers: list[str], tid: str, rng: random.Random, at: dict[int, Any]) -> int:
    """Random legal moves through every replica in turn; ``at[n]`` runs before move ``n``."""
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        for n in range(MAX_MOVES):
            if n in at:
                await at[n]()
            base = servers[n % len(servers)]
            table = (await client.get(f"{base}/v1/tables/{tid}", headers=PLATFORM)).json()
            moves = legal_moves(msgspec.convert(table["view"], Snapshot))
            if not moves:
                return n
            move = msgspec.to_builtins(rng.choice(moves))
            answer = await client.post(
                f"{base}/v1/tables/{tid}/moves",
                json={"move": move, "version": table["version"]},
                headers=PLATFORM,
            )
            assert answer.status_code == 200, answer.text
    return MAX_MOVES


async def _scenario(
    replicas: list[LiveServer] | list[ProcessServer], restart: ProcessServer | None
) -> None:
    servers = [replica.url for replica in replicas]
    tid = f"follow-{uuid.uuid4().hex}"
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 20261130, 0))
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        put = await client.put(
            f"{servers[0]}/v1/tables/{tid}",
            json={"snapshot": msgspec.to_builtins(snapshot)},
            headers=PLATFORM,
        )
        assert put.status_code == 201, put.text
        created = put.json()
    callers = [
        (Caller("seat", seat), {"Authorization": f"Bearer {token}"})
        for seat, token in enumerate(created["seat_tokens"])
    ]
    callers.append((Caller("spectator"), {"Authorization": f"Bearer {created['spectator_token']}"}))
    callers.append((PLATFORM_CALLER, PLATFORM))
    followers = []
    for n, (caller, headers) in enumerate(callers):
        turned = servers[n % len(servers) :] + servers[: n % len(servers)]
        name = caller.kind if caller.seat is None else f"seat-{caller.seat}"
        followers.append(
            Follower(name, caller, headers, turned[0], tid, others=tuple(turned[1:]), strict=True)
        )
    async with httpx.AsyncClient(timeout=TIMEOUT) as streams:
        tasks = [asyncio.create_task(f.run(streams)) for f in followers]
        await _follow_and_play(servers, tid, snapshot, followers, tasks, restart)


async def _follow_and_play(
    servers: list[str],
    tid: str,
    snapshot: Snapshot,
    followers: list[Follower],
    tasks: list[asyncio.Task[None]],
    restart: ProcessServer | None,
) -> None:
    async with asyncio.timeout(20):
        while any(f.opening is None for f in followers):
            await asyncio.sleep(0.02)

    async def drop_one() -> None:
        followers[2].drop.set()

    async def restart_replica() -> None:
        if restart is not None:
            await restart.stop()
            await asyncio.sleep(0.3)
            await restart.start()

    played = await _play(servers, tid, random.Random(7), {10: drop_one, 25: restart_replica})
    assert played > 30
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        log = (await client.get(f"{servers[0]}/v1/tables/{tid}/events", headers=PLATFORM)).json()
        async with asyncio.timeout(20):  # every follower has caught up before the table goes
            while any(f.last_id != _shown(log["events"], f)[-1]["id"] for f in followers):
                await asyncio.sleep(0.05)
        assert (
            await client.delete(f"{servers[-1]}/v1/tables/{tid}", headers=PLATFORM)
        ).status_code == 204
    async with asyncio.timeout(20):
        await asyncio.gather(*tasks)

    assert [e["seq"] for e in log["events"]] == list(range(1, log["last_seq"] + 1))
    for follower in followers:
        assert follower.closed == "deleted", follower.name
        assert follower.history == _shown(log["events"], follower), follower.name
        view = follower.opening["view"]  # type: ignore[index]
        if follower.caller.seat is not None:
            assert view["hand"] == snapshot.hands[follower.caller.seat] and "hands" not in view
        elif follower.name == "spectator":
            assert "hand" not in view and "hands" not in view
        else:
            assert view["hands"] == snapshot.hands
    assert followers[2].connections >= 2  # it was dropped and came back
    if restart is not None:
        assert any(f.connections >= 2 for f in followers if f.server == restart.url)


@pytest.mark.slow  # two `baohuang serve` processes, a replica killed and started again
async def test_followers_on_two_replicas_miss_nothing_through_drops_and_a_restart(
    redis_server: RedisServer,
) -> None:
    url = shared_redis_url() or redis_server.url
    environment = {
        "REDIS_URL": url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "streams",
        "BAOHUANG_STREAM_HEARTBEAT_SECONDS": "1",
    }
    async with ProcessServer(environment) as first, ProcessServer(environment) as second:
        await _scenario([first, second], restart=second)


@pytest.fixture(scope="module")
def cluster_node() -> Iterator[str]:
    """A one-node Redis Cluster owning every slot: the cluster client, its Pub/Sub and scripts
    on keys of one hash slot, as on a real cluster."""
    with RedisServer.from_environment(
        extra_args=("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
    ) as server:
        admin = SyncRedis.from_url(server.url)
        admin.execute_command("CLUSTER", "ADDSLOTSRANGE", "0", "16383")  # type: ignore[no-untyped-call]
        deadline = time.monotonic() + 10
        while b"cluster_state:ok" not in admin.execute_command("CLUSTER", "INFO"):  # type: ignore[no-untyped-call]
            assert time.monotonic() < deadline, "the cluster did not become ok"
            time.sleep(0.05)
        admin.close()
        yield server.url


@pytest.mark.slow  # two `baohuang serve` processes, a replica killed and started again
async def test_followers_miss_nothing_on_redis_cluster(cluster_node: str) -> None:
    environment = {
        "REDIS_URL": cluster_node,
        "REDIS_MODE": "cluster",
        "REDIS_WAIT_REPLICAS": "0",  # one node, no replica to wait for
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "streams",
        "BAOHUANG_STREAM_HEARTBEAT_SECONDS": "1",
    }
    async with ProcessServer(environment) as first, ProcessServer(environment) as second:
        await _scenario([first, second], restart=second)


async def test_followers_on_the_in_memory_store_miss_nothing_through_drops() -> None:
    async with LiveServer(_settings(None)) as only:
        await _scenario([only], restart=None)


async def test_a_quiet_stream_beats_and_ndjson_carries_the_same_items() -> None:
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 7, 0))
    async with (
        LiveServer(_settings(None)) as server,
        httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as client,
    ):
        await client.put(
            "/v1/tables/quiet", json={"snapshot": msgspec.to_builtins(snapshot)}, headers=PLATFORM
        )
        headers = {**PLATFORM, "Accept": "application/x-ndjson"}
        lines: list[dict[str, Any]] = []
        async with client.stream("GET", "/v1/tables/quiet/events", headers=headers) as response:
            assert response.headers["content-type"].startswith("application/x-ndjson")
            async for line in response.aiter_lines():
                lines.append(json.loads(line))
                # the move once, at the first heartbeat (a busy machine may beat again before
                # the move's events come)
                if (
                    lines[-1]["type"] == "heartbeat"
                    and [x["type"] for x in lines].count("heartbeat") == 1
                ):
                    move = msgspec.to_builtins(legal_moves(snapshot)[0])
                    moved = await client.post(
                        "/v1/tables/quiet/moves",
                        json={"move": move, "version": 1},
                        headers=PLATFORM,
                    )
                    assert moved.status_code == 200
                if lines[-1]["type"] not in ("snapshot", "heartbeat"):
                    await client.delete("/v1/tables/quiet", headers=PLATFORM)
                if lines[-1]["type"] == "closed":
                    break
        kinds = [line["type"] for line in lines]
        assert kinds[0] == "snapshot" and lines[0]["version"] == 1
        assert "heartbeat" in kinds and kinds[-1] == "closed" and lines[-1]["reason"] == "deleted"
        logged = [line for line in lines if "seq" in line]
        assert [(e["type"], e["seq"], e["version"]) for e in logged[:2]] == [
            ("move", 2, 2),  # seq 1 is the deal's record, logged before the stream opened
            ("crown_passed", 3, 2),
        ]


async def test_a_stream_of_a_missing_table_or_a_stale_token_is_an_error_document() -> None:
    async with (
        LiveServer(_settings(None)) as server,
        httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as client,
    ):
        sse = {"Accept": "text/event-stream"}
        missing = await client.get("/v1/tables/none/events", headers={**PLATFORM, **sse})
        assert missing.status_code == 404
        assert missing.headers["content-type"] == "application/problem+json"
        snapshot = msgspec.to_builtins(
            opening_snapshot("classic", deal(ruleset_of("classic"), 1, 0))
        )
        old = (
            await client.put("/v1/tables/x", json={"snapshot": snapshot}, headers=PLATFORM)
        ).json()
        await client.put("/v1/tables/x", json={"snapshot": snapshot}, headers=PLATFORM)
        stale = await client.get(
            "/v1/tables/x/events",
            headers={"Authorization": f"Bearer {old['seat_tokens'][0]}", **sse},
        )
        assert stale.status_code == 401
