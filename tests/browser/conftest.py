"""Browser tests of the reference table (/play): a real headless Chromium through Playwright.

Chromium is Debian's (``apt-get install chromium``; ``.ci/run`` installs it); Playwright never
downloads a browser here. Without Chromium the tests skip loudly, and under ``CI=true`` they
fail. The service runs in-process (uvicorn on a free loopback port, in a thread of its own, since
Playwright's sync API wants the test's thread); the other seats are driven through the HTTP API.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from baohuang.http.settings import Settings
from play_browser import (
    API_KEY,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    SCREENSHOTS,
    Tables,
    ThreadedServer,
    chromium_unavailable,
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one module's tests. Playwright's sync API keeps an event loop running on
    this thread while it is open, so it is closed before the worker goes on to other modules
    (whose asyncio tests need the thread's loop)."""
    if not os.access(CHROMIUM, os.X_OK):
        chromium_unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium_unavailable("the playwright package is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def dev_server() -> Iterator[ThreadedServer]:
    """A development service: no platform keys, tables in memory; bots move 50 ms after their
    turn comes (a second by default, for people to follow), so that a practice deal is quick."""
    settings = Settings(token_secret="browser-tests", bot_delay_seconds=0.05)
    with ThreadedServer(settings) as server:
        yield server


@pytest.fixture(scope="module")
def keyed_server() -> Iterator[ThreadedServer]:
    """A service with a platform key: /v1/tables needs it, seat and spectator links do not."""
    with ThreadedServer(Settings(api_keys=(API_KEY,), token_secret="browser-tests")) as server:
        yield server


@pytest.fixture
def tables(dev_server: ThreadedServer) -> Iterator[Tables]:
    helper = Tables(dev_server.url)
    yield helper
    helper.close()


@pytest.fixture
def keyed_tables(keyed_server: ThreadedServer) -> Iterator[Tables]:
    helper = Tables(keyed_server.url, API_KEY)
    yield helper
    helper.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile per test: no shared storage, cache or cookies."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
