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


# What a player must be able to see and reach, measured in the page (one evaluation, so that a
# render between two readings cannot mislead): a list of what is wrong, empty when all is well.
#   - the page itself does not scroll (the board scrolls in its own box);
#   - every card of the own hand is inside the screen, and its corner (rank and suit) shows;
#   - every button, link, summary or field that shows (clipped by no scrolling box) is not
#     covered at its middle, and overlaps no other one nor a row of the score table (the cards
#     of the hand overlap one another by design, and only one another);
#   - nothing in a seat tile is cut: no text wider than its box, nothing past the tile's edge;
#   - the hand's panel lies beside the board, not over it (the board scrolls in its own box).
LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const W = innerWidth, H = innerHeight;
  const root = document.documentElement;
  if (root.scrollHeight > H + 1 || root.scrollWidth > W + 1)
    problems.push(`the page scrolls: ${root.scrollWidth}x${root.scrollHeight} in ${W}x${H}`);
  const name = (el) => el.dataset.card ? `card ${el.dataset.card}` : el.dataset.action ?? el.dataset.badge
    ?? (el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ")[0] : "")
        + (el.textContent ? ` "${el.textContent.trim().slice(0, 30)}"` : ""));
  // the part of an element that shows: its box cut by every box that clips it, and the screen
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    for (let up = el.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const c = up.getBoundingClientRect();
      box = { l: Math.max(box.l, c.left), t: Math.max(box.t, c.top), r: Math.min(box.r, c.right), b: Math.min(box.b, c.bottom) };
    }
    box = { l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, W), b: Math.min(box.b, H) };
    return box.r - box.l > 1 && box.b - box.t > 1 ? box : null;
  };
  const overlap = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 1 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 1;
  const hits = (el, x, y) => { const top = document.elementFromPoint(x, y); return Boolean(top && (el === top || el.contains(top))); };

  const hand = [...document.querySelectorAll("[data-region=hand] button.card")];
  for (const card of hand) {
    const r = card.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
      problems.push(`${name(card)} is off screen: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
    for (const part of card.querySelectorAll(".rank, .suit")) {
      const p = part.getBoundingClientRect();
      if (!p.width) continue;
      for (const [x, y] of [[p.left + 1, p.top + 1], [p.right - 1, p.bottom - 1]])
        if (!hits(card, x, y)) {
          const top = document.elementFromPoint(x, y);
          problems.push(`${name(card)}: its ${part.className} is covered by ${top ? name(top.closest(".card") ?? top) : "nothing"}`);
        }
    }
  }
  const reachable = [...document.querySelectorAll("button, a[href], summary, select, input, textarea")]
    .filter((el) => el.checkVisibility() && !hand.includes(el))
    .map((el) => ({ el, box: shown(el) }))
    .filter(({ box }) => box);
  for (const { el, box } of reachable)
    if (!hits(el, (box.l + box.r) / 2, (box.t + box.b) / 2)) {
      const top = document.elementFromPoint((box.l + box.r) / 2, (box.t + box.b) / 2);
      problems.push(`${name(el)} is covered by ${top ? name(top) : "nothing"}`);
    }
  const rows = [...document.querySelectorAll(".over tr")].map((el) => ({ el, box: shown(el) })).filter(({ box }) => box);
  const cards = hand.map((el) => ({ el, box: shown(el) })).filter(({ box }) => box);
  const apart = (a, b) => {
    if (!a.el.contains(b.el) && !b.el.contains(a.el) && overlap(a.box, b.box))
      problems.push(`${name(a.el)} overlaps ${name(b.el)}`);
  };
  for (const [i, a] of reachable.entries()) for (const b of reachable.slice(i + 1)) apart(a, b);
  for (const a of [...reachable, ...cards]) for (const b of rows) apart(a, b);
  for (const a of cards) for (const b of reachable) apart(a, b);
  const board = document.querySelector(".board"), own = document.querySelector(".own");
  if (board && own) {
    const a = board.getBoundingClientRect(), b = own.getBoundingClientRect();
    if (overlap({ l: a.left, t: a.top, r: a.right, b: a.bottom }, { l: b.left, t: b.top, r: b.right, b: b.bottom }))
      problems.push(`the hand's panel lies over the board: ${Math.round(b.top)} < ${Math.round(a.bottom)}`);
  }
  for (const tile of document.querySelectorAll("[data-seat], [data-replay-seat]")) {
    const edge = tile.getBoundingClientRect();
    for (const el of tile.querySelectorAll("*")) {
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
        problems.push(`cut in seat tile ${tile.dataset.seat ?? tile.dataset.replaySeat}: ${name(el)}`);
      const r = el.getBoundingClientRect();
      if (r.width && (r.right > edge.right + 0.5 || r.left < edge.left - 0.5))
        problems.push(`past seat tile ${tile.dataset.seat ?? tile.dataset.replaySeat}: ${name(el)}`);
    }
  }
  return problems;
}"""


def layout_problems(page: Any) -> list[str]:
    """What is wrong with the page's layout now (LAYOUT_PROBLEMS); empty when nothing is."""
    problems: list[str] = page.evaluate(LAYOUT_PROBLEMS)
    return problems


CORNER = {"x": 6, "y": 8}  # where a card of the hand shows under the next one: its rank


def select_card(page: Any, code: str, touch: bool = False) -> None:
    """Select an unselected ``code`` of the own hand as a player does: by its corner, the part a
    card shows where the hand's cards overlap (a click at its middle lands on the next card)."""
    card = page.locator(f'[data-region=hand] button[data-card="{code}"][aria-pressed=false]').first
    if touch:
        card.tap(position=CORNER)
    else:
        card.click(position=CORNER)


def seat_page(
    context: Any, server: ThreadedServer, tid: str, token: str, version: int | None = 1
) -> Any:
    """A new page of the table opened with ``token`` (a seat's or the spectator's), once it
    shows ``version`` (None: as soon as it is loaded)."""
    page = context.new_page()
    page.goto(f"{server.url}/play#table={tid}&token={token}")
    if version is not None:
        wait_version(page, version)
    return page


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

    def put(self, table_id: str, snapshot: dict[str, Any], **extra: Any) -> dict[str, Any]:
        """A new table of ``snapshot`` (as a client sends it), with ``extra`` fields of PUT (a
        clock, bots); its seat tokens kept."""
        put = self.http.put(f"/v1/tables/{table_id}", json={"snapshot": snapshot, **extra})
        assert put.status_code == 201, put.text
        created: dict[str, Any] = put.json()
        self.tokens[table_id] = created["seat_tokens"]
        return created

    def small(self, table_id: str, **extra: Any) -> dict[str, Any]:
        """A small table in play, seat 0 to lead: each seat in turn can beat the one before
        with a single (3S, 4S … 7S), and holds a 9 (seat 4: the scepter)."""
        snapshot = {
            "ruleset": "classic",
            "mode": "team",
            "emperor": 4,
            "guard": 2,
            "turn": 0,
            "hands": [["3S", "9S"], ["4S", "9H"], ["5S", "9C"], ["6S", "9D"], ["7S", "BJ*"]],
            "trick": {"top": None},
        }
        return self.put(table_id, snapshot, **extra)

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
