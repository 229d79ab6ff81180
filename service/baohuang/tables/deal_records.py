"""A table's deals read back: the list of the deals it keeps, and one deal's record (docs/records.md),
cut to the caller (:func:`.views.cut_record`).

A table keeps the current deal's events in its log and each finished deal's as a compact record
(:mod:`.deals`), the newest ``BAOHUANG_DEALS_KEPT`` of them; both are read as of one version
(:func:`.history.read_history`) and turned into the portable record (:mod:`baohuang.records`).
Any caller of the table's instance may read them: what each sees is the views' decision.
"""

from __future__ import annotations

import msgspec

from ..engine import DealCommittedEvent, DealOverEvent, DealResult, DealtEvent, Event
from ..records import DealRecord, FullRecord, Standing, build_record
from ..store import TableStore
from .callers import Caller, Unauthorized
from .deals import KeptDeal, decode_deal
from .history import History, read_history
from .record import DealingMethod
from .views import cut_record

__all__ = ["DealNotKept", "DealSummary", "KeptDeals", "deal_record", "kept_deals"]


class DealNotKept(LookupError):
    """The table keeps no record of deal ``deal`` (404 ``DEAL_NOT_KEPT``)."""

    def __init__(self, table_id: str, deal: int) -> None:
        super().__init__(f"table '{table_id}' keeps no record of deal {deal}")
        self.deal = deal


class DealSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One deal the table keeps: its number, how it was dealt (``method``: ``committed``,
    ``seed`` or ``snapshot``), when it started and ended (seconds since the Unix epoch;
    ``ended`` null while it goes on), and its result once it is over."""

    deal: int
    method: DealingMethod
    started: float | None
    ended: float | None = None
    result: DealResult | None = None


class KeptDeals(msgspec.Struct, frozen=True, kw_only=True):
    """The deals whose records the table keeps, oldest first: the finished ones
    (``BAOHUANG_DEALS_KEPT`` at most) and the current one. The same for every caller."""

    instance: str
    deals: list[DealSummary]


async def kept_deals(store: TableStore, table_id: str, caller: Caller) -> KeptDeals:
    """The deals ``table_id`` keeps, for any caller of its instance."""
    history = await _read(store, table_id, caller)
    summaries = [_summary(kept.deal, kept.timed()) for kept in _finished(history)]
    summaries.append(_summary(history.record.table.deal, history.events))
    return KeptDeals(instance=history.instance, deals=summaries)


async def deal_record(store: TableStore, table_id: str, caller: Caller, deal: int) -> DealRecord:
    """The record of deal ``deal`` at ``table_id``, as ``caller`` may see it."""
    history = await _read(store, table_id, caller)
    return cut_record(_full_record(table_id, history, deal), caller)


def _full_record(table_id: str, history: History, deal: int) -> FullRecord:
    record, table = history.record, history.record.table
    standing = Standing(
        table=table_id,
        instance=history.instance,
        deal=deal,
        ruleset=record.snapshot.ruleset,
        totals=table.totals,
        penalties=table.penalties,
        left=[seat for seat, state in enumerate(table.seats) if state.left],
        trustee_level=table.trustee_level,
    )
    if deal == table.deal:
        return build_record(history.events, standing)
    for kept in _finished(history):
        if kept.deal == deal:
            finished = msgspec.structs.replace(
                standing, totals=kept.totals, penalties=kept.penalties, left=kept.left
            )
            return build_record(kept.timed(), finished)
    raise DealNotKept(table_id, deal)


def _finished(history: History) -> list[KeptDeal]:
    return [decode_deal(data) for data in history.deals]


async def _read(store: TableStore, table_id: str, caller: Caller) -> History:
    history = await read_history(store, table_id)
    if caller.instance is not None and caller.instance != history.instance:
        raise Unauthorized("this token belongs to an earlier instance of the table")
    caller.require_current(history.record.token_generations)
    return history


def _summary(deal: int, events: list[Event]) -> DealSummary:
    started = next((event.at for event in events), None)
    over = next((event for event in events if isinstance(event, DealOverEvent)), None)
    method: DealingMethod = "snapshot"
    if any(isinstance(event, DealCommittedEvent) for event in events):
        method = "committed"
    elif any(isinstance(event, DealtEvent) and event.seed is not None for event in events):
        method = "seed"
    return DealSummary(
        deal=deal,
        method=method,
        started=started,
        ended=None if over is None else over.at,
        result=None if over is None else over.result,
    )
