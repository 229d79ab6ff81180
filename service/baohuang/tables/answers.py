"""What the table service answers, each already cut to its caller (:mod:`.views`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Generic, Literal, TypeVar

import msgspec

from ..engine import (
    Event,
    Move,
    PublicView,
    Reason,
    Snapshot,
)
from .record import TableState

V = TypeVar("V", bound=Snapshot | PublicView)

Audience = Literal["platform", "seat", "spectator"]
"""Which of the three views an answer's ``view`` is: a platform's whole ``Snapshot``, a seat's
``SeatView`` or a spectator's ``PublicView`` (:func:`.views.audience_of`). It names the kind of
caller the view was cut for and nothing else: the caller knows it already, and a client reads
it to tell the three apart without guessing from their fields (the OpenAPI discriminator)."""

AUDIENCES: Final[tuple[Audience, ...]] = ("platform", "seat", "spectator")


class CreatedTable(msgspec.Struct, frozen=True):
    """A table just written by ``PUT``, with the tokens of its instance: ``seat_tokens[s]``
    acts for seat ``s``, ``spectator_token`` reads the public view."""

    id: str
    instance: str
    version: int
    snapshot: Snapshot
    table: TableState
    seat_tokens: list[str]
    spectator_token: str


class TableRead(msgspec.Struct, Generic[V], frozen=True):
    """A table as its caller may see it: the whole snapshot (platform), a seat view (seat
    token) or the public view (spectator token), ``audience`` saying which; ``table``: the clock, 托管, deals and totals
    around the deal, the same for everyone; ``last_seq``: the ``seq`` of the table's last logged
    event, where a client starts following it, and ``last_event_id`` that event's id (what to
    poll ``after`` or resume from: see :mod:`.positions`)."""

    id: str
    instance: str
    version: int
    audience: Audience
    view: V
    table: TableState
    last_seq: int = 0
    last_event_id: str = "0"


class MoveAnswer(msgspec.Struct, Generic[V], frozen=True, omit_defaults=True):
    """A committed move: the version it produced, the table after it and its events (each with
    its ``seq`` and ``version``), cut to the caller like every answer (``audience``: which view
    ``view`` is).

    ``replayed``: true when this is the answer remembered under the request's
    ``Idempotency-Key``: ``version`` and ``events`` are the original ones, ``view`` is the table
    as it is now.
    """

    version: int
    instance: str
    audience: Audience
    view: V
    table: TableState
    events: list[Event]
    replayed: bool = False


class TableLegalMoves(msgspec.Struct, frozen=True):
    """Every legal move of ``seat`` on the table as stored at ``version``, in the order of
    ``/v1/moves/legal``: answers (pass, yield, 接风) and before-play actions first, then plays
    once per combo shape, cheapest first. Following a play, every ``play`` move beats the top:
    a hint (提示) button cycles through the ``play`` moves in order. Empty when it is not the
    seat's turn (an out-of-turn grab, G-5, aside) and once the deal is over; ``seat`` is null
    only when a platform asked without ``seat`` and nobody is to act."""

    version: int
    instance: str
    seat: int | None
    moves: list[Move]


class MoveCheck(msgspec.Struct, frozen=True, omit_defaults=True):
    """A dry run of ``POST /moves``: ``legal: true`` when that route would apply the move at
    ``version``, else ``legal: false`` and the reason it would refuse it with. Nothing is
    written."""

    legal: bool
    version: int
    instance: str
    reason: Reason | None = None


class RotatedToken(msgspec.Struct, frozen=True):
    """A new token for ``seat`` (``null``: the spectators' token), the seat changing hands:
    every earlier token of it is refused (401 ``TOKEN_REVOKED``) from now on. ``generation``
    counts the tokens issued for it (``PUT``'s is 0); ``version`` is the write that logged the
    ``token_rotated`` event."""

    seat: int | None
    token: str
    generation: int
    version: int
    instance: str


class EventsPage(msgspec.Struct, frozen=True):
    """Logged events after the event asked for, oldest first, cut to the caller; ``last_seq``
    is the table's last ``seq`` and ``last_event_id`` its id (ask again with
    ``after=last_event_id``). Events the caller may not see are left out, so their ``seq``
    numbers are missing.

    ``reset``: the log no longer holds the event asked for (a failover rolled it back, or it
    is past the log's end): no events; the client reads the table again (``GET``, its view as
    it now is) and polls on ``after`` that answer's ``last_event_id``."""

    instance: str
    version: int
    last_seq: int
    events: list[Event]
    last_event_id: str = "0"
    reset: bool = False


class Opening(msgspec.Struct, frozen=True):
    """A stream's first item: the caller's view of the table and where its log stands."""

    table: TableRead[Snapshot | PublicView]


class Reset(msgspec.Struct, frozen=True):
    """The log no longer holds what the stream had sent: rolled back past it (a failover
    promoted a replica that lacked the last writes), or trimmed past it (a finished deal's events
    left the log when the next deal started, before the stream had them all): the caller's view
    as it now is, after which the stream goes on from its ``last_event_id``. Everything the client derived from events after the last
    one it still shares with the log is void: it takes this view instead."""

    table: TableRead[Snapshot | PublicView]


class Heartbeat(msgspec.Struct, frozen=True):
    """Nothing happened for a while: the stream is alive."""


class Closed(msgspec.Struct, frozen=True):
    """The stream's last item: the table was ``deleted`` (or expired) or ``replaced`` by a new
    instance, or the caller's token was revoked (``token_revoked``: its seat got a new one)."""

    reason: str


class EventCut:
    """A logged event as one kind of caller may see it (:func:`.views.cut_event`), shared by
    every follower of that kind in the process (:class:`.feed.SharedEvent`): its bytes on the
    wire are encoded once per encoding, and each of those followers' streams sends the same."""

    __slots__ = ("_wire", "event")

    def __init__(self, event: Event) -> None:
        self.event = event
        self._wire: dict[Callable[[Event], bytes], bytes] = {}

    def wire(self, encode: Callable[[Event], bytes]) -> bytes:
        """``encode(event)``, encoded the first time each ``encode`` asks (SSE and NDJSON get
        their own bytes) and kept."""
        data = self._wire.get(encode)
        if data is None:
            data = self._wire[encode] = encode(self.event)
        return data


class Events:
    """The events the caller may see among those committed since the stream's last item, in
    ``seq`` order (one or more): what one wake-up brings a stream, sent together."""

    __slots__ = ("cuts",)

    def __init__(self, cuts: list[EventCut]) -> None:
        self.cuts = cuts

    @property
    def events(self) -> list[Event]:
        return [cut.event for cut in self.cuts]


StreamItem = Opening | Reset | Events | Heartbeat | Closed
"""What :meth:`.service.TableService.follow` yields."""
