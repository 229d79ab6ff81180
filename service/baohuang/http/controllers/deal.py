"""``/v1/deal`` and ``/v1/tribute``: before the first play (RULES.md G-4, P; API.md "Before play").

``/v1/deal`` deals reproducibly from a seed (engine/before_play/deal.py documents the shuffle so any
client can check it) and returns the deal's first snapshot, in phase ``"crown"``: from there
``/v1/moves/validate``, ``/legal``, ``/auto`` and ``/replay`` drive the crown and guard phases
(engine/before_play/) up to the first play. ``/v1/tribute`` applies the previous deal's
tribute (进贡) to new hands under the ``tribute`` ruleset; a client then puts the returned hands in
the snapshot before the crown is offered (P is applied to the new hands before play).
"""

from __future__ import annotations

from time import perf_counter
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, post
from msgspec import Meta

from ...engine import PreviousDeal, Snapshot, Transfer, deal, opening_snapshot, ruleset_of, tribute
from ..docs import body, problems
from ..metrics import ENGINE_SECONDS
from ..wire import BodyDecoder, CardCode, Ruleset

Seat = Annotated[int, Meta(ge=0, le=4, description="T-1: seats 0–4")]
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
Hand = Annotated[list[CardCode], Meta(max_length=216)]
StrictStruct = {"forbid_unknown_fields": True, "frozen": True}


class DealRequest(msgspec.Struct, **StrictStruct):
    seed: Seed
    dealer: Seat
    ruleset: Ruleset = "classic"


class DealResult(msgspec.Struct, frozen=True):
    """Five hands high to low, the seat first offered the crown, and the snapshot in phase
    ``"crown"`` (G-4; its ``turn`` is ``crown``)."""

    hands: list[list[str]]
    crown: int
    snapshot: Snapshot


class TributeRequest(msgspec.Struct, **StrictStruct):
    ruleset: Ruleset
    previous: PreviousDeal
    hands: Annotated[list[Hand], Meta(min_length=5, max_length=5)]


class TributeOut(msgspec.Struct, frozen=True):
    """The tribute cards, highest first (P-2…P-4), and the five hands after them, high to low."""

    transfers: list[Transfer]
    hands: list[list[str]]


DEAL = BodyDecoder(DealRequest)
TRIBUTE = BodyDecoder(TributeRequest)
_DEAL_TIME = ENGINE_SECONDS["deal"]
_TRIBUTE_TIME = ENGINE_SECONDS["tribute"]
_ERRORS = problems(400, 413, 422)


class DealController(Controller):
    path = "/v1"
    tags = ["before play"]

    @post("/deal", status_code=200, opt=body(DEAL), responses=_ERRORS)
    async def deal(self, request: Request[Any, Any, Any]) -> DealResult:
        """A reproducible deal (G-4) and its first snapshot, phase ``crown``, ready for moves."""
        query = await DEAL.read(request)
        ruleset = ruleset_of(query.ruleset)
        start = perf_counter()
        dealt = deal(ruleset, query.seed, query.dealer)
        snapshot = opening_snapshot(query.ruleset, dealt)
        _DEAL_TIME.observe(perf_counter() - start)
        return DealResult(hands=dealt.hands, crown=dealt.crown, snapshot=snapshot)

    @post("/tribute", status_code=200, opt=body(TRIBUTE), responses=_ERRORS)
    async def tribute(self, request: Request[Any, Any, Any]) -> TributeOut:
        """The tribute (进贡, P-1…P-4) the previous deal imposes on the new hands."""
        query = await TRIBUTE.read(request)
        start = perf_counter()
        result = tribute(query.ruleset, query.previous, query.hands)
        _TRIBUTE_TIME.observe(perf_counter() - start)
        return TributeOut(transfers=result.transfers, hands=result.hands)
