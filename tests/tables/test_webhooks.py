"""Webhooks (docs/clients.md): a table's chosen events are POSTed, signed, at least once —
through a receiver that fails and is down for a while, and through a replica that dies
mid-delivery. Time and the receiver are under the test's control; one test uses real HTTP.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import shutil
import ssl
import subprocess
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from baohuang.engine import (
    Snapshot,
    deal,
    legal_moves,
    opening_snapshot,
)
from baohuang.engine.rulesets import ruleset_of
from baohuang.store import HookBackoff, MemoryTableStore, TableStore
from baohuang.tables import Authority, TableService
from baohuang.tables.callers import PLATFORM
from baohuang.tables.errors import WebhooksOff, WebhookUrlRefused
from baohuang.tables.record import Webhook
from baohuang.tables.webhook_senders import PRESENCE_SECONDS
from baohuang.tables.webhook_targets import TargetRefused, Targets
from baohuang.tables.webhooks import LEASE_SECONDS, Dispatcher, http_sender
from table_support import Time
from webhook_receivers import WebhookReceiver, signature_holds

pytestmark = pytest.mark.anyio

SECRET = "webhook-secret"


async def _public(host: str, port: int) -> list[str]:
    """A resolver for the made-up names of these tests: a public address (never connected to:
    these tests' senders are fakes)."""
    return ["93.184.216.34"]


PUBLIC = Targets(resolve=_public)


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
            assert signature_holds(SECRET, headers["Baohuang-Signature"], body)
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
    dispatcher = Dispatcher(store, SECRET, receiver.send, clock=time, targets=PUBLIC)
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
    # Two deals began meanwhile, but the log keeps every event not delivered yet.
    held = await store.read_events("hooked", 0, 100_000)
    assert held is not None and held.trimmed < held.recorded and held.recorded > 0
    receiver.down = False
    for _ in range(5):
        await dispatcher.tick()
        time.now += 61
    delivered_up_to = await store.read_events("hooked", 0, 100_000)
    assert delivered_up_to is not None
    assert delivered_up_to.trimmed == delivered_up_to.recorded == held.recorded  # now it goes
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

    dying = Dispatcher(store, SECRET, hangs, clock=time, targets=PUBLIC)
    survivor = Dispatcher(store, SECRET, receiver.send, clock=time, targets=PUBLIC)
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
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"url": "http://h", "events": ["nope"]}, Webhook)
    hooked = TableService(
        store, Authority((), "s"), dispatcher=Dispatcher(store, SECRET, Receiver().send)
    )
    with pytest.raises(WebhookUrlRefused):
        await hooked.create("x", snapshot, PLATFORM, webhook=Webhook("ftp://h/x", ["deal_over"]))
    assert await store.get("x") is None


async def test_deliveries_over_real_http_carry_the_signature() -> None:
    async with WebhookReceiver("ok") as receiver:
        store = MemoryTableStore()
        loopback = Targets(allow_private=True)  # the receiver listens on 127.0.0.1
        send, close = http_sender(loopback)
        dispatcher = Dispatcher(store, SECRET, send, targets=loopback)
        service = TableService(store, Authority((), "s"), dispatcher=dispatcher)
        snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 7, 0))
        hook = Webhook(receiver.url, ["dealt"])
        await service.create("real", snapshot, PLATFORM, webhook=hook)
        assert await dispatcher.tick() == 1
        await close()
        [got] = receiver.got
        headers, body = got.headers, got.body
        assert headers["content-type"] == "application/json"
        assert headers["baohuang-delivery"].startswith("real.")
        assert signature_holds(SECRET, headers["baohuang-signature"], body)
        assert json.loads(body)["event"]["type"] == "dealt"


async def test_the_backoff_is_kept_with_the_table_so_another_replica_follows_it(
    stores: list[TableStore],
) -> None:
    time = Time()
    start = time.now
    receiver = Receiver(refuse=5)
    first = Dispatcher(stores[0], SECRET, receiver.send, clock=time, targets=PUBLIC)
    service = TableService(stores[0], Authority((), "s"), clock=time, dispatcher=first)
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 8, 0))
    hook = Webhook("https://hooks.platform.test/h", ["dealt"])
    await service.create("backoff", snapshot, PLATFORM, webhook=hook)
    for at in (0, 1, 3):  # refused at once, a second later, two seconds after that
        time.now = start + at
        await first.tick()
    assert receiver.refuse == 2  # three attempts; the next is due at +7
    second = Dispatcher(stores[1], SECRET, receiver.send, clock=time, targets=PUBLIC)
    # The first replica is gone; a write with new events moves the table to now in the index.
    time.now = start + 3.5
    await stores[1].schedule("backoff", time.now, index="webhooks")
    await second.tick()
    assert receiver.refuse == 2  # the receiver's schedule holds, whoever delivers
    time.now = start + 7
    await second.tick()
    assert receiver.refuse == 1  # the fourth attempt, on time; the fifth is due 8 s later
    time.now = start + 14.5
    await second.tick()
    assert receiver.refuse == 1
    time.now = start + 15
    await second.tick()
    assert receiver.refuse == 0
    time.now = start + 31
    assert await second.tick() == 1
    assert await stores[1].hook_backoff("backoff") == HookBackoff()  # delivered: no backoff


async def test_a_name_that_resolves_inside_at_delivery_is_never_connected_to() -> None:
    """DNS can change after the PUT: the name is resolved and checked before each connection,
    and the connection goes to the address that was checked (the name itself resolves nowhere
    real: only the test's resolver knows it)."""
    resolves_to = {"hooks.platform.test": ["93.184.216.34"]}

    async def resolve(host: str, port: int) -> list[str]:
        return resolves_to[host]

    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 9, 0))
    async with WebhookReceiver("ok") as receiver:
        url = f"http://hooks.platform.test:{receiver.port}/hook"
        for allow_private, delivered in ((False, 0), (True, 1)):
            targets = Targets(allow_private=allow_private, resolve=resolve)
            send, close = http_sender(targets)
            store = MemoryTableStore()
            dispatcher = Dispatcher(store, SECRET, send, targets=targets)
            service = TableService(store, Authority((), "s"), dispatcher=dispatcher)
            resolves_to["hooks.platform.test"] = ["93.184.216.34"]  # public at PUT: accepted
            await service.create("rebound", snapshot, PLATFORM, webhook=Webhook(url, ["dealt"]))
            resolves_to["hooks.platform.test"] = ["127.0.0.1"]  # then turned inward
            try:
                assert await dispatcher.tick() == delivered
            finally:
                await close()
            assert len(receiver.got) == delivered
        [got] = receiver.got  # where loopback is allowed, it went to the checked address
        assert got.headers["host"] == f"hooks.platform.test:{receiver.port}"
        assert got.json["table"] == "rebound"


async def test_every_address_a_name_resolves_to_is_checked() -> None:
    async def mixed(host: str, port: int) -> list[str]:
        return ["93.184.216.34", "::ffff:169.254.169.254"]

    with pytest.raises(TargetRefused, match=r"169\.254\.169\.254"):
        await Targets(resolve=mixed).pin("hooks.platform.test", 443)
    with pytest.raises(TargetRefused, match="metadata"):
        await Targets(allow_private=True, resolve=mixed).pin("hooks.platform.test", 443)


async def test_a_name_that_resolves_inside_at_put_is_refused_and_one_that_does_not_resolve_is_not(
    store: TableStore,
) -> None:
    names = {"inside.platform.test": ["93.184.216.34", "::1"], "public.platform.test": ["1.1.1.1"]}

    async def resolve(host: str, port: int) -> list[str]:
        if host not in names:
            raise OSError("no such name")
        return names[host]

    targets = Targets(resolve=resolve)
    service = TableService(
        store,
        Authority((), "s"),
        dispatcher=Dispatcher(store, SECRET, Receiver().send, targets=targets),
    )
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 10, 0))
    inside = Webhook("https://inside.platform.test/hook", ["deal_over"])
    with pytest.raises(WebhookUrlRefused, match="::1"):
        await service.create("named", snapshot, PLATFORM, webhook=inside)
    assert await store.get("named") is None
    for url in ("https://public.platform.test/hook", "https://not-yet.platform.test/hook"):
        await service.create("named", snapshot, PLATFORM, webhook=Webhook(url, ["deal_over"]))
    with pytest.raises(OSError):  # still unresolvable at delivery: that attempt fails
        await targets.pin("not-yet.platform.test", 443)


def _certificate(directory: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for ``name`` and its key, made with ``openssl``."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


async def test_https_goes_to_the_checked_address_under_the_urls_name(tmp_path: Path) -> None:
    """The connection is pinned to the checked address, yet TLS is the URL's name's: SNI and
    the certificate check use the name, so a certificate for another name is refused."""
    cert, key = _certificate(tmp_path, "hooks.platform.test")
    server_side = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_side.load_cert_chain(cert, key)
    asked_for: list[str | None] = []
    server_side.sni_callback = lambda _socket, name, _context: asked_for.append(name)

    async def resolve(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]  # both names, as far as this test's DNS knows

    targets = Targets(allow_private=True, resolve=resolve)
    send, close = http_sender(targets, verify=ssl.create_default_context(cafile=cert))
    try:
        async with WebhookReceiver("ok", tls=server_side) as receiver:
            url = f"https://hooks.platform.test:{receiver.port}/hook"
            assert await send(url, b"{}", {"Baohuang-Delivery": "t.i.1"}) == 204
            [got] = receiver.got
            assert got.headers["host"] == f"hooks.platform.test:{receiver.port}"
            assert asked_for == ["hooks.platform.test"]
            with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
                await send(f"https://other.platform.test:{receiver.port}/hook", b"{}", {})
            assert len(receiver.got) == 1
    finally:
        await close()


async def test_a_redirect_is_not_followed() -> None:
    loopback = Targets(allow_private=True)  # both receivers listen on 127.0.0.1
    send, close = http_sender(loopback)
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 11, 0))
    async with WebhookReceiver("ok") as elsewhere:
        async with WebhookReceiver("redirect", redirect_to=elsewhere.url) as redirecting:
            store = MemoryTableStore()
            dispatcher = Dispatcher(store, SECRET, send, targets=loopback)
            service = TableService(store, Authority((), "s"), dispatcher=dispatcher)
            hook = Webhook(redirecting.url, ["dealt"])
            await service.create("redirected", snapshot, PLATFORM, webhook=hook)
            try:
                assert await dispatcher.tick() == 0  # a 307 is not a 2xx: tried again later
            finally:
                await close()
            assert len(redirecting.got) == 1
        assert elsewhere.got == []


async def test_only_a_replica_that_may_send_a_delivery_claims_it(
    stores: list[TableStore], caplog: pytest.LogCaptureFixture
) -> None:
    """Replicas with BAOHUANG_WEBHOOK_ALLOW_PRIVATE set differently: while one with it on is up,
    one with it off claims no delivery (it would refuse a private URL and back the receiver off
    for nothing); once none is up, it claims again. Each says so in its log."""
    caplog.set_level(logging.INFO, logger="baohuang.tables")
    time = Time()
    lax_got: list[bytes] = []
    strict_got: list[bytes] = []

    async def lax_send(url: str, body: bytes, headers: dict[str, str]) -> int:
        lax_got.append(body)
        return 204

    async def strict_send(url: str, body: bytes, headers: dict[str, str]) -> int:
        strict_got.append(body)  # pragma: no cover - its policy refuses before sending
        return 204

    lax = Dispatcher(stores[0], SECRET, lax_send, clock=time, targets=Targets(allow_private=True))
    strict = Dispatcher(stores[1], SECRET, strict_send, clock=time, targets=Targets())
    assert await lax.tick() == 0  # up, announced; nothing is due yet
    service = TableService(stores[0], Authority((), "s"), clock=time, dispatcher=lax)
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 9, 0))
    hook = Webhook("http://127.0.0.1:9/hooks", ["dealt"])  # only `lax` may send to it
    await service.create("mixed", snapshot, PLATFORM, webhook=hook)
    time.now += 1
    assert await strict.tick() == 0
    assert await stores[1].hook_backoff("mixed") == HookBackoff()  # not claimed, not refused
    assert await lax.tick() == 1 and len(lax_got) == 1  # delivered on time by the one that may
    said = [record.getMessage() for record in caplog.records]
    assert any("BAOHUANG_WEBHOOK_ALLOW_PRIVATE=true on this replica: it claims" in m for m in said)
    assert any(
        "BAOHUANG_WEBHOOK_ALLOW_PRIVATE=false on this replica, but 1 replica(s)" in m
        and "leaves webhook deliveries to them" in m
        for m in said
    ), said
    # The replica with it on is gone: the one with it off claims again (and, by its policy,
    # refuses this URL: no replica up may send it, so the receiver is backed off).
    time.now += PRESENCE_SECONDS + 1
    await service.create("mixed", snapshot, PLATFORM, webhook=hook)  # dealt again: due
    assert await strict.tick() == 0
    backoff = await stores[1].hook_backoff("mixed")
    assert backoff is not None and backoff.failures == 1
    assert strict_got == []
    assert any("agree on BAOHUANG_WEBHOOK_ALLOW_PRIVATE" in r.getMessage() for r in caplog.records)


async def test_an_attempt_that_never_ends_is_cut_at_its_deadline_and_retried_later(
    store: TableStore,
) -> None:
    """One overall deadline per attempt, whatever the receiver does (a byte every few seconds
    never trips a per-read timeout): an answer that never comes is a failed attempt, on the
    backoff's schedule. tests/http/test_webhooks_live.py has a real receiver trickle."""
    time = Time()
    outcomes: list[str] = []
    attempts: list[asyncio.Task[Any] | None] = []

    async def never_answers(url: str, body: bytes, headers: dict[str, str]) -> int:
        attempts.append(asyncio.current_task())
        await asyncio.Event().wait()
        return 204  # pragma: no cover

    dispatcher = Dispatcher(
        store,
        SECRET,
        never_answers,
        clock=time,
        targets=PUBLIC,
        deadline_seconds=0.01,
        on_delivery=lambda outcome, lag: outcomes.append(outcome),
    )
    service = TableService(store, Authority((), "s"), clock=time, dispatcher=dispatcher)
    snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 9, 0))
    await service.create(
        "stuck", snapshot, PLATFORM, webhook=Webhook("https://h.test/x", ["dealt"])
    )
    for tries in (1, 2):
        try:  # the deadline is a hundredth of a second: only a dispatcher without one waits
            async with asyncio.timeout(10):
                assert await dispatcher.tick() == 0
        except TimeoutError:
            raise AssertionError("an attempt went on past its deadline") from None
        assert outcomes == ["failed"] * tries and len(attempts) == tries
        backoff = await store.hook_backoff("stuck")
        assert backoff is not None and backoff.failures == tries
        time.now = backoff.retry_at
