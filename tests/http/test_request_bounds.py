"""The request bounds of http/bounds.py, in process: a body due in time (408) and a limit on the
requests with a body handled at once (503 ``OVERLOADED``); the settings that set them.

tests/ship/test_slow_clients.py runs the connection bounds against a real ``baohuang serve``.
"""

from __future__ import annotations

import asyncio

import pytest

from asgi_exchange import Exchange
from baohuang.http.app import create_app
from baohuang.http.bounds import connection_cap
from baohuang.http.settings import Settings

COMPARE = b'{"previous": ["7S"], "candidate": ["8S"]}'


def test_a_body_that_does_not_arrive_in_time_is_408() -> None:
    app = create_app(Settings(body_timeout_seconds=0.3))

    async def run() -> None:
        slow = Exchange(app, "/v1/combos/compare")
        slow.feed(COMPARE[:10], more=True)  # and nothing more
        started = asyncio.get_running_loop().time()
        async with asyncio.timeout(30):  # a stall; the timeout is 0.3 s
            status, headers, document = await slow.answer()
        waited = asyncio.get_running_loop().time() - started
        assert status == 408 and waited >= 0.25  # not before its time; late only on a busy machine
        assert headers[b"content-type"].startswith(b"application/problem+json")
        assert headers[b"connection"] == b"close"
        assert document["errors"][0]["code"] == "REQUEST_TIMEOUT"
        assert "0.3 seconds" in document["detail"]
        # A body that arrives in parts, in time, is read as usual.
        parts = Exchange(app, "/v1/combos/compare")
        parts.feed(COMPARE[:10], more=True)
        await asyncio.sleep(0.1)
        parts.feed(COMPARE[10:])
        status, _, document = await parts.answer()
        assert status == 200 and document["beats"] is True

    asyncio.run(run())


def test_requests_beyond_the_in_flight_limit_are_503_but_operations_answer() -> None:
    app = create_app(Settings(max_in_flight=2))

    async def run() -> None:
        waiting = [Exchange(app, "/v1/combos/compare") for _ in range(2)]
        await asyncio.sleep(0.05)  # both are in the app, reading their bodies
        status, headers, document = await Exchange(app, "/v1/combos/compare").answer()
        assert status == 503 and headers[b"retry-after"] == b"1"
        assert document["errors"][0]["code"] == "OVERLOADED"
        for path in ("/healthz", "/metrics"):
            status, _, _ = await Exchange(app, path, "GET").answer()
            assert status == 200, path
        for exchange in waiting:
            exchange.feed(COMPARE)
            assert (await exchange.answer())[0] == 200
        late = Exchange(app, "/v1/combos/compare")
        late.feed(COMPARE)
        assert (await late.answer())[0] == 200  # the answers freed the places

    asyncio.run(run())


def test_a_request_that_was_answered_no_longer_counts() -> None:
    app = create_app(Settings(max_in_flight=1))

    async def run() -> None:
        for _ in range(3):
            exchange = Exchange(app, "/v1/combos/compare")
            exchange.feed(COMPARE)
            assert (await exchange.answer())[0] == 200

    asyncio.run(run())


def test_settings_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "BAOHUANG_HEADER_TIMEOUT_SECONDS": "2.5",
            "BAOHUANG_BODY_TIMEOUT_SECONDS": "7",
            "BAOHUANG_KEEP_ALIVE_SECONDS": "30",
            "BAOHUANG_MAX_CONNECTIONS": "500",
            "BAOHUANG_MAX_IN_FLIGHT": "100",
            "BAOHUANG_BACKLOG": "64",
        }
    )
    assert settings.header_timeout_seconds == 2.5 and settings.body_timeout_seconds == 7
    assert settings.keep_alive_seconds == 30 and settings.backlog == 64
    assert settings.max_connections == 500 and settings.max_in_flight == 100
    defaults = Settings.from_env({})
    assert (defaults.header_timeout_seconds, defaults.body_timeout_seconds) == (10, 30)
    assert (defaults.keep_alive_seconds, defaults.max_connections) == (75, 2048)
    for bad in ("0", "-1", "soon"):
        with pytest.raises(ValueError, match="BAOHUANG_BODY_TIMEOUT_SECONDS"):
            Settings.from_env({"BAOHUANG_BODY_TIMEOUT_SECONDS": bad})


def test_connections_stay_below_the_open_files_limit() -> None:
    assert connection_cap(2048, 1_048_576) == 2048
    assert connection_cap(2048, 1024) == 1024 - 128
    assert connection_cap(2048, 256) == 192
    assert connection_cap(10, 256) == 10
