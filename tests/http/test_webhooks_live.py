"""Webhooks through real ``baohuang serve`` processes and a real Redis: a receiver that trickles
its answer or answers hundreds of MiB delays only its own table, and a receiver's backoff
survives the replica that was delivering to it.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import time
import uuid
from pathlib import Path

import httpx
import pytest

from live_server import ProcessServer
from redis_server import RedisServer, shared_redis_url
from replica_link import until
from table_support import SMALL_BODY
from webhook_receivers import LOOPBACK_ENVIRONMENT, MIB, WebhookReceiver

from .problem_checks import assert_problem
from .test_webhook_urls import INSIDE, MALFORMED

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
DEADLINE = 10.0  # the default: a slot held by a trickling receiver stays held this long


def _environment(redis_server: RedisServer) -> dict[str, str]:
    return {
        "REDIS_URL": shared_redis_url() or redis_server.url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": "hooks-live",
        "BAOHUANG_WEBHOOK_SECRET": "hooks-live",
        "BAOHUANG_WEBHOOK_TIMEOUT_SECONDS": str(DEADLINE),
        **LOOPBACK_ENVIRONMENT,  # the receivers listen on 127.0.0.1
    }


async def _hooked(client: httpx.AsyncClient, receiver: WebhookReceiver, events: list[str]) -> str:
    table_id = f"hooked-{uuid.uuid4().hex[:12]}"
    body = {"snapshot": SMALL_BODY, "webhook": {"url": receiver.url, "events": events}}
    answer = await client.put(f"/v1/tables/{table_id}", json=body, headers=PLATFORM)
    assert answer.status_code == 201, answer.text
    return table_id


@pytest.mark.slow  # a `baohuang serve` process and receivers that take their time
async def test_a_trickling_and_a_huge_receiver_delay_only_their_own_tables(
    redis_server: RedisServer,
) -> None:
    async with (
        ProcessServer(_environment(redis_server)) as server,
        httpx.AsyncClient(base_url=server.url, timeout=10) as client,
        WebhookReceiver("trickle", trickle_seconds=2.0) as trickling,
        WebhookReceiver("huge", huge_bytes=400 * MIB) as huge,
        WebhookReceiver("ok") as fast,
    ):
        for _ in range(2):  # two tables behind the trickling receiver, one behind the huge one
            await _hooked(client, trickling, ["dealt"])
        await _hooked(client, huge, ["dealt"])
        await trickling.wait_for(2, 10)
        await huge.wait_for(1, 10)
        table_id = await _hooked(client, fast, ["dealt", "played"])
        moves = [
            {"move": {"seat": 0, "action": "play", "cards": ["7S", "7H"]}, "version": 1},
            {"move": {"seat": 1, "action": "play", "cards": ["8S", "8H"]}, "version": 2},
        ]
        for number, move in enumerate(moves, 2):
            await fast.wait_for(number - 1, 5)
            written = time.monotonic()
            answer = await client.post(f"/v1/tables/{table_id}/moves", json=move, headers=PLATFORM)
            assert answer.status_code == 200, answer.text
            [*_, arrived] = await fast.wait_for(number, 5)
            assert arrived.at - written < 3, "the fast table waited behind the slow receivers"
        kinds = [d["event"]["type"] for d in fast.deliveries().values()]
        assert kinds == ["dealt", "played", "played"]
        # The trickling answers were cut at the deadline (a byte every 2 s never trips a
        # per-read timeout) and the deliveries tried again; the huge answer was never read whole.
        attempts = await trickling.wait_for(4, DEADLINE + 8)
        assert attempts[3].at - attempts[0].at < DEADLINE + 6
        assert len(trickling.deliveries()) == 2
        assert huge.sent < 64 * MIB


@pytest.mark.slow  # two `baohuang serve` processes, the delivering one killed
async def test_a_receivers_backoff_survives_the_replica_that_was_delivering(
    redis_server: RedisServer,
) -> None:
    environment = _environment(redis_server)
    first = ProcessServer(environment)
    second = ProcessServer(environment)
    async with WebhookReceiver("refuse") as failing:
        try:
            await first.start()
            async with httpx.AsyncClient(base_url=first.url, timeout=10) as client:
                await _hooked(client, failing, ["dealt"])
            # Refused at once, a second later, two seconds after that: the next is due 4 s on.
            attempts = await failing.wait_for(3, 10)
            # The replica keeps the next attempt's time in the table, then dies well before it.
            await asyncio.sleep(1.5)
            await first.stop()
            await second.start()
            attempts = await failing.wait_for(5, 25)
        finally:
            await first.stop()
            await second.stop()
    gaps = [later.at - earlier.at for earlier, later in itertools.pairwise(attempts)]
    # Backoff doubles from 1 s across the change of replica: 1, 2, 4, 8 — not 1 again after it.
    assert gaps[2] > 4 - 0.5, gaps
    assert gaps[3] > 8 - 0.5, gaps
    assert len(failing.deliveries()) == 1  # every attempt was the same delivery


@pytest.mark.slow  # a `baohuang serve` process without private targets allowed
async def test_a_replica_refuses_every_internal_or_malformed_webhook_url_at_put(
    redis_server: RedisServer,
) -> None:
    environment = {**_environment(redis_server), "BAOHUANG_WEBHOOK_ALLOW_PRIVATE": "false"}
    table = f"/v1/tables/refusing-{uuid.uuid4().hex[:12]}"
    async with (
        ProcessServer(environment) as server,
        httpx.AsyncClient(base_url=server.url, timeout=10) as client,
    ):
        created = await client.put(table, json={"snapshot": SMALL_BODY}, headers=PLATFORM)
        assert created.status_code == 201, created.text
        tag = (await client.get(table, headers=PLATFORM)).headers["etag"]
        for url in INSIDE + MALFORMED:
            body = {"snapshot": SMALL_BODY, "webhook": {"url": url, "events": ["deal_over"]}}
            refused = await client.put(table, json=body, headers=PLATFORM)
            assert_problem(refused, 422, "WEBHOOK_URL_REFUSED", "$.webhook.url")
        assert (await client.get(table, headers=PLATFORM)).headers["etag"] == tag


async def _logged(log: Path, text: str, timeout: float) -> None:
    """Until ``text`` is in the process log ``log`` (``TimeoutError`` after ``timeout`` s)."""

    async def seen() -> bool:
        return log.exists() and text in log.read_text()

    await until(seen, timeout)


def _failed_deliveries(metrics: str) -> float:
    """The replica's webhook attempts that got no 2xx (refused by its own policy included)."""
    found = 0.0
    for line in metrics.splitlines():
        if line.startswith("baohuang_webhook_deliveries_total{") and 'outcome="ok"' not in line:
            found += float(line.rsplit(" ", 1)[1])
    return found


@pytest.mark.slow  # two `baohuang serve` processes, one paused while a delivery falls due
async def test_a_replica_that_may_not_send_a_delivery_leaves_it_to_one_that_may(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """BAOHUANG_WEBHOOK_ALLOW_PRIVATE on one replica and off on the other, a receiver on
    loopback (a private address). The replica with it on is paused while a move through the
    other makes a delivery due: the one with it off does not claim it (before, it claimed it,
    refused it and backed the receiver off), and says why in its log; the delivery arrives once
    the replica that may send it goes on, at its first attempt."""
    environment = _environment(redis_server)
    strict_log = tmp_path / "strict.log"
    lax = ProcessServer(environment)  # LOOPBACK_ENVIRONMENT: private targets allowed
    strict = ProcessServer(
        {**environment, "BAOHUANG_WEBHOOK_ALLOW_PRIVATE": "false"}, log=strict_log
    )
    move = {"move": {"seat": 0, "action": "play", "cards": ["7S", "7H"]}, "version": 1}
    async with WebhookReceiver("ok") as receiver:
        try:
            await strict.start()
            await lax.start()
            async with (
                httpx.AsyncClient(base_url=lax.url, timeout=10) as through_lax,
                httpx.AsyncClient(base_url=strict.url, timeout=10) as through_strict,
            ):
                table_id = await _hooked(through_lax, receiver, ["played"])
                # The strict replica must have seen the lax one's dispatcher before it is
                # paused: a replica that serves may not have polled yet, and one never seen
                # leaves the strict replica free to claim (a slow start under load did that).
                await _logged(strict_log, "leaves webhook deliveries to them", 30)
                os.kill(lax.pid, signal.SIGSTOP)
                try:
                    answer = await through_strict.post(
                        f"/v1/tables/{table_id}/moves", json=move, headers=PLATFORM
                    )
                    assert answer.status_code == 200, answer.text
                    # The strict replica polls some 15 times meanwhile; the paused one counts as
                    # up for PRESENCE_SECONDS (10 s) after its last poll.
                    await asyncio.sleep(3)
                    assert receiver.attempts == 0
                finally:
                    os.kill(lax.pid, signal.SIGCONT)
                [delivery] = await receiver.wait_for(1, 10)
                assert delivery.json["event"]["type"] == "played"
                metrics = (await through_strict.get("/metrics")).text
        finally:
            await lax.stop()
            await strict.stop()
    assert receiver.attempts == 1  # delivered at the first attempt: nobody refused it before
    assert _failed_deliveries(metrics) == 0, metrics
    logged = strict_log.read_text()
    assert "BAOHUANG_WEBHOOK_ALLOW_PRIVATE=false on this replica" in logged, logged
    assert "leaves webhook deliveries to them" in logged, logged
