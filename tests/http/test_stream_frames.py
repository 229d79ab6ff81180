"""Shared stream frames (service/baohuang/tables/feed.py, http/streams.py): every follower of one
kind of caller in a process sends the same bytes for an event, cut and encoded once, and those
bytes are exactly what that follower would have been sent had it cut and encoded the event for
itself — for every kind of caller (platform, spectator, each seat), in SSE and in NDJSON, on
random deals played to their end and into the next deal (tribute cards, seen only by who gives
and who takes them: the one event cut per seat).

Per kind: two followers that keep up (they share every cut of the newest events), and one that
reads only once the deal is over, from behind the shared window and, past the buffer, from the
store (it cuts for itself). The reference is the log read back and cut one event at a time
with :func:`cut_event`, encoded the way the streams did before sharing (Litestar's
``ServerSentEventMessage``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar.response.sse import ServerSentEventMessage

from baohuang.engine import DealStartedEvent, Event, legal_moves
from baohuang.http.streams import ndjson_event, sse_event
from baohuang.store import MemoryTableStore
from baohuang.tables import Authority, Caller, Closed, EventCut, Events, Opening, TableService
from baohuang.tables.callers import PLATFORM
from baohuang.tables.feed import TableFeed, logged_event
from baohuang.tables.views import cut_event
from table_support import advanced_position
from thorough import examples

RULESETS = ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]
KINDS = ["platform", "spectator", "seat-0", "seat-1", "seat-2", "seat-3", "seat-4"]


def _caller(kind: str, instance: str) -> Caller:
    if kind == "platform":
        return PLATFORM
    if kind == "spectator":
        return Caller("spectator", None, instance)
    return Caller("seat", int(kind[-1]), instance)


def _litestar_sse(event: Event) -> bytes:
    """The frame as the streams wrote it before frames were shared."""
    tag = str(type(event).__struct_config__.tag)
    data = msgspec.json.encode(event).decode()
    return ServerSentEventMessage(data=data, event=tag, id=event.id).encode()


async def _collect(items: Any, cuts: list[EventCut], start: asyncio.Event | None = None) -> Any:
    """A follower: its opening; every cut it is sent goes to ``cuts`` until the stream closes."""
    opening = await anext(items)
    assert isinstance(opening, Opening)
    if start is not None:
        await start.wait()
    async for item in items:
        if isinstance(item, Events):
            cuts += item.cuts
        elif isinstance(item, Closed):
            assert item.reason == "deleted"
            return opening
    raise AssertionError("the stream ended without a close")


async def _scenario(ruleset: str, seed: int, dealer: int, steps: int, pick: int) -> None:
    rng = random.Random(pick)
    store = MemoryTableStore()
    service = TableService(
        store, Authority((), "s"), heartbeat_seconds=30, feed=TableFeed(store, poll_seconds=0.2)
    )

    async def play(version: int, limit: int) -> tuple[int, bool]:
        """Up to ``limit`` random legal moves: the version after them; whether the deal is over."""
        for _ in range(limit):
            view = (await service.read("t", PLATFORM)).view
            moves = legal_moves(view)  # type: ignore[arg-type]
            if not moves:
                return version, view.over
            version = (await service.move("t", PLATFORM, rng.choice(moves), version)).version
            await asyncio.sleep(0)  # the followers that keep up take each write's events
        return version, False

    await service.start()
    try:
        snapshot = advanced_position(ruleset, seed, dealer, steps, rng)
        created, _ = await service.create("t", snapshot, PLATFORM)
        first = (await service.read("t", PLATFORM)).last_seq  # where the followers open
        late = asyncio.Event()
        followers: dict[str, list[tuple[asyncio.Task[Any], list[EventCut]]]] = {}
        for kind in KINDS:
            caller = _caller(kind, created.instance)
            runs = []
            for n in range(3):  # two keep up; the third reads once all is played
                items, cuts = await service.follow("t", caller), list[EventCut]()
                task = asyncio.create_task(_collect(items, cuts, late if n == 2 else None))
                runs.append((task, cuts))
            followers[kind] = runs
        log: list[Event] = []
        wanted: dict[str, list[Event]] = {}

        async def caught_up() -> None:
            """Every follower is sent the log so far: read before a next deal trims it."""
            page = await store.read_events("t", log[-1].seq or 0 if log else 0, 100_000)
            assert page is not None
            log.extend(logged_event(logged) for logged in page.events)
            for kind in KINDS:
                cut = (cut_event(e, _caller(kind, created.instance)) for e in log)
                wanted[kind] = [e for e in cut if e is not None and (e.seq or 0) > first]
            async with asyncio.timeout(30):
                while any(
                    len(c) < len(wanted[k]) for k, runs in followers.items() for _, c in runs
                ):
                    await asyncio.sleep(0.01)

        version, over = await play(created.version, 1000)
        late.set()
        await caught_up()
        if over:
            seed = rng.randrange(2**32)
            version = (await service.next_deal("t", PLATFORM, version, seed)).version
            await play(version, rng.randrange(40))
            await caught_up()
        await service.delete("t", PLATFORM)
        async with asyncio.timeout(30):
            for runs in followers.values():
                for task, _ in runs:
                    assert (await task).table.last_seq == first
    finally:
        await service.close()

    for kind, runs in followers.items():
        for _, cuts in runs:
            assert [cut.event for cut in cuts] == wanted[kind], kind
            assert [cut.wire(sse_event) for cut in cuts] == [_litestar_sse(e) for e in wanted[kind]]
            assert [cut.wire(ndjson_event) for cut in cuts] == [
                msgspec.json.encode(e) + b"\n" for e in wanted[kind]
            ]
        # The two that kept up were sent the very same cuts: cut and encoded once.
        kept, also = runs[0][1], runs[1][1]
        assert all(a is b for a, b in zip(kept, also, strict=True)), kind
    # A seat's cut of a deal's start is its own: only the tribute it gives or takes, and never
    # the object another seat or a spectator was sent.
    starts: dict[str, set[int]] = {}
    for kind, runs in followers.items():
        tributes = [
            (id(cut), cut.event.tribute)
            for cut in runs[0][1]
            if isinstance(cut.event, DealStartedEvent) and cut.event.tribute
        ]
        if kind.startswith("seat"):
            seat = int(kind[-1])
            for _, tribute in tributes:
                assert all(seat in (t.from_, t.to) for t in tribute), (kind, tribute)
        if kind != "platform":
            starts[kind] = {shared for shared, _ in tributes}
    for kind, ids in starts.items():
        assert all(not ids & theirs for other, theirs in starts.items() if other != kind), kind


@pytest.mark.parametrize("ruleset", RULESETS)  # "tribute": the next deal's start is cut per seat
@settings(max_examples=examples(100), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    dealer=st.integers(0, 4),
    steps=st.integers(150, 400),
    pick=st.integers(0, 2**16),
)
def test_every_follower_of_a_kind_sends_the_cut_it_would_have_cut_itself(
    ruleset: str, seed: int, dealer: int, steps: int, pick: int
) -> None:
    asyncio.run(_scenario(ruleset, seed, dealer, steps, pick))
