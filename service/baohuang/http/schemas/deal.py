"""Bodies of ``/v1/deal`` and ``/v1/tribute``: before the first play (G-4, P)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from ...engine import CardList, PreviousDeal, Seat, Snapshot
from .base import Answer, Body, RulesetChoice

Seed = Annotated[
    int,
    Meta(
        description="G-4: any integer, read modulo 2**64: the seeds 0 … 2**64 − 1 each deal "
        "their own hands, a larger seed deals as its remainder (2**64 + 5 as 5) and a negative "
        "one as its two's complement (−1 as 2**64 − 1), so unsigned and signed 64-bit seeds "
        "both work as they are. The same seed always deals the same hands",
        examples=[20260101, 18446744073709551615],
    ),
]


class DealRequest(Body):
    seed: Seed
    dealer: Seat
    ruleset: RulesetChoice = "classic"


class NewDeal(Answer):
    """Five hands high to low, the seat first offered the crown, and the snapshot in phase
    ``"crown"`` (G-4; its ``turn`` is ``crown``)."""

    hands: list[list[str]]
    crown: int
    snapshot: Snapshot


class TributeRequest(Body):
    ruleset: RulesetChoice
    previous: PreviousDeal
    hands: Annotated[list[CardList], Meta(min_length=5, max_length=5)]
