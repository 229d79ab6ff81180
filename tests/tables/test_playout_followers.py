"""A play-out spread over writes, followed from the other replica (T-11's reading): the clock of
one service plays the deal out in writes of ``flow.PLAYOUT_MOVES`` from the shared ``playouts``
index, and a stream on the other service gets every event once and in order, the deal's end
once. Injected time and in-process services on the in-memory store and on a real Redis;
tests/http/test_playouts_live.py does the same with two ``baohuang serve`` processes and real
timeouts.
"""

from __future__ import annotations

import asyncio

import pytest

from baohuang.engine import DealOverEvent, Event, deal, opening_snapshot, ruleset_of
from baohuang.store import TableStore
from baohuang.tables import Authority, Events, Opening, TableService
from baohuang.tables.callers import PLATFORM
from baohuang.tables.feed import TableFeed
from table_support import Time

pytestmark = pytest.mark.anyio

STALL = 10.0
"""The stream's events are read once the writes are done: only a follower left waiting (for a
poll or a heartbeat, an hour here) takes this long."""


async def test_T_11_a_follower_on_the_other_replica_gets_every_event_of_a_spread_playout_once(
    stores: list[TableStore],
) -> None:
    time = Time()
    authority = Authority((), "playout-secret")
    watching = TableService(
        stores[0],
        authority,
        clock=time,
        heartbeat_seconds=3600,
        feed=TableFeed(stores[0], poll_seconds=3600),
    )
    playing = TableService(stores[1], authority, clock=time)
    await watching.start(clock_task=False)
    try:
        snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 7, 0))
        created, _ = await watching.create("spread", snapshot, PLATFORM)
        stream = await watching.follow("spread", PLATFORM)
        assert isinstance(await anext(stream), Opening)
        version = created.version
        for seat in range(5):
            answer = await watching.set_trustee("spread", PLATFORM, seat, True, version)
            version = answer.version
        writes = await playing.tick()  # the other replica's clock plays it out
        assert writes >= 3  # ~550 moves, at most PLAYOUT_MOVES a write
        followed: list[Event] = []
        try:
            async with asyncio.timeout(STALL):
                while not any(isinstance(e, DealOverEvent) for e in followed):
                    item = await anext(stream)
                    if isinstance(item, Events):
                        followed += item.events
        except TimeoutError:
            seqs = f"{followed[0].seq}..{followed[-1].seq}" if followed else "none"
            raise AssertionError(f"the follower stopped short of the end (events {seqs})") from None
        page = await watching.events("spread", PLATFORM, 0)
        logged: list[Event] = list(page.events)
        while logged[-1].seq != page.last_seq:
            page = await watching.events("spread", PLATFORM, logged[-1].seq or 0)
            logged += page.events
        first = followed[0].seq or 0
        assert [e.seq for e in followed] == list(range(first, (logged[-1].seq or 0) + 1))
        assert followed == [e for e in logged if (e.seq or 0) >= first]  # once, in order
        assert sum(isinstance(e, DealOverEvent) for e in followed) == 1
    finally:
        await watching.close()
        await playing.close()
