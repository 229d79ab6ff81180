"""A clocked table nobody moves, timed out to its end by two ``baohuang serve`` processes on one
Redis: the fifth timeout puts the last seat in 托管, and 托管 plays the deal out over several
writes (T-11's reading), continued from the shared ``playouts`` index by whichever replica
claims it. A follower on the other replica gets every event once and in order, the deal ends
once, unscored, and the audit replays the log."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import msgspec
import pytest

from baohuang.engine import deal, opening_snapshot, ruleset_of
from live_server import ProcessServer
from redis_server import RedisServer, shared_redis_url

pytestmark = pytest.mark.anyio

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
TIMEOUT = httpx.Timeout(10.0, read=30.0)
CLOCK = {"turn_seconds": 1, "before_play_seconds": 1}


async def follow_to_the_end(client: httpx.AsyncClient, path: str) -> list[dict[str, Any]]:
    """The events of ``path``'s NDJSON stream from the start until ``deal_over``."""
    events: list[dict[str, Any]] = []
    headers = {**PLATFORM, "Accept": "application/x-ndjson"}
    async with client.stream("GET", f"{path}/events?after=0", headers=headers) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            if not line:
                continue
            item = json.loads(line)
            assert item["type"] not in ("reset", "closed"), item
            if item["type"] == "heartbeat":
                continue
            events.append(item)
            if item["type"] == "deal_over":
                return events
    raise AssertionError("the stream ended before the deal did")


async def whole_log(client: httpx.AsyncClient, path: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = (await client.get(f"{path}/events?after={after}", headers=PLATFORM)).json()
        events += page["events"]
        if not page["events"] or page["events"][-1]["seq"] == page["last_seq"]:
            return events
        after = page["events"][-1]["seq"]


@pytest.mark.slow  # two `baohuang serve` processes and five timeouts of a second
async def test_T_11_a_table_timed_out_to_its_end_on_two_replicas_plays_out_over_writes(
    redis_server: RedisServer,
) -> None:
    environment = {
        "REDIS_URL": shared_redis_url() or redis_server.url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "playouts",
    }
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 2027, 0))
    path = f"/v1/tables/playout-{uuid.uuid4().hex}"
    async with (
        ProcessServer(environment) as first,
        ProcessServer(environment) as second,
        httpx.AsyncClient(base_url=first.url, timeout=TIMEOUT) as one,
        httpx.AsyncClient(base_url=second.url, timeout=TIMEOUT) as two,
    ):
        body = {"snapshot": msgspec.to_builtins(snapshot), "clock": CLOCK}
        created = await one.put(path, json=body, headers=PLATFORM)
        assert created.status_code == 201, created.text
        followed = await asyncio.wait_for(follow_to_the_end(two, path), 60)
        table = (await one.get(path, headers=PLATFORM)).json()
        logged = await whole_log(one, path)
        audit = (await two.get(f"{path}/audit", headers=PLATFORM)).json()
    assert table["view"]["over"] and table["table"]["deadline"] is None
    [result] = table["table"]["results"]
    assert result["score"]["void"]["code"] == "ALL_TRUSTEE"
    assert audit["valid"], audit
    # every event once, in order, as the log has it
    assert [e["seq"] for e in logged] == list(range(1, len(logged) + 1))
    assert followed == logged[: len(followed)]  # the follower stopped at deal_over
    assert [e["type"] for e in logged[len(followed) :]] == ["clock"]  # the clock stops
    assert sum(e["type"] == "deal_over" for e in logged) == 1
    timeouts = [e for e in logged if e["type"] == "trustee" and e["cause"] == "timeout"]
    assert len(timeouts) == 5
    # after the fifth timeout: the play-out took several writes, each due at once
    fifth = timeouts[-1]
    versions = {e["version"] for e in logged if e["seq"] > fifth["seq"] and e["type"] == "move"}
    assert len(versions) >= 3, versions
    assert max(versions) == table["version"]
    clocks = [e for e in logged if e["seq"] > fifth["seq"] and e["type"] == "clock"]
    # due at once: the time the write was judged at, a moment before it was logged
    assert clocks[-1]["deadline"] is None
    assert all(0 <= c["at"] - c["deadline"] < 1 for c in clocks[:-1]), clocks
