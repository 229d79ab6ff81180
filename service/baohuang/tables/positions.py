"""Where a reader stands in a table's log, as a position no rollback can fake.

A failover that promotes a replica which lacked the last writes rolls the log back, and the
``seq`` numbers after the cut are then logged again by other writes. So an event's id is its
``seq`` *and* the token of the write that logged it (``"<seq>.<token>"``): a follower's or a
poller's last id is still in the log only if the event at that seq carries the same token. A
reader whose position is gone — another event at its seq, or its seq past the log's end — is
told (a reset: the view as it now is, then the log from there), never left on a history that no
longer happened (Kubernetes' watch answers ``410 Gone`` for the same reason).

The log also ends behind a reader when a new deal started: the finished deals' events leave it
(:class:`~baohuang.store.DealEnd`). A reader whose position is before the log's first event has
lost the events in between, and is reset the same way; one standing exactly at the last event
trimmed has lost nothing (the store still knows that event's token).
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from ..store import EventPage

EVENT_ID_PATTERN: Final = r"^[0-9]{1,18}(\.[0-9a-z]{1,64})?$"
"""An event id as clients send it back (``Last-Event-ID``, ``after``): ``<seq>.<token>``, or a
bare ``<seq>`` (nothing to check it against but the log's end)."""
_EVENT_ID: Final = re.compile(EVENT_ID_PATTERN)


class Position(NamedTuple):
    """The last event a reader has: its ``seq`` and, when known, its write's token."""

    seq: int
    token: str | None = None


def event_id(seq: int, token: str) -> str:
    """The id of the event at ``seq`` logged by the write ``token`` ('' for one logged before
    tokens were: its id is the bare seq)."""
    return f"{seq}.{token}" if token else str(seq)


def parse_position(text: str) -> Position | None:
    """The position named by an event id (``None``: not an event id)."""
    if not _EVENT_ID.match(text):
        return None
    seq, _, token = text.partition(".")
    return Position(int(seq), token or None)


def rolled_back(page: EventPage, at: Position) -> bool:
    """Whether ``page`` — read ``after=at.seq`` — shows that the log no longer holds ``at``:
    its seq is past the log's end, the event there was logged by another write, or the log was
    trimmed past it (a finished deal's events, gone). ``at.seq`` 0 is no position: the log from
    wherever it starts."""
    if at.seq > page.last_seq or 0 < at.seq < page.trimmed:
        return True
    return at.seq > 0 and at.token is not None and page.anchor != at.token
