"""A finished deal's result, added to the table's totals (S, S-9, S-10, T-11).

T-11: a deal whose every seat was in 托管 at its end is void (不予计分); its ``deal_over``
carries the result with no positions, in the view as in the result.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..engine import DealOverEvent, DealResult, Event, Snapshot
from ..engine import score as score_of
from .record import TableState


def record_result(
    snapshot: Snapshot, table: TableState, events: list[Event]
) -> tuple[Snapshot, TableState, list[Event]]:
    if all(seat.trustee for seat in table.seats) and not snapshot.void:
        # T-11: 不予计分; S-10: a void deal has no positions, in the view as in the result
        snapshot = replace(snapshot, void=True, positions=None)
    score = score_of(snapshot)
    result = DealResult(deal=table.deal, score=score, penalties=list(table.charges))
    scores = score.scores or [0] * len(table.totals)
    table = replace(
        table,
        totals=[total + gained for total, gained in zip(table.totals, scores, strict=True)],
        results=[*table.results, result],
    )
    over = [event for event in events if isinstance(event, DealOverEvent)]
    if over:
        positions = score.positions or []  # a deal made void (T-11) has none
        events = [
            replace(e, positions=positions, result=result) if e is over[-1] else e for e in events
        ]
    else:
        events = [*events, DealOverEvent(positions=score.positions or [], result=result)]
    return snapshot, table, events


__all__ = ["record_result"]
