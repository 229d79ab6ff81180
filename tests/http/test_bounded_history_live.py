"""Bounded history through a real ``baohuang serve`` and a real Redis (docs/deploy.md "What a
table keeps", docs/clients.md "What the log holds"): a table plays deal after deal, each played
out by 托管 (about 1,000 events a deal), and

* its keys stay bounded — the log holds the current deal's events, the finished deals' records
  are at most ``BAOHUANG_DEALS_KEPT`` — so its bytes stop growing with the deals;
* the audit passes, from the earliest deal kept;
* a stream that keeps up goes on across every deal boundary with every event and no reset; one
  resumed, or a poller, from a finished deal's event is reset;
* the webhook receives every deal's ``deal_over`` and ``deal_started``, and the log lets the
  finished deals' events go once delivered.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from followers import Stream
from live_server import ProcessServer
from redis_server import RedisServer
from webhook_receivers import LOOPBACK_ENVIRONMENT, WebhookReceiver

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
SECRET = "bounded-history"
PREFIX = "baohuang:table:"  # the service's default key prefix
DEALS = 5
KEPT = 2
SUFFIXES = ("", ":log", ":idem", ":idemq", ":deals")


async def _weigh(raw: Redis, table: str) -> int:
    key = f"{PREFIX}{{{table}}}"
    sizes = [await raw.memory_usage(key + suffix, samples=0) for suffix in SUFFIXES]
    return sum(size or 0 for size in sizes)


async def _play_out(client: httpx.AsyncClient, path: str) -> dict[str, Any]:
    """Every seat into 托管, one after the other: the clock then plays the deal out, over
    writes of its own (docs/rules.md, T-11)."""
    for seat in range(5):
        read = (await client.get(path, headers=PLATFORM)).json()
        if read["view"]["over"]:
            break
        answer = await client.post(
            f"{path}/seats/{seat}/trustee",
            json={"on": True, "version": read["version"]},
            headers=PLATFORM,
        )
        assert answer.status_code == 200, answer.text
    for _ in range(300):
        table: dict[str, Any] = dict((await client.get(path, headers=PLATFORM)).json())
        if table["view"]["over"]:
            return table
        await asyncio.sleep(0.1)
    raise AssertionError(f"the play-out did not end within 30 s: {table}")


@pytest.mark.slow  # a `baohuang serve` process, five deals of ~1,000 events each
async def test_a_table_that_plays_on_keeps_its_redis_bounded_and_its_readers_whole(
    redis_server: RedisServer,
) -> None:
    environment = {
        "REDIS_URL": redis_server.url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": SECRET,
        "BAOHUANG_WEBHOOK_SECRET": SECRET,
        "BAOHUANG_DEALS_KEPT": str(KEPT),
        **LOOPBACK_ENVIRONMENT,
    }
    table = f"bounded-{uuid.uuid4().hex[:12]}"
    path = f"/v1/tables/{table}"
    raw = Redis.from_url(redis_server.url)
    async with (
        ProcessServer(environment) as server,
        httpx.AsyncClient(base_url=server.url, timeout=30) as client,
        WebhookReceiver("ok", secret=SECRET) as receiver,
    ):
        dealt = (await client.post("/v1/deal", json={"seed": 3, "dealer": 0})).json()
        hook = {"url": receiver.url, "events": ["deal_over", "deal_started"]}
        body = {"snapshot": dealt["snapshot"], "webhook": hook}
        created = await client.put(path, json=body, headers=PLATFORM)
        assert created.status_code == 201, created.text
        stream = Stream(client, f"{path}/events", {**PLATFORM, "Accept": "application/x-ndjson"})
        await stream.wait_for(lambda s: bool(s.frames))
        weights: list[int] = []
        first_deal_ids: list[str] = []
        finished: dict[str, Any] = created.json()
        for number in range(1, DEALS + 1):
            if number > 1:
                started = await client.post(
                    f"{path}/deals", json={"version": finished["version"]}, headers=PLATFORM
                )
                assert started.status_code == 200, started.text
            finished = await _play_out(client, path)
            await receiver.wait_for(2 * number - 1, 20)  # this deal's deal_over (and start)
            if number == 1:
                page = (
                    await client.get(f"{path}/events?after=0&limit=20", headers=PLATFORM)
                ).json()
                first_deal_ids = [event["id"] for event in page["events"]]
            weights.append(await _weigh(raw, table))
            # The log holds this deal alone, from its first event, once the webhook delivered
            # the one before's; the records are bounded.
            start = (await client.get(f"{path}/events?after=0&limit=2", headers=PLATFORM)).json()
            kinds = [event["type"] for event in start["events"]]
            assert kinds[: 1 if number == 1 else 2] == (
                ["dealt"] if number == 1 else ["deal_started", "dealt"]
            )
            assert await raw.xlen(f"{PREFIX}{{{table}}}:log") == (
                finished["last_seq"] - start["events"][0]["seq"] + 1
            )
            assert await raw.llen(f"{PREFIX}{{{table}}}:deals") == min(number - 1, KEPT)
        # Bounded: a table weighs about one deal's log (deals differ, by up to ~1.6× in events)
        # plus a few KiB of records, however many deals it played — not the sum of their logs.
        assert max(weights) < 2 * min(weights), weights
        assert weights[-1] < 2 * weights[0], weights
        # The audit passes, from the earliest deal still kept.
        audit = (await client.get(f"{path}/audit", headers=PLATFORM)).json()
        assert audit["valid"] is True, audit
        assert (audit["first_deal"], audit["deals"]) == (DEALS - KEPT, KEPT + 1), audit
        table_now = (await client.get(path, headers=PLATFORM)).json()
        assert audit["totals"] == table_now["table"]["totals"]
        assert [r["deal"] for r in table_now["table"]["results"]] == list(
            range(DEALS - KEPT, DEALS + 1)
        )
        # The stream that kept up: every event of every deal, in order, without a reset.
        await stream.wait_for(
            lambda s: bool(s.items) and s.items[-1].get("seq") == table_now["last_seq"], 20
        )
        await stream.stop()
        assert "reset" not in stream.kinds()
        seqs = [item["seq"] for item in stream.items[1:]]
        assert seqs == list(range(seqs[0], table_now["last_seq"] + 1)) and seqs[0] == 2
        assert stream.kinds().count("deal_over") == DEALS
        assert stream.kinds().count("deal_started") == DEALS - 1
        # A resume or a poll from the first deal's events: reset, never a silent gap.
        gone = first_deal_ids[3]
        page = (await client.get(f"{path}/events?after={gone}", headers=PLATFORM)).json()
        assert page["reset"] is True and page["events"] == []
        headers = {**PLATFORM, "Accept": "application/x-ndjson", "Last-Event-ID": gone}
        resumed = Stream(client, f"{path}/events", headers)
        await resumed.wait_for(lambda s: bool(s.frames))
        await resumed.stop()
        assert resumed.kinds()[0] == "reset"
        assert resumed.items[0]["last_event_id"] == table_now["last_event_id"]
        # Every deal's webhook events, once each; the log let them go once delivered.
        kinds = sorted(body["event"]["type"] for body in receiver.kept.values())
        assert kinds == sorted(["deal_over"] * DEALS + ["deal_started"] * (DEALS - 1))
        assert receiver.bad_signatures == 0 and receiver.dropped == []
    await raw.aclose()
