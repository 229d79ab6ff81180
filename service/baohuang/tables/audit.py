"""Auditing a table from its event log alone: every deal replayed, every result and the totals
checked (a dispute is settled from the record, not from anyone's word).

The log holds, for the platform, each deal's first snapshot and the seed it was dealt from
(``dealt``) and every move with who made it (``move``). The audit deals each seeded deal again
(G-4, and tribute under P), replays the moves through the engine, and requires that the engine's
events are exactly the ones logged, that each finished deal's result is the one the rules give
(S, S-9, S-10, T-11), and that the totals are their sum. Any edit of the log breaks one of these.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..engine import (
    SEATS,
    ClockEvent,
    DealOverEvent,
    DealResult,
    DealStartedEvent,
    DealtEvent,
    Event,
    LeftEvent,
    MoveEvent,
    MoveRefused,
    Snapshot,
    TrusteeEvent,
    apply_move,
    deal,
    pay_tribute,
    ruleset_of,
)
from ..engine import (
    score as score_of,
)
from ..store import TableStore
from .errors import TableNotFound
from .following import logged_event
from .record import TableState

PAGE = 500
"""Events read at a time."""


class AuditFailure(msgspec.Struct, frozen=True):
    """The first thing the log gets wrong: the event's ``seq`` and what is wrong with it."""

    seq: int | None
    message: str


class AuditReport(msgspec.Struct, frozen=True):
    """``valid`` when every deal, result and total in the log is what the rules give."""

    valid: bool
    deals: int
    moves: int
    totals: list[int]
    penalties: list[int]
    failure: AuditFailure | None = None


class _Broken(Exception):
    def __init__(self, seq: int | None, message: str) -> None:
        super().__init__(message)
        self.failure = AuditFailure(seq, message)


def audit(events: Sequence[Event]) -> AuditReport:
    """Check a whole table log (oldest first, as the platform reads it)."""
    state = _Audit()
    try:
        state.run(events)
    except _Broken as broken:
        return state.report(broken.failure)
    return state.report(None)


class _Audit:
    def __init__(self) -> None:
        self.snapshot: Snapshot | None = None
        self.previous: Snapshot | None = None
        self.deals = 0
        self.moves = 0
        self.totals = [0] * SEATS
        self.penalties = [0] * SEATS
        self.charges = [0] * SEATS
        self.trustee = [False] * SEATS
        self.left = [False] * SEATS
        self.expected: list[Event] = []  # engine events still to be seen in the log
        self.dealer: int | None = None

    def report(self, failure: AuditFailure | None) -> AuditReport:
        return AuditReport(
            valid=failure is None,
            deals=self.deals,
            moves=self.moves,
            totals=self.totals,
            penalties=self.penalties,
            failure=failure,
        )

    def run(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, DealStartedEvent):
                self.dealer = event.dealer
            elif isinstance(event, DealtEvent):
                self._dealt(event)
            elif isinstance(event, MoveEvent):
                self._move(event)
            elif isinstance(event, TrusteeEvent):
                self.trustee[event.seat] = event.on
            elif isinstance(event, LeftEvent):
                self.left[event.seat] = True
                self.charges[event.seat] += event.penalty
                self.penalties[event.seat] += event.penalty
            elif isinstance(event, ClockEvent):
                continue
            else:
                self._engine_event(event)
        if self.expected:
            raise _Broken(None, f"the log ends before {_name(self.expected[0])}")

    def _dealt(self, event: DealtEvent) -> None:
        if self.expected:
            raise _Broken(event.seq, f"a new deal before {_name(self.expected[0])}")
        if self.snapshot is not None and not self.snapshot.over:
            raise _Broken(event.seq, "a new deal before the last one was over")
        snapshot = event.snapshot
        if event.seed is not None:
            self._check_dealt(event, snapshot)
        self.previous, self.snapshot = self.snapshot, snapshot
        self.deals += 1
        self.charges = [0] * SEATS
        self.trustee = list(self.left)  # a new deal: only seats that left stay in 托管

    def _check_dealt(self, event: DealtEvent, snapshot: Snapshot) -> None:
        ruleset = ruleset_of(snapshot.ruleset)
        dealer = self.dealer if self.dealer is not None else 0
        hands = deal(ruleset, event.seed or 0, dealer).hands
        previous = self.snapshot
        if ruleset.tribute and previous is not None and not previous.void:
            paid = pay_tribute(
                ruleset, previous.mode, previous.emperor, previous.guard, previous.finished, hands
            )
            hands = paid.hands
        if hands != snapshot.hands:
            raise _Broken(event.seq, f"deal {event.deal} is not what seed {event.seed} deals")

    def _move(self, event: MoveEvent) -> None:
        if self.snapshot is None:
            raise _Broken(event.seq, "a move before any deal")
        if self.expected:
            raise _Broken(event.seq, f"a move before {_name(self.expected[0])}")
        try:
            self.snapshot, produced = apply_move(self.snapshot, event.move)
        except MoveRefused as refused:
            raise _Broken(event.seq, f"an illegal move: {refused.reason.code}") from None
        self.moves += 1
        self.expected = list(produced)
        if self.snapshot.over and not any(isinstance(e, DealOverEvent) for e in produced):
            self.expected.append(DealOverEvent(positions=[]))  # a void deal's result

    def _engine_event(self, event: Event) -> None:
        if not self.expected:
            raise _Broken(event.seq, f"{_name(event)} that no move made")
        wanted = self.expected.pop(0)
        if isinstance(event, DealOverEvent) and isinstance(wanted, DealOverEvent):
            self._deal_over(event, wanted)
            return
        plain = msgspec.structs.replace(event, seq=None, version=None, at=None, id=None)
        if plain != wanted:
            raise _Broken(event.seq, f"{_name(event)} is not what the move made ({_name(wanted)})")

    def _deal_over(self, event: DealOverEvent, wanted: DealOverEvent) -> None:
        assert self.snapshot is not None
        snapshot = self.snapshot
        if all(self.trustee) and not snapshot.void:
            snapshot = msgspec.structs.replace(snapshot, void=True)  # T-11
        score = score_of(snapshot)
        result = DealResult(deal=self.deals, score=score, penalties=list(self.charges))
        if event.positions != (score.positions or []) or event.result != result:
            raise _Broken(event.seq, f"deal {self.deals}'s result is not what the rules give")
        self.snapshot = snapshot
        for seat, gained in enumerate(score.scores or [0] * SEATS):
            self.totals[seat] += gained


def _name(event: Event) -> str:
    return f"'{type(event).__struct_config__.tag}' event"


__all__ = ["AuditFailure", "AuditReport", "audit", "audit_table"]


async def audit_table(store: TableStore, table_id: str, table: TableState) -> AuditReport:
    """Replay the whole log of ``table_id`` and check it against ``table``, the table as it
    stands (its totals and penalties must be the log's)."""
    events: list[Event] = []
    after = 0
    while True:
        page = await store.read_events(table_id, after, PAGE)
        if page is None:
            raise TableNotFound(table_id)
        events += [logged_event(logged) for logged in page.events]
        if not page.events or page.events[-1].seq >= page.last_seq:
            break
        after = page.events[-1].seq
    report = audit(events)
    if report.valid and (report.totals, report.penalties) != (table.totals, table.penalties):
        failure = AuditFailure(None, "the table's totals are not the sum of its deals")
        report = msgspec.structs.replace(report, valid=False, failure=failure)
    return report
