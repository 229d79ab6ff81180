"""The reference table (/play) as players use it, in a real Chromium.

- Seven tabs of one table in one browser (five seats, the spectator, the operator) all stay
  live, under Chromium's six connections per host: the tabs share one stream (live.js).
- A request that gets no answer shows an error within seconds, and the next try goes through.
- The hot-seat view plays a whole deal on a phone (360×740, touch, in Chinese): on every turn the
  trick, the seat to act, the clock and the actions are on screen and nothing covers anything;
  no raw event type, reason code or keyboard hint is shown; the role badge 革命党 is never the
  action 造反; once over, no empty hand is left; then the replay steps through the whole deal
  with every hand, by step and by trick.
- The hint button cycles through the seat's legal plays (GET /v1/tables/{id}/legal-moves).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from baohuang.engine import (
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

PHONE = {"width": 360, "height": 740}
MAX_MOVES = 600
# what a player must never read: reason codes, the log's old "#18 phase", event types as the API
# spells them (every type with an underscore, and the one-word ones that are not English prose)
RAW = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|#\d+|\b[a-z]+_[a-z_]+\b|\b(phase|clock|dealt)\b")


# ---- seven tabs -------------------------------------------------------------------------------


def test_seven_tabs_of_one_table_all_stay_live_and_see_every_move_within_a_second(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "browser-seven"
    created = tables.small(tid)
    streams: list[str] = []
    context.on(
        "request",
        lambda request: (
            streams.append(request.url)
            if request.headers.get("accept") == "text/event-stream"
            else None
        ),
    )
    base = f"{dev_server.url}/play#table={tid}"
    links = [f"{base}&token={token}" for token in created["seat_tokens"]]
    links.append(f"{base}&token={created['spectator_token']}")
    pages = []
    for link in links:
        page = context.new_page()
        page.goto(link)
        pages.append(page)
    operator = context.new_page()
    operator.goto(f"{base}&key")
    operator.click("form.key button[type=submit]")  # a development service: no key
    pages.append(operator)
    for page in pages:
        wait_version(page, 1)
        page.wait_for_selector("[data-connection=live]")
    assert [page.get_attribute("#app", "data-role") for page in pages] == (
        ["seat"] * 5 + ["spectator", "operator"]
    )
    # one stream serves the seven tabs: the others read with their own credentials
    assert len(streams) == 1, streams

    for seat, card in enumerate(["3S", "4S", "5S", "6S", "7S"]):
        mover = pages[seat]
        mover.bring_to_front()
        select_card(mover, card)
        mover.click('button[data-action="play"]')
        for page in pages:
            wait_version(page, 2 + seat, timeout=1000)
            shown = page.get_attribute(f'[data-seat="{seat}"] [data-play]', "data-play")
            assert shown == card
    for page in pages:
        assert page.locator("[data-connection=live]").count() == 1

    # the leader's tab closes: another takes the stream over, from where it was
    leader = pages.pop(0)
    leader.close()
    version, snapshot = tables.read(tid)
    tables.move(tid, auto_move(snapshot), version)
    for page in pages:
        wait_version(page, version + 1, timeout=5000)
    assert len(streams) == 2, streams


# ---- a request that does not answer -------------------------------------------------------------


def test_a_request_that_is_held_shows_an_error_within_seconds_and_the_next_try_goes_through(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "browser-held"
    created = tables.small(tid)
    page = context.new_page()
    page.goto(f"{dev_server.url}/play#table={tid}&token={created['seat_tokens'][0]}")
    wait_version(page, 1)
    held: list[Any] = []
    page.route(re.compile(rf".*/v1/tables/{tid}/moves$"), lambda route: held.append(route))
    select_card(page, "3S")
    page.click('button[data-action="play"]')
    error = page.wait_for_selector(".verdict[role=alert]", timeout=6000)
    # no answer is no verdict: the page says what happened and what to do, not "Not allowed"
    assert error.get_attribute("data-kind") == "timeout"
    assert error.inner_text().startswith("No answer from the table within 4 s.")
    assert "try again" in error.inner_text() and "Not allowed" not in error.inner_text()
    assert held  # the request really was held, not refused
    page.unroute(re.compile(rf".*/v1/tables/{tid}/moves$"))
    page.click('button[data-action="play"]:not([disabled])')  # the buttons came back
    wait_version(page, 2)
    _, snapshot = tables.read(tid)
    assert snapshot.trick.top is not None and snapshot.trick.top.cards == ["3S"]


# ---- the hint button -----------------------------------------------------------------------------


def test_the_hint_button_cycles_through_the_plays_that_beat_the_top_play(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "browser-hint"
    created = tables.small(tid)
    version, _ = tables.read(tid)
    tables.move(tid, PlayMove(0, ["3S"]), version)  # seat 1's 4S and 9H both beat it
    page = context.new_page()
    page.goto(f"{dev_server.url}/play#table={tid}&token={created['seat_tokens'][1]}")
    wait_version(page, 2)
    selected = (
        "() => [...document.querySelectorAll('[data-region=hand] [aria-pressed=true]')]"
        ".map(e => e.dataset.card)"
    )
    shown = []
    for _ in range(3):
        page.click('button[data-action="hint"]')
        page.wait_for_selector(".feedback.good")
        shown.append(page.evaluate(selected))
    assert shown == [["4S"], ["9H"], ["4S"]]  # cheapest first, then round again
    page.click('button[data-action="play"]')
    wait_version(page, 3)
    _, snapshot = tables.read(tid)
    assert snapshot.trick.top is not None and snapshot.trick.top.cards == ["4S"]


# ---- hot-seat on a phone, then the replay ---------------------------------------------------------


def quick_move(snapshot: Snapshot) -> Move:
    """A short deal: the crown holder calls, every other answer before play is 托管's; a leader
    plays its largest combo and followers pass."""
    moves = legal_moves(snapshot)
    if snapshot.phase != "play":
        calls = [move for move in moves if isinstance(move, CallMove)]
        return calls[0] if snapshot.phase == "crown" and calls else auto_move(snapshot)
    plays = [move for move in moves if isinstance(move, PlayMove)]
    if snapshot.trick.top is None:
        return max(plays, key=lambda move: len(move.cards))
    return next(move for move in moves if isinstance(move, PassMove))


def click(page: Any, move: Move, touch: bool = True) -> None:
    """A move made as a player would, by touch (or a mouse): its cards, then its button."""
    press = page.tap if touch else page.click
    if isinstance(move, PlayMove):
        for code in move.cards:
            select_card(page, code, touch=touch)
        press('button[data-action="play"]')
    elif isinstance(move, CallMove):
        press(f'[data-call-card="{move.card}"]')
        press('button[data-action="call"]')
    else:
        action = {"PassMove": "pass"}.get(type(move).__name__)
        press(f'button[data-action="{action or move_action(move)}"]')


def move_action(move: Move) -> str:
    import msgspec

    action: str = msgspec.to_builtins(move)["action"]
    return action


def on_screen(page: Any, selector: str) -> bool:
    """Whether the element is wholly within the screen and not covered (by the sticky hand, say):
    what is drawn at its middle is itself. Measured in one go: the page may draw itself again
    between two calls from here."""
    inside: bool = page.evaluate(
        """s => { const el = document.querySelector(s);
                  if (!el || !el.getClientRects().length) return false;
                  const r = el.getBoundingClientRect();
                  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
                  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth
                         && Boolean(top && el.contains(top)); }""",
        selector,
    )
    return inside


def check_a_turn(page: Any, snapshot: Snapshot) -> None:
    """What a player on a phone must have on one screen, and must never read."""
    for region in ("[data-region=to-act]", "[data-region=actions]", "#countdown"):
        assert on_screen(page, region), region
    if snapshot.phase == "play":
        assert on_screen(page, "section.trick"), "the trick is off screen"
    seen = page.evaluate(
        """() => ({
            text: document.body.innerText,
            keys: [...document.querySelectorAll("kbd, .hint.keys")].filter(e => e.checkVisibility()).length,
            badges: [...document.querySelectorAll("[data-badge]")].map(e => [e.dataset.badge, e.innerText]),
            // a fanned card's rank must end before the card laid over it begins (a long play
            // wraps: the first card of the next line lies over nothing)
            clipped: [...document.querySelectorAll(".card.small + .card.small")]
                .filter(e => e.checkVisibility())
                .filter(e => {
                    const rank = e.previousElementSibling.querySelector(".rank").getBoundingClientRect();
                    const next = e.getBoundingClientRect();
                    return next.top < rank.bottom && rank.right > next.left + 0.5;
                })
                .map(e => e.previousElementSibling.dataset.card),
        })"""
    )
    assert seen["clipped"] == [], seen["clipped"]
    assert not RAW.findall(seen["text"]), RAW.findall(seen["text"])
    assert seen["keys"] == 0  # a touch screen: no keyboard hints
    for kind, label in seen["badges"]:
        assert ("造反" in label) == (kind == "rebelled"), label


def test_hot_seat_plays_a_whole_deal_on_a_phone_then_replays_it(
    browser: Any, dev_server: ThreadedServer, tables: Tables, screenshots: Any
) -> None:
    phone = browser.new_context(
        viewport=PHONE, locale="zh-CN", has_touch=True, is_mobile=True, device_scale_factor=1
    )
    phone.set_default_timeout(10_000)
    page = phone.new_page()
    tid = "browser-hotseat"
    page.goto(f"{dev_server.url}/play")
    page.fill("input[name=seed]", "3")
    page.fill("input[name=table]", tid)
    page.select_option("select[name=deck]", "short")  # a shorter deal
    page.select_option("select[name=clock]", "60")  # a clock, and no seat lingers near it
    page.tap("button[value=hotseat]")
    page.wait_for_selector("#app[data-role=hotseat]")
    page.tap(".log summary")  # the log open: its lines are checked too
    rebels_seen = played = 0
    for _ in range(MAX_MOVES):
        version, snapshot = tables.read(tid)
        if snapshot.over:
            break
        wait_version(page, version)
        page.wait_for_selector(f'[data-own-seat="{snapshot.turn}"]')
        if snapshot.phase == "play":
            page.wait_for_selector("#countdown:not([hidden])")
            labels = page.locator("[data-badge=rebel]").all_inner_texts()
            assert all(label == "革命党" for label in labels), labels
            rebels_seen += len(labels)
        check_a_turn(page, snapshot)
        assert layout_problems(page) == [], snapshot.turn
        click(page, quick_move(snapshot))
        wait_version(page, version + 1)
        played += 1
    else:
        pytest.fail(f"the deal did not end in {MAX_MOVES} moves")
    assert rebels_seen and played > 20
    page.wait_for_selector(".over td.score:not(:empty)")
    assert not RAW.findall(page.inner_text("body"))
    assert page.locator(".own").count() == 0  # the last seat's empty hand is gone
    assert layout_problems(page) == []

    # the replay: from the deal's first step to its last, every hand (a platform's view)
    _, final = tables.read(tid)
    events = tables.events(tid)
    page.tap('button[data-action="replay"]')
    replay = page.wait_for_selector("[data-region=replay]")
    steps = int(replay.get_attribute("data-steps"))
    played_by: dict[int, list[str]] = {seat: [] for seat in range(5)}
    for event in events:
        if event["type"] == "played":
            played_by[event["seat"]] += event["cards"]
    assert hands_shown(page) == {
        seat: Counter(final.hands[seat] + played_by[seat]) for seat in range(5)
    }
    for step in range(1, steps + 1):
        page.tap('button[data-action="replay-next"]')
        page.wait_for_selector(f"[data-region=replay][data-step='{step}']")
        assert not RAW.findall(page.inner_text("[data-region=replay]"))
    assert page.locator('button[data-action="replay-next"]').is_disabled()
    assert hands_shown(page) == {seat: Counter(final.hands[seat]) for seat in range(5)}
    assert steps >= played  # one step per move, and per trick won and seat finished

    # by trick: from the start, each press shows the next trick whole, as it was won
    page.tap('button[data-action="replay-first"]')
    won = [event for event in events if event["type"] == "trick_won"]
    for n, event in enumerate(won, start=1):
        page.tap('button[data-action="replay-trick-next"]')
        page.wait_for_selector(f"[data-region=replay] [data-trick='{n}']")
        assert page.get_attribute("[data-region=replay]", "data-step") != "0"
        assert f"{event['seat']}" in page.inner_text(".replay-what")  # "座位N 赢得本轮…"
    page.tap('button[data-action="replay-trick-back"]')
    page.wait_for_selector(f"[data-region=replay] [data-trick='{max(1, len(won) - 1)}']")
    phone.close()


def hands_shown(page: Any) -> dict[int, Counter[str]]:
    shown: dict[int, Counter[str]] = {}
    for seat in range(5):
        cards = page.eval_on_selector_all(
            f'[data-replay-hand="{seat}"] [data-card]', "els => els.map(e => e.dataset.card)"
        )
        shown[seat] = Counter(cards)
    return shown


# ---- practice against bots ---------------------------------------------------------------------


def test_practice_against_heuristic_bots_every_seat_plays_cards(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    """The start page's practice: seat 0 is the player, bots of the level picked play the four
    others (labelled as bots wherever seats are named), and the bots play cards — not 托管's
    passes. The player follows the hint when it has a play and passes otherwise."""
    page = context.new_page()
    tid = "browser-practice"
    page.goto(f"{dev_server.url}/play")
    page.fill("input[name=seed]", "3")  # a deal in which every bot gets to play (not all do)
    page.select_option("select[name=dealer]", "0")
    page.select_option("select[name=deck]", "short")
    page.fill("input[name=table]", tid)
    page.select_option("select[name=level]", "heuristic")
    page.click("button[value=practice]")
    page.wait_for_selector("#app[data-role=seat] [data-own-seat='0']")
    bots = [seat["bot"] for seat in tables.table(tid)["seats"]]
    assert bots == [None, "heuristic", "heuristic", "heuristic", "heuristic"]
    for seat in (1, 2, 3, 4):
        assert page.locator(f'[data-seat="{seat}"] [data-badge=bot]').count() == 1
    assert page.locator('[data-seat="0"] [data-badge=bot]').count() == 0
    waiting = set()
    for _ in range(MAX_MOVES):
        version, snapshot = tables.read(tid)
        if snapshot.over:
            break
        if snapshot.turn != 0:  # a bot's turn: it moves by itself, a moment later
            waiting.add(page.inner_text("[data-region=to-act]"))
            page.wait_for_function(
                "v => Number(document.getElementById('app').dataset.version) > v", arg=version
            )
            continue
        wait_version(page, version)
        moves = legal_moves(snapshot)
        plays = [move for move in moves if isinstance(move, PlayMove)]
        move = plays[0] if snapshot.phase == "play" and plays else quick_move(snapshot)
        click(page, move, touch=False)
        wait_version(page, version + 1)
    else:
        pytest.fail(f"the deal did not end in {MAX_MOVES} moves")
    played = Counter(event["seat"] for event in tables.events(tid) if event["type"] == "played")
    assert set(played) == {0, 1, 2, 3, 4}, played  # every seat played cards
    assert any("Seat 2 (bot)" in text or "Seat 3 (bot)" in text for text in waiting), waiting
    page.wait_for_selector(".over")
    assert "(bot)" in page.inner_text(".over table")  # the score table names the bots too


# ---- without Web Locks: a hidden tab gives its stream back -----------------------------------------

HIDDEN = """
delete Navigator.prototype.locks;  // a page that is no secure context has no Web Locks
window.__hidden = false;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
Object.defineProperty(document, "visibilityState", {
  get: () => (window.__hidden ? "hidden" : "visible"),
});
"""


def set_hidden(page: Any, hidden: bool) -> None:
    page.evaluate(
        "h => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def test_without_web_locks_a_hidden_tab_gives_its_stream_back_and_resumes_when_shown(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "browser-hidden"
    created = tables.small(tid)
    page = context.new_page()
    page.add_init_script(HIDDEN)
    streams: list[Any] = []
    ended: list[Any] = []
    page.on(
        "request",
        lambda request: (
            streams.append(request)
            if request.headers.get("accept") == "text/event-stream"
            else None
        ),
    )
    page.on("requestfailed", lambda request: ended.append(request))  # an aborted fetch fails
    page.on("requestfinished", lambda request: ended.append(request))
    page.goto(f"{dev_server.url}/play#table={tid}&token={created['seat_tokens'][3]}")
    wait_version(page, 1)
    page.wait_for_selector("[data-connection=live]")
    assert len(streams) == 1 and streams[0].headers.get("last-event-id") is None
    set_hidden(page, True)
    page.wait_for_selector("[data-connection=paused]")
    page.wait_for_function("() => true")  # let the page's events reach the test
    assert streams[0] in ended  # the stream is closed, not merely ignored
    version, _ = tables.read(tid)
    tables.move(tid, PlayMove(0, ["3S"]), version)  # made while the tab is hidden
    page.wait_for_timeout(300)
    assert page.get_attribute("#app", "data-version") == "1"  # nothing followed while hidden
    set_hidden(page, False)
    wait_version(page, 2)
    page.wait_for_selector("[data-connection=live]")
    assert len(streams) == 2 and streams[1].headers.get("last-event-id") is not None
    assert page.get_attribute('[data-seat="0"] [data-play]', "data-play") == "3S"
