"""Four bot seats and one person play at a live table served by two ``baohuang serve``
processes on one Redis (docs/clients.md "Bots"): the end of a deal, then the whole next deal the
platform deals (its answers before play, then its play): every bot move lands through the
clock's compare-and-set, whichever replica makes it; the person plays with its seat token,
choosing from its own legal moves; the bots play on into the next deal; every caller sees the
bots in ``table.seats``. The first deal starts near its end: a bot move is the clock's poll
away (up to 0.2 s), so a whole deal is some twenty seconds of waiting, and the first deal's
play is the same path as the second's."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import msgspec
import pytest

from live_server import ProcessServer
from redis_server import RedisServer, shared_redis_url
from table_support import near_end

pytestmark = pytest.mark.anyio

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
TIMEOUT = httpx.Timeout(10.0, read=20.0)
BOTS = [{"seat": seat, "level": "heuristic"} for seat in (1, 2, 3, 4)]
MOVES_LEFT = 15
"""How far from its end the first deal starts (by random moves: its end is played here)."""


async def play_deal(
    clients: list[httpx.AsyncClient], person: dict[str, str], number: int
) -> dict[str, Any]:
    """Until the deal is over: the person moves on its turn, a legal move of its own (its seat
    token's ``/legal-moves``, empty when it is not its turn), as a scripted player; otherwise it
    waits for the bots."""
    rng = random.Random(number)
    for step in range(20_000):
        client = clients[step % 2]
        legal = await client.get("/v1/tables/live/legal-moves", headers=person)
        assert legal.status_code == 200, legal.text
        if moves := legal.json()["moves"]:
            body = {"move": rng.choice(moves), "version": legal.json()["version"]}
            moved = await client.post("/v1/tables/live/moves", json=body, headers=person)
            assert moved.status_code in (200, 409), moved.text  # 409: a bot moved in between
            continue
        read: dict[str, Any] = (await client.get("/v1/tables/live", headers=person)).json()
        if read["view"]["over"] and len(read["table"]["results"]) == number:
            return read
        await asyncio.sleep(0.02)
    raise AssertionError("the deal did not end")


@pytest.mark.slow  # two `baohuang serve` processes, a deal's end and a whole deal
async def test_four_bots_and_a_person_play_a_deal_out_and_the_next_on_two_replicas(
    redis_server: RedisServer,
) -> None:
    url = shared_redis_url() or redis_server.url
    environment = {
        "REDIS_URL": url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "bots",
        "BAOHUANG_BOT_DELAY_SECONDS": "0.01",
    }
    snapshot = near_end(2026, MOVES_LEFT)
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
        assert {record["move"]["seat"] for record in records if record["by"] == "bot"} == {
            1,
            2,
            3,
            4,
        }
        assert len(watched["table"]["results"]) == 2
