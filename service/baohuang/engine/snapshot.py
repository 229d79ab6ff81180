"""Wire and state types of the play phase (API.md "Play phase, stateless").

The snapshot *is* the state: the engine reads it, and every move yields a new one (frozen Structs,
so a refused move cannot change anything). Field names are the contract's. Card codes are strings
(D-3); :func:`~baohuang.engine.validation.validate_snapshot` rewrites them canonically (``10H`` →
``TH``), and every snapshot the engine writes is canonical.

Room is left for ``phase`` (``"crown"``/``"guard"``, absent meaning play): a later field with a
default does not break any snapshot written today.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .reasons import Reason
from .rulesets import Ruleset, RulesetField, RulesetSpec, ruleset_of

__all__ = [
    "DealOverEvent",
    "Event",
    "FinishedEvent",
    "JiefengEvent",
    "JiefengMove",
    "Mode",
    "Move",
    "PassMove",
    "PassedEvent",
    "PlayMove",
    "PlayedEvent",
    "ReplayFailure",
    "ReplayResult",
    "RulesetField",
    "RulesetSpec",
    "Seat",
    "Snapshot",
    "TopPlay",
    "Trick",
    "TrickWonEvent",
    "YieldMove",
    "YieldedEvent",
    "resolve_spec",
]

Seat = Annotated[int, Meta(ge=0, le=4, description="T-1: seats 0–4 in the order of play")]
CardCode = Annotated[str, Meta(max_length=4, description="D-3 card code", examples=["TH", "BJ"])]
CardList = Annotated[list[CardCode], Meta(max_length=216)]
Mode = Literal["team", "solo_hidden", "solo_open", "grab"]
Position = Annotated[int, Meta(ge=1, le=5)]


def resolve_spec(spec: RulesetField) -> Ruleset:
    """The :class:`Ruleset` a snapshot's ``ruleset`` field names (R); raises ``UnknownRuleset``."""
    return ruleset_of(spec)


class TopPlay(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The play on top of the trick and the seat that made it (possibly finished: a 底牌, T-7)."""

    seat: Seat
    cards: Annotated[list[CardCode], Meta(min_length=1, max_length=24)]


class Trick(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The trick in progress. ``top`` is ``None`` when ``turn`` must lead (T-3).

    ``passed``/``yielded``: the seats that passed or yielded on ``top`` (T-4, T-6); a yielder who
    passes in the second circle moves from ``yielded`` to ``passed``. ``circle`` is 1 or 2 (T-6).
    ``jiefeng``: the seat that declared 接风 on a 底牌 (T-7).
    """

    top: TopPlay | None = None
    passed: Annotated[list[Seat], Meta(max_length=5)] = msgspec.field(default_factory=list)
    yielded: Annotated[list[Seat], Meta(max_length=5)] = msgspec.field(default_factory=list)
    circle: Literal[1, 2] = 1
    jiefeng: Seat | None = None


class Snapshot(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The whole state of a deal in play (API.md). ``positions[seat]`` is 1…5 once ``over``."""

    mode: Mode
    emperor: Seat
    hands: Annotated[list[CardList], Meta(min_length=5, max_length=5)]
    turn: Seat
    ruleset: RulesetField = "classic"
    guard: Seat | None = None
    guard_revealed: bool = False
    rebellion: Annotated[list[Seat], Meta(max_length=5)] = msgspec.field(default_factory=list)
    finished: Annotated[list[Seat], Meta(max_length=5)] = msgspec.field(default_factory=list)
    trick: Trick = msgspec.field(default_factory=Trick)
    over: bool = False
    positions: Annotated[list[Position], Meta(min_length=5, max_length=5)] | None = None


# Moves: a tagged union on ``action``.


class PlayMove(
    msgspec.Struct, tag_field="action", tag="play", forbid_unknown_fields=True, frozen=True
):
    seat: Seat
    cards: Annotated[list[CardCode], Meta(max_length=216)]


class PassMove(
    msgspec.Struct, tag_field="action", tag="pass", forbid_unknown_fields=True, frozen=True
):
    seat: Seat


class YieldMove(
    msgspec.Struct, tag_field="action", tag="yield", forbid_unknown_fields=True, frozen=True
):
    seat: Seat


class JiefengMove(
    msgspec.Struct, tag_field="action", tag="jiefeng", forbid_unknown_fields=True, frozen=True
):
    seat: Seat


Move = PlayMove | PassMove | YieldMove | JiefengMove

# Events: a tagged union on ``type``, the operation records of a move (STYLE.md).


class PlayedEvent(msgspec.Struct, tag_field="type", tag="played", frozen=True):
    seat: int
    cards: list[str]  # canonical, high to low


class PassedEvent(msgspec.Struct, tag_field="type", tag="passed", frozen=True):
    seat: int


class YieldedEvent(msgspec.Struct, tag_field="type", tag="yielded", frozen=True):
    seat: int


class JiefengEvent(msgspec.Struct, tag_field="type", tag="jiefeng", frozen=True):
    seat: int


class TrickWonEvent(msgspec.Struct, tag_field="type", tag="trick_won", frozen=True):
    """T-5/T-7: ``seat`` owns the top play; ``lead`` leads next (another seat on 接风)."""

    seat: int
    lead: int


class FinishedEvent(msgspec.Struct, tag_field="type", tag="finished", frozen=True):
    """T-7: ``seat`` played its 底牌 and finished at ``position``."""

    seat: int
    position: int


class DealOverEvent(msgspec.Struct, tag_field="type", tag="deal_over", frozen=True):
    """T-9: the score can no longer change; ``positions[seat]`` is 1…5."""

    positions: list[int]


Event = (
    PlayedEvent
    | PassedEvent
    | YieldedEvent
    | JiefengEvent
    | TrickWonEvent
    | FinishedEvent
    | DealOverEvent
)


class ReplayFailure(msgspec.Struct, frozen=True):
    """The first refused move of a replay: its index in the list, the move, and why."""

    index: int
    move: Move
    reason: Reason


class ReplayResult(msgspec.Struct, frozen=True):
    """``applied`` moves were legal; ``snapshot`` is the state after them (the last good one)."""

    applied: int
    failed: ReplayFailure | None
    snapshot: Snapshot
