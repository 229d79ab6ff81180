"""What the reference table (/play) says, in a real Chromium: words that say what happened.

- A move whose answer never comes (held past the page's time-out) but which landed shows as
  landed: the table shows the move, and no error stays.
- A deal that 托管 played out because a clock ran out with every other seat in 托管 is unscored
  under T-11, and says so (not 黄庄); the seat whose time ran out is named.
- The live region (role=log) announces the turn, each play with its cards, a pass, a trick won
  and a seat finishing, in the page's language: read from the accessibility tree.
- The language chosen is kept across reloads; a disabled Call says why.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from typing import Any

import pytest

from baohuang.engine import PassMove, PlayMove, auto_move
from play_browser import Tables, ThreadedServer, seat_page, select_card, wait_version

pytestmark = pytest.mark.slow  # a real Chromium: CI runs it (HYPOTHESIS_PROFILE=ci)


def test_a_move_whose_answer_never_came_but_landed_shows_as_landed(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    """The move reaches the table, its answer is held past the page's 4 s time-out: the stream
    brings the move, and when the time-out comes the page says the move went through — no
    error, no "try again" left on screen."""
    tid = "words-landed"
    created = tables.small(tid)
    page = seat_page(context, dev_server, tid, created["seat_tokens"][0])
    held: list[tuple[Any, Any]] = []

    def land_but_hold_the_answer(route: Any) -> None:
        held.append((route, route.fetch()))  # the table takes the move; the page hears nothing

    moves = re.compile(rf".*/v1/tables/{tid}/moves$")
    page.route(moves, land_but_hold_the_answer)
    select_card(page, "3S")
    page.click('button[data-action="play"]')
    wait_version(page, 2)  # the stream brought the move while its answer is held
    assert page.get_attribute('[data-seat="0"] [data-play]', "data-play") == "3S"
    landed = page.wait_for_selector(".verdict[data-kind=landed]", timeout=8000)  # after 4 s
    assert landed.inner_text() == "Your move went through: its answer came late."
    assert held and page.locator("[role=alert]").count() == 0
    assert tables.read(tid)[0] == 2  # once: nothing was sent again
    # the next move clears it
    tables.move(tid, PlayMove(1, ["4S"]), 2)
    wait_version(page, 3)
    assert page.locator(".verdict").count() == 0
    page.unroute(moves)
    for route, _ in held:
        with contextlib.suppress(Exception):  # the page gave up on it already
            route.abort()


def test_a_move_timed_out_before_the_table_moved_is_settled_when_it_does(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    """The other order: the page's time-out comes first (the move is held on its way, the table
    has not moved), so the page says it got no answer; then the move reaches the table, and the
    notice becomes "went through"."""
    tid = "words-late"
    created = tables.small(tid)
    page = seat_page(context, dev_server, tid, created["seat_tokens"][0])
    held: list[Any] = []
    moves = re.compile(rf".*/v1/tables/{tid}/moves$")
    page.route(moves, lambda route: held.append(route))  # held before it reaches the table
    select_card(page, "3S")
    page.click('button[data-action="play"]')
    error = page.wait_for_selector(".verdict[data-kind=timeout]", timeout=8000)
    assert "may still have reached it" in error.inner_text()
    assert tables.read(tid)[0] == 1
    body = held[0].request.post_data_json
    answer = tables.http.post(
        f"/v1/tables/{tid}/moves",
        json=body,
        headers={
            "Authorization": f"Bearer {created['seat_tokens'][0]}",
            "Idempotency-Key": held[0].request.headers["idempotency-key"],
        },
    )
    assert answer.status_code == 200, answer.text  # it arrives, late
    wait_version(page, 2)
    page.wait_for_selector(".verdict[data-kind=landed]")
    assert page.locator("[role=alert]").count() == 0
    page.unroute(moves)


def test_a_lost_connection_is_said_as_one_with_what_to_do_not_as_a_refusal(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "words-network"
    created = tables.small(tid)
    page = seat_page(context, dev_server, tid, created["seat_tokens"][0])
    moves = re.compile(rf".*/v1/tables/{tid}/moves$")
    page.route(moves, lambda route: route.abort("internetdisconnected"))
    select_card(page, "3S")
    page.click('button[data-action="play"]')
    error = page.wait_for_selector(".verdict[data-kind=network][role=alert]")
    assert error.inner_text() == (
        "No connection to the table: check your network. The page reconnects by itself; "
        "then try again."
    )
    page.click("#language")
    assert page.inner_text(".verdict") == "无法连接牌桌：请检查网络。页面会自动重连，之后请重试。"
    assert "不合规则" not in page.inner_text("[data-region=actions]")
    page.unroute(moves)
    page.click('button[data-action="play"]')  # the selection is kept: the next try goes through
    wait_version(page, 2)
    assert page.locator(".verdict").count() == 0


def test_a_deal_toguan_played_out_after_a_timeout_is_unscored_under_T11_not_a_void_deal(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "words-all-trustee"
    created = tables.small(tid, clock={"turn_seconds": 1, "before_play_seconds": 1})
    for seat in (1, 2, 3, 4):  # the others in 托管 already; seat 0's clock runs out
        version, _ = tables.read(tid)
        answer = tables.http.post(
            f"/v1/tables/{tid}/seats/{seat}/trustee", json={"on": True, "version": version}
        )
        assert answer.status_code == 200, answer.text
    page = seat_page(context, dev_server, tid, created["seat_tokens"][0], version=None)
    over = page.wait_for_selector(".over", timeout=15000)
    assert over.get_attribute("data-outcome") == "outcome_ALL_TRUSTEE"
    text = over.inner_text()
    assert text.startswith("Not scored 不予计分: every seat was in 托管")
    assert "Seat 0 (you): time ran out, and 托管 played on." in text
    assert "(T-11)" in text and "黄庄" not in text and "dealt again" not in text
    assert page.locator(".over table").count() == 0  # no places: S-10
    assert tables.table(tid)["results"][-1]["score"]["void"]["code"] == "ALL_TRUSTEE"


def announced(page: Any) -> str:
    """The live region as the accessibility tree carries it (what a screen reader reads)."""
    tree: str = page.locator("#announcer").aria_snapshot()
    return tree


def test_the_live_region_announces_turns_plays_tricks_and_finishers_in_the_page_language(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "words-live"
    created = tables.small(tid)
    page = seat_page(context, dev_server, tid, created["seat_tokens"][1])
    assert page.get_attribute("#announcer", "role") == "log"
    page.wait_for_function(
        "() => document.getElementById('announcer').textContent.includes('Seat 0')"
    )
    assert "Seat 0 to act" in announced(page)

    def move(seat: int, cards: list[str] | None) -> None:
        version, _ = tables.read(tid)
        tables.move(tid, PlayMove(seat, cards) if cards else PassMove(seat), version)
        wait_version(page, version + 1)

    move(0, ["3S"])
    page.wait_for_function(
        "() => document.getElementById('announcer').textContent.includes('Your turn')"
    )
    tree = announced(page)
    assert '- log "Table announcements"' in tree
    assert tree.index("Seat 0 plays 3 spades") < tree.index("Your turn")
    select_card(page, "4S")
    page.click('button[data-action="play"]')
    wait_version(page, 3)
    page.click("#language")  # from here on, Chinese
    move(2, ["5S"])
    move(3, ["6S"])
    move(4, ["BJ*"])
    for seat in (0, 1, 2, 3):
        move(seat, None)
    move(4, ["7S"])  # seat 4 leads its last card: out first
    page.wait_for_function(
        "() => document.getElementById('announcer').textContent.includes('头科')"
    )
    tree = announced(page)
    assert '- log "牌桌播报"' in tree
    for line in (
        "Seat 1 (you) plays 4 spades",
        "座位2 出 黑桃5",
        "座位4 出 大王★",
        "座位0 过",
        "座位4 赢得本轮，座位4 出牌",
        "座位4 出完：头科",
    ):
        assert line in tree, (line, tree)
    assert tree.index("座位4 赢得本轮") < tree.index("座位4 出完")
    for _ in range(40):  # on to the deal's end, every seat by the API
        version, snapshot = tables.read(tid)
        if snapshot.over:
            break
        tables.move(tid, auto_move(snapshot), version)
    wait_version(page, tables.read(tid)[0])
    page.wait_for_function(
        "() => document.getElementById('announcer').textContent.includes('本局结束')"
    )
    assert "本局结束" in announced(page).splitlines()[-1]  # the deal's end, said last


def test_the_language_chosen_is_kept_across_reloads(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "words-language"
    created = tables.small(tid)
    page = seat_page(context, dev_server, tid, created["seat_tokens"][0])
    assert page.get_attribute("html", "lang") == "en"
    page.click("#language")
    page.reload()
    wait_version(page, 1)
    assert page.get_attribute("html", "lang") == "zh-CN"
    assert page.inner_text("[data-region=to-act]") == "轮到你了"
    stored = page.evaluate("Object.entries(localStorage)")
    assert stored == [["baohuang.lang", "zh"]]  # the language, and nothing else
    page.click("#language")
    page.reload()
    wait_version(page, 1)
    assert page.inner_text("[data-region=to-act]") == "Your turn"


def test_a_disabled_call_says_why(context: Any, dev_server: ThreadedServer, tables: Tables) -> None:
    """The crown holder holds no three of one card (its cards dealt again so, for the test): Call
    is disabled, and says why (G-2)."""
    tid = "words-call"
    snapshot = tables.http.post("/v1/deal", json={"ruleset": "classic", "seed": 4, "dealer": 0})
    snapshot = snapshot.json()["snapshot"]
    holder = snapshot["turn"]
    hands = snapshot["hands"]
    cards = sorted(card for hand in hands for card in hand)
    mine = ["BJ*"]  # the scepter stays with the seat it was offered to; at most two of any card
    for card in cards:
        kind = card.rstrip("*")
        if (
            card != "BJ*"
            and len(mine) < len(hands[holder])
            and [c.rstrip("*") for c in mine].count(kind) < 2
        ):
            mine.append(card)
    rest = sorted((Counter(cards) - Counter(mine)).elements())
    for seat, hand in enumerate(hands):
        if seat == holder:
            continue
        hands[seat], rest = rest[: len(hand)], rest[len(hand) :]
    hands[holder] = mine
    created = tables.put(tid, snapshot)
    page = seat_page(context, dev_server, tid, created["seat_tokens"][holder])
    call = page.locator('button[data-action="call"]')
    assert call.is_disabled()
    why = page.locator(f"#{call.get_attribute('aria-describedby')}")
    assert why.inner_text() == "No card to call: you hold no three of one card (G-2)."
    assert page.locator('button[data-action="decline"]').is_enabled()  # what it may do instead
