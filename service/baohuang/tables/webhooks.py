"""Webhooks: a table's chosen events POSTed to the platform, signed, at least once.

A table may name a webhook (``PUT`` with ``webhook: {url, events}``, platform only). Deliveries
come from the table's own event log, the record of truth: the log keeps the events, and the table
keeps how far its webhook has delivered (a cursor). A write with events to deliver puts the
table in the store's ``webhooks`` index *before* it commits (so a replica that dies right after
the commit still leaves it there); any replica's dispatcher claims due tables for a lease, POSTs
their next events in order, moves the cursor after each 2xx, and on a failure tries again later
with backoff (capped at a minute, for as long as the table lives: a day after its last write by
default). A receiver that is down or slow delays only its own deliveries, never a move.

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
import time
from collections.abc import Awaitable, Callable
from typing import Final

import msgspec

from ..engine import (
    Event,
)
from ..store import StoreOverloaded, StoreUnavailable, TableStore
from .following import logged_event
from .record import Webhook, decode_record

__all__ = ["Delivery", "Dispatcher", "Webhook", "http_sender", "signature"]

log = logging.getLogger("baohuang.tables")

LEASE_SECONDS: Final = 30.0
POLL_SECONDS: Final = 0.2
BACKOFF_FIRST: Final = 1.0
BACKOFF_CAP: Final = 60.0
BATCH: Final = 50
"""Tables one round of a dispatcher claims."""
PAGE: Final = 500
PAGES_PER_CLAIM: Final = 20
TIMEOUT_SECONDS: Final = 5.0


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


class Dispatcher:
    """One per process: delivers whatever webhook deliveries fall due, whichever replica wrote
    them. ``send`` and ``clock`` are injectable for tests."""

    def __init__(
        self,
        store: TableStore,
        secret: str,
        send: Send,
        *,
        clock: Callable[[], float] = time.time,
        on_delivery: Callable[[str, float | None], None] | None = None,
    ) -> None:
        self._store = store
        self._secret = secret.encode()
        self._send = send
        self._now = clock
        self._on_delivery = on_delivery
        self._failures: dict[str, int] = {}

    async def run(self, poll_seconds: float = POLL_SECONDS) -> None:
        while True:
            try:
                await self.tick()
            except (StoreUnavailable, StoreOverloaded) as exc:
                log.warning("webhooks: %s (trying again)", exc)
            except Exception:
                log.exception("webhooks: delivering failed")
            await asyncio.sleep(poll_seconds)

    async def tick(self) -> int:
        """Deliver what is due now (one round): how many deliveries succeeded."""
        now = self._now()
        delivered = 0
        for table_id in await self._store.due(now, BATCH, LEASE_SECONDS, index="webhooks"):
            delivered += await self._deliver(table_id, now + LEASE_SECONDS)
        return delivered

    async def _deliver(self, table_id: str, claimed: float) -> int:
        stored = await self._store.get(table_id)
        cursor = await self._store.hook_cursor(table_id)
        if stored is None or cursor is None:
            await self._store.release(table_id, claimed, index="webhooks")
            return 0
        webhook = decode_record(stored.snapshot).webhook
        instance, position = cursor
        if webhook is None or instance != stored.instance:
            await self._store.release(table_id, claimed, index="webhooks")
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
                if not await self._post(webhook.url, table_id, instance, event):
                    if logged.seq - 1 > position:
                        await self._store.advance_hook(table_id, instance, logged.seq - 1)
                    await self._retry_later(table_id)
                    return delivered
                delivered += 1
                await self._store.advance_hook(table_id, instance, logged.seq)
            if page.events:
                position = page.events[-1].seq
                await self._store.advance_hook(table_id, instance, position)
            if position >= page.last_seq:
                self._failures.pop(table_id, None)
                await self._store.release(table_id, claimed, index="webhooks")
                return delivered
        await self._store.schedule(table_id, self._now(), index="webhooks")  # more to send
        return delivered

    async def _post(self, url: str, table_id: str, instance: str, event: Event) -> bool:
        delivery = f"{table_id}.{instance}.{event.id}"
        body = _encode(Delivery(delivery, table_id, instance, event))
        headers = {
            "Content-Type": "application/json",
            "Baohuang-Delivery": delivery,
            "Baohuang-Signature": signature(self._secret, int(self._now()), body),
        }
        try:
            status = await self._send(url, body, headers)
        except Exception as exc:  # no answer: the receiver is down or slow
            log.info("webhook %s: %s", delivery, type(exc).__name__)
            self._observe("failed", None)
            return False
        ok = 200 <= status < 300
        lag = self._now() - event.at if ok and event.at is not None else None
        self._observe("ok" if ok else "refused", lag)
        return ok

    async def _retry_later(self, table_id: str) -> None:
        failures = self._failures.get(table_id, 0) + 1
        self._failures[table_id] = failures
        delay = min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** (failures - 1))
        await self._store.schedule(table_id, self._now() + delay, index="webhooks")

    def _observe(self, outcome: str, lag: float | None) -> None:
        """``outcome`` ok, refused (not 2xx) or failed (no answer); ``lag``: seconds from the
        event's commit to its delivery."""
        if self._on_delivery is not None:
            self._on_delivery(outcome, lag)


def http_sender(timeout: float = TIMEOUT_SECONDS) -> tuple[Send, Callable[[], Awaitable[None]]]:
    """POSTs with httpx (no redirects followed): the sender and how to close it."""
    import httpx

    client = httpx.AsyncClient(timeout=timeout, follow_redirects=False)

    async def send(url: str, body: bytes, headers: dict[str, str]) -> int:
        response = await client.post(url, content=body, headers=headers)
        return response.status_code

    async def close() -> None:
        with contextlib.suppress(Exception):
            await client.aclose()

    return send, close
