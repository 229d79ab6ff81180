"""``/play``: the reference table's page and modules, served from the package (README "Play in
the browser"). What the page does is tested in a browser (tests/browser/); here, how it is served
and what it may not contain."""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.play import assets, cjk_characters

MODULES = [
    "main.js",
    "api.js",
    "live.js",
    "state.js",
    "words.js",
    "table.js",
    "view.js",
    "controls.js",
    "hand.js",
    "announcer.js",
    "replay.js",
    "record.js",
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


@pytest.fixture(scope="module")
def served() -> Iterator[Callable[[Settings], TestClient[Any]]]:
    """A client of an app built from exactly the settings given, one app per distinct settings:
    the nine spellings below read as two settings, and each app costs 40 ms of CPU to build."""
    with ExitStack() as stack:
        apps: dict[Settings, TestClient[Any]] = {}

        def client(settings: Settings) -> TestClient[Any]:
            if settings not in apps:
                apps[settings] = stack.enter_context(TestClient(create_app(settings)))
            return apps[settings]

        yield client


@pytest.mark.parametrize(
    ("value", "on"),
    [(None, True), ("", True), ("on", True), ("true", True), ("off", False), ("OFF", False),
     ("false", False), ("0", False), ("no", False)],
)  # fmt: skip
def test_BAOHUANG_PLAY_PAGE_turns_the_page_off(
    served: Callable[[Settings], TestClient[Any]], value: str | None, on: bool
) -> None:
    environ = {} if value is None else {"BAOHUANG_PLAY_PAGE": value}
    settings = Settings.from_env(environ)
    assert settings.play_page is on
    client = served(settings)  # built from settings equal to these
    assert client.get("/play").status_code == (200 if on else 404)
    assert client.get("/play/main.js").status_code == (200 if on else 404)


def test_every_asset_is_shipped_and_nothing_comes_from_elsewhere() -> None:
    files = assets()
    assert set(MODULES) | {"index.html", "play.css", "favicon.svg", "cjk.woff"} == set(files)
    for name, (content, _) in files.items():
        if name.endswith(".woff"):
            continue
        # an SVG names its namespace by URL; that is a name, nothing is fetched from it
        text = content.decode().replace('xmlns="http://www.w3.org/2000/svg"', "")
        # no CDN, no other origin: every import and link is relative to the page
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text), name
        for imported in re.findall(r'from "\./([\w-]+\.js)"', text):
            assert imported in files, f"{name} imports {imported}, which is not shipped"
        # the page keeps credentials in memory only: no cookies, no storage but the language
        # chosen, kept by i18n.js under its one key (tests/browser checks what is stored)
        assert not re.search(r"sessionStorage|document\.cookie|indexedDB", text), name
        uses = re.findall(r"localStorage\??\.(\w+)\(([^,)]*)", text)
        if name == "i18n.js":
            assert uses == [("getItem", "STORED"), ("setItem", "STORED")], uses
            assert 'const STORED = "baohuang.lang";' in text
        else:
            assert "localStorage" not in text, name


# ---- the CJK subset font -------------------------------------------------------------------


def woff_table(font: bytes, wanted: bytes) -> bytes:
    """One table of a WOFF 1 font, inflated (the standard library is enough: zlib)."""
    assert font[:4] == b"wOFF"
    (count,) = struct.unpack_from(">H", font, 12)
    for entry in range(count):
        tag, offset, packed, size, _ = struct.unpack_from(">4sIIII", font, 44 + 20 * entry)
        if tag == wanted:
            data = font[offset : offset + packed]
            return zlib.decompress(data) if packed < size else data
    raise AssertionError(f"no {wanted!r} table")


def mapped(cmap: bytes) -> set[int]:
    """The code points a cmap's (3, 1) format-4 subtable maps to a glyph other than .notdef."""
    _, count = struct.unpack_from(">HH", cmap, 0)
    for record in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * record)
        if (platform, encoding) == (3, 1) and struct.unpack_from(">H", cmap, offset)[0] == 4:
            break
    else:
        raise AssertionError("no (3, 1) format 4 cmap")
    (segments_x2,) = struct.unpack_from(">H", cmap, offset + 6)
    n = segments_x2 // 2
    ends = struct.unpack_from(f">{n}H", cmap, offset + 14)
    starts = struct.unpack_from(f">{n}H", cmap, offset + 16 + segments_x2)
    deltas = struct.unpack_from(f">{n}h", cmap, offset + 16 + 2 * segments_x2)
    range_at = offset + 16 + 3 * segments_x2
    ranges = struct.unpack_from(f">{n}H", cmap, range_at)
    found: set[int] = set()
    for i in range(n):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                at = range_at + 2 * i + ranges[i] + 2 * (code - starts[i])
                (glyph,) = struct.unpack_from(">H", cmap, at)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                found.add(code)
    return found


def test_the_cjk_font_holds_every_cjk_character_the_page_uses() -> None:
    """Chinese renders without system CJK fonts: every CJK character of the page's files is in
    the shipped subset font. Adding a label without running tools/cjk_font.py fails here."""
    font = assets()["cjk.woff"][0]
    characters = cjk_characters()
    missing = characters - {chr(code) for code in mapped(woff_table(font, b"cmap"))}
    assert characters and not missing, f"run tools/cjk_font.py: {sorted(missing)}"
    assert {"保", "皇", "革", "命", "党", "造", "反"} <= characters
    assert len(font) < 200_000  # a subset, not the 16 MB font


def test_the_page_may_load_its_font_and_favicon(client: TestClient[Any]) -> None:
    page = client.get("/play")
    assert "font-src 'self'" in page.headers["content-security-policy"]
    assert 'rel="icon" href="play/favicon.svg"' in page.text
    assert client.get("/play/favicon.svg").headers["content-type"].startswith("image/svg+xml")
    assert client.get("/play/cjk.woff").headers["content-type"] == "font/woff"
