"""The process's table feed: notifications are hints, the log is the record."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from baohuang.engine import (
    PassMove,
    PlayedEvent,
    PlayMove,
)
from baohuang.store import MemoryTableStore
from baohuang.tables import Authority, Caller, Closed, Events, Heartbeat, Opening, TableService
from baohuang.tables.callers import PLATFORM
from baohuang.tables.feed import TableFeed
from table_support import SMALL

pytestmark = pytest.mark.anyio


class DeafStore(MemoryTableStore):
    """A store whose change notifications never arrive (a lost Pub/Sub message, every time)."""

    async def changes(self) -> AsyncIterator[str]:
        await asyncio.Event().wait()
        yield ""  # pragma: no cover


async def test_events_arrive_by_polling_when_every_notification_is_lost() -> None:
    store = DeafStore()
    service = TableService(
        store, Authority((), "s"), heartbeat_seconds=5, feed=TableFeed(store, poll_seconds=0.05)
    )
    await service.start()
    try:
        created, _ = await service.create("t", SMALL, PLATFORM)
        watcher = Caller("spectator", None, created.instance)
        items = await service.follow("t", watcher)
        assert isinstance(await anext(items), Opening)
        await service.move("t", PLATFORM, PlayMove(0, ["7S", "7H"]), 1)
        async with asyncio.timeout(2):
            item = await anext(items)
        assert isinstance(item, Events)
        [event] = item.events  # a spectator: the played event, not the move's record
        assert isinstance(event, PlayedEvent) and event.seq == 3  # 1 dealt, 2 the move's record
        await items.aclose()
    finally:
        await service.close()


async def test_followers_share_one_read_per_change_and_leave_cleanly() -> None:
    store = MemoryTableStore()
    reads = 0
    read_events = store.read_events

    async def counted(  # type: ignore[no-untyped-def]
        table_id: str,
        after: int,
        limit: int,
        *,
        with_snapshot: bool = False,
        with_deals: bool = False,
    ):
        nonlocal reads
        reads += 1
        return await read_events(
            table_id, after, limit, with_snapshot=with_snapshot, with_deals=with_deals
        )

    store.read_events = counted  # type: ignore[method-assign]
    followers: list[int] = []
    feed = TableFeed(store, poll_seconds=60, on_followers=followers.append)
    service = TableService(store, Authority((), "s"), heartbeat_seconds=0.2, feed=feed)
    await service.start()
    try:
        created, _ = await service.create("t", SMALL, PLATFORM)
        watcher = Caller("spectator", None, created.instance)
        streams = [await service.follow("t", watcher) for _ in range(20)]
        for stream in streams:
            assert isinstance(await anext(stream), Opening)
        reads = 0
        await service.move("t", PLATFORM, PlayMove(0, ["7S", "7H"]), 1)
        await service.move("t", PLATFORM, PassMove(1), 2)
        for stream in streams:
            async with asyncio.timeout(2):
                seqs = []
                while len(seqs) < 2:
                    item = await anext(stream)
                    if isinstance(item, Events):
                        seqs += [event.seq for event in item.events]
            assert seqs == [3, 5]  # the played and passed events; the move records are not shown
        assert reads <= 4  # one per change (coalesced), not one per follower
        assert followers[-1] == 20
        await service.delete("t", PLATFORM)
        for stream in streams:
            async with asyncio.timeout(2):
                item = await anext(stream)
                while isinstance(item, Heartbeat):
                    item = await anext(stream)
            assert item == Closed("deleted")
            await stream.aclose()
        assert followers[-1] == 0
    finally:
        await service.close()
