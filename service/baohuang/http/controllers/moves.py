"""``/v1/moves/*`` and ``/v1/scores``: a deal judged from a snapshot, statelessly (docs/rules.md T, B, S).

Every route validates the snapshot as a whole first (422 ``INVALID_SNAPSHOT`` naming the path),
then asks the engine. An illegal move is a 200 verdict with a reason, never an error.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

from litestar import Controller, Request, post
from msgspec import UNSET

from ...engine import (
    Reason,
    ScoreResult,
    auto_answer,
    legal_moves,
    move_outcome,
    replay,
    ruleset_of,
    score,
    score_declared,
    validate_snapshot,
)
from ..bodies import BodyDecoder, JSONBody, json_response
from ..docs import body, problems
from ..metrics import ENGINE_SECONDS, count_verdict
from ..problems import Problem
from ..schemas import (
    AutoResult,
    LegalResult,
    ReplayOut,
    ReplayRequest,
    ScoresRequest,
    SnapshotRequest,
    ValidateRequest,
    ValidateResult,
)

VALIDATE = BodyDecoder(ValidateRequest)
SNAPSHOT = BodyDecoder(SnapshotRequest)
REPLAY = BodyDecoder(ReplayRequest)
SCORES = BodyDecoder(ScoresRequest)
_TIME = ENGINE_SECONDS
_ERRORS = problems(400, 413, 422)


class MovesController(Controller):
    path = "/v1"
    tags = ["play"]

    @post(
        "/moves/validate",
        operation_id="validateMove",
        status_code=200,
        opt=body(VALIDATE, ValidateResult),
        responses=_ERRORS,
    )
    async def validate(self, request: Request[Any, Any, Any]) -> JSONBody:
        """Is ``move`` legal in ``snapshot`` (T, B-1, N/K)? If so, the next snapshot and events."""
        query = await VALIDATE.read(request)
        start = perf_counter()
        snapshot = validate_snapshot(query.snapshot)
        outcome = move_outcome(snapshot, query.move)
        _TIME["validate"].observe(perf_counter() - start)
        if isinstance(outcome, Reason):
            count_verdict("validate", outcome.code)
            return json_response(ValidateResult(legal=False, reason=outcome))
        count_verdict("validate", None)
        after, events = outcome
        return json_response(ValidateResult(legal=True, snapshot=after, events=events))

    @post(
        "/moves/legal",
        operation_id="listLegalMoves",
        status_code=200,
        opt=body(SNAPSHOT),
        responses=_ERRORS,
    )
    async def legal(self, request: Request[Any, Any, Any]) -> LegalResult:
        """Every legal move of the seat to act (empty once the deal is over)."""
        query = await SNAPSHOT.read(request)
        start = perf_counter()
        snapshot = validate_snapshot(query.snapshot)
        moves = legal_moves(snapshot)
        _TIME["legal"].observe(perf_counter() - start)
        return LegalResult(snapshot.turn, moves)

    @post(
        "/moves/auto",
        operation_id="getAutoMove",
        status_code=200,
        opt=body(SNAPSHOT),
        responses=_ERRORS,
    )
    async def auto(self, request: Request[Any, Any, Any]) -> AutoResult:
        """The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass."""
        query = await SNAPSHOT.read(request)
        start = perf_counter()
        snapshot = validate_snapshot(query.snapshot)
        answer = auto_answer(snapshot)
        _TIME["auto"].observe(perf_counter() - start)
        if isinstance(answer, Reason):
            return AutoResult(move=None, reason=answer)
        return AutoResult(move=answer)

    @post(
        "/moves/replay",
        operation_id="replayMoves",
        status_code=200,
        opt=body(REPLAY),
        responses=_ERRORS,
    )
    async def replay(self, request: Request[Any, Any, Any]) -> ReplayOut:
        """Audit a whole deal: apply ``moves`` in order, stop at the first illegal one."""
        query = await REPLAY.read(request)
        start = perf_counter()
        snapshot = validate_snapshot(query.snapshot)
        result = replay(snapshot, query.moves)
        last = result.snapshot
        scores = None
        if last.over:
            scores = score(last)
        _TIME["replay"].observe(perf_counter() - start)
        failed = result.failed
        if failed is not None:
            count_verdict("replay", failed.reason.code)
        return ReplayOut(
            valid=failed is None,
            applied=result.applied,
            failed=failed,
            snapshot=last,
            scores=scores,
        )

    @post("/scores", operation_id="scoreDeal", status_code=200, opt=body(SCORES), responses=_ERRORS)
    async def scores(self, request: Request[Any, Any, Any]) -> ScoreResult:
        """A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order."""
        query = await SCORES.read(request)
        start = perf_counter()
        if query.snapshot is not None:
            explicit = [
                name
                for name in (
                    "ruleset",
                    "mode",
                    "emperor",
                    "guard",
                    "guard_revealed",
                    "rebellion_succeeded",
                    "rebellion",
                    "finished",
                )
                if getattr(query, name) not in (None, UNSET)
            ]
            if explicit:
                raise Problem(
                    400,
                    "INVALID_FIELD",
                    "give either a snapshot or the roles and finishing order, not both",
                    path=f"$.{explicit[0]}",
                )
            snapshot = validate_snapshot(query.snapshot)
            result = score(snapshot)
        else:
            result = _score_explicit(query)
        _TIME["scores"].observe(perf_counter() - start)
        return result


def _score_explicit(query: ScoresRequest) -> ScoreResult:
    for name in ("mode", "emperor", "finished"):
        if getattr(query, name) is None:
            raise Problem(
                400, "INVALID_FIELD", f"'{name}' is required without a snapshot", path=f"$.{name}"
            )
    assert query.mode is not None and query.emperor is not None and query.finished is not None
    ruleset = ruleset_of(query.ruleset if query.ruleset is not None else "classic")
    return score_declared(
        ruleset,
        query.mode,
        query.emperor,
        query.guard,
        query.guard_revealed is True,
        query.finished,
        query.rebellion,
        None if query.rebellion_succeeded is UNSET else query.rebellion_succeeded,
    )
