"""One caller flooding ``POST /v1/bots/suggest`` at the search level cannot hold up the bot seats
of live tables, nor the other callers' suggestions (docs/deploy.md "Bot suggestions"), against a
real ``baohuang serve`` on a real Redis.

Bot seats play their search moves on threads (tables/clock.py); suggestions think on threads of
their own, a few per caller. Measured: how late each bot move lands after its deadline (the
previous move's ``at`` plus the bot delay), while the flood runs; the flooder is refused 429
``TOO_MANY_SUGGESTIONS`` and another caller's suggestion is answered.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest

from baohuang.engine import seat_view
from live_server import ProcessServer
from redis_server import RedisServer
from table_support import advanced_position

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

FLOODER = "suggest-flooder-key"
OTHER = "suggest-other-key"
PLATFORM = {"Authorization": f"Bearer {OTHER}"}
BOT_DELAY = 0.2
FLOOD = 120
"""Search suggestions the flooder keeps in flight: more than anyio's 40 default threads."""
FLOOD_SECONDS = 10.0
LATE_BOUND = 3.0
"""Seconds a bot move may land after its deadline: its own search's second of thinking, and
slack for a busy machine. Without suggestions on threads of their own, the bot seats wait
behind the flood's 2-second searches (observed 5-10 s late on this machine)."""


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with RedisServer.from_environment() as server:
        yield server.url


async def _flood(base: str, view: dict[str, Any], until: float, codes: list[int]) -> None:
    """One of the flooder's connections: search suggestions back to back until ``until``."""
    body = {"view": view, "level": "search", "budget_ms": 2000}
    headers = {"Authorization": f"Bearer {FLOODER}"}
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as client:
        while time.monotonic() < until:
            answer = await client.post("/v1/bots/suggest", json=body, headers=headers)
            codes.append(answer.status_code)
            if answer.status_code == 429:
                assert answer.json()["errors"][0]["code"] == "TOO_MANY_SUGGESTIONS"
                assert answer.headers["retry-after"] == "1"
                await asyncio.sleep(0.1)


async def test_a_suggestion_flood_does_not_hold_up_bot_seats_or_other_callers(
    redis_url: str,
) -> None:
    server = ProcessServer(
        {
            "REDIS_URL": redis_url,
            "BAOHUANG_API_KEYS": f"{FLOODER},{OTHER}",
            "BAOHUANG_TOKEN_SECRET": "suggestions",
            "BAOHUANG_BOT_DELAY_SECONDS": str(BOT_DELAY),
            "BAOHUANG_ACCESS_LOG": "false",
            "NO_PROXY": "127.0.0.1",
        }
    )
    # A deal in play where the search thinks for its whole budget (2 s for the flood's).
    snapshot = advanced_position("classic", 20261201, 0, 6, random.Random(1))
    view = msgspec.to_builtins(seat_view(snapshot, snapshot.turn))
    async with server, httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        tid = f"suggest-flood-{uuid.uuid4().hex}"
        bots = [{"seat": seat, "level": "search"} for seat in range(5)]
        body = {"snapshot": msgspec.to_builtins(snapshot), "bots": bots}
        created = await client.put(f"/v1/tables/{tid}", json=body, headers=PLATFORM)
        assert created.status_code == 201, created.text
        await asyncio.sleep(1.0)  # the bots are playing
        codes: list[int] = []
        started = time.time()
        until = time.monotonic() + FLOOD_SECONDS
        flood = [asyncio.create_task(_flood(server.url, view, until, codes)) for _ in range(FLOOD)]
        await asyncio.sleep(1.0)  # the flood is on
        # Another caller's suggestion is answered while the flood goes on.
        other = await client.post(
            "/v1/bots/suggest",
            json={"view": view, "level": "search", "budget_ms": 200},
            headers=PLATFORM,
        )
        assert other.status_code == 200, other.text
        await asyncio.gather(*flood)
        ended = time.time()
        page = await client.get(f"/v1/tables/{tid}/events", headers=PLATFORM)
        assert page.status_code == 200, page.text
    moves = [e for e in page.json()["events"] if e["type"] == "move"]
    assert all(move["by"] == "bot" for move in moves)
    # Each bot move after the first: its deadline is the move before's commit plus the delay.
    late = [
        b["at"] - (a["at"] + BOT_DELAY)
        for a, b in itertools.pairwise(moves)
        if started <= a["at"] + BOT_DELAY <= ended  # a deadline during the flood
    ]
    assert len(late) >= 3, late  # the bots kept moving through the flood
    assert max(late) < LATE_BOUND, late
    assert codes.count(429) > 0 and codes.count(200) > 0, codes
