"""Four bot seats and one person play two whole deals at a live table served by two
``baohuang serve`` processes on one Redis (docs/clients.md "Bots"): every bot move lands through
the clock's compare-and-set, whichever replica makes it; the person plays with its seat token,
choosing from its own view; the bots play on into the next deal the platform deals; every
caller sees the bots in ``table.seats``."""

from __future__ import annotations

import asyncio
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
TIMEOUT = httpx.Timeout(10.0, read=20.0)
BOTS = [{"seat": seat, "level": "heuristic"} for seat in (1, 2, 3, 4)]


async def play_deal(
    clients: list[httpx.AsyncClient], person: dict[str, str], number: int
) -> dict[str, Any]:
    """Until the deal is over: the person moves on its turn (asking the suggestion route with
    its own view, as a scripted player); otherwise it waits for the bots."""
    for step in range(20_000):
        client = clients[step % 2]
        read: dict[str, Any] = (await client.get("/v1/tables/live", headers=person)).json()
        view, table = read["view"], read["table"]
        if view["over"] and len(table["results"]) == number:
            return read
        if view["turn"] != 0 or view["over"]:
            await asyncio.sleep(0.02)
            continue
        suggested = await client.post("/v1/bots/suggest", json={"view": view})
        assert suggested.status_code == 200, suggested.text
        body = {"move": suggested.json()["move"], "version": read["version"]}
        moved = await client.post("/v1/tables/live/moves", json=body, headers=person)
        assert moved.status_code in (200, 409), moved.text  # 409: a bot moved in between
    raise AssertionError("the deal did not end")


@pytest.mark.slow  # two `baohuang serve` processes, two whole deals
async def test_four_bots_and_a_person_play_two_deals_on_two_replicas(
    redis_server: RedisServer,
) -> None:
    url = shared_redis_url() or redis_server.url
    environment = {
        "REDIS_URL": url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "bots",
        "BAOHUANG_BOT_DELAY_SECONDS": "0.01",
    }
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 2026, 0))
    async with (
        ProcessServer(environment) as first,
        ProcessServer(environment) as second,
        httpx.AsyncClient(base_url=first.url, timeout=TIMEOUT) as one,
        httpx.AsyncClient(base_url=second.url, timeout=TIMEOUT) as two,
    ):
        await one.delete("/v1/tables/live", headers=PLATFORM)
        body = {"snapshot": msgspec.to_builtins(snapshot), "bots": BOTS}
        created = await one.put("/v1/tables/live", json=body, headers=PLATFORM)
        assert created.status_code == 201, created.text
        tokens = created.json()["seat_tokens"]
        person = {"Authorization": f"Bearer {tokens[0]}"}
        spectator = {"Authorization": f"Bearer {created.json()['spectator_token']}"}
        for number in (1, 2):
            read = await play_deal([one, two], person, number)
            assert read["table"]["results"][-1]["deal"] == number
            if number < 2:
                version = read["version"]
                nxt = await two.post(
                    "/v1/tables/live/deals", json={"version": version}, headers=PLATFORM
                )
                assert nxt.status_code == 200, nxt.text
        watched = (await two.get("/v1/tables/live", headers=spectator)).json()
        assert [seat["bot"] for seat in watched["table"]["seats"]] == [None, *["heuristic"] * 4]
        assert "hand" not in watched["view"] and "hands" not in watched["view"]
        log = (await one.get("/v1/tables/live/events?limit=1000", headers=PLATFORM)).json()
        records = [event for event in log["events"] if event["type"] == "move"]
        while log["events"]:
            after = log["events"][-1]["seq"]
            log = (
                await one.get(f"/v1/tables/live/events?after={after}&limit=1000", headers=PLATFORM)
            ).json()
            records += [event for event in log["events"] if event["type"] == "move"]
        assert {record["by"] for record in records} == {"seat", "bot"}
        assert all((record["by"] == "bot") == (record["move"]["seat"] != 0) for record in records)
        assert len(watched["table"]["results"]) == 2
