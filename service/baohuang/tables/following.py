"""Following one table for one caller: what :meth:`.service.TableService.follow` yields."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

from ..engine import (
    Event,
    TokenRotatedEvent,
)
from ..store import TableStore
from .answers import Closed, EventCut, Events, Heartbeat, Opening, Reset, StreamItem, TableRead
from .callers import SPECTATORS, Caller, TokenRevoked, Unauthorized
from .errors import TableNotFound
from .feed import Channel, SharedEvent, TableFeed, logged_event
from .positions import Position, parse_position, rolled_back
from .views import View

__all__ = ["REVOKED", "follow_channel", "logged_event", "read_position"]

READ_PAGE = 500
REVOKED = "token_revoked"
"""The close of a stream whose token got revoked (:mod:`.callers`)."""


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
    """The caller's stream: the opening (unless resuming), then the events it may see after
    ``position`` as they commit (:class:`.answers.Events`, each event cut once for every
    follower of the caller's kind: :class:`.feed.SharedEvent`), heartbeats when quiet, and the
    close. Whenever the log no longer holds ``position`` (a failover rolled it back past it:
    checked on resuming and after every rollback the channel sees), a :class:`Reset` with the
    view as it now is, and on from there.

    Heartbeats come from the channel (:meth:`.feed.Channel.beat_every`): ``heartbeat`` seconds
    after the table's last news, and every ``heartbeat`` seconds while it stays quiet."""
    generation = channel.generation
    check = not opening  # a resumed position, or one after a rollback, is checked in the store
    channel.beat_every(heartbeat)
    beats, instance = channel.beats, read.instance
    try:
        if opening:
            yield Opening(read)
        del read  # sent: a stream keeps where it stands in the log, not the view it opened with
        while True:
            woken = channel.woken
            if channel.generation != generation:
                generation, check = channel.generation, True
            fresh = None if check else channel.since(position)
            if fresh is None:  # checked, or fell behind the buffer: read from the store
                check = False
                page = await store.read_events(channel.table_id, position.seq, READ_PAGE)
                if page is None or page.instance != instance:
                    fresh = []  # the channel tells its followers how the table ended
                elif rolled_back(page, position):
                    try:
                        now = await reread()
                    except (TableNotFound, Unauthorized) as ended:  # gone since that read
                        yield Closed(_closed_by(ended))
                        return
                    position, instance = read_position(now), now.instance
                    yield Reset(now)
                    continue
                else:
                    fresh = [SharedEvent(logged) for logged in page.events]
            cuts: list[EventCut] = []
            for shared in fresh:
                position = shared.position
                if _revokes(shared.event, caller):
                    if cuts:
                        yield Events(cuts)
                    yield Closed(REVOKED)
                    return
                cut = shared.cut_for(caller)
                if cut is not None:
                    cuts.append(cut)
            if cuts:
                yield Events(cuts)
            if channel.closed is not None and channel.since(position) == []:
                yield Closed(channel.closed)
                return
            if channel.generation != generation or (
                channel.position != position.seq and channel.since(position) != []
            ):
                # More came while this stream was sending, in the buffer or (``None``: the
                # stream is further behind than the buffer reaches) in the store.
                continue
            if channel.beats != beats:
                beats = channel.beats
                yield Heartbeat()
                continue
            await woken.wait()
    finally:
        feed.leave(channel)
