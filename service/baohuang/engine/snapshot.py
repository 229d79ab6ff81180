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
from .scoring import Mode, ScoreResult

__all__ = [
    "BEFORE_PLAY_MOVES",
    "AcceptMove",
    "AcceptedEvent",
    "CallMove",
    "CalledEvent",
    "CardCode",
    "CardList",
    "ClockEvent",
    "CrownForcedEvent",
    "CrownPassedEvent",
    "CrownState",
    "DealOverEvent",
    "DealResult",
    "DealStartedEvent",
    "DealVoidEvent",
    "DealtEvent",
    "DeclareSoloMove",
    "DeclineMove",
    "DeclinedEvent",
    "Event",
    "FinishedEvent",
    "GrabMove",
    "GrabbedEvent",
    "JiefengEvent",
    "JiefengMove",
    "LeftEvent",
    "Mode",
    "Move",
    "MoveEvent",
    "PassMove",
    "PassedEvent",
    "Phase",
    "PhaseEvent",
    "PlayMove",
    "PlayedEvent",
    "Position",
    "RebelMove",
    "RebelledEvent",
    "ReplayFailure",
    "ReplayResult",
    "RevealMove",
    "RevealedEvent",
    "RulesetField",
    "RulesetSpec",
    "Seat",
    "Snapshot",
    "SoloDeclaredEvent",
    "Stage",
    "TopPlay",
    "Transfer",
    "Trick",
    "TrickWonEvent",
    "TrusteeCause",
    "TrusteeEvent",
    "YieldMove",
    "YieldedEvent",
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


Phase = Literal["crown", "guard", "play"]
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

# Events: a tagged union on ``type``, the operation records of a move.


class _Event(msgspec.Struct, tag_field="type", frozen=True, kw_only=True, omit_defaults=True):
    """Every event's options and the fields a live table's log adds: ``seq`` (1, 2, 3 … per
    table instance), the ``version`` its write produced and the time ``at`` it was logged.
    Absent from stateless answers."""

    seq: int | None = None
    version: int | None = None
    at: float | None = None
    """When the table logged it (seconds since the Unix epoch)."""


class PlayedEvent(_Event, tag="played", frozen=True):
    seat: int
    cards: list[str]  # canonical, high to low


class PassedEvent(_Event, tag="passed", frozen=True):
    seat: int


class YieldedEvent(_Event, tag="yielded", frozen=True):
    seat: int


class JiefengEvent(_Event, tag="jiefeng", frozen=True):
    seat: int


class TrickWonEvent(_Event, tag="trick_won", frozen=True):
    """T-5/T-7: ``seat`` owns the top play; ``lead`` leads next (another seat on 接风)."""

    seat: int
    lead: int


class FinishedEvent(_Event, tag="finished", frozen=True):
    """T-7: ``seat`` played its 底牌 and finished at ``position``."""

    seat: int
    position: int


class DealResult(msgspec.Struct, frozen=True, kw_only=True):
    """A live table's record of a finished deal (S, S-9, S-10, T-11): ``score`` is the deal's
    zero-sum score (void and every seat 0 when S-10 or T-11 says so, ``score.void`` naming why);
    ``penalties[seat]`` the S-9 charges for leaving, outside the zero-sum scores."""

    deal: int
    score: ScoreResult
    penalties: list[int]


class DealOverEvent(_Event, tag="deal_over", frozen=True):
    """T-9: the score can no longer change; ``positions[seat]`` is 1…5 (empty for a void deal).
    At a live table ``result`` carries the deal's :class:`DealResult`."""

    positions: list[int]
    result: DealResult | None = None


class CrownPassedEvent(_Event, tag="crown_passed", frozen=True):
    """G-5…G-7: ``seat`` handed the crown to ``to``; ``added`` is its 贴2 card, if any."""

    seat: int
    to: int
    added: str | None


class CrownForcedEvent(_Event, tag="crown_forced", frozen=True):
    """G-5 逼庄: ``seat`` holds exactly three of a (rank, suit) and must call."""

    seat: int


class AcceptedEvent(_Event, tag="accepted", frozen=True):
    """G-6/G-7: ``seat`` is the emperor; ``cards`` came with the crown (贴2)."""

    seat: int
    cards: list[str]


class DeclinedEvent(_Event, tag="declined", frozen=True):
    seat: int


class GrabbedEvent(_Event, tag="grabbed", frozen=True):
    seat: int


class CalledEvent(_Event, tag="called", frozen=True):
    seat: int
    card: str


class SoloDeclaredEvent(_Event, tag="solo_declared", frozen=True):
    seat: int


class RevealedEvent(_Event, tag="revealed", frozen=True):
    seat: int


class RebelledEvent(_Event, tag="rebelled", frozen=True):
    seat: int


class DealVoidEvent(_Event, tag="deal_void", frozen=True):
    """黄庄/流局: nobody took the crown; the deal is dealt again (G-5…G-7)."""


class PhaseEvent(_Event, tag="phase", frozen=True):
    """The deal moved on to ``phase`` (``"guard"`` or ``"play"``); ``turn`` acts first."""

    phase: str
    turn: int


# Live tables (T-10, T-11, S-9): the table's clock, 托管, and its deals.

TrusteeCause = Literal["timeout", "request", "leave"]


class ClockEvent(_Event, tag="clock", frozen=True):
    """``seat`` is to act by ``deadline`` (seconds since the Unix epoch); both null when nobody's
    clock runs (no clock, the deal is over, or the seat to act is in 托管)."""

    seat: int | None
    deadline: float | None


class TrusteeEvent(_Event, tag="trustee", frozen=True):
    """T-11: ``seat`` entered (``on``) or left 托管; ``count`` is how often it entered this deal;
    ``cause`` says why it entered: its clock ran out, it asked, or it left the table (S-9)."""

    seat: int
    on: bool
    count: int
    cause: TrusteeCause | None = None


class LeftEvent(_Event, tag="left", frozen=True):
    """S-9: ``seat`` left the table; ``penalty`` is what it is charged (0 where none applies)."""

    seat: int
    penalty: int


class Transfer(msgspec.Struct, frozen=True, gc=False, rename={"from_": "from"}):
    """One tribute card: ``from_`` (``"from"`` in JSON) gives ``card`` to ``to``."""

    from_: int
    to: int
    card: str


class DealStartedEvent(_Event, tag="deal_started", frozen=True):
    """The table's deal number ``deal`` began, dealt from ``dealer`` (G-4); ``tribute`` holds the
    cards paid (P) under ``tribute``."""

    deal: int
    dealer: int
    tribute: list[Transfer] = []


class DealtEvent(_Event, tag="dealt", frozen=True):
    """For the record (platforms only): the deal's first snapshot and the seed it was dealt from
    (``None`` for a snapshot the platform gave), so that the log alone replays the deal."""

    deal: int
    seed: int | None
    snapshot: Snapshot


class MoveEvent(_Event, tag="move", frozen=True):
    """For the record (platforms only): the move applied, and who made it: the seat itself, or
    托管 playing it (T-10) after a timeout, a request or a leave."""

    move: Move
    by: Literal["seat", "trustee"]


Event = (
    PlayedEvent
    | PassedEvent
    | YieldedEvent
    | JiefengEvent
    | TrickWonEvent
    | FinishedEvent
    | DealOverEvent
    | CrownPassedEvent
    | CrownForcedEvent
    | AcceptedEvent
    | DeclinedEvent
    | GrabbedEvent
    | CalledEvent
    | SoloDeclaredEvent
    | RevealedEvent
    | RebelledEvent
    | DealVoidEvent
    | PhaseEvent
    | ClockEvent
    | TrusteeEvent
    | LeftEvent
    | DealStartedEvent
    | DealtEvent
    | MoveEvent
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
