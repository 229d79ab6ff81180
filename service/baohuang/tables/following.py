"""Following one table for one caller: what :meth:`.service.TableService.follow` yields."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec

from ..engine import (
    Event,
    TokenRotatedEvent,
)
from ..store import LoggedEvent, TableStore
from .answers import Closed, Heartbeat, Opening, StreamItem, TableRead
from .callers import SPECTATORS, Caller
from .feed import Channel, TableFeed
from .views import View, cut_event

READ_PAGE = 500
REVOKED = "token_revoked"
"""The close of a stream whose token got revoked (:mod:`.callers`)."""

_decode_event = msgspec.json.Decoder(Event).decode


def logged_event(logged: LoggedEvent) -> Event:
    """A logged event as clients see it: with its ``seq`` and the ``version`` of its write."""
    event = _decode_event(logged.data)
    return msgspec.structs.replace(event, seq=logged.seq, version=logged.version)


def _revokes(event: Event, caller: Caller) -> bool:
    """Whether ``event`` revokes the token the stream was opened with: a newer token of its
    seat (or of the spectators). Every replica's streams see the event as it commits, so the
    stream closes then, without reading the table's record again."""
    return (
        isinstance(event, TokenRotatedEvent)
        and caller.role is not None
        and (SPECTATORS if event.seat is None else event.seat) == caller.role
        and event.generation > caller.generation
    )


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
                whole = logged_event(logged)
                if _revokes(whole, caller):
                    yield Closed(REVOKED)
                    return
                event = cut_event(whole, caller)
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
