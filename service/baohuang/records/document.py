"""The deal record: one deal at a table as a portable document (docs/records.md).

Like a PGN file, headers first — the table, the ruleset, the dealer, how the cards were dealt
(with a committed deal's commitment, the seats' entropy and the revealed seed), the tribute paid
and the times — then every act in order (each move and who made it, 托管 entered and left, a seat
leaving, a clock running out), then the result and the table's totals around it. The document
is JSON, versioned (``version``), described by a JSON Schema (openapi/deal-record.schema.json)
and checked by :func:`.verify.verify` with nothing but this package.

A record comes in three forms, named by ``record`` (the tag of the union): ``full``, with every
hand (``opening`` is the deal's first snapshot), which a platform reads and anyone reads once a
committed deal is over (its revealed seed deals every hand anyway); ``seat``, a seat's, with
its own hand only (``opening`` is its seat view); ``public``, a spectator's, with no hand.
Only a full record can be verified: the others lack the hands to deal again.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias

import msgspec

from ..engine import (
    SEATS,
    DealResult,
    Move,
    PreviousDeal,
    PublicView,
    RulesetField,
    Seat,
    SeatView,
    Snapshot,
    Transfer,
    TrusteeCause,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "Act",
    "CommittedDealing",
    "DealRecord",
    "Dealing",
    "FullRecord",
    "GivenDealing",
    "LeftAct",
    "MoveAct",
    "PublicRecord",
    "SeatRecord",
    "SeededDealing",
    "Tally",
    "Tribute",
    "TrusteeAct",
    "decode_record",
    "encode_record",
    "record_schema",
]

FORMAT: Final = "baohuang-deal-record"
VERSION: Final = 1
"""The record format's version: a change a verifier of version 1 would misread is version 2."""

Seconds = Annotated[
    float, msgspec.Meta(ge=0, description="Seconds since the deal started (`started`)")
]
Hands = Annotated[list[int], msgspec.Meta(min_length=SEATS, max_length=SEATS)]


class _Dealing(msgspec.Struct, tag_field="method", frozen=True, kw_only=True, omit_defaults=True):
    """How the cards were dealt (docs/dealing.md)."""


class CommittedDealing(_Dealing, tag="committed", frozen=True):
    """Dealt by the service from a seed it committed to before any card was dealt:
    ``commitment`` is the seed's SHA-256, ``algorithm`` how the cards follow from the seed and
    the ``entropy`` each seat added (null: none), ``seed`` the seed, revealed once the deal is
    over (null before)."""

    algorithm: str
    commitment: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
    entropy: Annotated[list[str | None], msgspec.Meta(min_length=SEATS, max_length=SEATS)]
    seed: str | None = None


class SeededDealing(_Dealing, tag="seed", frozen=True):
    """Dealt from a 64-bit ``seed`` (SplitMix64, docs/dealing.md) that the platform passed or
    the service drew (``chosen_by``; null in records of deals logged before it was said). Only
    a full record shows the seed: it deals every hand."""

    chosen_by: Literal["platform", "service"] | None = None
    seed: int | None = None


class GivenDealing(_Dealing, tag="snapshot", frozen=True):
    """The platform gave the deal's first snapshot: only its word says how it was dealt."""


Dealing: TypeAlias = CommittedDealing | SeededDealing | GivenDealing


class Tribute(msgspec.Struct, frozen=True, kw_only=True):
    """The tribute paid into this deal (P): ``previous`` is the deal before (its roles and
    finishing order), ``transfers`` the cards that changed hands, as this caller may see them
    (a seat sees the cards it gave or took)."""

    previous: PreviousDeal
    transfers: list[Transfer]


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    """A table's running figures around the deal: ``before`` it and ``after`` it (null while
    the deal is not over)."""

    before: Hands
    after: Hands | None = None


class _Act(msgspec.Struct, tag_field="act", frozen=True, kw_only=True, omit_defaults=True):
    """One act at the table, in the order the table applied them."""

    at: Seconds = 0.0


class MoveAct(_Act, tag="move", frozen=True):
    """A move (the rules' move, any phase) and who made it: the seat itself, 托管 for it (T-10,
    or the level the table's platform chose), or the bot seated there."""

    move: Move
    by: Literal["seat", "trustee", "bot"] = "seat"


class TrusteeAct(_Act, tag="trustee", frozen=True):
    """T-11: ``seat`` entered (``on``) or left 托管, ``count`` times entered this deal;
    ``cause``: its clock ran out (``timeout``), it asked, or it left the table."""

    seat: Seat
    on: bool
    count: int
    cause: TrusteeCause | None = None


class LeftAct(_Act, tag="left", frozen=True):
    """S-9: ``seat`` left the table, charged ``penalty`` (0 or negative)."""

    seat: Seat
    penalty: int


Act: TypeAlias = MoveAct | TrusteeAct | LeftAct


class _Record(msgspec.Struct, tag_field="record", frozen=True, kw_only=True):
    """The headers, the acts and the result of one deal (module docstring)."""

    version: Annotated[
        int, msgspec.Meta(ge=1, description=f"The record format's version ({VERSION} here)")
    ] = VERSION
    table: str
    instance: str
    deal: Annotated[int, msgspec.Meta(ge=1, description="The deal's number at the table")]
    ruleset: RulesetField
    dealer: Seat | None = None
    """The seat the cards were dealt from (G-4); null for a snapshot the platform gave."""
    dealing: Dealing
    tribute: Tribute | None = None
    left: list[Seat] = []
    """Seats that had left the table before the deal (S-9): 托管 plays them from the start."""
    trustee_level: str | None = None
    """Who plays a seat in 托管: T-10's move (null) or the bot level the platform chose."""
    started: float
    """When the deal's first event was logged (seconds since the Unix epoch)."""
    ended: float | None = None
    """When its ``deal_over`` was logged; null while it goes on."""
    acts: list[Act]
    result: DealResult | None = None
    totals: Tally
    penalties: Tally


class FullRecord(_Record, tag="full", frozen=True):
    """A record with every hand: ``opening`` is the deal's first snapshot."""

    opening: Snapshot


class SeatRecord(_Record, tag="seat", frozen=True):
    """A seat's record of a deal whose other hands it may not see: ``opening`` is its view of
    the first snapshot (its own hand)."""

    opening: SeatView


class PublicRecord(_Record, tag="public", frozen=True):
    """A spectator's record: ``opening`` is the public view of the first snapshot (no hand)."""

    opening: PublicView


DealRecord: TypeAlias = FullRecord | SeatRecord | PublicRecord

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(DealRecord)


_ORDER: Final = (
    "record", "version", "table", "instance", "deal", "ruleset", "dealer", "dealing",
    "tribute", "left", "trustee_level", "started", "ended", "opening", "acts", "result",
    "totals", "penalties",
)  # fmt: skip
"""The order a person reads a record in: the headers, the opening, the acts, the result."""


def encode_record(record: DealRecord) -> bytes:
    """The record as JSON, headers first and the acts one to a line, so that a person can read
    it (any order of the keys decodes alike)."""
    fields = msgspec.to_builtins(msgspec.structs.replace(record, acts=[]))
    ordered = {key: fields[key] for key in _ORDER if key in fields}
    text = _encoder.encode(ordered | fields)
    marker = b'"acts":[]'
    at = text.index(marker) + len(marker) - 1
    acts = b",\n".join(_encoder.encode(act) for act in record.acts)
    return text[:at] + (b"\n" + acts + b"\n" if acts else b"") + text[at:] + b"\n"


def decode_record(data: bytes | str) -> DealRecord:
    """A record read back (``msgspec.ValidationError`` or ``DecodeError`` if it is not one)."""
    return _decoder.decode(data)


def record_schema() -> dict[str, object]:
    """The JSON Schema of a deal record (openapi/deal-record.schema.json)."""
    (schema,), components = msgspec.json.schema_components(
        [DealRecord], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{FORMAT}, version {VERSION}",
        "description": (__doc__ or "").strip().split("\n\n")[0].replace("\n", " "),
        **schema,
        "$defs": dict(sorted(components.items())),
    }
