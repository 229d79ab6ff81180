"""A client following a live table (docs/clients.md "Following a table") over Server-Sent
Events, NDJSON or by polling the events page, as a real one would: it keeps what it received,
resumes after a dropped connection from the last id it got (``Last-Event-ID``, or ``?after=``),
and when the service says the log it followed was rolled back (a ``reset``: a fresh view, then
the log from there; for a poller a ``reset`` page, after which it reads the table again) it
throws its history away and starts again from the view it was given.

What it ends up holding, :attr:`Follower.history`, is what the audit (:mod:`log_audit`) compares
with the final log as its caller may see it. Loopback only; reconnects are bounded.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote

import httpx

from baohuang.tables.callers import Caller

STREAM_TIMEOUT = httpx.Timeout(5.0, read=30.0)
"""Heartbeats come every ``BAOHUANG_STREAM_HEARTBEAT_SECONDS``: a read this long means dead."""
RESET_KINDS = frozenset({"reset"})
"""The stream item that tells a follower its history is gone (SSE ``event:``, NDJSON ``type``)."""


async def sse_frames(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """Server-Sent Events frames as dicts: ``event``, ``id``, ``data`` (parsed), ``comment``."""
    frame: dict[str, Any] = {}
    async for line in response.aiter_lines():
        if not line:
            if frame:
                yield frame
            frame = {}
        elif line.startswith(":"):
            frame["comment"] = line[1:].strip()
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            frame[name] = json.loads(value) if name == "data" else value


async def ndjson_frames(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """NDJSON lines as SSE-shaped frames, so one reader handles both."""
    async for line in response.aiter_lines():
        if not line.strip():
            continue
        item = json.loads(line)
        kind = item.get("type")
        if kind == "heartbeat":
            yield {"comment": "heartbeat"}
        elif kind in ("snapshot", "closed", *RESET_KINDS):
            yield {"event": kind, "data": {k: v for k, v in item.items() if k != "type"}}
        else:
            resume = item.get("id", item.get("seq"))  # an event's id where it has one
            yield {"event": kind, "id": None if resume is None else str(resume), "data": item}


@dataclass
class Follower:
    """One caller following one table through one replica, until :attr:`stop` is set."""

    name: str
    caller: Caller
    headers: dict[str, str]
    server: str
    table: str
    transport: Literal["sse", "ndjson", "poll"] = "sse"
    opening: dict[str, Any] | None = None
    """The view the current history starts from (the first snapshot, or the last reset's)."""
    history: list[dict[str, Any]] = field(default_factory=list)
    resets: int = 0
    reconnects: int = 0
    closed: str | None = None
    last_id: str | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    errors: list[str] = field(default_factory=list)
    others: tuple[str, ...] = ()
    """Further replicas of the table: after a failed connection, the follower may turn to the
    next one (``server`` first)."""
    strict: bool = False
    """For tests of the stream itself: a refused connection, a second opening (or a reset)
    after the first view, a frame whose id, type and seq disagree, or giving up raise
    ``AssertionError`` instead of being recorded in :attr:`errors` or taken as a reset."""
    drop: asyncio.Event = field(default_factory=asyncio.Event)
    """Set it to cut the current connection: the follower clears it and resumes."""
    connections: int = 0
    """Connections the service answered 200."""

    @property
    def start_seq(self) -> int:
        return int(self.opening["last_seq"]) if self.opening is not None else 0

    @property
    def last_seq(self) -> int:
        return int(self.history[-1]["seq"]) if self.history else self.start_seq

    def _request(self, server: str) -> tuple[str, dict[str, str]]:
        url = f"{server}/v1/tables/{self.table}/events"
        accept = "text/event-stream" if self.transport == "sse" else "application/x-ndjson"
        headers = {**self.headers, "Accept": accept}
        resume = self.last_id
        if resume is None and self.opening is not None:  # nothing since the view: from there
            resume = str(self.opening.get("last_event_id", self.opening["last_seq"]))
        if resume is not None:
            if self.transport == "sse":
                headers["Last-Event-ID"] = resume
            else:
                url += f"?after={quote(resume)}"
        return url, headers

    async def run(self, client: httpx.AsyncClient, connects: int = 200) -> None:
        if self.transport == "poll":
            await self._poll(client)
            return
        servers, turn = (self.server, *self.others), 0
        for _ in range(connects):  # bounded: a passing drill reconnects a handful of times
            if self.stop.is_set() or self.closed is not None:
                return
            url, headers = self._request(servers[turn % len(servers)])
            try:
                async with client.stream(
                    "GET", url, headers=headers, timeout=STREAM_TIMEOUT
                ) as response:
                    if response.status_code != 200:
                        refused = f"{response.status_code} {(await response.aread())!r}"
                        assert not self.strict, f"{self.name}: {refused}"
                        self.errors.append(refused)
                        await asyncio.sleep(0.2)  # 503 while Redis fails over: again
                        continue
                    if self.strict and self.transport == "sse":
                        assert response.headers["content-type"].startswith("text/event-stream")
                    self.connections += 1
                    await self._read(response)
            except (httpx.TransportError, httpx.TimeoutException) as exc:
                self.errors.append(type(exc).__name__)
                turn += 1 if len(servers) > 1 and self.connections % 2 else 0
            if self.stop.is_set() or self.closed is not None:
                return
            self.reconnects += 1
            await asyncio.sleep(0.1)
        assert not self.strict, f"{self.name} never reached the end of the stream"
        self.errors.append(f"gave up after {connects} connections")

    async def _get(self, client: httpx.AsyncClient, path: str) -> dict[str, Any] | None:
        """One GET; ``None`` on a 503 or a dropped connection (a failover: try again)."""
        try:
            response = await client.get(self.server + path, headers=self.headers)
        except (httpx.TransportError, httpx.TimeoutException) as exc:
            self.errors.append(type(exc).__name__)
            return None
        if response.status_code != 200:
            self.errors.append(f"{response.status_code} {response.text[:200]}")
            return None
        answer: dict[str, Any] = response.json()
        return answer

    async def _poll(self, client: httpx.AsyncClient, rounds: int = 20_000) -> None:
        """A poller of the events page: after the last event it got; on a ``reset`` page it
        reads the table again and polls on from there (docs/clients.md)."""
        table = f"/v1/tables/{self.table}"
        for _ in range(rounds):  # bounded: a drill polls for a few minutes at most
            if self.stop.is_set():
                return
            if self.opening is None:
                self.opening = await self._get(client, table)
                continue
            after = self.last_id or str(self.opening.get("last_event_id", self.start_seq))
            page = await self._get(client, f"{table}/events?after={quote(after)}&limit=1000")
            if page is not None and page.get("reset"):
                self.opening, self.history, self.last_id = None, [], None
                self.resets += 1
                continue
            for event in page["events"] if page is not None else []:
                self.history.append(event)
                self.last_id = str(event.get("id", event["seq"]))
            if page is None or not page["events"]:
                await asyncio.sleep(0.3)
        self.errors.append(f"gave up after {rounds} polls")

    async def _read(self, response: httpx.Response) -> None:
        frames = (sse_frames if self.transport == "sse" else ndjson_frames)(response)
        iterator = frames.__aiter__()
        stopping = asyncio.ensure_future(self.stop.wait())
        dropping = asyncio.ensure_future(self.drop.wait())
        try:
            while True:
                next_frame = asyncio.ensure_future(iterator.__anext__())
                done, _ = await asyncio.wait(
                    {stopping, dropping, next_frame}, return_when=asyncio.FIRST_COMPLETED
                )
                if next_frame not in done:
                    next_frame.cancel()
                    self.drop.clear()
                    return
                try:
                    frame = next_frame.result()
                except StopAsyncIteration:
                    return  # cut off without a closing event: resume
                self._take(frame)
                if self.closed is not None:
                    return
        finally:
            stopping.cancel()
            dropping.cancel()

    def _take(self, frame: dict[str, Any]) -> None:
        kind = frame.get("event")
        if "comment" in frame or kind is None:
            return
        data = frame["data"]
        if kind == "snapshot" and self.opening is None:
            self.opening = data
        elif kind == "snapshot" or kind in RESET_KINDS:
            assert not self.strict, f"{self.name}: a {kind} after the opening view"
            # Told the log was rolled back (or a fresh view instead of a resume): what was
            # received is void; the view given is where the history starts again.
            self.opening = data  # the same object as the opening: the table as it now is
            self.history = []
            self.last_id = frame.get("id")  # SSE: the reset's id is where to resume
            self.resets += 1
        elif kind == "closed":
            self.closed = str(data.get("reason"))
        else:
            if self.strict:
                assert frame["id"] == data["id"]
                assert frame["id"].partition(".")[0] == str(data["seq"])
                assert frame["event"] == data["type"]
            self.history.append(data)
            self.last_id = frame.get("id") or str(data["seq"])


class Stream:
    """One stream of a table read in the background until it closes, never resumed: its
    frames in order (SSE, or NDJSON if the headers ask for it, in the shape of
    :func:`sse_frames`; heartbeats left out). For tests of what one connection carries."""

    def __init__(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        self.frames: list[dict[str, Any]] = []
        self.opened = asyncio.Event()
        """Set at the first frame."""
        self.closed = asyncio.Event()
        """Set when the stream ended with its ``closed`` frame or the service ended it."""
        self._task = asyncio.create_task(self._run(client, url, headers))

    async def _run(self, client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> None:
        headers = {"Accept": "text/event-stream", **headers}
        ndjson = headers["Accept"] == "application/x-ndjson"
        async with client.stream("GET", url, headers=headers) as response:
            assert response.status_code == 200, await response.aread()
            async for frame in (ndjson_frames if ndjson else sse_frames)(response):
                if "comment" in frame:
                    continue
                self.frames.append(frame)
                self.opened.set()
                if frame.get("event") == "closed":
                    break
        self.closed.set()

    def kinds(self) -> list[str | None]:
        return [frame.get("event") for frame in self.frames]

    @property
    def items(self) -> list[dict[str, Any]]:
        """Each frame's data."""
        return [frame["data"] for frame in self.frames]

    @property
    def closing(self) -> dict[str, Any] | None:
        last = self.frames[-1] if self.frames else None
        return last if last is not None and last.get("event") == "closed" else None

    async def wait_for(self, check: Callable[[Stream], bool], timeout: float = 20.0) -> None:
        """Until ``check(self)`` holds (``TimeoutError`` after ``timeout`` s); a reader that
        failed raises its error."""
        async with asyncio.timeout(timeout):
            while not check(self):
                if self._task.done():
                    self._task.result()
                await asyncio.sleep(0.05)

    async def end(self, timeout: float = 20.0) -> None:
        """Until the stream ended (its reader's error, if it failed)."""
        async with asyncio.timeout(timeout):
            await self._task

    async def stop(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
