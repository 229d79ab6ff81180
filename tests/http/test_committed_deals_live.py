"""Committed dealing through two replicas (docs/dealing.md): two ``baohuang serve`` processes on one
Redis, each seat's client on its own stream, requests alternating between the replicas.

* every seat sees the commitment — on its stream's first frame and in the deal's first event —
  before its first card, and no card before the deal is dealt;
* four seats add entropy; the fifth adds none and the window closes on it: the cards are dealt
  with what was given, by whichever replica's clock gets there;
* the seed revealed at the end hashes to the commitment and, with the entropy, deals exactly the
  hands each seat was shown; without one seat's entropy it deals other hands;
* the platform cannot deal again while the committed deal is being dealt or played, and a
  service that swaps its own seed after committing (the stored secret overwritten in Redis) is
  caught: the seed it reveals is not the one committed to, and ``baohuang verify`` and the audit
  both say so; the honest deal's record verifies with ``baohuang verify``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from baohuang.engine import committed_deal, ruleset_of
from followers import Stream
from live_server import ProcessServer
from redis_server import RedisServer

pytestmark = [pytest.mark.slow, pytest.mark.anyio, pytest.mark.redis]

KEY = "committed-live-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
RULESET = "lianzhong-simple"
TABLE = "committed-live"
WINDOW = 3


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _until(check: Any, what: str, timeout: float = 30.0) -> Any:
    async with asyncio.timeout(timeout):
        while True:
            found = await check()
            if found:
                return found
            await asyncio.sleep(0.05)
    raise AssertionError(what)  # pragma: no cover


def _events(stream: Stream, kind: str) -> list[dict[str, Any]]:
    return [frame["data"] for frame in stream.frames if frame.get("event") == kind]


async def _all_in_trustee(
    http: httpx.AsyncClient, at: Callable[[int, str], str], seats: list[dict[str, str]]
) -> None:
    """Every seat asks for 托管, each through the replica of its number: 托管 plays the deal out."""
    for seat in range(5):
        version = (await http.get(at(seat, ""), headers=PLATFORM)).json()["version"]
        body = {"on": True, "version": version}
        await http.post(at(seat, f"/seats/{seat}/trustee"), json=body, headers=seats[seat])


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "baohuang.cli", "verify", str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


async def test_G_4_a_committed_deal_through_two_replicas(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    environment = {
        "REDIS_URL": redis_server.url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "committed-live",
    }
    async with (
        ProcessServer(environment) as first,
        ProcessServer(environment) as second,
        httpx.AsyncClient(timeout=15) as http,
    ):
        replicas = [first.url, second.url]

        def at(n: int, path: str) -> str:
            return f"{replicas[n % 2]}/v1/tables/{TABLE}{path}"

        await http.delete(at(0, ""), headers=PLATFORM)
        deal = {"ruleset": RULESET, "dealer": 3, "entropy_seconds": WINDOW}
        created = await http.put(at(0, ""), json={"deal": deal}, headers=PLATFORM)
        assert created.status_code == 201, created.text
        table = created.json()
        commitment = table["table"]["dealing"]["commitment"]
        seats = [_bearer(token) for token in table["seat_tokens"]]
        streams = [Stream(http, at(seat, "/events"), seats[seat]) for seat in range(5)]
        try:
            # Before any card: every seat's stream opens on the commitment, and no hand.
            for stream in streams:
                await stream.wait_for(lambda s: bool(s.frames))
                opening = stream.frames[0]
                assert opening["event"] == "snapshot"
                assert opening["data"]["table"]["dealing"]["commitment"] == commitment
                assert (
                    opening["data"]["view"]["hand"] == []
                    and opening["data"]["view"]["phase"] == "deal"
                )
            log = (await http.get(at(1, "/events?after=0"), headers=seats[2])).json()["events"]
            assert log[0]["type"] == "deal_committed" and log[0]["commitment"] == commitment
            # Four seats add entropy; seat 4 adds none.
            entropy: list[str | None] = [f"{seat:02x}" * (seat + 1) for seat in range(4)] + [None]
            for seat in range(4):
                added = await http.post(
                    at(seat, f"/seats/{seat}/entropy"),
                    json={"entropy": entropy[seat]},
                    headers=seats[seat],
                )
                assert added.status_code == 200, added.text
                assert added.json()["view"]["hand"] == []
            # The platform cannot deal again meanwhile, with a seed or committed anew.
            version = (await http.get(at(1, ""), headers=PLATFORM)).json()["version"]
            for body in ({"version": version, "seed": 1}, {"version": version, "committed": True}):
                refused = await http.post(at(0, "/deals"), json=body, headers=PLATFORM)
                assert (
                    refused.status_code == 422
                    and refused.json()["errors"][0]["code"] == "DEAL_NOT_OVER"
                )
            # The window closes on seat 4: a replica's clock deals the cards.
            for stream in streams:
                await stream.wait_for(
                    lambda s: bool(_events(s, "deal_started")), timeout=WINDOW + 20
                )
            hands = []
            for seat in range(5):
                view = (await http.get(at(seat, ""), headers=seats[seat])).json()["view"]
                assert view["phase"] != "deal" and view["hand"]
                hands.append(view["hand"])
            for stream in streams:
                kinds = stream.kinds()
                assert (
                    kinds.index("deal_committed") < kinds.index("deal_started")
                    if "deal_committed" in kinds
                    else True
                )
                started = _events(stream, "deal_started")[0]
                assert started["commitment"] == commitment and started["entropy"] == entropy
            # 托管 plays the deal out; deal_over reveals the seed to every seat.
            await _all_in_trustee(http, at, seats)
            for stream in streams:
                await stream.wait_for(lambda s: bool(_events(s, "deal_over")), timeout=60)
            seeds = {_events(stream, "deal_over")[0]["seed"] for stream in streams}
            assert len(seeds) == 1
            seed = seeds.pop()
            assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
            ruleset = ruleset_of(RULESET)
            assert committed_deal(ruleset, seed, entropy, 3).hands == hands  # exactly those played
            without = [None, *entropy[1:]]
            assert committed_deal(ruleset, seed, without, 3).hands != hands  # seat 0's mattered
            record = await http.get(at(1, "/deals/1"), headers=seats[4])
            assert record.json()["record"] == "full"
            honest = tmp_path / "deal-1.json"
            honest.write_bytes(record.content)
            checked = _verify(honest)
            assert checked.returncode == 0, checked.stdout + checked.stderr
        finally:
            for stream in streams:
                await stream.stop()

        # A service that swaps its seed after committing is caught.
        version = (await http.get(at(0, ""), headers=PLATFORM)).json()["version"]
        body = {"version": version, "committed": True, "entropy_seconds": 600}
        second_deal = await http.post(at(0, "/deals"), json=body, headers=PLATFORM)
        assert second_deal.status_code == 200, second_deal.text
        promised = second_deal.json()["table"]["dealing"]["commitment"]
        redis = Redis.from_url(redis_server.url)
        try:
            key = f"baohuang:table:{{{TABLE}}}"
            raw = await redis.hget(key, "s")
            assert raw is not None
            stored = json.loads(raw)
            assert hashlib.sha256(bytes.fromhex(stored["secret"])).hexdigest() == promised
            stored["secret"] = "ee" * 32
            # the new bytes, and a new last-write token, so that no replica judges on its memory
            await redis.hset(key, mapping={"s": json.dumps(stored), "w": "swapped"})
        finally:
            await redis.aclose()
        for seat in range(5):
            added = await http.post(
                at(seat, f"/seats/{seat}/entropy"), json={"entropy": "01"}, headers=seats[seat]
            )
            assert added.status_code == 200, added.text
        await _all_in_trustee(http, at, seats)

        async def over() -> dict[str, Any] | None:
            read: dict[str, Any] = (await http.get(at(1, ""), headers=seats[0])).json()
            return read if read["view"]["over"] else None

        revealed = (await _until(over, "the second deal did not end", 60))["table"]["dealing"]
        assert revealed["commitment"] == promised and revealed["seed"] == "ee" * 32
        assert hashlib.sha256(bytes.fromhex(revealed["seed"])).hexdigest() != promised
        swapped = tmp_path / "deal-2.json"
        swapped.write_bytes((await http.get(at(0, "/deals/2"), headers=seats[1])).content)
        checked = _verify(swapped)
        assert checked.returncode == 1 and "COMMITMENT_MISMATCH (G-4)" in checked.stdout, (
            checked.stdout
        )
        audit = (await http.get(at(1, "/audit"), headers=PLATFORM)).json()
        assert audit["valid"] is False and "committed to" in audit["failure"]["message"]
