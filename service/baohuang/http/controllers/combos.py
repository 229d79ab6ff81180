"""``/v1/combos/*`` and ``/v1/kaopai/resolve``: plays judged without a deal (RULES.md C, N, K)."""

from __future__ import annotations

from time import perf_counter
from typing import Any

from litestar import Controller, Request, post

from ...engine import (
    BadPair,
    BadPlay,
    CardError,
    NotACombo,
    Reason,
    compare_many,
    judge,
    read_combo,
    read_previous,
    resolve_trick,
    ruleset_of,
)
from ..docs import body, problems
from ..metrics import ENGINE_SECONDS, count_verdict, count_verdicts
from ..problems import Problem, card_problem
from ..wire import (
    BATCH,
    CLASSIFY,
    COMPARE,
    RESOLVE,
    BatchResult,
    ClassifyResult,
    ComboOut,
    CompareResult,
    JSONBody,
    ResolveResult,
    ResolveStep,
    cover_items,
    gc_paused,
    json_response,
    read_body,
)

_CLASSIFY_TIME = ENGINE_SECONDS["classify"]
_COMPARE_TIME = ENGINE_SECONDS["compare"]
_BATCH_TIME = ENGINE_SECONDS["batch"]
_RESOLVE_TIME = ENGINE_SECONDS["resolve"]


def not_a_combo_problem(reason: Reason, path: str) -> Problem:
    return Problem(422, reason.code, f"not a combo: {reason.message}", path=path, rule=reason.rule)


class CombosController(Controller):
    path = "/v1"
    tags = ["combos"]

    @post(
        "/combos/classify",
        status_code=200,
        opt=body(CLASSIFY, ClassifyResult),
        responses=problems(400, 413, 422),
    )
    async def classify(self, request: Request[Any, Any, Any]) -> JSONBody:
        """Is this a combo (C-1…C-4)? Its shape and canonical cards, or the reason it is not."""
        query = await CLASSIFY.read(request)
        card_set = ruleset_of(query.ruleset).cards
        start = perf_counter()
        try:
            combo = read_combo(query.cards, card_set, "cards")
        except CardError as error:
            raise card_problem(error, "$.cards") from None
        _CLASSIFY_TIME.observe(perf_counter() - start)
        if isinstance(combo, Reason):
            count_verdict("classify", combo.code)
            return json_response(ClassifyResult(valid=False, reason=combo))
        count_verdict("classify", None)
        return json_response(ClassifyResult(valid=True, combo=ComboOut.of(combo)))

    @post(
        "/combos/compare",
        status_code=200,
        opt=body(COMPARE, CompareResult),
        responses=problems(400, 413, 422),
    )
    async def compare(self, request: Request[Any, Any, Any]) -> JSONBody:
        """Does ``candidate`` beat ``previous`` (N-1…N-6, or K with kaopai)? With its cover (K-6)."""
        query = await COMPARE.read(request)
        ruleset = ruleset_of(query.ruleset)
        card_set = ruleset.cards
        start = perf_counter()
        try:
            top = read_previous(query.previous, card_set)
        except NotACombo as error:
            raise not_a_combo_problem(error.reason, "$.previous") from None
        except CardError as error:
            raise card_problem(error, "$.previous") from None
        try:
            candidate = read_combo(query.candidate, card_set, "candidate")
        except CardError as error:
            raise card_problem(error, "$.candidate") from None
        judgement = judge(top, candidate, ruleset)
        _COMPARE_TIME.observe(perf_counter() - start)
        reason = judgement.reason
        count_verdict("compare", reason.code if reason else None)
        return json_response(CompareResult(reason is None, reason, cover_items(judgement.cover)))

    @post(
        "/combos/compare-batch",
        status_code=200,
        opt=body(BATCH, BatchResult),
        responses=problems(400, 413, 422),
    )
    async def compare_batch(self, request: Request[Any, Any, Any]) -> JSONBody:
        """Up to 10,000 comparisons in one call, in order; verdict codes only, no covers."""
        body = await read_body(request)
        with gc_paused():
            query = BATCH.decode(body)
            ruleset = ruleset_of(query.ruleset)
            start = perf_counter()
            try:
                codes = compare_many(query.pairs, ruleset)
            except BadPair as bad:
                path = f"$.pairs[{bad.index}].{bad.field}"
                if isinstance(bad.error, NotACombo):
                    raise not_a_combo_problem(bad.error.reason, path) from None
                raise card_problem(bad.error, path) from None
            _BATCH_TIME.observe(perf_counter() - start)
            count_verdicts("batch", codes)
            return json_response(BatchResult.of(codes))

    @post("/kaopai/resolve", status_code=200, opt=body(RESOLVE), responses=problems(400, 413, 422))
    async def resolve(self, request: Request[Any, Any, Any]) -> ResolveResult:
        """A stack of 烤牌 plays, bottom first, each judged against the one under it (K-7). The
        plays of a trick lie on the table together, so more copies of a card across the stack
        than four decks hold is a 422 naming the play that exceeds them (D-5)."""
        query = await RESOLVE.read(request)
        ruleset = ruleset_of(query.ruleset)
        start = perf_counter()
        try:
            trick = resolve_trick(query.plays, ruleset)
        except BadPlay as bad:
            raise card_problem(bad.error, f"$.plays[{bad.index}]") from None
        except NotACombo as error:
            raise not_a_combo_problem(error.reason, "$.plays[0]") from None
        _RESOLVE_TIME.observe(perf_counter() - start)
        steps = []
        for step in trick.steps:
            reason = step.judgement.reason
            count_verdict("resolve", reason.code if reason else None)
            steps.append(
                ResolveStep(step.index, reason is None, reason, cover_items(step.judgement.cover))
            )
        return ResolveResult(trick.valid, trick.winner, steps)
