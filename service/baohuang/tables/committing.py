"""Committed dealing at a table (G-4, docs/dealing.md): the commitment, the seats' entropy,
dealing when every seat has added or the window closed, the seed revealed once the deal is over.

Each function returns the changed record and its events without settling them; the table's
rules around every change (托管, results, the clock) are :func:`.flow.settle`'s, which deals the
waiting deal (:func:`deal`) once :func:`may_deal` says so.
"""

from __future__ import annotations

import secrets
from typing import Final

from msgspec.structs import replace

from ..engine import (
    COMMITTED_ALGORITHM,
    SEATS,
    DealCommittedEvent,
    DealOverEvent,
    EntropyEvent,
    Event,
    MoveRefused,
    Reason,
    commitment_of,
    committed_deal,
    read_entropy,
    ruleset_of,
)
from .deal_start import Change, start
from .record import Dealing, TableRecord, TableState

DEFAULT_ENTROPY_SECONDS: Final = 15
"""How long a committed deal waits for the seats' entropy when the platform does not say."""

ENTROPY_CLOSED = Reason(
    "ENTROPY_CLOSED",
    "G-4",
    "no deal waits for entropy: a seat adds it while a committed deal is being dealt, before "
    "its window closes",
)
ENTROPY_ADDED = Reason(
    "ENTROPY_ADDED", "G-4", "this seat added other entropy to this deal already: a seat adds once"
)
SEAT_LEFT = Reason(
    "SEAT_LEFT", "S-9", "this seat left the table; 托管 plays for it for the rest of the game"
)


def commit(
    record: TableRecord, seconds: int, now: float, secret: str | None
) -> tuple[TableRecord, Event]:
    """The table's deal (``table.deal``, from ``table.dealer``), in phase ``deal``, committed to
    a seed: ``deal_committed`` is its first event; :func:`.flow.settle` deals it when it may."""
    secret = secrets.token_hex(32) if secret is None else secret
    table = record.table
    dealer = table.dealer if table.dealer is not None else record.snapshot.turn
    dealing = Dealing(
        method="committed",
        chosen_by="service",
        algorithm=COMMITTED_ALGORITHM,
        commitment=commitment_of(secret),
        entropy=[None] * SEATS,
        closes=now + seconds,
        seconds=seconds,
    )
    event = DealCommittedEvent(
        deal=table.deal,
        dealer=dealer,
        algorithm=COMMITTED_ALGORITHM,
        commitment=dealing.commitment or "",
        closes=now + seconds,
    )
    committed = replace(record, table=replace(table, dealing=dealing), secret=secret, seed=None)
    return committed, event


def add(record: TableRecord, seat: int, entropy: str, now: float) -> Change:
    """``seat`` adds its ``entropy`` (hex) to the committed deal waiting for it; adding the same
    again changes nothing (a retry: no events), other entropy is refused (a seat adds once)."""
    dealing = record.table.dealing
    given = None if dealing.entropy is None else dealing.entropy[seat]
    if given == entropy:
        return record, []  # also once the cards are dealt: it is in them
    if record.snapshot.phase != "deal" or dealing.entropy is None:
        raise MoveRefused(ENTROPY_CLOSED)
    read_entropy(entropy, ".entropy")
    if given is not None:
        raise MoveRefused(ENTROPY_ADDED)
    if record.table.seats[seat].left:
        raise MoveRefused(SEAT_LEFT)
    if dealing.closes is not None and dealing.closes <= now:
        raise MoveRefused(ENTROPY_CLOSED)  # the clock deals it at once
    added = [entropy if s == seat else given for s, given in enumerate(dealing.entropy)]
    table = replace(record.table, dealing=replace(dealing, entropy=added))
    return replace(record, table=table), [EntropyEvent(seat=seat, entropy=entropy)]


def may_deal(record: TableRecord, now: float) -> bool:
    """Whether the committed deal waiting in phase ``deal`` is dealt now: its window closed, or
    every seat that can add entropy has (a seat that left cannot, a bot does not)."""
    table = record.table
    dealing = table.dealing
    if dealing.closes is None or dealing.closes <= now or dealing.entropy is None:
        return True
    awaited = [s for s, state in enumerate(table.seats) if not state.left and state.bot is None]
    return all(dealing.entropy[seat] is not None for seat in awaited)


def deal(record: TableRecord) -> Change:
    """Deal the committed deal with the entropy the seats added (G-4, docs/dealing.md)."""
    table, dealing = record.table, record.table.dealing
    assert record.secret is not None and dealing.entropy is not None
    ruleset = ruleset_of(record.snapshot.ruleset)
    dealer = table.dealer if table.dealer is not None else record.snapshot.turn
    dealt = committed_deal(ruleset, record.secret, dealing.entropy, dealer)
    table = replace(table, dealing=replace(dealing, closes=None), deadline=None)
    return start(
        replace(record, table=table),
        dealt,
        seed=None,
        chosen_by="service",
        commitment=dealing.commitment,
        entropy=list(dealing.entropy),
    )


def reveal(table: TableState, events: list[Event], secret: str) -> tuple[TableState, list[Event]]:
    """A committed deal is over: its ``deal_over`` and ``table.dealing`` reveal the seed."""
    over = [event for event in events if isinstance(event, DealOverEvent)][-1]
    revealed = [replace(e, seed=secret) if e is over else e for e in events]
    return replace(table, dealing=replace(table.dealing, seed=secret)), revealed


__all__ = [
    "DEFAULT_ENTROPY_SECONDS",
    "ENTROPY_ADDED",
    "ENTROPY_CLOSED",
    "SEAT_LEFT",
    "add",
    "commit",
    "deal",
    "may_deal",
    "reveal",
]
