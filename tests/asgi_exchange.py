"""One HTTP request driven by hand through an ASGI app: its body arrives when (and if) the test
says so, and the client goes away when the test says so — for the bounds on bodies, requests in
flight and open streams, which a client that sends whole requests cannot reach."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx


def asgi_scope(
    path: str, method: str = "POST", headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """An HTTP scope for ``path`` from 127.0.0.1, JSON by default, with ``headers`` added."""
    sent = {"host": "test", "content-type": "application/json", **(headers or {})}
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(name.lower().encode(), value.encode()) for name, value in sent.items()],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }


class Exchange:
    """One request driven by hand: the body arrives when (and if) the test says so."""

    def __init__(
        self, app: Any, path: str, method: str = "POST", headers: dict[str, str] | None = None
    ) -> None:
        self.sent: list[dict[str, Any]] = []
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._started = asyncio.Event()
        scope = asgi_scope(path, method, headers)
        self.task = asyncio.ensure_future(app(scope, self.incoming.get, self._send))

    async def _send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if message["type"] == "http.response.start":
            self._started.set()

    def feed(self, body: bytes, more: bool = False) -> None:
        self.incoming.put_nowait({"type": "http.request", "body": body, "more_body": more})

    def disconnect(self) -> None:
        """The client goes away (a stream's reader closes it)."""
        self.incoming.put_nowait({"type": "http.disconnect"})

    async def started(self, timeout: float = 5.0) -> int:
        """The status, once the answer has begun (a stream's first bytes)."""
        await asyncio.wait_for(self._started.wait(), timeout)
        return int(self.sent[0]["status"])

    async def answer(self, timeout: float = 5.0) -> tuple[int, dict[bytes, bytes], Any]:
        await asyncio.wait_for(self.task, timeout)
        start = next(m for m in self.sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in self.sent if m["type"] == "http.response.body")
        headers = dict(start["headers"])
        is_json = b"json" in headers.get(b"content-type", b"")
        return start["status"], headers, json.loads(body) if is_json else body

    async def response(self, timeout: float = 5.0) -> httpx.Response:
        """The whole answer as an :class:`httpx.Response`, as a client would read it."""
        await asyncio.wait_for(self.task, timeout)
        start = next(m for m in self.sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in self.sent if m["type"] == "http.response.body")
        return httpx.Response(start["status"], headers=start["headers"], content=body)
