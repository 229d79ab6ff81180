"""Wire and state types of the play phase (docs/clients.md).

The snapshot *is* the state: the engine reads it, and every move yields a new one (frozen Structs,
so a refused move cannot change anything). Field names are the contract's. Card codes are strings
(D-3); :func:`~baohuang.engine.validate_snapshot` rewrites them canonically (``10H`` →
``TH``), and every snapshot the engine writes is canonical.

``phase`` (``"crown"``/``"guard"``, absent meaning play), ``crown``, ``called`` and ``void`` are
the before-play fields (G-4…G-8, engine/before_play/); their defaults keep every play snapshot
valid.
"""

from __future__ import annotations

from typing import Annotated, Literal, dataclass_transform

import msgspec
from msgspec import Meta

from .errors import InvalidInput
from .reasons import Reason
from .rulesets import Ruleset, RulesetField, RulesetSpec, ruleset_of
from .scoring import Mode

__all__ = [
    "BEFORE_PLAY_MOVES",
    "AcceptMove",
    "CallMove",
    "CardCode",
    "CardList",
    "CrownState",
    "DeclareSoloMove",
    "DeclineMove",
    "GrabMove",
    "JiefengMove",
    "Mode",
    "Move",
    "PassMove",
    "Phase",
    "PlayMove",
    "Position",
    "RebelMove",
    "ReplayFailure",
    "ReplayResult",
    "RevealMove",
    "RulesetField",
    "RulesetSpec",
    "Seat",
    "Snapshot",
    "Stage",
    "TopPlay",
    "Trick",
    "YieldMove",
    "ruleset_at",
]

Seat = Annotated[int, Meta(ge=0, le=4, description="T-1: seats 0–4 in the order of play")]
# D-3 card codes. The pattern is documentation only: it is not enforced when decoding, so an
# unknown code is bad input (UNKNOWN_CARD) that names the card, not a schema error.
CARD_CODE_PATTERN = r"^(?:(?:[3-9TJQKA2]|10)[SHCD]|[SB]J\*?)$"
CardCode = Annotated[
    str,
    Meta(
        max_length=4,
        description="D-3: rank 3456789TJQKA2 (10 accepted for T) then suit SHCD; SJ, BJ, BJ*, SJ*",
        examples=["BJ", "TH"],
        extra_json_schema={"pattern": CARD_CODE_PATTERN},
    ),
]
CardList = Annotated[list[CardCode], Meta(max_length=216)]
Position = Annotated[int, Meta(ge=1, le=5)]


def ruleset_at(snapshot: Snapshot, path: str = ".snapshot") -> Ruleset:
    """The snapshot's resolved ruleset (R); an unknown one is ``UNKNOWN_RULESET`` bad input at
    ``{path}.ruleset``, the snapshot sitting at ``path``."""
    try:
        return ruleset_of(snapshot.ruleset)
    except InvalidInput as error:
        raise error.within(path) from None


# dataclass_transform(frozen_default=True) tells type checkers that subclasses are frozen too,
# as msgspec makes them: the options are inherited, so no subclass repeats them.
@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
class _State(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The options of the state's Structs: strict (unknown fields refused) and frozen."""


class TopPlay(_State):
    """The play on top of the trick and the seat that made it (possibly finished: a 底牌, T-7)."""

    seat: Seat
    cards: Annotated[list[CardCode], Meta(min_length=1, max_length=24)]


class Trick(_State):
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


Phase = Literal["deal", "crown", "guard", "play"]
"""``deal``: the cards are not dealt yet — a live table's committed deal waits for the seats'
entropy (docs/dealing.md); no hands, no moves. Then the crown, the guard and the play."""
Stage = Literal["grab", "call", "declare"]


class CrownState(_State):
    """Before the first play (G-4…G-8; engine/before_play/). Present exactly while ``phase`` is
    ``"crown"`` or ``"guard"`` (and kept on a void deal).

    ``first``: the seat first offered the crown (G-4). ``passes``: how many times the crown was
    handed on (让庄/让位) so far. ``pile``: the cards travelling with ``BJ*`` (贴2, G-6, G-7),
    held by nobody until a seat accepts. ``stage`` (guard phase only): ``"grab"`` the 抢独 round,
    ``"call"`` the emperor settles the guard, ``"declare"`` the 明保/造反 round; ``pending``: the
    seats still to answer in that stage, in order (``turn`` is the first).
    """

    first: Seat
    passes: Annotated[int, Meta(ge=0, le=10)] = 0
    pile: Annotated[list[CardCode], Meta(max_length=10)] = msgspec.field(default_factory=list)
    stage: Stage | None = None
    pending: Annotated[list[Seat], Meta(max_length=5)] = msgspec.field(default_factory=list)


class Snapshot(_State):
    """The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once ``over``."""

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
    # Before play (G-4…G-8). In the crown phase ``emperor`` is the seat holding the crown
    # and ``mode`` is provisional ("team"); in the guard phase both are settled once the guard is.
    phase: Phase = "play"
    crown: CrownState | None = None
    called: CardCode | None = None  # G-2: the called card, public once called
    void: bool = False  # 黄庄/流局: with ``over``, the deal is void and dealt again (G-5…G-7)


# Moves: a tagged union on ``action``.


@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
class _Move(msgspec.Struct, tag_field="action", forbid_unknown_fields=True, frozen=True):
    """Every move's options: tagged by ``action``, strict, frozen."""


class PlayMove(_Move, tag="play"):
    seat: Seat
    cards: Annotated[list[CardCode], Meta(max_length=216)]


class PassMove(_Move, tag="pass"):
    seat: Seat


class YieldMove(_Move, tag="yield"):
    seat: Seat


class JiefengMove(_Move, tag="jiefeng"):
    seat: Seat


class AcceptMove(_Move, tag="accept"):
    """G-6/G-7: the crown holder becomes the emperor (tribute, lianzhong-*)."""

    seat: Seat


class DeclineMove(_Move, tag="decline"):
    """Crown: hand it on (让庄/让位, 贴2 where the ruleset has it). Guard phase: no grab, no
    明独 (lianzhong-simple), no 明保 nor 造反."""

    seat: Seat


class GrabMove(_Move, tag="grab"):
    """抢庄 (G-5, classic, any seat not holding the crown) or 抢独 (G-7, in the grab round), where
    the ruleset's ``grab`` option is on; tribute has no grab (G-6)."""

    seat: Seat


class CallMove(_Move, tag="call"):
    """G-2: the emperor names a (rank, suit) he holds three or four of; ``BJ``/``SJ`` in classic."""

    seat: Seat
    card: CardCode


class DeclareSoloMove(_Move, tag="declare_solo"):
    """G-8 明独: the emperor plays alone, openly (tribute: only holding four of one (rank, suit),
    neither joker nor 2, which he shows, G-6)."""

    seat: Seat


class RevealMove(_Move, tag="reveal"):
    """G-8 明保: the guard shows itself before the first play."""

    seat: Seat


class RebelMove(_Move, tag="rebel"):
    """G-8 造反 (lianzhong-simple): a rebel declares before the first play."""

    seat: Seat


BEFORE_PLAY_MOVES = (
    AcceptMove,
    DeclineMove,
    GrabMove,
    CallMove,
    DeclareSoloMove,
    RevealMove,
    RebelMove,
)
Move = (
    PlayMove
    | PassMove
    | YieldMove
    | JiefengMove
    | AcceptMove
    | DeclineMove
    | GrabMove
    | CallMove
    | DeclareSoloMove
    | RevealMove
    | RebelMove
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
