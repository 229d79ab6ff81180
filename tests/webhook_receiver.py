"""A platform's webhook endpoint, on a real loopback socket, that does what docs/clients.md tells
a receiver to do: check the signature, store each delivery once under its ``Baohuang-Delivery``
id, and answer 2xx; a delivery whose id it already stored is dropped as a duplicate.

It keeps what it dropped, so that an audit can tell an honest retry (the same event again) from
an id that named two different events (a real event dropped). ``fail_first`` refuses the first
attempts with 503, to make the service retry.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any

import uvicorn

from live_server import free_port


@dataclass
class WebhookReceiver:
    secret: str
    fail_first: int = 0
    kept: dict[str, dict[str, Any]] = field(default_factory=dict)
    """delivery id -> the body stored under it (the first that came)."""
    dropped: list[dict[str, Any]] = field(default_factory=list)
    """Bodies that came under an id already stored."""
    bad_signatures: int = 0
    attempts: int = 0
    port: int = field(default_factory=free_port)
    _server: uvicorn.Server | None = None
    _task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def _verified(self, headers: dict[str, str], body: bytes) -> bool:
        stamp, _, mac = headers.get("baohuang-signature", "").partition(",v1=")
        timestamp = stamp.removeprefix("t=")
        expected = hmac.new(self.secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
        return hmac.compare_digest(mac, expected.hexdigest())

    async def _app(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # lifespan: nothing to set up
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
                await receive()
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        self.attempts += 1
        status = 204
        if not self._verified(headers, body):
            self.bad_signatures += 1
            status = 401
        elif self.fail_first > 0:
            self.fail_first -= 1
            status = 503
        else:
            delivery = headers.get("baohuang-delivery", "")
            parsed = json.loads(body)
            if delivery in self.kept:
                self.dropped.append(parsed)
            else:
                self.kept[delivery] = parsed
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def start(self, timeout: float = 10.0) -> None:
        config = uvicorn.Config(
            self._app, host="127.0.0.1", port=self.port, log_level="warning", interface="asgi3"
        )  # a bound method would pass for an ASGI 2 app
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve())
        async with asyncio.timeout(timeout):
            while not self._server.started:
                if self._task.done():
                    self._task.result()
                await asyncio.sleep(0.02)

    async def stop(self) -> None:
        if self._server is None or self._task is None:
            return
        self._server.should_exit = True
        async with asyncio.timeout(10):
            await self._task
        self._server = self._task = None

    async def __aenter__(self) -> WebhookReceiver:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
