"""What the store keeps for a live table: the deal's snapshot and the table around it.

A table is more than its deal (RULES T-10, T-11, S-9, S-10): a clock, each seat's 托管 state,
the deals already played and their running totals. The engine judges the deal; this record is
what the table service reads and writes in one compare-and-set with it.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

from ..bots import Level
from ..engine import SEATS, DealResult, Event, PreviousDeal, Snapshot

Seconds = Annotated[int, msgspec.Meta(ge=1, le=86400)]


class Clock(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Turn clocks (T-11): how long the seat to act has, in play and before play."""

    turn_seconds: Seconds
    before_play_seconds: Seconds


class SeatState(msgspec.Struct, frozen=True):
    """A seat's 托管 state (T-11): ``trustee`` whether 托管 plays for it now; ``entered`` how
    often it entered 托管 this deal; ``left`` whether it left the table (S-9, for good);
    ``bot`` the level of the bot the platform seated there (``null``: a person plays it)."""

    trustee: bool = False
    entered: int = 0
    left: bool = False
    bot: Level | None = None


DealingMethod = Literal["committed", "seed", "snapshot"]


class Dealing(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How the current deal is dealt (docs/dealing.md), shown to every caller.

    ``committed``: by the service, from a seed it committed to before any card was dealt —
    ``commitment`` is the seed's SHA-256, ``algorithm`` how the cards follow from it — mixed with
    the ``entropy`` each seat added (``null``: none yet, or none), which seats may add until
    ``closes`` (seconds since the Unix epoch; ``null`` once dealt; ``seconds``: how long the
    table gives them); ``seed`` reveals it once the deal is over. ``seed``: dealt from a seed
    (SplitMix64) the platform passed or the service drew (``chosen_by``), which only the platform
    sees. ``snapshot``: the platform gave the deal's snapshot."""

    method: DealingMethod = "snapshot"
    chosen_by: Literal["platform", "service"] = "platform"
    algorithm: str | None = None
    commitment: str | None = None
    entropy: list[str | None] | None = None
    closes: float | None = None
    seconds: int | None = None
    seed: str | None = None


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    """The table around the deal, shown to every caller.

    ``deal``: the deal's number at this table (1, 2, …); ``dealer``: the seat it was dealt from
    (``None`` for a snapshot the platform gave); ``deadline``: when the seat to act runs out of
    time (seconds since the Unix epoch; ``None`` when no clock runs; while a committed deal waits
    for the seats' entropy, when its window closes); ``totals[seat]``: the sum of
    the finished deals' scores; ``penalties[seat]``: S-9's charges so far (negative), apart from
    the zero-sum totals;
    ``results``: the finished deals' results, in order: the newest ``BAOHUANG_DEALS_KEPT`` of
    them once the next deal starts (the totals go on adding every deal up); ``dealing``: how the
    current deal is dealt (:class:`Dealing`: a committed deal's commitment, for everyone).
    """

    deal: int = 1
    dealer: int | None = None
    clock: Clock | None = None
    deadline: float | None = None
    seats: list[SeatState] = msgspec.field(default_factory=lambda: [SeatState()] * SEATS)
    totals: list[int] = msgspec.field(default_factory=lambda: [0] * SEATS)
    penalties: list[int] = msgspec.field(default_factory=lambda: [0] * SEATS)
    charges: list[int] = msgspec.field(default_factory=lambda: [0] * SEATS)
    """S-9's charges of this deal (its result reports them)."""
    results: list[DealResult] = msgspec.field(default_factory=list)
    played: bool = False
    """Whether the deal's first play was made (S-9 charges only a seat that leaves after it)."""
    trustee_level: Level | None = None
    """Who plays a seat in 托管: T-10's move (``null``, the rules' default) or this bot level,
    where the platform asked for it."""
    bot_delay: float = 1.0
    """Seconds a bot seat waits before it moves, so that people at the table can follow."""
    dealing: Dealing = msgspec.field(default_factory=Dealing)


EVENT_TYPES: Final = frozenset(str(member.__struct_config__.tag) for member in Event.__args__)


class Webhook(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where a table's chosen ``events`` (by type, e.g. ``deal_over``) are POSTed."""

    url: Annotated[
        str,
        msgspec.Meta(
            max_length=2048,
            description="An http:// or https:// URL outside the service's network, without "
            "credentials (checked at PUT and before every delivery: WEBHOOK_URL_REFUSED)",
        ),
    ]
    events: Annotated[list[str], msgspec.Meta(min_length=1, max_length=32)]

    def __post_init__(self) -> None:
        # The URL's checks need the service's policy and DNS: TableService.create runs them.
        unknown = sorted(set(self.events) - EVENT_TYPES)
        if unknown:
            raise ValueError(f"unknown event types {unknown}: one of {sorted(EVENT_TYPES)}")


class TableRecord(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one compare-and-set writes: the deal, the table, and what only the platform
    sees (the seed the deal came from, the webhook)."""

    snapshot: Snapshot
    table: TableState
    seed: int | None = None
    webhook: Webhook | None = None
    secret: str | None = None
    """A committed deal's seed (hex, docs/dealing.md): nobody sees it before the deal is over,
    when ``deal_over`` and ``table.dealing.seed`` reveal it."""
    previous: PreviousDeal | None = None
    """The roles and finishing order of the deal before, whose tribute this deal paid (P), for
    its record; ``None`` where none was paid."""
    token_generations: list[int] = msgspec.field(default_factory=lambda: [0] * (SEATS + 1))
    """The generation of the valid token of each seat, then of the spectators' (0 until the
    platform issues a new one; see :mod:`.callers`). A record written before there were
    generations decodes with all zeros: its tokens stay valid."""


class _Generations(msgspec.Struct):
    token_generations: list[int] = msgspec.field(default_factory=lambda: [0] * (SEATS + 1))


decode_record = msgspec.json.Decoder(TableRecord).decode
_decode_generations = msgspec.json.Decoder(_Generations).decode


def decode_generations(data: bytes) -> list[int]:
    """A stored record's ``token_generations`` alone (the rest is skipped, not built)."""
    return _decode_generations(data).token_generations


encode_record = msgspec.json.Encoder().encode
