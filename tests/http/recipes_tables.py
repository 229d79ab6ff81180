"""Recipes for the codes of live tables and of the service (docs/errors.md, "Problems"): tables
on the shared app; the limits on :data:`.code_recipes.TIGHT`; store faults planted for one table
(an outage, a write too few replicas confirmed, no connection free in time, a bug)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import msgspec

from asgi_exchange import Exchange
from baohuang.bots import BotInput
from baohuang.bots.levels import first_thoughts
from baohuang.bots.thinkers import Thinkers
from baohuang.engine import Move, seat_view
from baohuang.store import StoreOutcomeUnknown, StoreOverloaded, StoreUnavailable
from caller_support import bearer
from table_support import SMALL, SMALL_BODY

from .code_recipes import PLATFORM, Answer, Recipes, Senders, table

RECIPES = Recipes()
sends = RECIPES.sends

LEAD = {"move": {"seat": 0, "action": "play", "cards": ["7S", "7H"]}, "version": 1}
"""Seat 0 leads a pair on a new table of :data:`SMALL_BODY` (version 1)."""


def _view(seat: int) -> dict[str, Any]:
    view: dict[str, Any] = msgspec.to_builtins(seat_view(SMALL, seat))
    return view


def _failing(senders: Senders, method: str, tid: str, error: Exception) -> None:
    """The shared store's ``method`` raises ``error`` for table ``tid`` (others pass)."""
    store = senders.store
    passed = getattr(store, method)

    async def failing(table_id: str, *args: Any, **kwargs: Any) -> Any:
        if table_id == tid:
            raise error
        return await passed(table_id, *args, **kwargs)

    senders.monkeypatch.setattr(store, method, failing)


@sends("UNAUTHORIZED")
def a_token_of_another_table(senders: Senders) -> Answer:
    token = table(senders.client, {"snapshot": SMALL_BODY}, "codes-unauth-a")["seat_tokens"][0]
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-unauth-b")
    return senders.client.get("/v1/tables/codes-unauth-b", headers=bearer(token))


@sends("TOKEN_REVOKED")
def a_seat_token_the_platform_replaced(senders: Senders) -> Answer:
    old = table(senders.client, {"snapshot": SMALL_BODY}, "codes-revoked")["seat_tokens"][1]
    issued = senders.client.post("/v1/tables/codes-revoked/seats/1/token", json={"version": 1})
    assert issued.status_code == 200, issued.text
    return senders.client.get("/v1/tables/codes-revoked", headers=bearer(old))


@sends("FORBIDDEN")
def a_seat_token_acting_for_another_seat(senders: Senders) -> Answer:
    token = table(senders.client, {"snapshot": SMALL_BODY}, "codes-forbidden")["seat_tokens"][1]
    return senders.client.post(
        "/v1/tables/codes-forbidden/seats/2/trustee",
        json={"on": True, "version": 1},
        headers=bearer(token),
    )


@sends("TABLE_NOT_FOUND")
def no_table_under_this_id(senders: Senders) -> Answer:
    return senders.client.get("/v1/tables/codes-never-created")


@sends("VERSION_CONFLICT")
def a_move_naming_a_version_that_is_not_current(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-conflict")
    return senders.client.post("/v1/tables/codes-conflict/moves", json={**LEAD, "version": 7})


@sends("DUPLICATE_SEAT")
def bots_naming_one_seat_twice(senders: Senders) -> Answer:
    bots = [{"seat": 2, "level": "search"}, {"seat": 2, "level": "heuristic"}]
    body = {"snapshot": SMALL_BODY, "bots": bots}
    return senders.client.put("/v1/tables/codes-two-bots", json=body)


@sends("NOT_TO_ACT")
def a_bot_asked_for_a_seat_that_is_not_to_act(senders: Senders) -> Answer:
    return senders.client.post("/v1/bots/suggest", json={"view": _view(1)})


@sends("INVALID_VIEW")
def a_seat_view_whose_counts_contradict_its_hand(senders: Senders) -> Answer:
    view = _view(0)
    view["counts"][0] += 1
    return senders.client.post("/v1/bots/suggest", json={"view": view})


@sends("INVALID_HISTORY")
def a_history_entry_that_does_not_fit_the_view(senders: Senders) -> Answer:
    history = [{"type": "played", "cards": ["3S"]}]  # a play by no seat
    return senders.client.post("/v1/bots/suggest", json={"view": _view(0), "history": history})


@sends("IDEMPOTENCY_KEY_REUSED")
def an_idempotency_key_sent_before_with_another_request(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-key")
    key = {"Idempotency-Key": "codes-key-1"}
    first = senders.client.post("/v1/tables/codes-key/moves", json=LEAD, headers=key)
    assert first.status_code == 200, first.text
    other = {"move": {"seat": 0, "action": "play", "cards": ["9D"]}, "version": 1}
    return senders.client.post("/v1/tables/codes-key/moves", json=other, headers=key)


@sends("WEBHOOKS_OFF")
def a_webhook_on_a_service_without_a_webhook_secret(senders: Senders) -> Answer:
    webhook = {"url": "https://93.184.216.34/hook", "events": ["deal_over"]}
    body = {"snapshot": SMALL_BODY, "webhook": webhook}
    return senders.client.put("/v1/tables/codes-hooks-off", json=body)


@sends("SNAPSHOT_OR_DEAL")
def a_table_put_with_neither_a_snapshot_nor_a_deal(senders: Senders) -> Answer:
    return senders.client.put("/v1/tables/codes-neither", json={})


@sends("SEED_AND_COMMITTED")
def a_next_deal_both_seeded_and_committed(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-seed-and-committed")
    body = {"version": 1, "seed": 7, "committed": True}
    return senders.client.post("/v1/tables/codes-seed-and-committed/deals", json=body)


@sends("DEAL_NOT_KEPT")
def a_deal_the_table_keeps_no_record_of(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-no-record")
    return senders.client.get("/v1/tables/codes-no-record/deals/3")


@sends("TOO_MANY_STREAMS")
def a_stream_past_the_tables_limit(senders: Senders) -> Answer:
    async def streams(app: Any, client: httpx.AsyncClient) -> Answer:
        put = await client.put(
            "/v1/tables/streams", json={"snapshot": SMALL_BODY}, headers=PLATFORM
        )
        assert put.status_code in (200, 201), put.text
        stream = {**PLATFORM, "accept": "text/event-stream"}
        held = Exchange(app, "/v1/tables/streams/events", "GET", stream)
        assert await held.started() == 200
        refused = await Exchange(app, "/v1/tables/streams/events", "GET", stream).response()
        held.disconnect()
        await held.answer()
        return refused

    return senders.on_tight(streams)


@sends("WEBHOOK_URL_REFUSED")
def a_webhook_url_naming_an_internal_address(senders: Senders) -> Answer:
    async def hook(_: Any, client: httpx.AsyncClient) -> Answer:
        webhook = {"url": "http://127.0.0.1:9/hook", "events": ["deal_over"]}
        body = {"snapshot": SMALL_BODY, "webhook": webhook}
        return await client.put("/v1/tables/hooked", json=body, headers=PLATFORM)

    return senders.on_tight(hook)


@sends("TOO_MANY_SUGGESTIONS")
def a_search_suggestion_past_the_callers_limit(senders: Senders) -> Answer:
    """The first suggestion thinks until the second is answered (a gate in the bot workers)."""
    thinking, release = threading.Event(), threading.Event()

    async def gated(_: Thinkers, bot: BotInput, *args: Any, **kwargs: Any) -> Move:
        thinking.set()
        await asyncio.to_thread(release.wait, 5)
        return first_thoughts(bot)[1]

    senders.monkeypatch.setattr(Thinkers, "think", gated)
    body = {"view": _view(0), "level": "search", "budget_ms": 5}

    async def two(_: Any, client: httpx.AsyncClient) -> Answer:
        first = asyncio.create_task(client.post("/v1/bots/suggest", json=body, headers=PLATFORM))
        await asyncio.to_thread(thinking.wait, 5)
        refused = await client.post("/v1/bots/suggest", json=body, headers=PLATFORM)
        release.set()
        assert (await first).status_code == 200
        return refused

    return senders.on_tight(two)


@sends("RATE_LIMITED")
def an_address_that_spent_its_budget_of_failed_authentications(senders: Senders) -> Answer:
    async def twice(_: Any, client: httpx.AsyncClient) -> Answer:
        first = await client.get("/v1/tables/anything", headers=bearer("invented"))
        assert first.status_code == 401, first.text
        return await client.get("/v1/tables/anything", headers=bearer("invented"))

    return senders.on_tight(twice)


@sends("INTERNAL_ERROR")
def the_referee_failed(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-bug")
    _failing(senders, "get", "codes-bug", RuntimeError("a bug"))
    return senders.client.get("/v1/tables/codes-bug")


@sends("STORE_UNAVAILABLE")
def the_table_store_is_unreachable(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-outage")
    _failing(senders, "get", "codes-outage", StoreUnavailable("connection refused"))
    return senders.client.get("/v1/tables/codes-outage")


@sends("OUTCOME_UNKNOWN")
def a_write_not_confirmed_by_enough_replicas(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-unconfirmed")
    _failing(senders, "compare_and_set", "codes-unconfirmed", StoreOutcomeUnknown("WAIT: 0 of 1"))
    return senders.client.post("/v1/tables/codes-unconfirmed/moves", json=LEAD)


@sends("OVERLOADED")
def more_requests_in_flight_than_the_replica_serves(senders: Senders) -> list[Answer]:
    """Table work with no store connection free in time, and a third request with a body while
    two wait for theirs (``max_in_flight`` 2)."""
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-busy")
    _failing(senders, "get", "codes-busy", StoreOverloaded("no connection came free in 2 s"))
    busy = senders.client.get("/v1/tables/codes-busy")

    async def third(app: Any, _: Any) -> Answer:
        waiting = [Exchange(app, "/v1/combos/compare") for _ in range(2)]
        await asyncio.sleep(0.05)  # both are in the app, reading their bodies
        refused = await Exchange(app, "/v1/combos/compare").response()
        for exchange in waiting:
            exchange.feed(b'{"previous": ["7S"], "candidate": ["8S"]}')
            await exchange.answer()
        return refused

    return [busy, senders.on_tight(third)]
