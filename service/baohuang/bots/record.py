"""What a bot is given: one seat's view and the deal's public record, nothing else."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from ..engine import (
    Event,
    JiefengEvent,
    PassedEvent,
    PlayedEvent,
    SeatView,
    TrickWonEvent,
    YieldedEvent,
)

ActKind = Literal["played", "passed", "yielded", "jiefeng", "trick_won"]
ACT_KINDS: Final[frozenset[str]] = frozenset(
    ("played", "passed", "yielded", "jiefeng", "trick_won")
)


class Act(msgspec.Struct, frozen=True, kw_only=True):
    """One public act of the deal, as its event says it (the events of the same ``type``):
    ``played`` (``cards`` on the table for all to see), ``passed``, ``yielded``, ``jiefeng``,
    ``trick_won`` (``seat`` owned the top, ``lead`` leads next)."""

    type: ActKind
    seat: Annotated[int, Meta(ge=0, le=4)]
    cards: Annotated[list[str], Meta(max_length=24)] = msgspec.field(default_factory=list)
    lead: Annotated[int, Meta(ge=0, le=4)] | None = None


class BotInput(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a bot may know: its seat's view and the deal's public acts, oldest first.

    Revealed roles, the called card, counts and the trick are in the view; who played what is in
    ``history``. A missing or partial history is allowed: the bot then knows less about which
    cards are still out, never anything it may not know.
    """

    view: SeatView
    history: list[Act] = msgspec.field(default_factory=list)


def acts_of(events: Iterable[Event]) -> list[Act]:
    """The public acts among a deal's events (any other event is left out)."""
    acts: list[Act] = []
    for event in events:
        if isinstance(event, PlayedEvent):
            acts.append(Act(type="played", seat=event.seat, cards=list(event.cards)))
        elif isinstance(event, PassedEvent):
            acts.append(Act(type="passed", seat=event.seat))
        elif isinstance(event, YieldedEvent):
            acts.append(Act(type="yielded", seat=event.seat))
        elif isinstance(event, JiefengEvent):
            acts.append(Act(type="jiefeng", seat=event.seat))
        elif isinstance(event, TrickWonEvent):
            acts.append(Act(type="trick_won", seat=event.seat, lead=event.lead))
    return acts
