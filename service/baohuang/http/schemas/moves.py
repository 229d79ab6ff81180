"""Bodies of ``/v1/moves/*`` and ``/v1/scores``: a deal judged from a snapshot (T, B, S)."""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, UnsetType

from ...engine import (
    Event,
    Mode,
    Move,
    Reason,
    ReplayFailure,
    RulesetField,
    ScoreResult,
    Seat,
    Snapshot,
)
from .base import Answer, Body


class ValidateRequest(Body):
    snapshot: Snapshot
    move: Move


class ValidateResult(Answer, omit_defaults=True):
    """``legal: true`` with the next snapshot and the move's events, or ``legal: false`` and why."""

    legal: bool
    snapshot: Snapshot | None = None
    events: list[Event] | None = None
    reason: Reason | None = None


class SnapshotRequest(Body):
    snapshot: Snapshot


class LegalResult(Answer):
    """Every legal move of ``seat`` (the seat to act); plays once per combo shape, cheapest first."""

    seat: int
    moves: list[Move]


class AutoResult(Answer, omit_defaults=True):
    """The 托管 move (T-10); ``move`` is null and ``reason`` says why when nobody can act."""

    move: Move | None
    reason: Reason | None = None


class ReplayRequest(Body):
    snapshot: Snapshot
    moves: Annotated[list[Move], Meta(max_length=2000)]


class ReplayOut(Answer):
    valid: bool
    applied: int
    failed: ReplayFailure | None
    snapshot: Snapshot
    scores: ScoreResult | None


Flag = Annotated[bool, Meta(extra_json_schema={"default": False})]


class ScoresRequest(Body):
    """Either `snapshot` alone, or the roles and the `finished` order (with `ruleset`).

    `finished`: the seats in finishing order. It may stop where the deal ended (T-9): the seats
    still holding cards then take the remaining positions. Or it may go on, up to a complete
    order of five, with the seats still holding cards in any order that leaves the better
    places to the side that finished (an unfinished solo or grab emperor last): the scores are
    those of the order cut at the end, and `positions` the places as given. A seat listed twice
    or out of range, or after the end before a seat of the side that finished, is 422 naming
    that entry (`INVALID_FINISHED`, `INVALID_SEAT`, `DEAL_OVER`).

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
