"""Seats that change hands (docs/clients.md "Seats that change hands"): the platform issues a new
token for seat 2 (or the spectators) and the old one is refused at once — 401 ``TOKEN_REVOKED``
on every route of every replica from the very next request, and its open streams close — while
the new one works and the table logs who changed hands, never the token.

On real sockets: two replicas on one Redis, in this process (quick) and as two ``baohuang
serve`` processes (slow).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from followers import Stream
from live_server import LiveServer, ProcessServer
from redis_server import RedisServer, shared_redis_url
from table_support import SMALL_BODY

from .problem_checks import assert_problem

pytestmark = pytest.mark.anyio

KEY = "platform-key"
SECRET = "token-rotation"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
TIMEOUT = httpx.Timeout(10.0, read=10.0)
CLOSE_SECONDS = 5.0


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _seat_requests(tid: str, seat: int, version: int) -> list[tuple[str, str, Any]]:
    """A request on every table route a seat token may use (the stream is checked apart)."""
    base = f"/v1/tables/{tid}"
    move = {"move": {"seat": seat, "action": "pass"}, "version": version}
    return [
        ("GET", base, None),
        ("GET", f"{base}/seats/{seat}", None),
        ("GET", f"{base}/events", None),
        ("GET", f"{base}/legal-moves", None),
        ("POST", f"{base}/moves", move),
        ("POST", f"{base}/moves/check", move),
        ("POST", f"{base}/seats/{seat}/trustee", {"on": True, "version": version}),
        ("POST", f"{base}/seats/{seat}/leave", {"version": version}),
    ]


async def _revoked(client: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> None:
    response = await client.request(method, url, **kwargs)
    assert response.status_code == 401, (method, url, response.text)
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["errors"][0]["code"] == "TOKEN_REVOKED", response.text


async def _scenario(servers: list[str]) -> None:
    tid = f"rotate-{uuid.uuid4().hex}"
    first, second = (httpx.AsyncClient(base_url=url, timeout=TIMEOUT) for url in servers)
    async with first, second:
        created = await first.put(
            f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=PLATFORM
        )
        assert created.status_code == 201, created.text
        table = created.json()
        old = table["seat_tokens"][2]
        # Seat 0 leads through the first replica, seat 1 passes through the second: the second
        # remembers that write, so a judgement on its memory is exercised too.
        lead = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
        played = await first.post(
            f"/v1/tables/{tid}/moves",
            json={"move": lead, "version": 1},
            headers=_bearer(table["seat_tokens"][0]),
        )
        assert played.status_code == 200, played.text
        passed = await second.post(
            f"/v1/tables/{tid}/moves",
            json={"move": {"seat": 1, "action": "pass"}, "version": 2},
            headers=_bearer(table["seat_tokens"][1]),
        )
        assert passed.status_code == 200, passed.text
        streams = [
            Stream(client, f"/v1/tables/{tid}/events", _bearer(token))
            for client in (first, second)
            for token in (old, table["seat_tokens"][1], table["spectator_token"])
        ]
        try:
            async with asyncio.timeout(CLOSE_SECONDS):
                await asyncio.gather(*(stream.opened.wait() for stream in streams))
            rotated = await first.post(f"/v1/tables/{tid}/seats/2/token", headers=PLATFORM)
            assert rotated.status_code == 200, rotated.text
            answer = rotated.json()
            assert answer["seat"] == 2 and answer["generation"] == 1 and answer["version"] == 4
            new = answer["token"]
            assert new != old and new.startswith(table["instance"] + ".")
            # The very next request with the old token, on either replica, on every route.
            for client in (second, first):
                for method, url, body in _seat_requests(tid, 2, 4):
                    await _revoked(client, method, url, json=body, headers=_bearer(old))
                await _revoked(
                    client, "GET", f"/v1/tables/{tid}/events",
                    headers={**_bearer(old), "Accept": "text/event-stream"},
                )  # fmt: skip
                # a platform route: 401 first, not 403, so that its client fetches a new token
                await _revoked(
                    client, "POST", f"/v1/tables/{tid}/clock", json={"clock": None},
                    headers=_bearer(old),
                )  # fmt: skip
            # Its open streams on both replicas close; the others' stay open.
            async with asyncio.timeout(CLOSE_SECONDS):
                await asyncio.gather(streams[0].closed.wait(), streams[3].closed.wait())
            for stream in (streams[0], streams[3]):
                assert stream.closing is not None
                assert stream.closing["data"] == {"reason": "token_revoked"}
            for stream in (*streams[1:3], *streams[4:]):
                assert not stream.closed.is_set()
                rotation = [f for f in stream.frames if f.get("event") == "token_rotated"]
                async with asyncio.timeout(CLOSE_SECONDS):
                    while not rotation:
                        await asyncio.sleep(0.02)
                        rotation = [f for f in stream.frames if f.get("event") == "token_rotated"]
                assert rotation[0]["data"]["seat"] == 2
            # The new token works on both replicas, from a move to a stream.
            for client in (first, second):
                read = await client.get(f"/v1/tables/{tid}", headers=_bearer(new))
                assert read.status_code == 200 and read.json()["view"]["seat"] == 2
                moves = await client.get(f"/v1/tables/{tid}/legal-moves", headers=_bearer(new))
                assert moves.status_code == 200 and moves.json()["moves"], moves.text
            # The second replica remembers its write at version 3, from before the new token:
            # a stale version with the new token is a conflict, not a revoked token.
            stale = await second.post(
                f"/v1/tables/{tid}/moves",
                json={"move": {"seat": 2, "action": "pass"}, "version": 3},
                headers=_bearer(new),
            )
            assert stale.status_code == 409, stale.text
            moved = await second.post(
                f"/v1/tables/{tid}/moves",
                json={"move": {"seat": 2, "action": "pass"}, "version": 4},
                headers=_bearer(new),
            )
            assert moved.status_code == 200, moved.text
            fresh = Stream(first, f"/v1/tables/{tid}/events", _bearer(new))
            async with asyncio.timeout(CLOSE_SECONDS):
                await fresh.opened.wait()
            assert fresh.frames[0]["event"] == "snapshot"
            await fresh.stop()
            # The spectators' token changes the same way.
            spectator = await second.post(f"/v1/tables/{tid}/spectator-token", headers=PLATFORM)
            assert spectator.status_code == 200 and spectator.json()["seat"] is None
            for client in (first, second):
                await _revoked(
                    client, "GET", f"/v1/tables/{tid}", headers=_bearer(table["spectator_token"])
                )
                ok = await client.get(
                    f"/v1/tables/{tid}", headers=_bearer(spectator.json()["token"])
                )
                assert ok.status_code == 200 and "hand" not in ok.json()["view"]
            async with asyncio.timeout(CLOSE_SECONDS):
                await asyncio.gather(streams[2].closed.wait(), streams[5].closed.wait())
            assert streams[2].closing is not None and streams[5].closing is not None
            # The log names the seat that changed hands, and no token.
            log = await first.get(f"/v1/tables/{tid}/events", headers=PLATFORM)
            rotations = [e for e in log.json()["events"] if e["type"] == "token_rotated"]
            assert [(e["seat"], e["generation"]) for e in rotations] == [(2, 1), (None, 1)]
            for token in (old, new, spectator.json()["token"]):
                assert token.rpartition(".")[2] not in log.text
            # The audit replays the log with its rotations.
            audit = await first.get(f"/v1/tables/{tid}/audit", headers=PLATFORM)
            assert audit.json()["valid"] is True, audit.text
            # Only a platform issues tokens.
            refused = await first.post(f"/v1/tables/{tid}/seats/2/token", headers=_bearer(new))
            assert refused.status_code == 403
        finally:
            for stream in streams:
                await stream.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    return shared_redis_url() or redis_server.url


async def test_a_rotated_token_is_refused_at_once_on_two_replicas(redis_url: str) -> None:
    settings = Settings(
        redis_url=redis_url, api_keys=(KEY,), token_secret=SECRET, stream_heartbeat_seconds=1.0
    )
    async with LiveServer(settings) as first, LiveServer(settings) as second:
        await _scenario([first.url, second.url])


async def test_a_rotated_token_is_refused_on_the_in_memory_store() -> None:
    settings = Settings(api_keys=(KEY,), token_secret=SECRET, stream_heartbeat_seconds=1.0)
    async with LiveServer(settings) as only:
        await _scenario([only.url, only.url])


@pytest.mark.slow  # two `baohuang serve` processes
async def test_a_rotated_token_is_refused_at_once_by_two_serve_processes(redis_url: str) -> None:
    environment = {
        "REDIS_URL": redis_url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": SECRET,
        "BAOHUANG_STREAM_HEARTBEAT_SECONDS": "1",
    }
    async with ProcessServer(environment) as first, ProcessServer(environment) as second:
        await _scenario([first.url, second.url])


def test_a_token_is_issued_at_the_version_the_platform_saw_or_refused() -> None:
    with TestClient(create_app(Settings(api_keys=(KEY,), token_secret=SECRET))) as client:
        tid = f"rotate-{uuid.uuid4().hex}"
        created = client.put(f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}, headers=PLATFORM)
        url = f"/v1/tables/{tid}/seats/1/token"
        stale = client.post(url, json={"version": 7}, headers=PLATFORM)
        assert_problem(stale, 409, "VERSION_CONFLICT", "$.version")
        assert_problem(
            client.post(url, json={"version": 0}, headers=PLATFORM), 400, "INVALID_FIELD"
        )
        bad_seat = client.post(f"/v1/tables/{tid}/seats/5/token", headers=PLATFORM)
        assert_problem(bad_seat, 422, "INVALID_SEAT", "$.path.seat")
        missing = client.post(f"/v1/tables/none-{tid}/spectator-token", headers=PLATFORM)
        assert_problem(missing, 404, "TABLE_NOT_FOUND")
        seat = {"Authorization": f"Bearer {created.json()['seat_tokens'][1]}"}
        assert_problem(client.post(url, headers=seat), 403, "FORBIDDEN")
        # nothing above wrote: the first token is still valid, at version 1
        assert client.get(f"/v1/tables/{tid}", headers=seat).json()["version"] == 1
        issued = client.post(url, json={"version": 1}, headers=PLATFORM)
        assert issued.status_code == 200 and issued.json()["version"] == 2
        again = client.post(url, headers=PLATFORM)  # no body: at the current version
        assert again.json()["generation"] == 2 and again.json()["version"] == 3
        first = issued.json()["token"]
        assert_problem(
            client.get(f"/v1/tables/{tid}", headers=_bearer(first)), 401, "TOKEN_REVOKED"
        )
