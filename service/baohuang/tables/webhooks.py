"""Webhooks: a table's chosen events POSTed to the platform, signed, at least once.

A table may name a webhook (``PUT`` with ``webhook: {url, events}``, platform only). Deliveries
come from the table's own event log, the record of truth: the log keeps the events, and the table
keeps how far its webhook has delivered (a cursor) and its retry schedule (failures in a row and
the next attempt's time). A write with events to deliver puts the table in the store's
``webhooks`` index *before* it commits (so a replica that dies right after the commit still
leaves it there); any replica's dispatcher claims due tables for a lease, POSTs their next events
in order, moves the cursor after each 2xx, and on a failure keeps the next attempt's time in the
table (backoff doubling from a second, capped at a minute, for as long as the table lives: a day
after its last write by default), so that whichever replica claims it next follows the schedule.

One receiver delays only its own table (Stripe's per-endpoint schedules): a dispatcher delivers up
to ``concurrency`` tables at once, each under its own lease; every attempt (resolving, connecting,
sending, reading the answer's head) has one overall deadline, and at most a few KiB of an answer's
body are ever read. Where a delivery may go is :mod:`.webhook_targets`' policy, checked at ``PUT``
and again before every connection; a replica whose policy allows less than another's that is up
leaves the deliveries to it (:mod:`.webhook_senders`).

Each delivery is ``POST <url>`` with the JSON body ``{"delivery", "table", "instance", "event"}``
and the headers ``Baohuang-Delivery: <delivery id>`` (stable across retries: deduplicate on it;
``<table>.<instance>.<event id>``, and an event id names the write that logged it, so that an
event logged again at the same seq after a failover rolled the log back is a new delivery)
and ``Baohuang-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`` under
``BAOHUANG_WEBHOOK_SECRET``; a receiver checks the signature and refuses an old ``t``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import ssl
import time
from collections.abc import Awaitable, Callable
from typing import Final

import httpx
import msgspec

from ..engine import Event
from ..store import HookBackoff, StoreOverloaded, StoreUnavailable, TableStore
from .following import logged_event
from .record import Webhook, decode_record
from .webhook_senders import Senders
from .webhook_targets import TargetRefused, Targets

__all__ = ["Delivery", "Dispatcher", "Webhook", "delivery_id", "http_sender", "signature"]

log = logging.getLogger("baohuang.tables")

LEASE_SECONDS: Final = 30.0
"""How long a claim on a table lasts (at least; three deadlines when the deadline is longer)."""
POLL_SECONDS: Final = 0.2
BACKOFF_FIRST: Final = 1.0
BACKOFF_CAP: Final = 60.0
CONCURRENCY: Final = 16
"""Tables one dispatcher delivers at once (``BAOHUANG_WEBHOOK_CONCURRENCY``)."""
DEADLINE_SECONDS: Final = 10.0
"""One delivery attempt, all of it (``BAOHUANG_WEBHOOK_TIMEOUT_SECONDS``)."""
ANSWER_BYTES: Final = 4096
"""The most of an answer's body ever read (only a refusal's, for the log)."""
PAGE: Final = 500
PAGES_PER_CLAIM: Final = 20


class Delivery(msgspec.Struct, frozen=True):
    """The body of one delivery."""

    delivery: str
    table: str
    instance: str
    event: Event


Send = Callable[[str, bytes, dict[str, str]], Awaitable[int]]
"""``send(url, body, headers)`` → the receiver's status code (raises on no answer)."""

_encode = msgspec.json.Encoder().encode


def signature(secret: bytes, timestamp: int, body: bytes) -> str:
    """The ``Baohuang-Signature`` header value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret, str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def delivery_id(table_id: str, instance: str, event_id: str | None) -> str:
    """The ``Baohuang-Delivery`` id of an event: the same for every attempt at it, and never the
    same for two events (the event's id carries its write's token, so a seq issued again after a
    rollback names another delivery)."""
    return f"{table_id}.{instance}.{event_id}"


class Dispatcher:
    """One per process: delivers whatever webhook deliveries fall due, whichever replica wrote
    them, up to ``concurrency`` tables at once. ``send``, ``clock`` and the ``targets`` policy
    (its resolver) are injectable for tests."""

    def __init__(
        self,
        store: TableStore,
        secret: str,
        send: Send,
        *,
        clock: Callable[[], float] = time.time,
        on_delivery: Callable[[str, float | None], None] | None = None,
        targets: Targets | None = None,
        concurrency: int = CONCURRENCY,
        deadline_seconds: float = DEADLINE_SECONDS,
    ) -> None:
        if concurrency <= 0 or deadline_seconds <= 0:
            raise ValueError("concurrency and deadline_seconds must be positive")
        self._store = store
        self._secret = secret.encode()
        self._send = send
        self._now = clock
        self._on_delivery = on_delivery
        self.targets = targets if targets is not None else Targets()
        # Only a replica that may send a delivery claims it (BAOHUANG_WEBHOOK_ALLOW_PRIVATE).
        self._senders = Senders(store, allow_private=self.targets.allow_private, clock=clock)
        self._concurrency = concurrency
        self._deadline = deadline_seconds
        # The lease covers a few attempts; a claim stops starting attempts well before it ends.
        self._lease = max(LEASE_SECONDS, 3 * deadline_seconds)
        self._busy: dict[str, asyncio.Task[int]] = {}

    async def run(self, poll_seconds: float = POLL_SECONDS) -> None:
        try:
            while True:
                try:
                    await self._start_due()
                except (StoreUnavailable, StoreOverloaded) as exc:
                    log.warning("webhooks: %s (trying again)", exc)
                except Exception:
                    log.exception("webhooks: delivering failed")
                await asyncio.sleep(poll_seconds)
        finally:
            busy = list(self._busy.values())
            for task in busy:
                task.cancel()  # their claims lapse with the lease; another replica goes on
            if busy:
                await asyncio.wait(busy, timeout=1.0)

    async def tick(self) -> int:
        """Deliver what is due now (one round, waiting for it): how many deliveries succeeded."""
        started = await self._start_due()
        return sum(await asyncio.gather(*started))

    async def _start_due(self) -> list[asyncio.Task[int]]:
        """Claim as many due tables as there are free slots, each delivered in its own task;
        none while replicas that may send more than this one are up (:mod:`.webhook_senders`)."""
        may_claim = await self._senders.may_claim()  # announced even when every slot is busy
        free = self._concurrency - len(self._busy)
        if free <= 0 or not may_claim:
            return []
        now = self._now()
        started = []
        for table_id in await self._store.due(now, free, self._lease, index="webhooks"):
            if table_id in self._busy:  # still ours (its claim was renewed by this one)
                continue
            task = asyncio.create_task(self._deliver_logged(table_id, now + self._lease))
            self._busy[table_id] = task
            started.append(task)
        return started

    async def _deliver_logged(self, table_id: str, claimed: float) -> int:
        try:
            return await self._deliver(table_id, claimed)
        except (StoreUnavailable, StoreOverloaded) as exc:
            log.warning("webhooks of %s: %s (the claim lapses, trying again)", table_id, exc)
        except Exception:
            log.exception("webhooks of %s: delivering failed", table_id)
        finally:
            self._busy.pop(table_id, None)
        return 0

    async def _deliver(self, table_id: str, claimed: float) -> int:
        stored = await self._store.get(table_id)
        cursor = await self._store.hook_cursor(table_id)
        backoff = await self._store.hook_backoff(table_id)
        if stored is None or cursor is None or backoff is None:
            await self._store.release(table_id, claimed, index="webhooks")
            return 0
        webhook = decode_record(stored.snapshot).webhook
        instance, position = cursor
        if webhook is None or instance != stored.instance:
            await self._store.release(table_id, claimed, index="webhooks")
            return 0
        if backoff.retry_at > self._now():
            # A write with new events moved the table earlier: the receiver's schedule holds.
            await self._store.schedule(table_id, backoff.retry_at, index="webhooks")
            return 0
        delivered = 0
        for _ in range(PAGES_PER_CLAIM):
            page = await self._store.read_events(table_id, position, PAGE)
            if page is None or page.instance != instance:
                return delivered
            for logged in page.events:
                event = logged_event(logged)
                if str(type(event).__struct_config__.tag) not in webhook.events:
                    continue
                if logged.seq - 1 > position:  # skipped events need no delivery
                    await self._store.advance_hook(table_id, instance, logged.seq - 1)
                if self._now() + self._deadline > claimed - self._deadline:
                    # Not enough of the claim left for a whole attempt: claim the table again,
                    # rather than let another replica take it over mid-attempt.
                    await self._store.schedule(table_id, self._now(), index="webhooks")
                    return delivered
                if not await self._post(webhook.url, table_id, instance, event):
                    await self._retry_later(table_id, instance, backoff)
                    return delivered
                if backoff.failures:
                    backoff = HookBackoff()
                    await self._store.set_hook_backoff(table_id, instance, backoff)
                delivered += 1
                position = logged.seq
                await self._store.advance_hook(table_id, instance, position)
            if page.events:
                position = page.events[-1].seq
                await self._store.advance_hook(table_id, instance, position)
            if position >= page.last_seq:
                await self._store.release(table_id, claimed, index="webhooks")
                return delivered
        await self._store.schedule(table_id, self._now(), index="webhooks")  # more to send
        return delivered

    async def _post(self, url: str, table_id: str, instance: str, event: Event) -> bool:
        delivery = delivery_id(table_id, instance, event.id)
        body = _encode(Delivery(delivery, table_id, instance, event))
        headers = {
            "Content-Type": "application/json",
            "Baohuang-Delivery": delivery,
            "Baohuang-Signature": signature(self._secret, int(self._now()), body),
        }
        try:
            refused = self.targets.refusal(url)  # a URL kept from before today's policy
            if refused is not None:
                raise TargetRefused(refused)
            async with asyncio.timeout(self._deadline):
                status = await self._send(url, body, headers)
        except TargetRefused as exc:
            log.warning("webhook %s: not sent: %s", delivery, exc)
            self._observe("failed", None)
            return False
        except TimeoutError:
            log.info("webhook %s: no answer within %s s", delivery, self._deadline)
            self._observe("failed", None)
            return False
        except Exception as exc:  # no answer: the receiver is down or refused the connection
            log.info("webhook %s: %s", delivery, type(exc).__name__)
            self._observe("failed", None)
            return False
        ok = 200 <= status < 300
        lag = self._now() - event.at if ok and event.at is not None else None
        self._observe("ok" if ok else "refused", lag)
        return ok

    async def _retry_later(self, table_id: str, instance: str, backoff: HookBackoff) -> None:
        failures = backoff.failures + 1
        delay = min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** min(failures - 1, 16))
        retry = HookBackoff(failures, self._now() + delay)
        await self._store.set_hook_backoff(table_id, instance, retry)
        await self._store.schedule(table_id, retry.retry_at, index="webhooks")

    def _observe(self, outcome: str, lag: float | None) -> None:
        """``outcome`` ok, refused (not 2xx) or failed (no answer); ``lag``: seconds from the
        event's commit to its delivery."""
        if self._on_delivery is not None:
            self._on_delivery(outcome, lag)


def http_sender(
    targets: Targets, timeout: float = DEADLINE_SECONDS, *, verify: ssl.SSLContext | bool = True
) -> tuple[Send, Callable[[], Awaitable[None]]]:
    """POSTs with httpx to addresses ``targets`` allows, following no redirects: the sender and
    how to close it. The dispatcher bounds each attempt as a whole; ``timeout`` bounds each
    step as well. ``verify``: how TLS certificates are checked (the system's CAs; a context of
    its own in tests)."""
    client = httpx.AsyncClient(
        transport=_PinnedTransport(targets, verify),
        timeout=timeout,
        follow_redirects=False,
        trust_env=False,  # no proxy from the environment: the connection goes where it was checked
    )

    async def send(url: str, body: bytes, headers: dict[str, str]) -> int:
        request = client.build_request("POST", url, content=body, headers=headers)
        response = await client.send(request, stream=True)
        try:
            if not response.is_success:
                log.info("webhook %s: %s %r", headers.get("Baohuang-Delivery"),
                         response.status_code, await _answer_start(response))  # fmt: skip
        finally:
            await response.aclose()  # an unread body closes the connection
        return response.status_code

    async def close() -> None:
        with contextlib.suppress(Exception):
            await client.aclose()

    return send, close


async def _answer_start(response: httpx.Response) -> str:
    """At most :data:`ANSWER_BYTES` of a refusal's body, for the log: never the whole answer."""
    kept = b""
    async for chunk in response.aiter_raw():
        kept += chunk[: ANSWER_BYTES - len(kept)]
        if len(kept) >= ANSWER_BYTES:
            break
    return kept[:200].decode("utf-8", "replace")


class _PinnedTransport(httpx.AsyncBaseTransport):
    """An httpx transport that connects only to an address :meth:`Targets.pin` checked: the URL's
    host is resolved and checked here, the request goes to that address, and the ``Host`` header
    and TLS (SNI and the certificate's name) keep the URL's name. Connections are not kept
    between deliveries, so none is ever reused for a name that was not checked."""

    def __init__(self, targets: Targets, verify: ssl.SSLContext | bool = True) -> None:
        self._targets = targets
        self._inner = httpx.AsyncHTTPTransport(
            verify=verify, limits=httpx.Limits(max_keepalive_connections=0), retries=0
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.raw_host.decode("ascii")
        port = request.url.port or (443 if request.url.scheme == "https" else 80)
        address = await self._targets.pin(host, port)
        request.url = request.url.copy_with(host=address)
        if request.url.scheme == "https":
            request.extensions = {**request.extensions, "sni_hostname": host}
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()
