"""Webhooks (docs/clients.md): a table's chosen events are POSTed, signed, at least once —
through a receiver that fails and is down for a while, and through a replica that dies
mid-delivery. Time and the receiver are under the test's control; one test uses real HTTP.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import random
from typing import Any

import msgspec
import pytest
import uvicorn

from baohuang.engine import (
    Snapshot,
    deal,
    legal_moves,
    opening_snapshot,
)
from baohuang.engine.rulesets import ruleset_of
from baohuang.store import MemoryTableStore, TableStore
from baohuang.tables import Authority, TableService
from baohuang.tables.callers import PLATFORM
from baohuang.tables.errors import WebhooksOff
from baohuang.tables.record import Webhook
from baohuang.tables.webhooks import LEASE_SECONDS, Dispatcher, http_sender
from live_server import free_port
from table_support import Time

pytestmark = pytest.mark.anyio

SECRET = "webhook-secret"


class Receiver:
    """A receiver that refuses its first attempts, then is down until told otherwise."""

    def __init__(self, refuse: int = 2) -> None:
        self.refuse = refuse
        self.down = False
        self.got: list[tuple[dict[str, str], bytes]] = []

    async def send(self, url: str, body: bytes, headers: dict[str, str]) -> int:
        if self.down:
            raise ConnectionRefusedError("receiver down")
        if self.refuse > 0:
            self.refuse -= 1
            return 503
        self.got.append((headers, body))
        return 204

    def deliveries(self) -> dict[str, dict[str, Any]]:
        """Deduplicated by delivery id, each signature checked."""
        seen: dict[str, dict[str, Any]] = {}
        for headers, body in self.got:
            stamp, _, mac = headers["Baohuang-Signature"].partition(",v1=")
            timestamp = stamp.removeprefix("t=")
            expected = hmac.new(SECRET.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
            assert hmac.compare_digest(mac, expected.hexdigest())
            seen[headers["Baohuang-Delivery"]] = json.loads(body)
        return seen


async def _play_deals(service: TableService, table_id: str, deals: int) -> None:
    rng = random.Random(table_id)
    for number in range(deals):
        if number:
            table = await service.read(table_id, PLATFORM)
            await service.next_deal(table_id, PLATFORM, table.version, 100 + number)
        for _ in range(3000):
            table = await service.read(table_id, PLATFORM)
            assert isinstance(table.view, Snapshot)
            if table.view.over:
                break
            move = rng.choice(legal_moves(table.view))
            await service.move(table_id, PLATFORM, move, table.version)


async def test_every_deal_over_arrives_once_through_refusals_and_an_outage(
    store: TableStore,
) -> None:
    time = Time()
    receiver = Receiver(refuse=2)
    dispatcher = Dispatcher(store, SECRET, receiver.send, clock=time)
    service = TableService(store, Authority((), "s"), clock=time, dispatcher=dispatcher)
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 5, 0))
    hook = Webhook(url="https://platform.example/hooks", events=["deal_over", "deal_started"])
    await service.create("hooked", snapshot, PLATFORM, webhook=hook)
    await _play_deals(service, "hooked", 1)
    for _ in range(3):  # refused twice: backoff
        await dispatcher.tick()
        time.now += 61
    receiver.down = True
    await _play_deals_more(service)
    for _ in range(5):  # down for a while
        await dispatcher.tick()
        time.now += 61
    receiver.down = False
    for _ in range(5):
        await dispatcher.tick()
        time.now += 61
    delivered = receiver.deliveries()
    kinds = sorted(d["event"]["type"] for d in delivered.values())
    assert kinds == ["deal_over", "deal_over", "deal_over", "deal_started", "deal_started"]
    assert all(d["table"] == "hooked" for d in delivered.values())
    for delivery_id, body in delivered.items():  # the id names the event's write, not just its seq
        assert body["delivery"] == delivery_id == f"hooked.{body['instance']}.{body['event']['id']}"
        seq, _, token = body["event"]["id"].partition(".")
        assert int(seq) == body["event"]["seq"] and token
    assert await dispatcher.tick() == 0  # nothing left, nothing sent twice
    assert len(receiver.deliveries()) == 5


async def _play_deals_more(service: TableService) -> None:
    """Two more deals at the same table, each with its deal_started and deal_over."""
    for _ in range(2):
        table = await service.read("hooked", PLATFORM)
        await service.next_deal("hooked", PLATFORM, table.version, None)
        await _play_deals(service, "hooked", 1)


async def test_a_replica_that_dies_mid_delivery_loses_nothing(store: TableStore) -> None:
    time = Time()
    receiver = Receiver(refuse=0)
    stuck = asyncio.Event()

    async def hangs(url: str, body: bytes, headers: dict[str, str]) -> int:
        stuck.set()
        await asyncio.Event().wait()  # the replica dies while waiting for the receiver
        return 200  # pragma: no cover

    dying = Dispatcher(store, SECRET, hangs, clock=time)
    survivor = Dispatcher(store, SECRET, receiver.send, clock=time)
    service = TableService(store, Authority((), "s"), clock=time, dispatcher=dying)
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 6, 0))
    await service.create("dies", snapshot, PLATFORM, webhook=Webhook("http://h/x", ["deal_over"]))
    await _play_deals(service, "dies", 1)
    task = asyncio.create_task(dying.tick())
    await asyncio.wait_for(stuck.wait(), 5)
    task.cancel()  # killed mid-delivery
    assert await survivor.tick() == 0  # its claim holds for the lease
    time.now += LEASE_SECONDS + 1
    assert await survivor.tick() == 1
    [delivery] = receiver.deliveries().values()
    assert delivery["event"]["type"] == "deal_over" and delivery["event"]["result"]["deal"] == 1


async def test_a_webhook_needs_a_secret_and_a_real_url(store: TableStore) -> None:
    service = TableService(store, Authority((), "s"))
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 6, 0))
    with pytest.raises(WebhooksOff):
        await service.create("x", snapshot, PLATFORM, webhook=Webhook("http://h/x", ["deal_over"]))
    for bad in (
        {"url": "ftp://h/x", "events": ["deal_over"]},
        {"url": "http://h", "events": ["nope"]},
    ):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert(bad, Webhook)


async def test_deliveries_over_real_http_carry_the_signature() -> None:
    got: list[tuple[dict[str, str], bytes]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        got.append(({k.decode(): v.decode() for k, v in scope["headers"]}, body))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.02)
        store = MemoryTableStore()
        send, close = http_sender()
        dispatcher = Dispatcher(store, SECRET, send)
        service = TableService(store, Authority((), "s"), dispatcher=dispatcher)
        snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 7, 0))
        hook = Webhook(f"http://127.0.0.1:{port}/hook", ["dealt"])
        await service.create("real", snapshot, PLATFORM, webhook=hook)
        assert await dispatcher.tick() == 1
        await close()
        [(headers, body)] = got
        assert headers["content-type"] == "application/json"
        assert headers["baohuang-delivery"].startswith("real.")
        stamp, _, mac = headers["baohuang-signature"].partition(",v1=")
        expected = hmac.new(SECRET.encode(), stamp[2:].encode() + b"." + body, hashlib.sha256)
        assert mac == expected.hexdigest()
        assert json.loads(body)["event"]["type"] == "dealt"
    finally:
        server.should_exit = True
        await serving
