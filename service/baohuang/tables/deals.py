"""A finished deal kept as a compact record, in place of its events (docs/deploy.md, "What a
table keeps").

The live log holds the current deal. When the next deal starts, the events of the one that
finished leave the log in the same write, and this record of it is kept instead — what the audit
(:mod:`.audit`) needs to check the deal again, and nothing it can derive:

* the deal's opening as logged: for a committed deal ``deal_committed`` (the commitment) and each
  seat's ``entropy``; ``deal_started`` (the dealer and the tribute paid) and ``dealt`` (the first
  snapshot and the seed it was dealt from);
* every ``move`` with who made it (the seat, 托管, a bot), every ``trustee`` and ``left`` act
  (they decide a void deal, T-11, and S-9's charges), and ``deal_over`` with the result;
* ``digest``: a hash of the events each move made (``played``, ``passed``, ``trick_won`` …),
  move by move, which the record does not keep: the audit replays the moves and compares, so
  that an edited move is caught as it is in the full log, where the events it made would
  disagree with it;
* the table's ``totals``, ``penalties`` and the seats that had ``left`` when the deal's record was
  made (the next deal's start): the audit's running totals must reach them, and an audit whose
  earlier deals are no longer kept starts from them.

Each event is kept without its ``seq``, ``version`` and time; ``seqs`` are the first and last seq
the deal's events had. The times (a deal record times its acts, :mod:`.deal_records`) are kept
apart, as ``started`` and the tenths of a second from each kept event to the next (``times``):
small integers compress to about a third of what the events' own times would add (~0.7 KB of a
deal played move by move, against ~2 KB). The bytes are the record's JSON, zlib-compressed: a deal of ~1,000
events (~140 KB in the log) is ~2 KB. A table keeps the newest ``BAOHUANG_DEALS_KEPT`` records
(and as many results in ``table.results``); they hold every hand and the seed, so only the
platform reads them (the audit).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Sequence
from typing import Final

import msgspec

from ..engine import (
    ClockEvent,
    DealCommittedEvent,
    DealOverEvent,
    DealStartedEvent,
    DealtEvent,
    EntropyEvent,
    Event,
    LeftEvent,
    MoveEvent,
    TokenRotatedEvent,
    TrusteeEvent,
)
from .record import TableState

__all__ = [
    "DEFAULT_DEALS_KEPT",
    "KeptDeal",
    "compact",
    "decode_deal",
    "digest_of",
    "encode_deal",
    "is_made",
    "made_by_move",
    "opens_deal",
    "plain",
]

DEFAULT_DEALS_KEPT: Final = 32
"""``BAOHUANG_DEALS_KEPT`` default: finished deals a table keeps a record (and a result) of."""

KEPT: Final = (
    DealCommittedEvent,
    EntropyEvent,
    DealStartedEvent,
    DealtEvent,
    MoveEvent,
    TrusteeEvent,
    LeftEvent,
    DealOverEvent,
)
"""The events a record keeps: what the audit cannot derive from the others."""
TABLE_ONLY: Final = (ClockEvent, TokenRotatedEvent)
"""The table's events, not the deal's: neither kept nor made by a move (the audit skips them)."""
COMPRESSION: Final = 6


class KeptDeal(msgspec.Struct, frozen=True, kw_only=True):
    """One finished deal, as the table keeps it once the next deal started (module docstring)."""

    deal: int
    seqs: tuple[int, int]
    """The seqs of the deal's first and last events in the log."""
    events: list[Event]
    digest: str
    """:func:`digest_of` the events the deal's moves made, move by move."""
    totals: list[int]
    penalties: list[int]
    left: list[int]
    """The seats that had left the table (S-9), in order."""
    started: float | None = None
    """When the deal's first kept event was logged (seconds since the Unix epoch)."""
    times: list[int] = []
    """Tenths of a second from one kept event to the next, the first from ``started`` (empty in a
    record kept before times were)."""

    def timed(self) -> list[Event]:
        """The kept events with their times (to a tenth of a second), as far as it kept them."""
        if self.started is None or len(self.times) != len(self.events):
            return list(self.events)
        at, timed = self.started, []
        for event, tenths in zip(self.events, self.times, strict=True):
            at += tenths / 10
            timed.append(msgspec.structs.replace(event, at=round(at, 1)))
        return timed


def plain(event: Event) -> Event:
    """The event without what the log adds to it (``seq``, ``version``, ``at``, ``id``)."""
    return msgspec.structs.replace(event, seq=None, version=None, at=None, id=None)


def opens_deal(events: Iterable[Event]) -> bool:
    """Whether a write with ``events`` starts the table's next deal: its first event is a
    committed deal's ``deal_committed``, or a ``deal_started`` that no commitment came before
    (a committed deal's, logged when its cards are dealt, names its commitment)."""
    return any(
        isinstance(event, DealCommittedEvent)
        or (isinstance(event, DealStartedEvent) and event.commitment is None)
        for event in events
    )


def is_made(event: Event) -> bool:
    """Whether ``event`` is one a move makes and a record leaves out (``played``, …)."""
    return not isinstance(event, KEPT + TABLE_ONLY)


_encode = msgspec.json.Encoder().encode


def digest_of(made: Iterable[Sequence[Event]]) -> str:
    """The hash of the events each move made (one list per move, in order), each event without
    what the log adds to it: 128 bits of SHA-256."""
    digest = hashlib.sha256()
    for events in made:
        digest.update(_encode([plain(event) for event in events]))
        digest.update(b"\n")
    return digest.hexdigest()[:32]


def made_by_move(events: Iterable[Event]) -> list[list[Event]]:
    """The events the log's moves made, one list per move (what follows a ``move`` in the log
    up to the next one, the deal's and the table's own events left out)."""
    made: list[list[Event]] = []
    for event in events:
        if isinstance(event, MoveEvent):
            made.append([])
        elif is_made(event):
            if not made:
                made.append([])  # made by no move: never in a log the audit passes
            made[-1].append(event)
    return made


def compact(deal: int, events: Sequence[Event], table: TableState) -> KeptDeal:
    """The record of deal ``deal`` from the log's events (oldest first, with their seqs), from
    anywhere before the deal's first event to the table's last, and ``table`` as the next deal
    starts (its totals, penalties and seats are the finished deal's). Events before the deal's
    own (a table's log from before records were kept) are left out."""
    start = _start(deal, events)
    own = events[start:]
    keeping = [event for event in own if isinstance(event, KEPT)]
    started, times = _times(keeping)
    return KeptDeal(
        deal=deal,
        seqs=(own[0].seq or 0, own[-1].seq or 0) if own else (0, 0),
        events=[plain(event) for event in keeping],
        digest=digest_of(made_by_move(own)),
        totals=list(table.totals),
        penalties=list(table.penalties),
        left=[seat for seat, state in enumerate(table.seats) if state.left],
        started=started,
        times=times,
    )


def _times(events: Sequence[Event]) -> tuple[float | None, list[int]]:
    """When the first of ``events`` was logged, and the tenths of a second from each to the next
    (none where an event has no time: a log from before times were logged)."""
    if not events or any(event.at is None for event in events):
        return None, []
    started = round(events[0].at or 0.0, 1)
    times, at = [], started
    for event in events:
        tenths = max(0, round(((event.at or 0.0) - at) * 10))
        times.append(tenths)
        at += tenths / 10
    return started, times


OPENINGS: Final = (DealCommittedEvent, DealStartedEvent, DealtEvent)
"""The events that open a deal, the first of them first: a committed deal's ``deal_committed``
(then its ``entropy``), ``deal_started`` (none for deal 1 unless committed), ``dealt``."""


def _start(deal: int, events: Sequence[Event]) -> int:
    """The index of the deal's first event (the first of :data:`OPENINGS` for it)."""
    for index, event in enumerate(events):
        if isinstance(event, OPENINGS) and event.deal == deal:
            return index
    return 0


def encode_deal(record: KeptDeal) -> bytes:
    return zlib.compress(_encode(record), COMPRESSION)


_decode = msgspec.json.Decoder(KeptDeal).decode


def decode_deal(data: bytes) -> KeptDeal:
    """A kept record (``ValueError``: not one)."""
    try:
        return _decode(zlib.decompress(data))
    except (zlib.error, msgspec.DecodeError) as exc:
        raise ValueError(f"not a deal record: {exc}") from None
