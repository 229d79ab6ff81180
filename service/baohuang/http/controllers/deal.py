"""``/v1/deal`` and ``/v1/tribute``: before the first play (docs/rules.md G-4, P; docs/clients.md).

``/v1/deal`` deals reproducibly from a seed (engine/before_play/deal.py documents the shuffle so any
client can check it) and returns the deal's first snapshot, in phase ``"crown"``: from there
``/v1/moves/validate``, ``/legal``, ``/auto`` and ``/replay`` drive the crown and guard phases
(engine/before_play/) up to the first play. ``/v1/tribute`` applies the previous deal's
tribute (进贡) to new hands under the ``tribute`` ruleset; a client then puts the returned hands in
the snapshot before the crown is offered (P is applied to the new hands before play).
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

from litestar import Controller, Request, post

from ...engine import TributeResult, deal, opening_snapshot, ruleset_of, tribute
from ..bodies import BodyDecoder
from ..docs import body, problems
from ..metrics import ENGINE_SECONDS
from ..schemas import DealRequest, NewDeal, TributeRequest

DEAL = BodyDecoder(DealRequest)
TRIBUTE = BodyDecoder(TributeRequest)
_DEAL_TIME = ENGINE_SECONDS["deal"]
_TRIBUTE_TIME = ENGINE_SECONDS["tribute"]
_ERRORS = problems(400, 413, 422)


class DealController(Controller):
    path = "/v1"
    tags = ["before play"]

    @post("/deal", operation_id="dealHands", status_code=200, opt=body(DEAL), responses=_ERRORS)
    async def deal(self, request: Request[Any, Any, Any]) -> NewDeal:
        """A reproducible deal (G-4) and its first snapshot, phase ``crown``, ready for moves."""
        query = await DEAL.read(request)
        ruleset = ruleset_of(query.ruleset)
        start = perf_counter()
        dealt = deal(ruleset, query.seed, query.dealer)
        snapshot = opening_snapshot(query.ruleset, dealt)
        _DEAL_TIME.observe(perf_counter() - start)
        return NewDeal(hands=dealt.hands, crown=dealt.crown, snapshot=snapshot)

    @post(
        "/tribute",
        operation_id="applyTribute",
        status_code=200,
        opt=body(TRIBUTE),
        responses=_ERRORS,
    )
    async def tribute(self, request: Request[Any, Any, Any]) -> TributeResult:
        """The tribute (进贡, P-1…P-4) the previous deal imposes on the new hands."""
        query = await TRIBUTE.read(request)
        start = perf_counter()
        result = tribute(query.ruleset, query.previous, query.hands)
        _TRIBUTE_TIME.observe(perf_counter() - start)
        return result
