"""Requests as callers send them, shared by the in-process and the ``baohuang serve`` tests: every
table route for one credential, and streams opened and held open (docs/clients.md "Live tables").

The route helpers take any client with ``request(method, url, json=, headers=)``: Litestar's
``AsyncTestClient`` and ``httpx.AsyncClient`` both have it. :class:`Streams` opens real
connections (httpx) to a served replica, :class:`~live_server.LiveServer` or
:class:`~live_server.ProcessServer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

import httpx

from table_support import SMALL_BODY

NDJSON = {"accept": "application/x-ndjson"}


def bearer(credential: str) -> dict[str, str]:
    return {"authorization": f"Bearer {credential}"}


class Call(NamedTuple):
    method: str
    path: str
    body: dict[str, Any] | None = None
    headers: dict[str, str] = {}


def every_table_route(table_id: str) -> list[Call]:
    """One request to each ``/v1/tables`` route (and the stream), each one that a seat 1 token or
    a spectator token may not make where a role check applies: seat 2's view, moves and seat
    changes, its legal moves and a dry run of its move, the platform's create, delete, next
    deal, audit, tokens, bots and clock."""
    base = f"/v1/tables/{table_id}"
    lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
    return [
        Call("PUT", base, {"snapshot": SMALL_BODY}),
        Call("GET", base),
        Call("DELETE", base),
        Call("POST", f"{base}/moves", {"move": lead, "version": 1}),
        Call("GET", f"{base}/events"),
        Call("GET", f"{base}/events", headers=NDJSON),
        Call("POST", f"{base}/seats/2/trustee", {"on": True, "version": 1}),
        Call("POST", f"{base}/seats/2/leave", {"version": 1}),
        Call("POST", f"{base}/deals", {"version": 1}),
        Call("GET", f"{base}/audit"),
        Call("GET", f"{base}/seats/2"),
        Call("GET", f"{base}/legal-moves?seat=2"),
        Call("POST", f"{base}/moves/check", {"move": lead, "version": 1}),
        Call("POST", f"{base}/seats/2/token", {"version": 1}),
        Call("POST", f"{base}/spectator-token", {"version": 1}),
        Call("POST", f"{base}/seats/2/bot", {"level": "heuristic", "version": 1}),
        Call("POST", f"{base}/clock", {"clock": None, "version": 1}),
    ]


async def send(client: Any, call: Call, credential: str) -> Any:
    """``call`` with ``credential`` as its bearer; the answer (a stream's headers and first
    bytes only)."""
    headers = {**call.headers, **bearer(credential)}
    return await client.request(call.method, call.path, json=call.body, headers=headers)


async def assert_stale_tokens_are_401_on_every_route(client: Any, platform: dict[str, str]) -> None:
    """A seat token and a spectator token of an earlier instance get 401 ``UNAUTHORIZED`` on every
    table route, the role-restricted ones included (a 403 would not tell the client to fetch a
    new token), and change nothing."""
    tid = f"stale-{uuid.uuid4().hex}"
    old = await client.put(f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=platform)
    assert old.status_code == 201, old.text
    await client.delete(f"/v1/tables/{tid}", headers=platform)
    new = await client.put(f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=platform)
    assert new.status_code == 201, new.text
    stale = [old.json()["seat_tokens"][1], old.json()["spectator_token"]]
    for call in every_table_route(tid):
        for token in stale:
            answer = await send(client, call, token)
            assert answer.status_code == 401, (call, answer.status_code, answer.text)
            assert answer.headers["content-type"].startswith("application/problem+json")
            [error] = answer.json()["errors"]
            assert (error["code"], error["path"]) == ("UNAUTHORIZED", "$.headers.authorization")
    table = await client.get(f"/v1/tables/{tid}", headers=platform)
    assert table.status_code == 200 and table.json()["version"] == 1
    assert table.json()["instance"] == new.json()["instance"]


class HeldStream(NamedTuple):
    status: int
    headers: httpx.Headers
    body: bytes
    """The whole answer when it is not a stream (a refusal); empty while a stream is held."""


class Streams:
    """NDJSON streams of one table opened by one caller and held open until :meth:`close`:
    each is its own connection, as a client following a table has."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self._stack = contextlib.AsyncExitStack()
        self._lines: list[AsyncIterator[str]] = []

    async def open(self, table_id: str, credential: str, timeout: float = 10.0) -> HeldStream:
        """Open one stream: a 200 is held open (its first line, the view, read), anything else
        is read whole and its connection closed."""
        client = await self._stack.enter_async_context(
            httpx.AsyncClient(base_url=self.base_url, timeout=timeout, trust_env=False)
        )
        response = await self._stack.enter_async_context(
            client.stream(
                "GET", f"/v1/tables/{table_id}/events", headers={**NDJSON, **bearer(credential)}
            )
        )
        if response.status_code != 200:
            body = await response.aread()
            await response.aclose()
            return HeldStream(response.status_code, response.headers, body)
        lines = response.aiter_lines()
        self._lines.append(lines)  # a reader collected as garbage would close its stream
        async with asyncio.timeout(timeout):
            first = await anext(lines)
        assert first.startswith('{"type":"snapshot"'), first
        return HeldStream(200, response.headers, b"")

    async def close(self) -> None:
        await self._stack.aclose()
        self._lines.clear()

    async def __aenter__(self) -> Streams:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
