"""Helpers of the browser tests (tests/browser/): Chromium's whereabouts, the service in a
thread, and the platform's side of a table over HTTP."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from baohuang.engine.snapshot import Snapshot
from baohuang.http.settings import Settings
from live_server import LiveServer, free_port
from redis_server import in_ci

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parent / "browser" / "screenshots"  # git-ignored
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
API_KEY = "platform-key-for-browser-tests"


def chromium_unavailable(reason: str) -> None:
    message = f"NO CHROMIUM: {reason}"
    if in_ci():
        pytest.fail(f"{message} (CI=true: a missing browser is a failure, not a skip)")
    pytest.skip(f"{message} (apt-get install chromium; pip install playwright; CI=true fails)")


class ThreadedServer:
    """A :class:`LiveServer` on an event loop of its own thread."""

    def __init__(self, settings: Settings) -> None:
        self.live = LiveServer(settings)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    @property
    def url(self) -> str:
        return self.live.url

    def __enter__(self) -> ThreadedServer:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.live.start(), self.loop).result(20)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self.live.stop(), self.loop).result(20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class CuttableProxy:
    """A loopback TCP proxy in front of a server, whose connections the test can cut: the
    browser's stream really drops, as when a phone loses its network, and new connections are
    refused until :meth:`restore`."""

    def __init__(self, server: ThreadedServer) -> None:
        self.server = server
        self.port = free_port()
        self.up = True
        self._pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._listener: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _start(self) -> None:
        self._listener = await asyncio.start_server(self._connect, "127.0.0.1", self.port)

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.transport.abort()
            return
        upstream_reader, upstream = await asyncio.open_connection(
            "127.0.0.1", self.server.live.port
        )
        pair = (writer, upstream)
        self._pairs.add(pair)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, RuntimeError):
                pass
            finally:
                sink.transport.abort()

        await asyncio.gather(pipe(reader, upstream), pipe(upstream_reader, writer))
        self._pairs.discard(pair)

    def _cut(self) -> None:
        self.up = False
        for pair in list(self._pairs):
            for writer in pair:
                writer.transport.abort()

    def cut(self) -> None:
        self.server.loop.call_soon_threadsafe(self._cut)

    def restore(self) -> None:
        self.up = True

    def __enter__(self) -> CuttableProxy:
        asyncio.run_coroutine_threadsafe(self._start(), self.server.loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self.cut()
        if self._listener is not None:
            self.server.loop.call_soon_threadsafe(self._listener.close)


def wait_version(page: Any, version: int, timeout: float | None = None) -> None:
    """Until the page shows the table at ``version`` (or later)."""
    page.wait_for_function(
        "v => Number(document.getElementById('app').dataset.version) >= v",
        arg=version,
        timeout=timeout,
    )


class Tables:
    """The platform's side, over HTTP: create tables, read them whole, move for any seat."""

    def __init__(self, url: str, key: str | None = None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=10)
        self.tokens: dict[str, list[str]] = {}

    def create(self, table_id: str, ruleset: Any, seed: int, dealer: int) -> dict[str, Any]:
        dealt = self.http.post(
            "/v1/deal", json={"ruleset": ruleset, "seed": seed, "dealer": dealer}
        )
        assert dealt.status_code == 200, dealt.text
        return self.put(table_id, dealt.json()["snapshot"])

    def put(self, table_id: str, snapshot: dict[str, Any]) -> dict[str, Any]:
        """A new table of ``snapshot`` (as a client sends it); its seat tokens kept."""
        put = self.http.put(f"/v1/tables/{table_id}", json={"snapshot": snapshot})
        assert put.status_code == 201, put.text
        created: dict[str, Any] = put.json()
        self.tokens[table_id] = created["seat_tokens"]
        return created

    def read(self, table_id: str) -> tuple[int, Snapshot]:
        answer = self.http.get(f"/v1/tables/{table_id}")
        assert answer.status_code == 200, answer.text
        table = answer.json()
        return table["version"], msgspec.convert(table["view"], Snapshot)

    def table(self, table_id: str) -> dict[str, Any]:
        """The ``table`` beside the view: clock, deadline, 托管, totals."""
        answer = self.http.get(f"/v1/tables/{table_id}")
        assert answer.status_code == 200, answer.text
        table: dict[str, Any] = answer.json()["table"]
        return table

    def events(self, table_id: str) -> list[dict[str, Any]]:
        answer = self.http.get(f"/v1/tables/{table_id}/events", params={"limit": 1000})
        events: list[dict[str, Any]] = answer.json()["events"]
        return events

    def move(self, table_id: str, move: Any, version: int) -> dict[str, Any]:
        """A move with the token of the seat that makes it, as that seat's client would."""
        body = {"move": msgspec.to_builtins(move), "version": version}
        token = self.tokens[table_id][body["move"]["seat"]]
        answer = self.http.post(
            f"/v1/tables/{table_id}/moves",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def close(self) -> None:
        self.http.close()
