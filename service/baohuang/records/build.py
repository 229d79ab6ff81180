"""A deal's record made from the events a table logged for it (:mod:`.document`).

The table keeps each deal's events — the current deal's in its log, a finished deal's in the
compact record kept when the next deal started — and its running figures. This module turns
those into the full record; what a caller may see of it is cut by the table's views.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..engine import (
    SEATS,
    DealCommittedEvent,
    DealOverEvent,
    DealStartedEvent,
    DealtEvent,
    EntropyEvent,
    Event,
    LeftEvent,
    MoveEvent,
    RulesetField,
    Snapshot,
    TrusteeEvent,
    undealt_snapshot,
)
from .document import (
    Act,
    CommittedDealing,
    Dealing,
    FullRecord,
    GivenDealing,
    LeftAct,
    MoveAct,
    SeededDealing,
    Tally,
    Tribute,
    TrusteeAct,
)

__all__ = ["Standing", "build_record"]


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """The table as the deal's last event left it: its ``totals`` and ``penalties`` (S-9) so
    far, the seats that have ``left``, who plays 托管 (``trustee_level``), and its ruleset."""

    table: str
    instance: str
    deal: int
    ruleset: RulesetField
    totals: list[int]
    penalties: list[int]
    left: list[int]
    trustee_level: str | None = None


class _Opening(msgspec.Struct):
    """What the deal's opening events say."""

    committed: DealCommittedEvent | None = None
    entropy: list[str | None] = msgspec.field(default_factory=lambda: [None] * SEATS)
    started: DealStartedEvent | None = None
    dealt: DealtEvent | None = None


def build_record(events: Sequence[Event], standing: Standing) -> FullRecord:
    """The full record of the deal whose events (from its first, in order) are ``events``."""
    opening = _Opening()
    acts: list[Act] = []
    over: DealOverEvent | None = None
    start = next((event.at for event in events if event.at is not None), 0.0)
    for event in events:
        at = round(max(0.0, (event.at or start) - start), 3)
        if isinstance(event, DealCommittedEvent):
            opening.committed = event
        elif isinstance(event, EntropyEvent):
            opening.entropy[event.seat] = event.entropy
        elif isinstance(event, DealStartedEvent):
            opening.started = event
        elif isinstance(event, DealtEvent):
            opening.dealt = event
        elif isinstance(event, MoveEvent):
            acts.append(MoveAct(at=at, move=event.move, by=event.by))
        elif isinstance(event, TrusteeEvent):
            acts.append(
                TrusteeAct(
                    at=at, seat=event.seat, on=event.on, count=event.count, cause=event.cause
                )
            )
        elif isinstance(event, LeftEvent):
            acts.append(LeftAct(at=at, seat=event.seat, penalty=event.penalty))
        elif isinstance(event, DealOverEvent):
            over = event
    charged = [0] * SEATS
    for act in acts:
        if isinstance(act, LeftAct):
            charged[act.seat] += act.penalty
    leaving = {act.seat for act in acts if isinstance(act, LeftAct)}
    started = opening.started
    return FullRecord(
        table=standing.table,
        instance=standing.instance,
        deal=standing.deal,
        ruleset=standing.ruleset,
        dealer=_dealer(opening),
        dealing=_dealing(opening, over),
        tribute=(
            Tribute(previous=started.previous, transfers=list(started.tribute))
            if started is not None and started.previous is not None
            else None
        ),
        left=[seat for seat in standing.left if seat not in leaving],
        trustee_level=standing.trustee_level,
        started=round(start or 0.0, 3),
        ended=None if over is None or over.at is None else round(over.at, 3),
        opening=_first_snapshot(opening, standing),
        acts=acts,
        result=None if over is None else over.result,
        totals=_tally(standing.totals, _scores(over)),
        penalties=_tally(standing.penalties, charged, over is not None),
    )


def _dealer(opening: _Opening) -> int | None:
    if opening.started is not None:
        return opening.started.dealer
    if opening.committed is not None:
        return opening.committed.dealer
    return None  # a snapshot the platform gave


def _dealing(opening: _Opening, over: DealOverEvent | None) -> Dealing:
    committed, started, dealt = opening.committed, opening.started, opening.dealt
    if committed is not None:
        entropy = opening.entropy
        if started is not None and started.entropy is not None:
            entropy = list(started.entropy)  # what dealt it
        return CommittedDealing(
            algorithm=committed.algorithm,
            commitment=committed.commitment,
            entropy=entropy,
            seed=None if over is None else over.seed,
        )
    if dealt is not None and dealt.seed is not None:
        return SeededDealing(chosen_by=dealt.chosen_by, seed=dealt.seed)
    return GivenDealing()


def _first_snapshot(opening: _Opening, standing: Standing) -> Snapshot:
    if opening.dealt is not None:
        return opening.dealt.snapshot
    dealer = opening.committed.dealer if opening.committed is not None else 0
    return undealt_snapshot(standing.ruleset, dealer)  # a committed deal not dealt yet


def _scores(over: DealOverEvent | None) -> list[int] | None:
    if over is None or over.result is None:
        return None
    return over.result.score.scores or [0] * SEATS


def _tally(now: list[int], gained: list[int] | None, over: bool | None = None) -> Tally:
    """The figures before the deal and after it from the figures ``now`` and what the deal
    ``gained``: the deal is over where ``gained`` is known (totals), or ``over`` says so."""
    if gained is None:
        return Tally(before=list(now))
    before = [total - part for total, part in zip(now, gained, strict=True)]
    done = over if over is not None else True
    return Tally(before=before, after=list(now) if done else None)
