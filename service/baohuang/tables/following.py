"""Following one table for one caller: what :meth:`.service.TableService.follow` yields."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import msgspec

from ..engine import (
    Event,
    TokenRotatedEvent,
)
from ..store import LoggedEvent, TableStore
from .answers import Closed, Heartbeat, Opening, Reset, StreamItem, TableRead
from .callers import SPECTATORS, Caller, TokenRevoked, Unauthorized
from .errors import TableNotFound
from .feed import Channel, TableFeed
from .positions import Position, event_id, parse_position, rolled_back
from .views import View, cut_event

READ_PAGE = 500
REVOKED = "token_revoked"
"""The close of a stream whose token got revoked (:mod:`.callers`)."""

_decode_event = msgspec.json.Decoder(Event).decode


def logged_event(logged: LoggedEvent) -> Event:
    """A logged event as clients see it: with its ``seq``, the ``version`` of its write and its
    ``id`` (:mod:`.positions`)."""
    event = _decode_event(logged.data)
    return msgspec.structs.replace(
        event, seq=logged.seq, version=logged.version, id=event_id(logged.seq, logged.token)
    )


def read_position(read: TableRead[View]) -> Position:
    """Where a fresh read of the table stands in its log."""
    return parse_position(read.last_event_id) or Position(read.last_seq)


def _closed_by(ended: TableNotFound | Unauthorized) -> str:
    """Why a stream whose table could not be read again ends: deleted, replaced by a new
    instance, or this token revoked by a newer one of its seat."""
    if isinstance(ended, TableNotFound):
        return "deleted"
    return REVOKED if isinstance(ended, TokenRevoked) else "replaced"


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
    position: Position,
    *,
    opening: bool,
    heartbeat: float,
    reread: Callable[[], Awaitable[TableRead[View]]],
) -> AsyncIterator[StreamItem]:
    """The caller's stream: the opening (unless resuming), then each event it may see after
    ``position`` as it commits, heartbeats when quiet, and the close. Whenever the log no
    longer holds ``position`` (a failover rolled it back past it: checked on resuming and after
    every rollback the channel sees), a :class:`Reset` with the view as it now is, and on from
    there."""
    generation = channel.generation
    check = not opening  # a resumed position, or one after a rollback, is checked in the store
    try:
        if opening:
            yield Opening(read)
        while True:
            woken = channel.woken
            if channel.generation != generation:
                generation, check = channel.generation, True
            fresh = None if check else channel.since(position)
            if fresh is None:  # checked, or fell behind the buffer: read from the store
                check = False
                page = await store.read_events(channel.table_id, position.seq, READ_PAGE)
                if page is None or page.instance != read.instance:
                    fresh = []  # the channel tells its followers how the table ended
                elif rolled_back(page, position):
                    try:
                        read = await reread()
                    except (TableNotFound, Unauthorized) as ended:  # gone since that read
                        yield Closed(_closed_by(ended))
                        return
                    position = read_position(read)
                    yield Reset(read)
                    continue
                else:
                    fresh = page.events
            for logged in fresh:
                position = Position(logged.seq, logged.token or None)
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
            if channel.since(position) or channel.generation != generation:
                continue
            try:
                await asyncio.wait_for(woken.wait(), heartbeat)
            except TimeoutError:
                yield Heartbeat()
    finally:
        feed.leave(channel)
