"""The one place that cuts a table for its caller (hidden information, G-8).

Every answer of the table service — reads, move answers and their events — passes through
:func:`cut_table` and :func:`cut_events`; nothing else in the service decides what a caller sees.
A platform gets the whole snapshot; a seat its seat view; a spectator the public view.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from ..engine.snapshot import (
    AcceptedEvent,
    CalledEvent,
    CrownForcedEvent,
    CrownPassedEvent,
    DealOverEvent,
    DealVoidEvent,
    DeclinedEvent,
    Event,
    FinishedEvent,
    GrabbedEvent,
    JiefengEvent,
    PassedEvent,
    PhaseEvent,
    PlayedEvent,
    RebelledEvent,
    RevealedEvent,
    Snapshot,
    SoloDeclaredEvent,
    TrickWonEvent,
    YieldedEvent,
)
from ..engine.views import PublicView, SeatView, public_view, seat_view
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
        DealOverEvent,  # positions: the deal is over, nothing is hidden any more
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
    }
)
"""Event types every caller may see as they are. An event type not listed here reaches only a
platform: a new kind of event stays hidden until someone decides, here, that it reveals nothing.
"""


def cut_table(snapshot: Snapshot, caller: Caller) -> View:
    """What ``caller`` may see of ``snapshot``."""
    if caller.kind == "platform":
        return snapshot
    if caller.kind == "seat" and caller.seat is not None:
        return seat_view(snapshot, caller.seat)
    return public_view(snapshot)


def visible(event: Event, caller: Caller) -> bool:
    """Whether ``caller`` may see ``event``."""
    return caller.kind == "platform" or type(event) in PUBLIC_EVENTS


def cut_events(events: list[Event], caller: Caller) -> list[Event]:
    """The events of a write that ``caller`` may see, in order."""
    if caller.kind == "platform":
        return events
    return [event for event in events if type(event) in PUBLIC_EVENTS]
