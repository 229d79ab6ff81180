"""``/v1/combos/*`` and ``/v1/kaopai/resolve``: plays judged without a deal (C, N, K).

Bad input raised by the engine becomes its problem document in one place (:mod:`..problems`).
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

import msgspec
from litestar import Controller, Request, post

from ...engine import Reason, classify_play, compare, compare_many, resolve_trick, ruleset_of
from ..bodies import (
    BodyDecoder,
    JSONBody,
    distinct_keys,
    gc_paused,
    json_response,
    read_body,
    refuse_duplicate_keys,
)
from ..docs import body, problems
from ..metrics import ENGINE_SECONDS, count_verdict, count_verdicts
from ..schemas import (
    BatchRequest,
    BatchResult,
    ClassifyRequest,
    ClassifyResult,
    ComboOut,
    CompareRequest,
    CompareResult,
    KnownCodesBatch,
    ResolveRequest,
    ResolveResult,
    ResolveStep,
    cover_items,
)

CLASSIFY = BodyDecoder(ClassifyRequest)
COMPARE = BodyDecoder(CompareRequest)
BATCH = BodyDecoder(BatchRequest)
_KNOWN_CODES_BATCH = msgspec.json.Decoder(KnownCodesBatch)
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])


def _batch_members(body: bytes, pairs: int) -> int:
    """How many object members a decoded batch holds without duplicates, counted without
    decoding its pairs again (a body of 10,000 pairs would take as long again as the batch):
    each pair holds exactly its two fields, both required and no other allowed."""
    top = _MEMBERS.decode(body)
    ruleset = top.get("ruleset")
    return len(top) + 2 * pairs + (distinct_keys(bytes(ruleset)) if ruleset is not None else 0)


RESOLVE = BodyDecoder(ResolveRequest)

_CLASSIFY_TIME = ENGINE_SECONDS["classify"]
_COMPARE_TIME = ENGINE_SECONDS["compare"]
_BATCH_TIME = ENGINE_SECONDS["batch"]
_RESOLVE_TIME = ENGINE_SECONDS["resolve"]


class CombosController(Controller):
    path = "/v1"
    tags = ["combos"]

    @post(
        "/combos/classify",
        operation_id="classifyCombo",
        status_code=200,
        opt=body(CLASSIFY, ClassifyResult),
        responses=problems(400, 413, 422),
    )
    async def classify(self, request: Request[Any, Any, Any]) -> JSONBody:
        """Is this a combo (C-1…C-4)? Its shape and canonical cards, or the reason it is not."""
        query = await CLASSIFY.read(request)
        ruleset = ruleset_of(query.ruleset)
        start = perf_counter()
        combo = classify_play(query.cards, ruleset)
        _CLASSIFY_TIME.observe(perf_counter() - start)
        if isinstance(combo, Reason):
            count_verdict("classify", combo.code)
            return json_response(ClassifyResult(valid=False, reason=combo))
        count_verdict("classify", None)
        return json_response(ClassifyResult(valid=True, combo=ComboOut.of(combo)))

    @post(
        "/combos/compare",
        operation_id="compareCombos",
        status_code=200,
        opt=body(COMPARE, CompareResult),
        responses=problems(400, 413, 422),
    )
    async def compare(self, request: Request[Any, Any, Any]) -> JSONBody:
        """Does ``candidate`` beat ``previous`` (N-1…N-6, or K with kaopai)? With its cover (K-6)."""
        query = await COMPARE.read(request)
        ruleset = ruleset_of(query.ruleset)
        start = perf_counter()
        judgement = compare(query.previous, query.candidate, ruleset)
        _COMPARE_TIME.observe(perf_counter() - start)
        reason = judgement.reason
        count_verdict("compare", reason.code if reason else None)
        return json_response(CompareResult(reason is None, reason, cover_items(judgement.cover)))

    @post(
        "/combos/compare-batch",
        operation_id="compareCombosBatch",
        status_code=200,
        opt=body(BATCH, BatchResult),
        responses=problems(400, 413, 422),
    )
    async def compare_batch(self, request: Request[Any, Any, Any]) -> JSONBody:
        """Up to 10,000 comparisons in one call, in order; verdict codes only, no covers."""
        body = await read_body(request)
        with gc_paused():
            query: KnownCodesBatch | BatchRequest
            try:
                query = _KNOWN_CODES_BATCH.decode(body)
            except (msgspec.MsgspecError, RecursionError):
                query = BATCH.decode(body)  # the route's answer, a request or its error
            else:
                refuse_duplicate_keys(body, _batch_members(body, len(query.pairs)))
            ruleset = ruleset_of(query.ruleset)
            start = perf_counter()
            codes = compare_many(query.pairs, ruleset)
            _BATCH_TIME.observe(perf_counter() - start)
            count_verdicts("batch", codes)
            return json_response(BatchResult.of(codes))

    @post(
        "/kaopai/resolve",
        operation_id="resolveKaopai",
        status_code=200,
        opt=body(RESOLVE),
        responses=problems(400, 413, 422),
    )
    async def resolve(self, request: Request[Any, Any, Any]) -> ResolveResult:
        """A stack of 烤牌 plays, bottom first, each judged against the one under it (K-7). The
        plays of a trick lie on the table together, so more copies of a card across the stack
        than four decks hold is a 422 naming the play that exceeds them (D-5)."""
        query = await RESOLVE.read(request)
        ruleset = ruleset_of(query.ruleset)
        start = perf_counter()
        trick = resolve_trick(query.plays, ruleset)
        _RESOLVE_TIME.observe(perf_counter() - start)
        steps = []
        for step in trick.steps:
            reason = step.judgement.reason
            count_verdict("resolve", reason.code if reason else None)
            steps.append(
                ResolveStep(step.index, reason is None, reason, cover_items(step.judgement.cover))
            )
        return ResolveResult(trick.valid, trick.winner, steps)
