"""Auditing a table from its record alone: every deal replayed, every result and the totals
checked (a dispute is settled from the record, not from anyone's word).

The log holds, for the platform, each deal's first snapshot and the seed it was dealt from
(``dealt``) and every move with who made it (``move``). The audit deals each seeded deal again
(G-4, and tribute under P) — a committed deal once ``deal_over`` reveals its seed, which must be
the one committed to, mixed with the entropy the seats added (docs/dealing.md) — replays the
moves through the engine, and requires that the engine's events are exactly the ones logged,
that each finished deal's result is the one the rules give (S, S-9, S-10, T-11), and that the
totals are their sum. Any edit of the log breaks one of these.

The log holds the current deal; each finished deal the table still keeps is a compact record
(:mod:`.deals`) with the same opening, moves, 托管 and leaving acts and result, but not the
events the moves made: those are replayed and compared with the record's digest of them, so
the record is checked as strictly as the log was. Records follow each other without a gap (deal
numbers and seqs) and the log follows the last; each record's totals are where the replay got to.
When the table no longer keeps its earliest deals (``BAOHUANG_DEALS_KEPT``) the audit starts at
the earliest it keeps (``first_deal``), from the totals and seats that record says the deals
before it left: what it checks starts there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec

from ..engine import (
    CODES,
    SEATS,
    ClockEvent,
    DealCommittedEvent,
    DealOverEvent,
    DealResult,
    DealStartedEvent,
    DealtEvent,
    EntropyEvent,
    Event,
    InvalidInput,
    LeftEvent,
    MoveEvent,
    MoveRefused,
    Snapshot,
    TokenRotatedEvent,
    Transfer,
    TrusteeEvent,
    apply_move,
    commitment_of,
    committed_deal,
    deal,
    pay_tribute,
    ruleset_of,
)
from ..engine import (
    score as score_of,
)
from ..store import TableStore
from .deals import KeptDeal, decode_deal, digest_of, is_made
from .history import read_history
from .record import TableState


class AuditFailure(msgspec.Struct, frozen=True):
    """The first thing the record gets wrong: the event's ``seq`` (``None`` in a finished deal's
    compact record, whose events have none), what is wrong with it, and the deal it is in."""

    seq: int | None
    message: str
    deal: int | None = None


class AuditReport(msgspec.Struct, frozen=True):
    """``valid`` when every deal, result and total in the record is what the rules give;
    ``deals`` and ``moves``: how many were replayed, from deal ``first_deal`` on."""

    valid: bool
    deals: int
    moves: int
    totals: list[int]
    penalties: list[int]
    failure: AuditFailure | None = None
    first_deal: int = 1
    """The first deal replayed: the table no longer keeps the deals before it
    (``BAOHUANG_DEALS_KEPT``), whose totals and penalties are taken from its record."""


class _Broken(Exception):
    def __init__(self, seq: int | None, message: str) -> None:
        super().__init__(message)
        self.seq = seq
        self.message = message


def audit(
    events: Sequence[Event], records: Sequence[KeptDeal] = (), table: TableState | None = None
) -> AuditReport:
    """Check a table's history: the finished deals' ``records`` it keeps (oldest first), then
    its log's ``events`` (oldest first, as the platform reads them, from the first after the
    records); with ``table``, the table as it stands must be where they lead (its totals,
    penalties and the seats that left)."""
    state = _Audit()
    try:
        for index, record in enumerate(records):
            state.record(record, first=index == 0)
        state.log(events, after=records[-1] if records else None)
        if table is not None:
            state.stands(table)
    except _Broken as broken:
        return state.report(AuditFailure(broken.seq, broken.message, state.current))
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
        self.tribute: list[Transfer] | None = None  # the tribute the deal's start says was paid
        self.committed: DealCommittedEvent | None = None  # the commitment of a committed deal
        self.entropy: list[str | None] = [None] * SEATS  # what its seats added
        self.opening: Snapshot | None = None  # the deal as dealt
        self.first_deal = 1
        self.current: int | None = None  # the deal being replayed, for a failure to name
        self.last_seq = 0  # the last seq of the records replayed
        self.compact = False  # replaying a record: the events moves make are not in it
        self.made: list[list[Event]] = []  # ... but their digest is: what each move made

    def report(self, failure: AuditFailure | None) -> AuditReport:
        return AuditReport(
            valid=failure is None,
            deals=self.deals - self.first_deal + 1,
            moves=self.moves,
            totals=self.totals,
            penalties=self.penalties,
            failure=failure,
            first_deal=self.first_deal,
        )

    def record(self, record: KeptDeal, *, first: bool) -> None:
        """Replay a finished deal's compact record (see the module docstring)."""
        self.current = record.deal
        if first and record.deal > 1:
            self._carry(record)
        elif record.deal != self.deals + 1:
            raise _Broken(None, f"deal {record.deal}'s record where deal {self.deals + 1} was due")
        elif record.seqs[0] != self.last_seq + 1:
            raise _Broken(None, f"deal {record.deal}'s record does not follow on from the last")
        self.compact, self.made = True, []
        self.run(record.events)
        if self.deals != record.deal:
            raise _Broken(None, f"the record of deal {record.deal} holds deal {self.deals}")
        if self.snapshot is None or not self.snapshot.over:
            raise _Broken(None, f"deal {record.deal}'s record ends before the deal is over")
        if digest_of(self.made) != record.digest:
            raise _Broken(None, f"deal {record.deal}'s moves did not make what they made then")
        left = [seat for seat in range(SEATS) if self.left[seat]]
        if (self.totals, self.penalties, left) != (record.totals, record.penalties, record.left):
            raise _Broken(None, f"the table after deal {record.deal} is not what its deals give")
        self.last_seq = record.seqs[1]

    def _carry(self, record: KeptDeal) -> None:
        """Start at ``record``: the deals before it are no longer kept, and left the table the
        totals, penalties and departures its record says, less what the deal itself did."""
        over = next((e for e in record.events if isinstance(e, DealOverEvent)), None)
        if over is None or over.result is None:
            raise _Broken(None, f"deal {record.deal}'s record holds no result")
        scores = over.result.score.scores or [0] * SEATS
        sizes = (record.totals, record.penalties, scores, over.result.penalties)
        if {len(values) for values in sizes} != {SEATS}:
            raise _Broken(None, f"deal {record.deal}'s record holds no totals for five seats")
        self.totals = [total - gained for total, gained in zip(record.totals, scores, strict=True)]
        self.penalties = [
            total - charged
            for total, charged in zip(record.penalties, over.result.penalties, strict=True)
        ]
        leaving = {e.seat for e in record.events if isinstance(e, LeftEvent)}
        self.left = [seat in record.left and seat not in leaving for seat in range(SEATS)]
        self.first_deal = record.deal
        self.deals = record.deal - 1
        self.last_seq = record.seqs[0] - 1

    def stands(self, table: TableState) -> None:
        if (self.totals, self.penalties) != (table.totals, table.penalties):
            raise _Broken(None, "the table's totals are not the sum of its deals")
        if self.left != [state.left for state in table.seats]:
            raise _Broken(None, "the seats that left the table are not those its deals say left")

    def log(self, events: Sequence[Event], after: KeptDeal | None) -> None:
        """Replay the log, which must follow on from the last record (``after``)."""
        self.compact = False
        if events and after is not None and events[0].seq != after.seqs[1] + 1:
            raise _Broken(events[0].seq, f"the log does not follow on from deal {after.deal}")
        self.run(events)

    def run(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, _TABLE_ACTS) and self.expected:
                # nothing comes between a move and what it made: a table logs them in one go
                raise _Broken(event.seq, f"{_name(event)} before {_name(self.expected[0])}")
            if isinstance(event, DealCommittedEvent):
                self._committed(event)
            elif isinstance(event, EntropyEvent):
                self._entropy(event)
            elif isinstance(event, DealStartedEvent):
                self._started(event)
            elif isinstance(event, DealtEvent):
                self._dealt(event)
            elif isinstance(event, MoveEvent):
                self._move(event)
            elif isinstance(event, TrusteeEvent):
                self.trustee[_seat(event)] = event.on
            elif isinstance(event, LeftEvent):
                self.left[_seat(event)] = True
                self.charges[event.seat] += event.penalty
                self.penalties[event.seat] += event.penalty
            elif isinstance(event, ClockEvent | TokenRotatedEvent):
                continue  # the table's, not the deal's: nothing to replay
            else:
                self._engine_event(event)
        if self.expected:
            raise _Broken(None, f"the log ends before {_name(self.expected[0])}")

    def _committed(self, event: DealCommittedEvent) -> None:
        if self.snapshot is not None and not self.snapshot.over:
            raise _Broken(event.seq, "a new deal before the last one was over")
        if event.deal != self.deals + 1:
            raise _Broken(event.seq, f"deal {event.deal} where deal {self.deals + 1} was due")
        self.committed, self.entropy = event, [None] * SEATS
        self.dealer = event.dealer

    def _entropy(self, event: EntropyEvent) -> None:
        if self.committed is None or not 0 <= event.seat < SEATS or self.entropy[event.seat]:
            raise _Broken(event.seq, f"{_name(event)} that no committed deal waits for")
        self.entropy[event.seat] = event.entropy

    def _started(self, event: DealStartedEvent) -> None:
        if (event.commitment is not None) != (self.committed is not None):
            raise _Broken(event.seq, f"deal {event.deal} is not dealt as it was committed")
        if self.committed is not None and (
            event.commitment != self.committed.commitment or event.entropy != self.entropy
        ):
            raise _Broken(event.seq, f"deal {event.deal}'s commitment or entropy changed")
        self.dealer = event.dealer
        self.tribute = list(event.tribute)

    def _dealt(self, event: DealtEvent) -> None:
        if self.expected:
            raise _Broken(event.seq, f"a new deal before {_name(self.expected[0])}")
        if self.snapshot is not None and not self.snapshot.over:
            raise _Broken(event.seq, "a new deal before the last one was over")
        if event.deal != self.deals + 1:
            raise _Broken(event.seq, f"deal {event.deal} where deal {self.deals + 1} was due")
        snapshot = event.snapshot
        if event.seed is not None:
            hands = deal(ruleset_of(snapshot.ruleset), event.seed, self._dealer()).hands
            source = f"seed {event.seed}"
            self._check_dealt(event.seq, event.deal, snapshot, self.snapshot, hands, source)
        self.previous, self.snapshot, self.opening = self.snapshot, snapshot, snapshot
        self.deals += 1
        self.current = self.deals
        if self.committed is None:
            self.tribute = None  # a committed deal's is checked once its seed is revealed
        self.charges = [0] * SEATS
        self.trustee = list(self.left)  # a new deal: only seats that left stay in 托管

    def _dealer(self) -> int:
        return self.dealer if self.dealer is not None else 0

    def _check_dealt(
        self,
        seq: int | None,
        number: int,
        opening: Snapshot,
        previous: Snapshot | None,
        hands: list[list[str]],
        source: str,
    ) -> None:
        """Deal ``number`` was dealt as ``opening``: the ``hands`` its ``source`` deals, with
        the tribute that ``previous`` (the deal before, as it ended) calls for."""
        ruleset = ruleset_of(opening.ruleset)
        if ruleset.tribute and previous is not None:
            transfers: list[Transfer] = []
            if not previous.void:
                paid = pay_tribute(
                    ruleset,
                    previous.mode,
                    previous.emperor,
                    previous.guard,
                    previous.finished,
                    hands,
                )
                hands, transfers = paid.hands, list(paid.transfers)
            if self.tribute is not None and self.tribute != transfers:
                raise _Broken(seq, f"deal {number}'s tribute is not what the rules give")
        elif ruleset.tribute and self.tribute:
            # The deal before is no longer kept: its tribute, as the deal's start says it was
            # paid, must still be what turns the seed's hands into the deal's.
            hands = _paid(hands, self.tribute, seq, number)
        if hands != opening.hands:
            raise _Broken(seq, f"deal {number} is not what {source} deals")

    def _revealed(self, event: DealOverEvent) -> None:
        """A committed deal is over: the seed ``deal_over`` reveals is the one committed to, and
        deals the deal with the seats' entropy (docs/dealing.md)."""
        committed, opening = self.committed, self.opening
        if committed is None or opening is None:
            if event.seed is not None:
                raise _Broken(event.seq, f"deal {self.deals} reveals a seed it did not commit to")
            return
        try:
            if event.seed is None or commitment_of(event.seed) != committed.commitment:
                raise _Broken(event.seq, f"deal {self.deals}'s seed is not the one committed to")
            ruleset = ruleset_of(opening.ruleset)
            hands = committed_deal(ruleset, event.seed, self.entropy, self._dealer()).hands
        except InvalidInput as invalid:
            raise _Broken(event.seq, f"deal {self.deals}'s commitment: {invalid}") from None
        source = "its committed seed"
        self._check_dealt(event.seq, self.deals, opening, self.previous, hands, source)
        self.committed, self.tribute = None, None

    def _move(self, event: MoveEvent) -> None:
        if self.snapshot is None:
            raise _Broken(event.seq, "a move before any deal")
        if self.expected:
            raise _Broken(event.seq, f"a move before {_name(self.expected[0])}")
        try:
            self.snapshot, produced = apply_move(self.snapshot, event.move)
        except MoveRefused as refused:
            raise _Broken(event.seq, f"an illegal move: {refused.reason.code}") from None
        except InvalidInput as invalid:  # a snapshot no deal could have: an edited record
            raise _Broken(event.seq, f"a move on an impossible deal: {invalid}") from None
        self.moves += 1
        self.expected = list(produced)
        if self.snapshot.over and not any(isinstance(e, DealOverEvent) for e in produced):
            self.expected.append(DealOverEvent(positions=[]))  # a void deal's result
        if self.compact:  # a record keeps the result alone; the rest goes into the digest
            self.made.append([e for e in self.expected if is_made(e)])
            self.expected = [e for e in self.expected if isinstance(e, DealOverEvent)]

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
        self._revealed(event)


_TABLE_ACTS: Final = (DealCommittedEvent, EntropyEvent, DealStartedEvent, TrusteeEvent, LeftEvent)
"""Events a table logs apart from what a move makes."""


def _seat(event: TrusteeEvent | LeftEvent) -> int:
    if not 0 <= event.seat < SEATS:
        raise _Broken(event.seq, f"{_name(event)} of seat {event.seat}, which no table has")
    return event.seat


def _name(event: Event) -> str:
    return f"'{type(event).__struct_config__.tag}' event"


_CARD_IDS = {code: card for card, code in CODES.items()}


def _paid(
    hands: list[list[str]], tribute: list[Transfer], seq: int | None, number: int
) -> list[list[str]]:
    """``hands`` after the ``tribute`` cards changed hands, each hand high to low (as P pays)."""
    held = [list(hand) for hand in hands]
    for transfer in tribute:
        giver = held[transfer.from_] if 0 <= transfer.from_ < SEATS else []
        if transfer.card not in giver or not 0 <= transfer.to < SEATS:
            raise _Broken(seq, f"deal {number}'s tribute was not in the hands dealt")
        giver.remove(transfer.card)
        held[transfer.to].append(transfer.card)
    return [sorted(hand, key=lambda code: _CARD_IDS.get(code, -1), reverse=True) for hand in held]


__all__ = ["AuditFailure", "AuditReport", "audit", "audit_table"]


async def audit_table(store: TableStore, table_id: str) -> AuditReport:
    """Replay the finished deals ``table_id`` keeps and its log, and check them against the table
    as it stands (its totals and penalties must be theirs): all read as of one version."""
    history = await read_history(store, table_id)
    try:
        records = [decode_deal(data) for data in history.deals]
    except ValueError as exc:
        return AuditReport(
            False, 0, 0, [0] * SEATS, [0] * SEATS, AuditFailure(None, f"a finished deal: {exc}")
        )
    return audit(history.events, records, history.record.table)
