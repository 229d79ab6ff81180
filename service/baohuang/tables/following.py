"""Following one table for one caller: what :meth:`.service.TableService.follow` yields."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec

from ..engine import (
    Event,
)
from ..store import LoggedEvent, TableStore
from .answers import Closed, Heartbeat, Opening, StreamItem, TableRead
from .callers import Caller
from .feed import Channel, TableFeed
from .views import View, cut_event

READ_PAGE = 500

_decode_event = msgspec.json.Decoder(Event).decode


def logged_event(logged: LoggedEvent) -> Event:
    """A logged event as clients see it: with its ``seq`` and the ``version`` of its write."""
    event = _decode_event(logged.data)
    return msgspec.structs.replace(event, seq=logged.seq, version=logged.version)


async def follow_channel(
    store: TableStore,
    feed: TableFeed,
    channel: Channel,
    caller: Caller,
    read: TableRead[View],
    position: int,
    *,
    opening: bool,
    heartbeat: float,
) -> AsyncIterator[StreamItem]:
    """The caller's stream: the opening (unless resuming), then each event it may see after
    ``position`` as it commits, heartbeats when quiet, and the close."""
    try:
        if opening:
            yield Opening(read)
        while True:
            woken = channel.woken
            fresh = channel.since(position)
            if fresh is None:  # fell behind the buffer: read the gap from the store
                page = await store.read_events(channel.table_id, position, READ_PAGE)
                fresh = page.events if page is not None and page.instance == read.instance else []
            for logged in fresh:
                position = logged.seq
                event = cut_event(logged_event(logged), caller)
                if event is not None:
                    yield event
            if channel.closed is not None and channel.since(position) == []:
                yield Closed(channel.closed)
                return
            if channel.since(position):
                continue
            try:
                await asyncio.wait_for(woken.wait(), heartbeat)
            except TimeoutError:
                yield Heartbeat()
    finally:
        feed.leave(channel)
