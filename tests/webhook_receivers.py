"""Webhook receivers on 127.0.0.1 that behave as told, for tests of deliveries over real sockets.

``WebhookReceiver(mode)`` answers every delivery (one request per connection) by its ``mode``:

* ``ok`` — 204 at once, keeping what it got;
* ``refuse`` — 503 at once, keeping what it got (a receiver that is up but failing);
* ``trickle`` — the answer's head one byte every ``trickle_seconds``, for as long as the sender
  keeps the connection (a receiver that never finishes but is never silent for long);
* ``huge`` — 200 with a body of ``huge_bytes`` (400 MiB by default), written as fast as the sender
  reads it; ``sent`` counts what it managed to write;
* ``redirect`` — 307 to ``redirect_to`` (a sender must not follow it).

Given a ``secret``, it also does what docs/clients.md tells a platform's receiver to do: check
the signature (401 if wrong, counted in ``bad_signatures``) and, in ``ok`` mode, store each
delivery once under its ``Baohuang-Delivery`` id (:attr:`WebhookReceiver.kept`); a delivery whose
id it already stored is dropped as a duplicate but kept aside (:attr:`WebhookReceiver.dropped`),
so that an audit can tell an honest retry (the same event again) from an id that named two
different events (a real event dropped). ``fail_first`` refuses the first attempts (with a good
signature) with 503, to make the service retry.

A service delivers to these only with private targets allowed (``LOOPBACK_ENVIRONMENT``, or
``Targets(allow_private=True)`` in process), as its docs/deploy.md says. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import ssl
import time
from dataclasses import dataclass
from typing import Any, Literal

from live_server import free_port

Mode = Literal["ok", "refuse", "trickle", "huge", "redirect"]

MIB = 1024 * 1024
LOOPBACK_ENVIRONMENT = {"BAOHUANG_WEBHOOK_ALLOW_PRIVATE": "true"}
"""What a ``baohuang serve`` needs to deliver to these receivers (loopback is a private target)."""

_TRICKLE = b"HTTP/1.1 200 OK\r\nX-Trickle: " + b"." * 100_000


def signature_holds(secret: str, signature: str, body: bytes) -> bool:
    """Whether a ``Baohuang-Signature`` (``t=<timestamp>,v1=<hex HMAC-SHA256>``) signs ``body``
    with ``secret``, as docs/clients.md tells a receiver to check it."""
    stamp, _, mac = signature.partition(",v1=")
    timestamp = stamp.removeprefix("t=")
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return hmac.compare_digest(mac, expected.hexdigest())


@dataclass(frozen=True)
class Received:
    """One delivery as it arrived: lower-case headers, the body, and when (``time.monotonic``)."""

    headers: dict[str, str]
    body: bytes
    at: float

    @property
    def json(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


class WebhookReceiver:
    """A webhook receiver on its own port (see the module docstring)."""

    def __init__(
        self,
        mode: Mode = "ok",
        *,
        trickle_seconds: float = 2.0,
        huge_bytes: int = 400 * MIB,
        port: int | None = None,
        tls: ssl.SSLContext | None = None,
        redirect_to: str = "",
        secret: str | None = None,
        fail_first: int = 0,
    ) -> None:
        """``tls``: serve HTTPS with this server context (its certificate names the host the
        test's URL uses). ``secret``: check each signature; ``fail_first``: answer the first
        attempts 503 (see the module docstring)."""
        self.mode: Mode = mode
        self.tls = tls
        self.redirect_to = redirect_to
        self.trickle_seconds = trickle_seconds
        self.huge_bytes = huge_bytes
        self.port = port or free_port()
        self.secret = secret
        self.fail_first = fail_first
        self.got: list[Received] = []
        """Every request, as it arrived (retries and refused attempts too)."""
        self.kept: dict[str, dict[str, Any]] = {}
        """``ok``: delivery id -> the body stored under it (the first that came)."""
        self.dropped: list[dict[str, Any]] = []
        """``ok``: bodies that came under an id already stored."""
        self.bad_signatures = 0
        self.sent = 0
        """Bytes of answers written (``huge``: how much of the body the sender took)."""
        self._server: asyncio.Server | None = None
        self._arrived = asyncio.Condition()
        self._handlers: set[asyncio.Task[None]] = set()

    @property
    def attempts(self) -> int:
        """Requests that arrived, whatever they were answered."""
        return len(self.got)

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}/hook"

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._handle, "127.0.0.1", self.port, ssl=self.tls
        )

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for task in list(self._handlers):
                task.cancel()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5):
                    await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> WebhookReceiver:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def wait_for(self, count: int, timeout: float) -> list[Received]:
        """Wait until ``count`` deliveries arrived (``TimeoutError`` after ``timeout`` s)."""
        async with asyncio.timeout(timeout), self._arrived:
            await self._arrived.wait_for(lambda: len(self.got) >= count)
        return list(self.got)

    def deliveries(self) -> dict[str, dict[str, Any]]:
        """What arrived, by delivery id (retries of one delivery count once)."""
        return {got.headers["baohuang-delivery"]: got.json for got in self.got}

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            async with asyncio.timeout(600):
                received = await _read_request(reader)
                async with self._arrived:
                    self.got.append(received)
                    self._arrived.notify_all()
                await self._answer(writer, received)
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            pass  # the sender gave up on this answer: that is what these receivers test
        finally:
            self._handlers.discard(task)
            writer.close()

    async def _answer(self, writer: asyncio.StreamWriter, received: Received) -> None:
        if self.secret is not None and not signature_holds(
            self.secret, received.headers.get("baohuang-signature", ""), received.body
        ):
            self.bad_signatures += 1
            await self._write(writer, b"HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n")
        elif self.fail_first > 0:
            self.fail_first -= 1
            await self._write(
                writer, b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n"
            )
        elif self.mode in ("ok", "refuse"):
            if self.mode == "ok":
                self._store(received)
            status = b"204 No Content" if self.mode == "ok" else b"503 Service Unavailable"
            await self._write(writer, b"HTTP/1.1 " + status + b"\r\nConnection: close\r\n\r\n")
        elif self.mode == "redirect":
            moved = f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {self.redirect_to}\r\n"
            await self._write(writer, moved.encode() + b"Content-Length: 0\r\n\r\n")
        elif self.mode == "trickle":
            for byte in _TRICKLE:
                await self._write(writer, bytes([byte]))
                await asyncio.sleep(self.trickle_seconds)
        else:
            head = f"HTTP/1.1 200 OK\r\nContent-Length: {self.huge_bytes}\r\n\r\n".encode()
            await self._write(writer, head)
            chunk = b"x" * (256 * 1024)
            left = self.huge_bytes
            while left > 0:
                await self._write(writer, chunk[:left])
                left -= len(chunk)

    def _store(self, received: Received) -> None:
        delivery = received.headers.get("baohuang-delivery", "")
        if delivery in self.kept:
            self.dropped.append(received.json)
        else:
            self.kept[delivery] = received.json

    async def _write(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        if writer.is_closing():
            raise ConnectionResetError("the sender closed the connection")
        writer.write(data)
        await writer.drain()
        self.sent += len(data)


async def _read_request(reader: asyncio.StreamReader) -> Received:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return Received(headers, body, time.monotonic())
