"""``/v1/moves/*`` and ``/v1/scores``: a deal judged from a snapshot, statelessly (RULES.md T, B, S).

Every route validates the snapshot as a whole first (422 ``INVALID_SNAPSHOT`` naming the path),
then asks the engine. An illegal move is a 200 verdict with a reason, never an error.
"""

from __future__ import annotations

from time import perf_counter
from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, post
from msgspec import UNSET, Meta, UnsetType

from ...engine import (
    Event,
    Mode,
    Move,
    Reason,
    ReplayFailure,
    RulesetField,
    ScoreResult,
    Sides,
    Snapshot,
    auto_answer,
    legal_moves,
    move_outcome,
    replay,
    ruleset_of,
    score,
    score_declared,
    validate_snapshot,
)
from ..docs import body, problems
from ..metrics import ENGINE_SECONDS, count_verdict
from ..problems import Problem
from ..wire import BodyDecoder, JSONBody, json_response

Seat = Annotated[int, Meta(ge=0, le=4)]


class ValidateRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    snapshot: Snapshot
    move: Move


class ValidateResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """``legal: true`` with the next snapshot and the move's events, or ``legal: false`` and why."""

    legal: bool
    snapshot: Snapshot | None = None
    events: list[Event] | None = None
    reason: Reason | None = None


class SnapshotRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    snapshot: Snapshot


class LegalResult(msgspec.Struct, frozen=True):
    """Every legal move of ``seat`` (the seat to act); plays once per combo shape, cheapest first."""

    seat: int
    moves: list[Move]


class AutoResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """The 托管 move (T-10); ``move`` is null and ``reason`` says why when nobody can act."""

    move: Move | None
    reason: Reason | None = None


class ReplayRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    snapshot: Snapshot
    moves: Annotated[list[Move], Meta(max_length=2000)]


class ReplayOut(msgspec.Struct, frozen=True):
    valid: bool
    applied: int
    failed: ReplayFailure | None
    snapshot: Snapshot
    scores: ScoresResult | None


Flag = Annotated[bool, Meta(extra_json_schema={"default": False})]


class ScoresRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Either `snapshot` alone, or the roles and the `finished` order (with `ruleset`).

    `finished`: the seats that finished while the deal ran, in order; it stops where the deal
    ended (T-9), and the seats still holding cards then take the remaining positions without being
    listed (a seat listed after the end is 422 `DEAL_OVER` naming it).

    造反 (lianzhong-simple, team and 暗独, G-8): it succeeded when two or more rebels declared it
    and the rebels' side won the deal (S-4, S-6), and only then doubles the score. `rebellion`
    gives the declaring seats (rebels, each once) and the service decides, as for a snapshot.
    `rebellion_succeeded` states the outcome instead: `true` stands for two or more declarers and
    is 422 `REBELLION_MISMATCH` when the finishing order gives the deal to the emperor's side or
    a draw; with `rebellion` too it must agree with it. Before the deal is final nothing has
    succeeded yet, and the multiplier leaves 造反 out.
    """

    snapshot: Snapshot | None = None
    ruleset: RulesetField | None = None
    mode: Mode | None = None
    emperor: Seat | None = None
    guard: Seat | None = None
    guard_revealed: Flag | UnsetType = UNSET
    rebellion_succeeded: Flag | UnsetType = UNSET
    rebellion: Annotated[list[Seat], Meta(max_length=5)] | None = None
    finished: Annotated[list[Seat], Meta(max_length=5)] | None = None


class ScoresResult(msgspec.Struct, frozen=True):
    """A deal's score. `final` is false, and the figures null, while the score can still change
    (T-9). `void` is null unless the deal is void (S-10): then it is final with no winner and no
    positions, every seat scores 0, and `void` says why: `{"code": "NO_EMPEROR", "rule": "G-5"}`
    (黄庄; `G-6`, `G-7` in the other rulesets) when nobody took the crown, `{"code":
    "ALL_TRUSTEE", "rule": "T-11"}` when every seat was in 托管 at the end. A void snapshot has
    `"void": true` and `"over": true`."""

    final: bool
    winner: Literal["emperor", "rebels", "draw"] | None
    multiplier: int
    positions: list[int] | None
    scores: list[int] | None
    sides: Sides | None
    void: Reason | None

    @classmethod
    def of(cls, result: ScoreResult) -> ScoresResult:
        return cls(
            result.final,
            result.winner,
            result.multiplier,
            result.positions,
            result.scores,
            result.sides,
            result.void,
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

    @post("/moves/legal", status_code=200, opt=body(SNAPSHOT), responses=_ERRORS)
    async def legal(self, request: Request[Any, Any, Any]) -> LegalResult:
        """Every legal move of the seat to act (empty once the deal is over)."""
        query = await SNAPSHOT.read(request)
        start = perf_counter()
        snapshot = validate_snapshot(query.snapshot)
        moves = legal_moves(snapshot)
        _TIME["legal"].observe(perf_counter() - start)
        return LegalResult(snapshot.turn, moves)

    @post("/moves/auto", status_code=200, opt=body(SNAPSHOT), responses=_ERRORS)
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

    @post("/moves/replay", status_code=200, opt=body(REPLAY), responses=_ERRORS)
    async def replay(self, request: Request[Any, Any, Any]) -> ReplayOut:
        """Audit a whole deal: apply ``moves`` in order, stop at the first illegal one."""
        query = await REPLAY.read(request)
        start = perf_counter()
        snapshot = validate_snapshot(query.snapshot)
        result = replay(snapshot, query.moves)
        last = result.snapshot
        scores = None
        if last.over:
            scores = ScoresResult.of(score(last))
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

    @post("/scores", status_code=200, opt=body(SCORES), responses=_ERRORS)
    async def scores(self, request: Request[Any, Any, Any]) -> ScoresResult:
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
        return ScoresResult.of(result)


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
