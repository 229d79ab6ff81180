"""The seat's page laid out on phones and a desk, measured rather than looked at (Debian's
Chromium): 360×740 and 390×844 with touch, and 1366×900.

One whole deal of 44-card hands (``tribute``, dealt from seat 0: G-4), followed in three pages of
seat 0 at once. At every step, in every page (tests/play_browser.py, ``LAYOUT_PROBLEMS``): the
page does not scroll; every card of the hand is on screen with its corner showing; nothing a
player presses is covered or overlaps anything else or a row of the score table; nothing in a
seat tile is cut. Seat 0's moves are made by touch in the phone pages, in turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from baohuang.engine import (
    AcceptMove,
    CallMove,
    Move,
    PassMove,
    PlayMove,
    Snapshot,
    auto_move,
    legal_moves,
)
from play_browser import Tables, ThreadedServer, layout_problems, select_card, wait_version

pytestmark = pytest.mark.slow  # a real Chromium: CI runs it (HYPOTHESIS_PROFILE=ci)

SEED = 2  # tribute, dealt from seat 0: seat 0 (44 cards) takes the crown; a deal of ~120 moves
MAX_MOVES = 400
SCREENS: dict[str, dict[str, Any]] = {
    "360x740": {
        "viewport": {"width": 360, "height": 740},
        "has_touch": True,
        "is_mobile": True,
        "locale": "zh-CN",
    },
    "390x844": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
        "locale": "en-US",
    },
    "1366x900": {"viewport": {"width": 1366, "height": 900}, "locale": "en-US"},
}


def quick_move(snapshot: Snapshot) -> Move:
    """The crown taken or a card called where possible, 托管's answer otherwise; a leader plays
    its largest combo, followers pass."""
    moves = legal_moves(snapshot)
    if snapshot.phase != "play":
        taking = [move for move in moves if isinstance(move, (AcceptMove, CallMove))]
        return taking[0] if taking else auto_move(snapshot)
    if snapshot.trick.top is None:
        plays = [move for move in moves if isinstance(move, PlayMove)]
        return max(plays, key=lambda move: len(move.cards))
    return next(move for move in moves if isinstance(move, PassMove))


def tap_move(page: Any, move: Move) -> None:
    """Make ``move`` by touch; a play's cards are checked once selected (raised, under the row
    below them)."""
    if isinstance(move, PlayMove):
        for code in move.cards:
            select_card(page, code, touch=True)
        page.wait_for_selector(".feedback.good")
        assert layout_problems(page) == [], move
        page.tap('button[data-action="play"]')
    elif isinstance(move, CallMove):
        page.tap(f'[data-call-card="{move.card}"]')
        page.tap('button[data-action="call"]')
    elif isinstance(move, AcceptMove):
        page.tap('button[data-action="accept"]')
    else:
        page.tap('button[data-action="pass"]')


def test_a_44_card_hand_fits_every_screen_and_nothing_covers_anything_through_a_deal(
    browser: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "layout-44"
    created = tables.create(tid, "tribute", SEED, 0)
    version, snapshot = tables.read(tid)
    assert len(snapshot.hands[0]) == 44
    contexts = {
        name: browser.new_context(device_scale_factor=1, **o) for name, o in SCREENS.items()
    }
    pages = {name: context.new_page() for name, context in contexts.items()}
    try:
        for page in pages.values():
            page.goto(f"{dev_server.url}/play#table={tid}&token={created['seat_tokens'][0]}")
            wait_version(page, version)
            assert page.locator("[data-region=hand] [data-card]").count() == 44
        phones = [pages["360x740"], pages["390x844"]]
        # one page reads the log, scrolled to its end: what is under the hand's panel shows
        pages["390x844"].tap(".log summary")
        bottom = "document.querySelector('.board').scrollTop = 1e6"
        steps = own = 0
        for steps in range(MAX_MOVES):
            version, snapshot = tables.read(tid)
            for name, page in pages.items():
                wait_version(page, version)
                if name == "390x844":
                    page.evaluate(bottom)
                assert layout_problems(page) == [], (name, version)
            if snapshot.over:
                break
            if steps == 40:
                pages["390x844"].tap("#language")  # the other language mid-deal: laid out again
            move = quick_move(snapshot)
            if snapshot.turn == 0:
                phone = phones[own % 2]
                phone.bring_to_front()
                tap_move(phone, move)
                wait_version(phone, version + 1)
                own += 1
            else:
                tables.move(tid, move, version)
        else:
            pytest.fail(f"the deal did not end in {MAX_MOVES} moves")
        assert own >= 10 and steps > 100
        for name, page in pages.items():
            page.wait_for_selector(".over td.score:not(:empty)")
            assert page.locator(".over tbody tr").count() == 5
            assert page.locator(".own").count() == 0, name  # out, and the deal is over: no hand
            assert layout_problems(page) == [], name
    finally:
        for context in contexts.values():
            context.close()
