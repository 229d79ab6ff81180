"""Refresh the screenshots of the reference table in docs/ (README, "Play in the browser").

A development service runs in-process; a classic deal is played through the HTTP API until a
few tricks are down and a seat has a play to beat; then that seat's page and the spectator's are
shot in Debian's Chromium at 1366×900 and 360×740 (a touch screen), in English and Chinese, a
finished deal's end and its replay on a phone, and a practice table against bots:

    python tools/play_screenshots.py            # writes docs/play-*.png, docs/spectator-*.png
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "service")]

from baohuang.engine import CallMove, Move, PassMove, PlayMove, Snapshot, auto_move, legal_moves  # noqa: E402
from baohuang.http.settings import Settings  # noqa: E402
from play_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    Tables,
    ThreadedServer,
    layout_problems,
    select_card,
)

DOCS = ROOT / "docs"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 360, "height": 740}


def quick_move(snapshot: Snapshot, beat: bool) -> Move:
    """The crown holder calls, 托管 answers the rest before play; leaders play their largest
    combo, followers beat with the cheapest play when ``beat``, else pass."""
    moves = legal_moves(snapshot)
    if snapshot.phase != "play":
        calls = [move for move in moves if isinstance(move, CallMove)]
        return calls[0] if snapshot.phase == "crown" and calls else auto_move(snapshot)
    plays = [move for move in moves if isinstance(move, PlayMove)]
    if snapshot.trick.top is None:
        return max(plays, key=lambda move: len(move.cards))
    if beat and plays:
        return plays[0]
    return next(move for move in moves if isinstance(move, PassMove))


def play_until(tables: Tables, tid: str, stop: Any) -> tuple[int, Snapshot]:
    for step in range(2000):
        version, snapshot = tables.read(tid)
        if stop(snapshot):
            return version, snapshot
        tables.move(tid, quick_move(snapshot, beat=step % 3 == 0), version)
    raise RuntimeError("the deal did not get there")


def shoot(page: Any, name: str, zh: bool) -> None:
    is_zh = page.evaluate("document.documentElement.lang.startsWith('zh')")
    if is_zh != zh:
        page.click("#language")
    page.wait_for_timeout(300)  # the font and the re-render
    problems = layout_problems(page)  # a screenshot shows what the tests measure
    if problems:
        raise RuntimeError(f"{name}: {problems}")
    page.screenshot(path=str(DOCS / f"{name}.png"))
    print(f"docs/{name}.png")


def main() -> None:
    logging.disable(logging.CRITICAL)
    from playwright.sync_api import sync_playwright

    settings = Settings(token_secret="screenshots", bot_delay_seconds=0.05)
    with ThreadedServer(settings) as server, sync_playwright() as pw:
        tables = Tables(server.url)
        tid = "table-7"
        created = tables.create(tid, "classic", 3, 0)
        _, snapshot = play_until(
            tables,
            tid,
            lambda s: (
                s.phase == "play"
                and s.trick.top is not None
                and sum(map(len, s.hands)) < 190
                and any(isinstance(m, PlayMove) for m in legal_moves(s))
            ),
        )
        seat = snapshot.turn
        seat_link = f"{server.url}/play#table={tid}&token={created['seat_tokens'][seat]}"
        spectator_link = f"{server.url}/play#table={tid}&token={created['spectator_token']}"
        cheapest = next(m for m in legal_moves(snapshot) if isinstance(m, PlayMove))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size, touch, suffix in ((DESKTOP, False, "desktop"), (PHONE, True, "phone")):
            context = browser.new_context(
                viewport=size, has_touch=touch, is_mobile=touch, locale="en-US"
            )
            page = context.new_page()
            page.goto(seat_link)
            page.wait_for_selector("[data-region=hand] [data-card]")
            for code in cheapest.cards:
                select_card(page, code)
            page.wait_for_selector(".feedback.good")
            shoot(page, f"play-{suffix}", zh=False)
            shoot(page, f"play-{suffix}-zh", zh=True)
            spectator = context.new_page()
            spectator.goto(spectator_link)
            spectator.wait_for_selector("[data-connection=live]")
            shoot(spectator, f"spectator-{suffix}", zh=suffix == "phone")
            context.close()

        # a finished deal's end, and its replay by trick, as the seat sees it: its own hand only
        play_until(tables, tid, lambda s: s.over)
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(seat_link)
        page.wait_for_selector(".over td.score:not(:empty)")
        shoot(page, "over-phone", zh=False)
        page.click('button[data-action="replay"]')
        for _ in range(6):
            page.click('button[data-action="replay-trick-next"]')
        page.evaluate("document.querySelector('[data-region=replay]').scrollIntoView()")
        shoot(page, "replay-phone-zh", zh=True)
        context.close()

        # practice: seat 0 against four bots, from the start page
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(f"{server.url}/play")
        page.fill("input[name=seed]", "3")
        page.fill("input[name=table]", "practice-1")
        page.click("button[value=practice]")
        page.wait_for_selector("#app[data-role=seat] [data-own-seat='0']")
        for _ in range(50):  # until it is the player's turn in play
            _, practice = tables.read("practice-1")
            if practice.phase == "play" and practice.turn == 0:
                break
            if practice.turn == 0:
                page.click('button[data-action="decline"], button[data-action="call"]')
            page.wait_for_timeout(200)
        page.wait_for_selector('button[data-action="play"]')
        shoot(page, "practice-phone-zh", zh=True)
        context.close()
        browser.close()
        tables.close()


if __name__ == "__main__":
    main()
