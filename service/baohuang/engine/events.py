"""The events of a deal: what each move did, a tagged union on ``type`` (the operation records
of a move), and the events a live table adds around its deals (T-10, T-11, S-9, S-10)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .scoring import Mode, ScoreResult
from .snapshot import Move, Seat, Snapshot

__all__ = [
    "AcceptedEvent",
    "CalledEvent",
    "ClockEvent",
    "CrownForcedEvent",
    "CrownPassedEvent",
    "DealCommittedEvent",
    "DealOverEvent",
    "DealResult",
    "DealStartedEvent",
    "DealVoidEvent",
    "DealtEvent",
    "DeclinedEvent",
    "EntropyEvent",
    "Event",
    "FinishedEvent",
    "GrabbedEvent",
    "JiefengEvent",
    "LeftEvent",
    "MoveEvent",
    "PassedEvent",
    "PhaseEvent",
    "PlayedEvent",
    "PreviousDeal",
    "RebelledEvent",
    "RevealedEvent",
    "SoloDeclaredEvent",
    "TokenRotatedEvent",
    "Transfer",
    "TrickWonEvent",
    "TrusteeCause",
    "TrusteeEvent",
    "YieldedEvent",
]


class _Event(msgspec.Struct, tag_field="type", frozen=True, kw_only=True, omit_defaults=True):
    """Every event's options and the fields a live table's log adds: ``seq`` (1, 2, 3 … per
    table instance), the ``version`` its write produced and the time ``at`` it was logged.
    Absent from stateless answers."""

    seq: int | None = None
    version: int | None = None
    at: float | None = None
    """When the table logged it (seconds since the Unix epoch)."""
    id: str | None = None
    """Read from a table's log: ``"<seq>.<token>"``, the seq and the token of the write that
    logged it, so that no two events ever share an id, even after a failover rolled the log
    back and the seq was logged again (the stream's ``id:``, ``Last-Event-ID`` and ``after``)."""


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
    At a live table ``result`` carries the deal's :class:`DealResult`, and ``seed`` reveals the
    seed a committed deal was dealt from (docs/dealing.md): its SHA-256 is the commitment."""

    positions: list[int]
    result: DealResult | None = None
    seed: str | None = None


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


class TokenRotatedEvent(_Event, tag="token_rotated", frozen=True):
    """A live table's platform issued a new token for ``seat`` (``None``: the spectators'), the
    seat changing hands: every earlier token of it is refused from now on. ``generation`` counts
    the tokens issued for it (the first, from ``PUT``, is 0); the token itself is never logged."""

    seat: int | None
    generation: int


class Transfer(msgspec.Struct, frozen=True, gc=False, rename={"from_": "from"}):
    """One tribute card: ``from_`` (``"from"`` in JSON) gives ``card`` to ``to``."""

    from_: int
    to: int
    card: str


class DealCommittedEvent(_Event, tag="deal_committed", frozen=True):
    """A live table's deal ``deal`` is to be dealt by the service from ``dealer`` (G-4), from a
    seed whose SHA-256 is ``commitment``, by ``algorithm`` (docs/dealing.md): the first event of
    a committed deal, before any card is dealt. Until ``closes`` (seconds since the Unix epoch)
    each seat may add its entropy; the deal is dealt then, or as soon as every seat that can add
    has."""

    deal: int
    dealer: int
    algorithm: str
    commitment: str
    closes: float


class EntropyEvent(_Event, tag="entropy", frozen=True):
    """``seat`` added ``entropy`` (hex) to the committed deal being dealt (docs/dealing.md)."""

    seat: int
    entropy: str


class PreviousDeal(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The previous deal's roles and finishing order (P: it must be over, T-9). `finished` lists
    the seats in finishing order, as for `/v1/scores`: it stops at the deal's end, or goes on
    with the seats still holding cards in the order the platform ranks them, the side that
    finished first (T-9); the tribute follows the order given (who eats first, P-3, P-4)."""

    mode: Mode
    emperor: Seat
    finished: Annotated[list[Seat], Meta(max_length=5)]
    guard: Seat | None = None


class DealStartedEvent(_Event, tag="deal_started", frozen=True):
    """The table's deal number ``deal`` began, dealt from ``dealer`` (G-4); ``tribute`` holds the
    cards paid (P) under ``tribute``, as ``previous`` (that deal's roles and finishing order)
    calls for. A committed deal's (docs/dealing.md) names its
    ``commitment`` and the ``entropy`` each seat added (null: none), which dealt it."""

    deal: int
    dealer: int
    tribute: list[Transfer] = []
    previous: PreviousDeal | None = None
    commitment: str | None = None
    entropy: list[str | None] | None = None


class DealtEvent(_Event, tag="dealt", frozen=True):
    """For the record (platforms only): the deal's first snapshot and the seed it was dealt from
    (``None`` for a snapshot the platform gave, and for a committed deal, whose seed
    ``deal_over`` reveals), so that the log alone replays the deal; ``chosen_by``: who chose that
    seed or snapshot (``service`` for a seed it drew, or a committed deal)."""

    deal: int
    seed: int | None
    snapshot: Snapshot
    chosen_by: Literal["platform", "service"] | None = None


class MoveEvent(_Event, tag="move", frozen=True):
    """For the record (platforms only): the move applied, and who made it: the seat itself,
    托管 playing it (T-10, or the level the platform chose for 托管) after a timeout, a request or
    a leave, or the bot the platform seated there (docs/clients.md "Bots")."""

    move: Move
    by: Literal["seat", "trustee", "bot"]


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
    | TokenRotatedEvent
    | DealCommittedEvent
    | EntropyEvent
    | DealStartedEvent
    | DealtEvent
    | MoveEvent
)
