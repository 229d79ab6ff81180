"""A stream is told at once when a failover rolls the log back past it (tables/feed.py: the
channel counts a new generation, and each follower checks its position): the in-memory twin of
a primary with a replica (tests/replicated_memory.py), so the rollback happens exactly between
two chosen steps. tests/http/test_stream_rollbacks.py makes the same rollback on a real primary
and replica, through a ``baohuang serve`` process.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from baohuang.engine import PassMove, PlayMove
from baohuang.store import StoreUnavailable
from baohuang.tables import Authority, Events, Opening, Reset, StreamItem, TableService
from baohuang.tables.callers import PLATFORM
from baohuang.tables.feed import TableFeed
from replicated_memory import ReplicatedMemory
from table_support import SMALL

pytestmark = pytest.mark.anyio

STALL = 10.0
"""Every item here comes after a bounded number of in-memory steps; only a stream that is never
told (a follower left waiting for seqs the log no longer reaches) waits this long."""


async def _next(stream: AsyncIterator[StreamItem], what: str) -> StreamItem:
    try:
        async with asyncio.timeout(STALL):
            return await anext(stream)
    except TimeoutError:
        raise AssertionError(f"the stream was never told {what}") from None


async def test_a_follower_past_the_rolled_back_log_is_reset_before_any_new_write() -> None:
    memory = ReplicatedMemory()
    # No poll and no heartbeat within the test: what the follower hears, it hears from the feed.
    feed = TableFeed(memory, poll_seconds=3600)
    service = TableService(memory, Authority((), "s"), heartbeat_seconds=3600, feed=feed)
    await service.start()
    try:
        await service.create("t", SMALL, PLATFORM)
        stream = await service.follow("t", PLATFORM)
        assert isinstance(await _next(stream, "the table"), Opening)
        memory.linked = False  # the replica is cut off: these moves are the primary's alone
        for move, version in ((PlayMove(0, ["7S", "7H"]), 1), (PassMove(1), 2)):
            with pytest.raises(StoreUnavailable):  # never acknowledged (OUTCOME_UNKNOWN)
                await service.move("t", PLATFORM, move, version)
        seen: list[int] = []
        while len(seen) < 4:  # both moves' records and events reached the follower
            item = await _next(stream, "the moves")
            assert isinstance(item, Events), item
            seen += [event.seq or 0 for event in item.events]
        assert seen == [2, 3, 4, 5]
        memory.linked = True
        memory.fail_over(lossy=True)  # the replica, promoted, never had them
        memory.recheck()  # the subscriptions come back: every followed table is read again
        item = await _next(stream, "of the rollback")
        assert isinstance(item, Reset), item  # told now, not at some later write
        assert item.table.version == 1 and item.table.last_seq == 1
        other = await service.move("t", PLATFORM, PlayMove(0, ["9D"]), 1)
        item = await _next(stream, "the move after the rollback")
        assert isinstance(item, Events), item
        assert [event.seq for event in item.events] == [2, 3]
        assert item.events[-1].version == other.version == 2
    finally:
        await service.close()
