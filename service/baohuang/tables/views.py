"""The one place that cuts a table for its caller (hidden information, G-8).

Every answer of the table service — reads, move answers and their events, deal records — passes
through :func:`cut_table`, :func:`cut_events` and :func:`cut_record`; nothing else in the service
decides what a caller sees. A platform gets the whole snapshot; a seat its seat view; a
spectator the public view.
"""

from __future__ import annotations

from typing import Final, TypeAlias

import msgspec

from ..engine import (
    AcceptedEvent,
    CalledEvent,
    ClockEvent,
    CrownForcedEvent,
    CrownPassedEvent,
    DealCommittedEvent,
    DealOverEvent,
    DealStartedEvent,
    DealtEvent,
    DealVoidEvent,
    DeclinedEvent,
    EntropyEvent,
    Event,
    FinishedEvent,
    GrabbedEvent,
    JiefengEvent,
    LeftEvent,
    Move,
    MoveEvent,
    PassedEvent,
    PhaseEvent,
    PlayedEvent,
    PublicView,
    RebelledEvent,
    RevealedEvent,
    SeatView,
    Snapshot,
    SoloDeclaredEvent,
    TokenRotatedEvent,
    TrickWonEvent,
    TrusteeEvent,
    YieldedEvent,
    public_view,
    seat_view,
)
from ..records import (
    CommittedDealing,
    DealRecord,
    FullRecord,
    PublicRecord,
    SeatRecord,
    SeededDealing,
    Tribute,
)
from .answers import Audience
from .callers import Caller

View: TypeAlias = Snapshot | SeatView | PublicView

PUBLIC_EVENTS: Final[frozenset[type]] = frozenset(
    {
        PlayedEvent,  # the cards are on the table for all to see
        PassedEvent,
        YieldedEvent,
        JiefengEvent,
        TrickWonEvent,
        FinishedEvent,
        DealOverEvent,  # positions, and a committed deal's seed: the deal is over
        CrownPassedEvent,  # the 贴2 card travels face up with the crown (G-6, G-7)
        CrownForcedEvent,
        AcceptedEvent,  # the cards that came with the crown were public while travelling
        DeclinedEvent,
        GrabbedEvent,
        CalledEvent,  # the called card is announced (G-2); who holds the fourth is not
        SoloDeclaredEvent,  # 明独 is declared aloud
        RevealedEvent,  # 明保 is a reveal to all
        RebelledEvent,
        DealVoidEvent,
        PhaseEvent,  # every seat answers the declare round, so its turn names nobody
        ClockEvent,  # whose clock runs, and until when
        TrusteeEvent,  # 托管 is shown at the table (T-11)
        LeftEvent,
        TokenRotatedEvent,  # a seat changes hands at the table; the token is never in it
        DealCommittedEvent,  # the commitment is public before any card is dealt (G-4)
        EntropyEvent,  # each seat's entropy is public: anyone may deal the deal again
    }
)
"""Event types every caller may see as they are. An event type listed nowhere here reaches only
a platform: a new kind of event stays hidden until someone decides, here, what it reveals."""

PLATFORM_EVENTS: Final[frozenset[type]] = frozenset(
    {
        DealtEvent,  # a whole deal's hands, and the seed that deals them
        MoveEvent,  # the record of moves, kept for audits
    }
)
"""Event types only a platform sees."""

CUT_EVENTS: Final[frozenset[type]] = frozenset({DealStartedEvent})
"""Event types that :func:`cut_event` cuts for each caller."""


def _deal_started_for(event: DealStartedEvent, seat: int | None) -> DealStartedEvent:
    """P: a tribute card is seen by who gives it and who takes it, nobody else."""
    mine = [t for t in event.tribute if seat is not None and seat in (t.from_, t.to)]
    return msgspec.structs.replace(event, tribute=mine)


def cut_table(snapshot: Snapshot, caller: Caller) -> View:
    """What ``caller`` may see of ``snapshot``."""
    if caller.kind == "platform":
        return snapshot
    if caller.kind == "seat" and caller.seat is not None:
        return seat_view(snapshot, caller.seat)
    return public_view(snapshot)


def audience_of(view: View) -> Audience:
    """Which view ``view`` is, for an answer's ``audience``: it follows from the view's type
    alone, so it says nothing the view does not (a ``SeatView`` is also a ``PublicView``)."""
    if isinstance(view, SeatView):
        return "seat"
    if isinstance(view, PublicView):
        return "spectator"
    return "platform"


def cut_event(event: Event, caller: Caller) -> Event | None:
    """What ``caller`` may see of ``event`` (``None``: nothing)."""
    if caller.kind == "platform" or type(event) in PUBLIC_EVENTS:
        return event
    if isinstance(event, DealStartedEvent):
        return _deal_started_for(event, caller.seat if caller.kind == "seat" else None)
    return None


def cut_key(caller: Caller) -> tuple[str, int | None]:
    """All that :func:`cut_event` reads of ``caller``: callers with the same key see every event
    alike, so a process's followers of one key share each event's cut (:mod:`.feed`)."""
    return caller.kind, caller.seat if caller.kind == "seat" else None


def cut_moves(moves: list[Move], seat: int | None, caller: Caller) -> list[Move]:
    """The legal moves of ``seat`` that ``caller`` may see: a seat's moves name its own cards,
    so a seat token gets only its own seat's list, a spectator none, a platform any."""
    if caller.kind == "platform" or (caller.kind == "seat" and caller.seat == seat):
        return [move for move in moves if move.seat == seat]
    return []


def cut_events(events: list[Event], caller: Caller) -> list[Event]:
    """The events of a write that ``caller`` may see, in order."""
    if caller.kind == "platform":
        return events
    cut = (cut_event(event, caller) for event in events)
    return [event for event in cut if event is not None]


def cut_record(record: FullRecord, caller: Caller) -> DealRecord:
    """What ``caller`` may see of a deal's record (docs/records.md, "Who sees what").

    A platform sees it whole. So does everyone once a committed deal is over: its seed is
    revealed, and with the entropy (public all along) deals every hand to whoever deals it
    again, so hiding them would hide nothing. Otherwise a seat sees its own view of the opening
    (its hand), a spectator the public view; the acts, the result and the totals are public; a
    seed the platform or the service chose is not shown (it would deal every hand), and of the
    tribute a seat sees the cards it gave or took, a spectator none (as ``deal_started``)."""
    if caller.kind == "platform" or _revealed(record):
        return record
    seat = caller.seat if caller.kind == "seat" else None
    dealing = record.dealing
    if isinstance(dealing, SeededDealing):
        dealing = msgspec.structs.replace(dealing, seed=None)
    tribute = record.tribute
    if tribute is not None:
        mine = [t for t in tribute.transfers if seat is not None and seat in (t.from_, t.to)]
        tribute = Tribute(previous=tribute.previous, transfers=mine)
    fields = {
        name: getattr(record, name)
        for name in record.__struct_fields__
        if name not in ("opening", "dealing", "tribute")
    }
    if seat is not None:
        opening = seat_view(record.opening, seat)
        return SeatRecord(**fields, dealing=dealing, tribute=tribute, opening=opening)
    return PublicRecord(
        **fields, dealing=dealing, tribute=tribute, opening=public_view(record.opening)
    )


def _revealed(record: FullRecord) -> bool:
    """A committed deal that is over: its seed is revealed."""
    dealing = record.dealing
    return isinstance(dealing, CommittedDealing) and dealing.seed is not None
