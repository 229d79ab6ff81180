"""The store's side of bounded history (``DealEnd``), run against every implementation: a write
that starts the next deal keeps the finished deal's record and trims the log to that write, in
the same atomic write; seqs go on growing; a reader is told where the log now starts (the
anchor at the last seq trimmed); records are bounded; a table with a webhook keeps what the
webhook has not delivered yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from baohuang.store import CasConflict, CasOk, DealEnd, LoggedEvent, TableStore

if TYPE_CHECKING:
    from conftest import Harness

pytestmark = pytest.mark.anyio


async def _deal(store: TableStore, table_id: str, version: int, count: int) -> tuple[int, str]:
    """``count`` events in one write: the new version and its token."""
    written = await store.compare_and_set(
        table_id, version, b"s", events=[b"e%d" % n for n in range(count)]
    )
    assert isinstance(written, CasOk)
    return written.version, written.token


async def test_a_deal_end_keeps_a_record_and_trims_the_log_to_the_new_deal(
    harness: Harness,
) -> None:
    store = harness.store
    await store.put("t", b"0", [b"dealt"])  # seq 1
    version, first = await _deal(store, "t", 1, 3)  # seqs 2-4: the rest of deal 1
    ended = await store.compare_and_set(
        "t", version, b"d2", events=[b"started", b"dealt2"], deal_end=DealEnd(b"deal 1", 8)
    )
    assert isinstance(ended, CasOk) and ended.last_seq == 6  # seqs go on: 5 and 6
    page = await store.read_events("t", 0, 100, with_deals=True)
    assert page is not None
    assert page.events == [
        LoggedEvent(5, ended.version, b"started", ended.token),
        LoggedEvent(6, ended.version, b"dealt2", ended.token),
    ]
    assert (page.trimmed, page.recorded, page.deals, page.last_seq) == (4, 4, [b"deal 1"], 6)
    # A reader exactly at the last event trimmed has lost nothing: its token is still known.
    at = await store.read_events("t", 4, 100)
    assert at is not None and at.anchor == first and [e.seq for e in at.events] == [5, 6]
    # One before it has lost events: the log no longer holds its position (no anchor).
    behind = await store.read_events("t", 2, 100)
    assert behind is not None and behind.anchor is None and behind.trimmed == 4
    assert [e.seq for e in behind.events] == [5, 6]  # what the log holds, from its start
    # Records are read only when asked for.
    unasked = await store.read_events("t", 0, 1)
    assert page.deals is not None and unasked is not None and unasked.deals is None
    stored = await store.get("t")
    assert stored is not None and stored.last_seq == 6 and stored.last_token == ended.token


async def test_a_table_keeps_its_newest_records_and_the_log_of_its_current_deal(
    harness: Harness,
) -> None:
    store = harness.store
    await store.put("t", b"0", [b"dealt"])
    version = 1
    for deal in range(1, 6):
        version, _ = await _deal(store, "t", version, 2)
        ended = await store.compare_and_set(
            "t", version, b"s", events=[b"next"], deal_end=DealEnd(b"deal %d" % deal, 3)
        )
        assert isinstance(ended, CasOk)
        version = ended.version
    page = await store.read_events("t", 0, 100, with_deals=True)
    assert page is not None and page.deals == [b"deal 3", b"deal 4", b"deal 5"]
    assert [e.data for e in page.events] == [b"next"] and page.events[0].seq == 16
    assert page.trimmed == page.recorded == 15


async def test_a_refused_deal_end_keeps_and_trims_nothing(harness: Harness) -> None:
    store = harness.store
    await store.put("t", b"0", [b"dealt"])
    refused = await store.compare_and_set(
        "t", 7, b"s", events=[b"next"], deal_end=DealEnd(b"deal 1", 8)
    )
    assert refused == CasConflict(1)
    page = await store.read_events("t", 0, 100, with_deals=True)
    assert page is not None and page.deals == [] and page.trimmed == page.recorded == 0
    assert [e.data for e in page.events] == [b"dealt"]


async def test_the_log_keeps_what_the_webhook_has_not_delivered(harness: Harness) -> None:
    store = harness.store
    put = await store.put("t", b"0", [b"dealt"])
    version, _ = await _deal(store, "t", 1, 4)  # seqs 2-5
    await store.advance_hook("t", put.instance, 3)  # delivered up to seq 3
    ended = await store.compare_and_set(
        "t", version, b"s", events=[b"next"], deal_end=DealEnd(b"deal 1", 8, webhook=True)
    )
    assert isinstance(ended, CasOk)
    page = await store.read_events("t", 0, 100)
    assert page is not None and (page.trimmed, page.recorded) == (3, 5)
    assert [e.seq for e in page.events] == [4, 5, 6]  # 4 and 5 wait for the webhook
    await store.advance_hook("t", put.instance, 4)
    page = await store.read_events("t", 0, 100)
    assert page is not None and page.trimmed == 4 and [e.seq for e in page.events] == [5, 6]
    await store.advance_hook("t", put.instance, 6)  # past the deal: the current deal stays
    page = await store.read_events("t", 0, 100)
    assert page is not None and page.trimmed == 5 and [e.seq for e in page.events] == [6]
    await store.advance_hook("t", "another instance", 6)  # nobody else's cursor trims
    page = await store.read_events("t", 0, 100)
    assert page is not None and page.trimmed == 5


async def test_a_new_instance_starts_without_records_or_trims(harness: Harness) -> None:
    store = harness.store
    await store.put("t", b"0", [b"dealt"])
    await store.compare_and_set("t", 1, b"s", events=[b"next"], deal_end=DealEnd(b"deal 1", 8))
    await store.put("t", b"0", [b"dealt again"])
    page = await store.read_events("t", 0, 100, with_deals=True)
    assert page is not None and page.deals == [] and page.trimmed == page.recorded == 0
    assert [(e.seq, e.data) for e in page.events] == [(1, b"dealt again")]
    assert await store.delete("t")
    assert await store.read_events("t", 0, 100) is None


@pytest.mark.parametrize("deal_end", [DealEnd(b"", 8), DealEnd(b"deal", 0)])
async def test_a_deal_end_needs_a_record_and_room_for_one(
    harness: Harness, deal_end: DealEnd
) -> None:
    store = harness.store
    await store.put("t", b"0", [b"dealt"])
    with pytest.raises(ValueError):
        await store.compare_and_set("t", 1, b"s", events=[b"next"], deal_end=deal_end)
