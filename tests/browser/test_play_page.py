"""The reference table (/play) in a real browser, against a live service.

One whole deal is played: the table is started from the page's own form, seat 0 (offered the
crown) is played by clicking in its page, the four other seats move through the HTTP API with
their tokens, and a spectator page watches. Along the way: a refused selection shows its reason,
another seat's move appears without a reload, the page reloads and follows on, and the seat's
page never holds another seat's cards.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import msgspec
import pytest

from baohuang.engine import (
    CallMove,
    Move,
    PassMove,
    PlayMove,
    Snapshot,
    auto_move,
    legal_moves,
    verify_move,
)
from play_browser import (
    API_KEY,
    DESKTOP,
    PHONE,
    CuttableProxy,
    Tables,
    ThreadedServer,
    select_card,
    wait_version,
)

SEED, DEALER = 3, 0  # classic: seat 0 is offered the crown; the deal ends in about 150 moves
MAX_MOVES = 600

pytestmark = pytest.mark.slow  # a real Chromium: CI runs it (HYPOTHESIS_PROFILE=ci)


# ---- reading the page -----------------------------------------------------------------------


def rendered_cards(page: Any) -> list[dict[str, Any]]:
    """Every card element of the page: its code, whether it is in the own hand, and the play
    (a public group of cards: a play, the called card, the crown's pile) it belongs to."""
    cards: list[dict[str, Any]] = page.eval_on_selector_all(
        "[data-card]",
        """els => els.map(el => ({
            code: el.dataset.card,
            hand: Boolean(el.closest('[data-region=hand]')),
            call: Boolean(el.closest('[data-region=call]')),
            play: el.closest('[data-play]')?.dataset.play ?? null,
        }))""",
    )
    return cards


def public_groups(events: list[dict[str, Any]]) -> set[tuple[str, ...]]:
    """The groups of cards every seat has seen: plays, called cards, cards added to the crown."""
    groups: set[tuple[str, ...]] = set()
    for event in events:
        cards = event.get("cards") or ([event["card"]] if event.get("card") else [])
        if event.get("added"):
            cards = [event["added"]]
        if cards:
            groups.add(tuple(sorted(cards)))
    return groups


def assert_only_own_cards(
    page: Any, snapshot: Snapshot, seat: int | None, tables: Tables, tid: str
) -> None:
    """The page's hand is exactly ``seat``'s, and every other card shown belongs to a public
    group: the page holds nothing of another seat's hand (a spectator: no hand at all)."""
    cards = rendered_cards(page)
    hand = Counter(card["code"] for card in cards if card["hand"])
    assert hand == (Counter(snapshot.hands[seat]) if seat is not None else Counter())
    public = public_groups(tables.events(tid))
    if snapshot.trick.top is not None:
        public.add(tuple(sorted(snapshot.trick.top.cards)))
    for card in cards:
        if card["hand"]:
            continue
        if card["call"]:  # the cards the seat may call are drawn from its own hand
            assert seat is not None and card["code"] in snapshot.hands[seat], card
            continue
        assert card["play"] is not None, f"{card['code']} is shown outside any public play"
        group = tuple(sorted(card["play"].split(" ")))
        assert group in public and card["code"] in group, f"{group} was never played"


# ---- choosing moves ---------------------------------------------------------------------


def choose(snapshot: Snapshot, page_seat: int, beat_once: bool) -> Move:
    """A quick deal: the crown holder calls, every other answer before play is the 托管 one; a
    leader plays its largest combo and followers pass, except that the page seat's next seat
    beats its first lead once (``beat_once``), so that the page has something to follow."""
    moves = legal_moves(snapshot)
    seat = snapshot.turn
    if snapshot.phase != "play":
        calls = [move for move in moves if isinstance(move, CallMove)]
        return calls[0] if seat == page_seat and calls else auto_move(snapshot)
    plays = [move for move in moves if isinstance(move, PlayMove)]
    top = snapshot.trick.top
    if top is None:
        return max(plays, key=lambda move: len(move.cards))
    if beat_once and top.seat == page_seat and seat == (page_seat + 1) % 5 and plays:
        return plays[0]  # the cheapest play that beats
    return next(move for move in moves if isinstance(move, PassMove))


def click_move(page: Any, move: Move, keyboard: bool = False) -> None:
    """Make ``move`` by clicking, as a player would: cards, then the action's button; a pass
    by its shortcut key when ``keyboard``."""
    if isinstance(move, PassMove) and keyboard:
        page.keyboard.press("s")
    elif isinstance(move, PlayMove):
        for code in move.cards:
            select_card(page, code)
        page.click('button[data-action="play"]')
    elif isinstance(move, CallMove):
        page.click(f'[data-call-card="{move.card}"]')  # the callable cards, drawn as cards
        page.click('button[data-action="call"]')
    else:
        page.click(f'button[data-action="{msgspec.to_builtins(move)["action"]}"]')


# ---- the deal -------------------------------------------------------------------------------


def start_table_from_the_page(context: Any, url: str, tid: str) -> tuple[list[str], str]:
    """The development setup: the page's form deals and creates the table; its links."""
    page = context.new_page()
    page.goto(f"{url}/play")
    page.fill("input[name=seed]", str(SEED))
    page.select_option("select[name=dealer]", str(DEALER))
    page.fill("input[name=table]", tid)
    page.click("form.start button[value=links]")
    page.wait_for_selector("[data-spectator-link]")
    seats = [page.get_attribute(f'[data-seat-link="{s}"]', "href") for s in range(5)]
    spectator = page.get_attribute("[data-spectator-link]", "href")
    assert all(f"#table={tid}&token=" in link for link in seats)
    page.close()
    return seats, spectator


def test_a_seat_plays_a_whole_deal_by_clicking(
    context: Any, dev_server: ThreadedServer, tables: Tables, screenshots: Any
) -> None:
    tid = "browser-deal"
    seat_links, spectator_link = start_table_from_the_page(context, dev_server.url, tid)
    tables.tokens[tid] = [link.rsplit("token=", 1)[1] for link in seat_links]
    version, snapshot = tables.read(tid)
    me = snapshot.turn  # offered the crown
    page = context.new_page()
    page.goto(seat_links[me])
    spectator = context.new_page()
    spectator.goto(spectator_link)
    wait_version(page, version)
    wait_version(spectator, version)

    beat_once, refused, reloaded, shot = True, False, False, False
    page_moves = 0
    for _ in range(MAX_MOVES):
        version, snapshot = tables.read(tid)
        if snapshot.over:
            break
        move = choose(snapshot, me, beat_once)
        if snapshot.turn != me:
            answer = tables.move(tid, move, version)
            if isinstance(move, PlayMove) and beat_once and snapshot.trick.top is not None:
                # another seat's move appears in both pages, with no reload
                beat_once = False
                for watcher in (page, spectator):
                    wait_version(watcher, answer["version"])
                    shown = watcher.get_attribute(
                        f'[data-seat="{move.seat}"] [data-play]', "data-play"
                    )
                    assert sorted(shown.split(" ")) == sorted(move.cards)
            continue

        page.bring_to_front()  # a page in the background gets its frames throttled
        wait_version(page, version)
        assert_only_own_cards(page, snapshot, me, tables, tid)
        if snapshot.phase == "play" and snapshot.trick.top is not None and not refused:
            refused = True
            refuse_an_illegal_selection(page, snapshot, me, tid)
            shot = True
            select_a_beating_play(page, snapshot)
            take_screenshots(page, spectator, screenshots)
            page.keyboard.press("Escape")
            spectator.close()  # a spectator comes back at the end (two pages would slow the deal)
        if page_moves == 6 and not reloaded:
            reloaded = True  # the page starts again from its URL and follows on
            page.reload()
            wait_version(page, version)
            assert page.locator("[data-region=hand] [data-card]").count() == len(snapshot.hands[me])
        click_move(page, move, keyboard=page_moves % 3 != 0)  # most passes by the S key
        wait_version(page, version + 1)
        page_moves += 1
    else:
        pytest.fail(f"the deal did not end in {MAX_MOVES} moves")

    assert refused and reloaded and shot and page_moves > 5
    version, snapshot = tables.read(tid)
    spectator = context.new_page()
    spectator.goto(spectator_link)
    for watcher in (page, spectator):
        wait_version(watcher, version)
        watcher.wait_for_selector(".over td.score:not(:empty)")
        places = watcher.locator(".over tbody tr").all_inner_texts()
        assert len(places) == 5
    assert_only_own_cards(page, snapshot, me, tables, tid)
    assert_only_own_cards(spectator, snapshot, None, tables, tid)

    # the seat's replay: its own hand only, from the first step to the last
    page.click('button[data-action="replay"]')
    replay = page.wait_for_selector("[data-region=replay]")
    assert page.eval_on_selector_all(
        "[data-replay-hand]", "els => els.map(e => Number(e.dataset.replayHand))"
    ) == [me]
    played = Counter(
        card
        for event in tables.events(tid)
        if event["type"] == "played" and event["seat"] == me
        for card in event["cards"]
    )
    mine = f'[data-replay-hand="{me}"] [data-card]'
    codes = "els => els.map(e => e.dataset.card)"
    assert Counter(page.eval_on_selector_all(mine, codes)) == played + Counter(snapshot.hands[me])
    page.click('button[data-action="replay-last"]')
    page.wait_for_selector(
        f"[data-region=replay][data-step='{replay.get_attribute('data-steps')}']"
    )
    assert Counter(page.eval_on_selector_all(mine, codes)) == Counter(snapshot.hands[me])


def refuse_an_illegal_selection(page: Any, snapshot: Snapshot, me: int, tid: str) -> None:
    """One low card against the top play: the page says at once that it does not beat (from
    /v1/combos/compare) and keeps Play disabled, so the refusal is never said twice. The table's
    own verdict on such a play (a pass rewritten into it on its way) is shown once, worded as a
    rule's, with its reason: a sentence, the code and rule id on hover only."""
    low = min(snapshot.hands[me], key=lambda code: "3456789TJQKA2SB".index(code[0]))
    reason = verify_move(snapshot, PlayMove(me, [low]))
    assert reason is not None
    select_card(page, low)
    page.wait_for_selector(".feedback.bad")
    play = page.locator('button[data-action="play"]')
    assert play.is_disabled() and play.get_attribute("aria-describedby") == "feedback"
    page.keyboard.press("Escape")  # clear the selection
    page.wait_for_selector('[data-region=hand] button[aria-pressed="true"]', state="detached")

    def into_the_low_card(route: Any) -> None:
        body = route.request.post_data_json
        body["move"] = {"seat": me, "action": "play", "cards": [low]}
        route.continue_(post_data=json.dumps(body))

    moves = re.compile(rf".*/v1/tables/{tid}/moves$")
    page.route(moves, into_the_low_card)
    page.click('button[data-action="pass"]')
    verdict = page.wait_for_selector(".verdict[data-kind=rule][role=alert]")
    page.unroute(moves)
    shown = verdict.query_selector(".reason")
    # the code picks a sentence a player understands; code and rule id only on hover
    assert shown.get_attribute("data-code") == reason.code
    assert shown.get_attribute("title") == f"{reason.code} ({reason.rule})"
    assert reason.code not in verdict.inner_text() and reason.rule not in verdict.inner_text()
    sentences = {  # what the page says for the reasons a single low card can meet
        "NOT_HIGHER": "That does not beat the top play: play higher, or pass.",
        "SIZE_MISMATCH": "Play as many cards as the top play.",
        "BIG_JOKER_UNBEATABLE": "Nothing beats a big joker here.",
    }
    assert verdict.inner_text() == f"Not allowed: {sentences[reason.code]}"
    assert page.locator(".verdict").count() == 1


def select_a_beating_play(page: Any, snapshot: Snapshot) -> None:
    """Select the cheapest play that beats the top one: the page says it beats."""
    plays = [move for move in legal_moves(snapshot) if isinstance(move, PlayMove)]
    if not plays:
        return
    for code in plays[0].cards:
        select_card(page, code)
    page.wait_for_selector(".feedback.good")


def take_screenshots(page: Any, spectator: Any, folder: Any) -> None:
    """The play and spectator views at desktop and phone sizes (phone in Chinese)."""
    for name, view in (("play", page), ("spectator", spectator)):
        view.set_viewport_size(DESKTOP)
        view.screenshot(path=str(folder / f"{name}-desktop.png"))
        view.set_viewport_size(PHONE)
        view.click("#language")
        view.screenshot(path=str(folder / f"{name}-phone.png"), full_page=True)
        view.click("#language")
        view.set_viewport_size(DESKTOP)


def test_a_dropped_stream_resumes_from_the_last_event_id(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    """The connection drops (the proxy cuts it and refuses new ones for a while); another seat
    moves meanwhile; the page reconnects with ``Last-Event-ID`` and shows the move, once."""
    tid = "browser-drop"
    created = tables.create(tid, "classic", 21, 0)
    with CuttableProxy(dev_server) as proxy:
        page = context.new_page()
        resumed: list[str | None] = []
        page.on(
            "request",
            lambda request: (
                resumed.append(request.headers.get("last-event-id"))
                if request.url.endswith("/events")
                else None
            ),
        )
        page.goto(f"{proxy.url}/play#table={tid}&token={created['seat_tokens'][2]}")
        wait_version(page, 1)
        version, snapshot = tables.read(tid)
        tables.move(tid, auto_move(snapshot), version)  # seen live
        wait_version(page, 2)
        proxy.cut()
        page.wait_for_selector(".connection.retrying")
        version, snapshot = tables.read(tid)
        tables.move(tid, auto_move(snapshot), version)  # made while the page is cut off
        proxy.restore()
        wait_version(page, 3)
        page.wait_for_selector(".connection.live")
        # the page read the table first, so even its first stream may start from that read's
        # last seq; after the cut every reconnection resumes from the last event it holds
        assert len(resumed) >= 2 and all(seen is not None for seen in resumed[1:]), resumed
        seqs = [int((seen or "0").split(".")[0]) for seen in resumed]  # ids may be "<seq>.<token>"
        assert seqs[-1] > seqs[0], resumed
        page.click(".log summary")
        shown = " ".join(
            page.eval_on_selector_all(".log li", "els => els.map(e => e.dataset.seq)")
        ).split()
        assert shown and len(shown) == len(set(shown)), shown  # each event once, none twice


# ---- a small table for the keyboard and 烤牌 ----------------------------------------------

KAOPAI = {"base": "classic", "kaopai": True}


def kaopai_table(tables: Tables, tid: str) -> dict[str, Any]:
    """Seat 0 has led a big joker; seat 1 may roast it with two (K-1)."""
    snapshot = {
        "ruleset": KAOPAI,
        "mode": "team",
        "emperor": 0,
        "guard": 2,
        "turn": 1,
        "hands": [
            ["BJ*", "5S", "5H"],
            ["BJ", "BJ", "3S", "4H", "9C", "9D"],
            ["7S"],
            ["8S"],
            ["6D"],
        ],
        "trick": {"top": {"seat": 0, "cards": ["BJ"]}},
    }
    return tables.put(tid, snapshot)


def test_cards_are_buttons_the_keyboard_selects_and_plays_with_the_kaopai_cover(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    tid = "browser-keys"
    created = kaopai_table(tables, tid)
    page = context.new_page()
    page.goto(f"{dev_server.url}/play#table={tid}&token={created['seat_tokens'][1]}")
    wait_version(page, 1)
    jokers = page.locator('[data-region=hand] button[data-card="BJ"]')
    jokers.first.focus()
    page.keyboard.press("Enter")
    assert jokers.first.get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.activeElement.dataset.card") == "BJ"  # focus stays on it
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert jokers.nth(1).get_attribute("aria-pressed") == "true"
    # 烤牌: two big jokers cover the one on top (K-1), and the page says which cover which
    cover = page.wait_for_selector(".feedback.good .cover")
    assert sorted(
        c.get_attribute("data-card") for c in cover.query_selector_all("[data-card]")
    ) == [
        "BJ",
        "BJ",
        "BJ",
    ]
    page.keyboard.press("p")  # the shortcut for Play
    wait_version(page, 2)
    _, snapshot = tables.read(tid)
    assert snapshot.trick.top is not None and snapshot.trick.top.cards == ["BJ", "BJ"]
    assert page.locator("[data-region=hand] [data-card]").count() == 4


def test_a_stale_version_is_a_409_and_the_page_reads_the_table_again(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    """The first move goes out with a version the table is not at (as if another seat had moved
    first): the page says so, reads the table again, and the player's next try goes through."""
    tid = "browser-stale"
    created = kaopai_table(tables, tid)
    page = context.new_page()
    sent: list[dict[str, Any]] = []

    def stale_once(route: Any) -> None:
        body = route.request.post_data_json
        if not sent:
            body = {**body, "version": body["version"] + 7}
        sent.append(body)
        route.continue_(post_data=json.dumps(body))

    page.goto(f"{dev_server.url}/play#table={tid}&token={created['seat_tokens'][1]}")
    wait_version(page, 1)
    page.route(re.compile(rf".*/v1/tables/{tid}/moves$"), stale_once)
    select_card(page, "BJ")
    select_card(page, "BJ")
    page.click('button[data-action="play"]')
    note = page.wait_for_selector(".verdict.note")
    assert "moved first" in note.inner_text()
    assert page.locator('[data-region=hand] button[aria-pressed="true"]').count() == 2
    page.click('button[data-action="play"]')  # the selection is still there: try again
    wait_version(page, 2)
    assert [body["version"] for body in sent] == [8, 1]
    _, snapshot = tables.read(tid)
    assert snapshot.trick.top is not None and snapshot.trick.top.cards == ["BJ", "BJ"]


# ---- platform keys --------------------------------------------------------------------------


def test_seat_and_spectator_links_work_where_platform_keys_are_set(
    context: Any, keyed_server: ThreadedServer, keyed_tables: Tables
) -> None:
    tid = "browser-keyed"
    created = keyed_tables.create(tid, "lianzhong-simple", 11, 2)
    requests: list[Any] = []
    context.on("request", lambda request: requests.append(request))
    start = context.new_page()
    start.goto(f"{keyed_server.url}/play")
    start.wait_for_selector("p.note")  # no form: tables come from the platform here
    assert start.locator("form.start").count() == 0

    seat = context.new_page()
    seat.goto(f"{keyed_server.url}/play#table={tid}&token={created['seat_tokens'][3]}")
    spectator = context.new_page()
    spectator.goto(f"{keyed_server.url}/play#table={tid}&token={created['spectator_token']}")
    wait_version(seat, 1)
    wait_version(spectator, 1)
    version, snapshot = keyed_tables.read(tid)
    assert_only_own_cards(seat, snapshot, 3, keyed_tables, tid)
    assert_only_own_cards(spectator, snapshot, None, keyed_tables, tid)
    # a move by the seat holding the crown shows in both pages
    keyed_tables.move(tid, auto_move(snapshot), version)
    wait_version(seat, 2)
    wait_version(spectator, 2)

    for view in (start, seat, spectator):
        assert API_KEY not in view.content()
    for request in requests:
        assert API_KEY not in request.url
        assert API_KEY not in (request.headers.get("authorization") or "")
    page_html = keyed_tables.http.get("/play").text
    assert API_KEY not in page_html


def test_the_operator_types_the_key_and_sees_every_hand_and_the_log(
    context: Any, keyed_server: ThreadedServer, keyed_tables: Tables
) -> None:
    tid = "browser-operator"
    keyed_tables.create(tid, "classic", 5, 1)
    version, snapshot = keyed_tables.read(tid)
    keyed_tables.move(tid, auto_move(snapshot), version)
    _, snapshot = keyed_tables.read(tid)
    page = context.new_page()
    page.goto(f"{keyed_server.url}/play#table={tid}&key=typed-into-the-url")
    assert page.url.endswith(f"#table={tid}&key")  # a key in the URL is dropped, never used
    page.fill("input[type=password]", API_KEY)
    page.click("form.key button[type=submit]")
    wait_version(page, 2)
    for seat in range(5):
        shown = page.eval_on_selector_all(
            f'[data-hand="{seat}"] [data-card]', "els => els.map(e => e.dataset.card)"
        )
        assert Counter(shown) == Counter(snapshot.hands[seat])
    page.wait_for_selector(".log[open] li")
    assert "hands the crown to" in page.inner_text(".log")  # a sentence, not crown_passed
    assert API_KEY not in page.url
    assert page.evaluate("localStorage.length + sessionStorage.length") == 0
    assert API_KEY not in page.content()  # the password field was emptied


# ---- clocks, where the service has them -------------------------------------------------


def test_the_clock_and_trustee_show_when_the_table_answer_has_them(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    """Table answers may carry ``table`` (deadline, 托管, totals); without it nothing shows.
    The answers are augmented in the browser, as a service with clocks would send them."""
    tid = "browser-clock"
    created = tables.create(tid, "classic", 9, 0)
    page = context.new_page()
    posted: list[Any] = []
    seconds = [15]  # what the augmented answers give the seat to act

    def with_clock(route: Any) -> None:
        if route.request.method != "GET":
            posted.append((route.request.url, route.request.post_data_json))
            route.fulfill(status=404, json={"status": 404, "errors": []})
            return
        answer = route.fetch().json()
        answer["table"] = {
            "deal": 1,
            "deadline": page.evaluate("Date.now() / 1000") + seconds[0],
            "clock": {"turn_seconds": 20, "before_play_seconds": 20},
            "seats": [
                {"trustee": seat == 2, "entered": int(seat == 2), "left": False}
                for seat in range(5)
            ],
            "totals": [12, -6, -6, 6, -6],
            "results": [],
        }
        route.fulfill(json=answer)

    page.goto(f"{dev_server.url}/play#table={tid}&token={created['seat_tokens'][1]}")
    wait_version(page, 1)
    assert page.locator("#countdown").is_hidden()  # no clock: no deadline to count down
    assert page.locator('button[data-action="trustee"]').count() == 1  # 托管 needs no clock
    page.route(re.compile(rf".*/v1/tables/{tid}(/seats/.*)?$"), with_clock)
    version, snapshot = tables.read(tid)
    tables.move(tid, auto_move(snapshot), version)  # an event: the page reads the table again
    wait_version(page, 2)
    countdown = page.wait_for_selector("#countdown:not([hidden])")
    assert re.fullmatch(r"1[0-5] s left", countdown.inner_text())
    assert countdown.get_attribute("class") == "countdown"  # not red with seconds to spare
    seconds[0] = 6
    version, snapshot = tables.read(tid)
    tables.move(tid, auto_move(snapshot), version)
    wait_version(page, version + 1)
    urgent = page.wait_for_selector("#countdown.urgent")  # red in the last ten seconds
    assert re.fullmatch(r"[1-6] s left", urgent.inner_text())
    assert "托管" in page.inner_text('[data-seat="2"] .badges')
    assert "total 6" in page.inner_text('[data-seat="3"] .total')
    page.click('button[data-action="trustee"]')
    page.wait_for_function("() => !document.querySelector('button[data-action=trustee]').disabled")
    url, body = posted[0]
    assert url.endswith(f"/v1/tables/{tid}/seats/1/trustee") and body == {"on": True, "version": 3}


def test_links_with_a_clock_start_it_only_when_the_operator_presses_start(
    context: Any, dev_server: ThreadedServer, tables: Tables
) -> None:
    """Links mode with a clock: the table is created without one, so a seat page opened
    early shows no countdown (and nobody's time runs) until the start page's operator presses
    "Start the clock"; then the seat to act's countdown runs from that press."""
    tid = "browser-links-clock"
    start = context.new_page()
    start.goto(f"{dev_server.url}/play")
    start.fill("input[name=seed]", str(SEED))
    start.select_option("select[name=dealer]", str(DEALER))
    start.fill("input[name=table]", tid)
    start.select_option("select[name=clock]", "30")
    start.click("form.start button[value=links]")
    start.wait_for_selector("[data-spectator-link]")
    button = start.locator("button[data-start-clock]")
    assert button.is_visible() and button.inner_text() == "Start the clock"
    version, _ = tables.read(tid)
    assert version == 1 and tables.table(tid)["deadline"] is None  # PUT started no clock
    seat = context.new_page()
    seat.goto(start.get_attribute('[data-seat-link="0"]', "href"))
    wait_version(seat, 1)
    seat.wait_for_timeout(1000)
    assert seat.locator("#countdown").is_hidden()  # no clock runs yet
    button.click()
    start.wait_for_selector("[data-clock-started]")
    assert start.locator("button[data-start-clock]").count() == 0  # shown until started
    assert tables.table(tid)["clock"] == {"turn_seconds": 30, "before_play_seconds": 30}
    countdown = seat.wait_for_selector("#countdown:not([hidden])")
    assert re.fullmatch(r"(29|30) s left", countdown.inner_text()), countdown.inner_text()
    wait_version(seat, 2)  # the clock write reached the seat's page through its stream
