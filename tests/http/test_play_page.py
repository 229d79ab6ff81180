"""``/play``: the reference table's page and modules, served from the package (README "Play in
the browser"). What the page does is tested in a browser (tests/browser/); here, how it is served
and what it may not contain."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.play import assets

MODULES = [
    "main.js",
    "api.js",
    "table.js",
    "actions.js",
    "cards.js",
    "dom.js",
    "i18n.js",
    "setup.js",
]


def test_the_page_and_its_modules_are_served_under_a_same_origin_policy(
    client: TestClient[Any],
) -> None:
    page = client.get("/play")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert "default-src 'none'" in policy
    assert page.headers["referrer-policy"] == "no-referrer"
    assert '<script type="module" src="play/main.js">' in page.text
    for name in MODULES:
        module = client.get(f"/play/{name}")
        assert module.status_code == 200, name
        assert module.headers["content-type"] == "text/javascript; charset=utf-8"
    assert client.get("/play/play.css").headers["content-type"] == "text/css; charset=utf-8"


def test_play_with_a_slash_goes_to_play_and_nothing_else_is_served(
    client: TestClient[Any],
) -> None:
    slash = client.get("/play/", follow_redirects=False)
    assert slash.status_code == 308 and slash.headers["location"] == "../play"
    for path in ("/play/nothing.js", "/play/__init__.py", "/play/..%2F..%2Fhttp%2Fapp.py"):
        assert client.get(path).status_code in (400, 404), path


def test_the_page_is_not_part_of_the_api_contract(client: TestClient[Any]) -> None:
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert not any(path.startswith("/play") for path in paths)


@pytest.mark.parametrize(
    ("value", "on"),
    [(None, True), ("", True), ("on", True), ("true", True), ("off", False), ("OFF", False),
     ("false", False), ("0", False), ("no", False)],
)  # fmt: skip
def test_BAOHUANG_PLAY_PAGE_turns_the_page_off(value: str | None, on: bool) -> None:
    environ = {} if value is None else {"BAOHUANG_PLAY_PAGE": value}
    settings = Settings.from_env(environ)
    assert settings.play_page is on
    with TestClient(create_app(settings)) as client:
        assert client.get("/play").status_code == (200 if on else 404)
        assert client.get("/play/main.js").status_code == (200 if on else 404)


def test_every_asset_is_shipped_and_nothing_comes_from_elsewhere() -> None:
    files = assets()
    assert set(MODULES) | {"index.html", "play.css"} == set(files)
    for name, (content, _) in files.items():
        text = content.decode()
        # no CDN, no other origin: every import and link is relative to the page
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text), name
        for imported in re.findall(r'from "\./([\w-]+\.js)"', text):
            assert imported in files, f"{name} imports {imported}, which is not shipped"
        # the page keeps credentials in memory only: no storage, no cookies
        assert not re.search(r"localStorage|sessionStorage|document\.cookie|indexedDB", text), name
