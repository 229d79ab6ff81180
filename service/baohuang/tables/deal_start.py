"""A table's deal dealt: the tribute the previous deal calls for, then the opening (G-4, P).

Both ways a table deals come here — from a seed (:func:`.flow.next_deal`) and from a committed
seed with the seats' entropy (:mod:`.committing`) — so that both pay tribute and log the
same ``deal_started`` and ``dealt`` events.
"""

from __future__ import annotations

from typing import Literal

from msgspec.structs import replace

from ..engine import (
    DealStartedEvent,
    Dealt,
    DealtEvent,
    Event,
    opening_snapshot,
    pay_tribute,
    ruleset_of,
)
from .record import TableRecord

Change = tuple[TableRecord, list[Event]]


def start(
    record: TableRecord,
    dealt: Dealt,
    *,
    seed: int | None,
    chosen_by: Literal["platform", "service"],
    commitment: str | None = None,
    entropy: list[str | None] | None = None,
) -> Change:
    """The table's deal dealt as ``dealt``, with the tribute ``record.previous`` calls for (P):
    its ``deal_started`` and ``dealt`` events."""
    table = record.table
    hands, transfers = dealt.hands, []
    basis = record.previous
    if basis is not None:
        ruleset = ruleset_of(record.snapshot.ruleset)
        paid = pay_tribute(ruleset, basis.mode, basis.emperor, basis.guard, basis.finished, hands)
        hands, transfers = paid.hands, list(paid.transfers)
    snapshot = opening_snapshot(record.snapshot.ruleset, Dealt(hands=hands, crown=dealt.crown))
    dealer = table.dealer if table.dealer is not None else dealt.crown
    events: list[Event] = [
        DealStartedEvent(
            deal=table.deal,
            dealer=dealer,
            tribute=transfers,
            previous=basis,
            commitment=commitment,
            entropy=entropy,
        ),
        DealtEvent(deal=table.deal, seed=seed, snapshot=snapshot, chosen_by=chosen_by),
    ]
    return replace(record, snapshot=snapshot, seed=seed), events


__all__ = ["Change", "start"]
