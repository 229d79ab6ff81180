"""Bounded history (docs/deploy.md "What a table keeps"): a finished deal leaves the log when the
next one starts and is kept as a compact record, which audits as the full log did — the same
verdict, the same totals — and whose edits fail the audit as edits of the log did. Readers behind
the trim are reset, never left with a gap; a replay of a trimmed deal's move still answers.

Run on the in-memory store and on a real Redis (the ``stores`` fixture); the property test on the
in-memory store, which is the Redis scripts' twin (tests/store/test_deal_history.py).
"""

from __future__ import annotations

import asyncio
import random
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang.engine import (
    DealOverEvent,
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
    legal_moves,
    opening_snapshot,
)
from baohuang.engine.rulesets import ruleset_of
from baohuang.store import CasOk, LoggedEvent, MemoryTableStore, RedisTableStore, TableStore
from baohuang.tables import Authority, Events, Opening, Reset, TableService
from baohuang.tables.audit import audit
from baohuang.tables.callers import PLATFORM, Caller
from baohuang.tables.deals import KEPT, KeptDeal, decode_deal, encode_deal
from baohuang.tables.following import logged_event
from baohuang.tables.positions import Position, parse_position
from thorough import examples

pytestmark = pytest.mark.anyio

RULESETS = ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]


class Recorder:
    """A store that also keeps every event ever logged, per table: the full log, as it was
    before any deal's events left it (what the audit read before records existed)."""

    def __init__(self, inner: TableStore) -> None:
        self.inner = inner
        self.logs: dict[str, list[LoggedEvent]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def put(self, table_id: str, snapshot: bytes, events: Sequence[bytes] = ()) -> Any:
        written = await self.inner.put(table_id, snapshot, events)
        self.logs[table_id] = [
            LoggedEvent(seq, written.version, bytes(data), written.token)
            for seq, data in enumerate(events, 1)
        ]
        return written

    async def compare_and_set(
        self, table_id: str, *args: Any, events: Sequence[bytes] = (), **options: Any
    ) -> Any:
        result = await self.inner.compare_and_set(table_id, *args, events=events, **options)
        if isinstance(result, CasOk):
            first = result.last_seq - len(events) + 1
            self.logs[table_id] += [
                LoggedEvent(first + n, result.version, bytes(data), result.token)
                for n, data in enumerate(events)
            ]
        return result

    def full(self, table_id: str) -> list[Event]:
        return [logged_event(entry) for entry in self.logs[table_id]]


def _service(store: TableStore | Recorder, kept: int) -> TableService:
    return TableService(store, Authority((), "records"), deals_kept=kept)


async def _play_deal(service: TableService, table_id: str, rng: random.Random, acts: float) -> None:
    """One deal played to its end by random legal moves, with 托管 asked for and left and seats
    leaving now and then (``acts``: how often)."""
    for _ in range(5000):
        table = await service.read(table_id, PLATFORM)
        assert isinstance(table.view, Snapshot)
        if table.view.over:
            return
        roll = rng.random()
        seat = rng.randrange(5)
        try:
            if roll < acts:
                on = not table.table.seats[seat].trustee
                await service.set_trustee(table_id, PLATFORM, seat, on, table.version)
            elif roll < acts * 1.15:
                await service.leave(table_id, PLATFORM, seat, table.version)
            else:
                move = rng.choice(legal_moves(table.view))
                await service.move(table_id, PLATFORM, move, table.version)
        except MoveRefused:
            continue  # e.g. TRUSTEE_LOCKED: the platform asked for what the rules refuse
    raise AssertionError("the deal never ended")


async def _play(
    service: TableService,
    table_id: str,
    ruleset: str,
    rng: random.Random,
    deals: int,
    acts: float = 0.02,
    last_over: bool = True,
) -> None:
    """A table of ``deals`` deals, the last one played out unless ``last_over`` is false."""
    dealt = deal(ruleset_of(ruleset), rng.randrange(1 << 32), rng.randrange(5))
    await service.create(table_id, opening_snapshot(ruleset, dealt), PLATFORM)
    for number in range(deals):
        if number:
            table = await service.read(table_id, PLATFORM)
            await service.next_deal(table_id, PLATFORM, table.version, rng.randrange(1 << 32))
        if number < deals - 1 or last_over:
            await _play_deal(service, table_id, rng, acts)


async def _history(store: TableStore, table_id: str) -> tuple[list[KeptDeal], list[Event]]:
    page = await store.read_events(table_id, 0, 100_000, with_deals=True)
    assert page is not None and page.deals is not None
    live = [logged_event(entry) for entry in page.events if entry.seq > page.recorded]
    return [decode_deal(data) for data in page.deals], live


async def test_a_finished_deal_leaves_the_log_as_one_record_when_the_next_starts(
    stores: list[TableStore],
) -> None:
    store = Recorder(stores[0])
    service = _service(store, 8)
    await _play(service, "one", "classic", random.Random(1), deals=1)
    page = await stores[0].read_events("one", 0, 100_000, with_deals=True)
    assert page is not None and page.deals == [] and page.trimmed == 0
    finished = page.last_seq
    assert [entry.seq for entry in page.events] == list(range(1, finished + 1))
    table = await service.read("one", PLATFORM)
    started = await service.next_deal("one", PLATFORM, table.version, 7)
    assert [e.seq for e in started.events][:2] == [finished + 1, finished + 2]  # seqs go on
    page = await stores[0].read_events("one", 0, 100_000, with_deals=True)
    assert page is not None and page.deals is not None
    assert (page.trimmed, page.recorded) == (finished, finished)
    assert [entry.seq for entry in page.events] == list(range(finished + 1, page.last_seq + 1))
    [record] = [decode_deal(data) for data in page.deals]
    full = store.full("one")[:finished]
    assert record.deal == 1 and record.seqs == (1, finished)
    assert record.events == [
        msgspec.structs.replace(e, seq=None, version=None, at=None, id=None)
        for e in full
        if isinstance(e, KEPT)
    ]
    # the times apart, to a tenth of a second
    times = [e.at or 0.0 for e in full if isinstance(e, KEPT)]
    timed = [e.at or 0.0 for e in record.timed()]
    assert len(timed) == len(times)
    assert all(abs(a - b) <= 0.05 + 1e-6 for a, b in zip(timed, times, strict=True))
    over = next(e for e in record.events if isinstance(e, DealOverEvent))
    assert over.result == table.table.results[0]
    assert record.totals == table.table.totals
    logged = sum(len(entry.data) for entry in store.logs["one"][:finished])
    assert len(page.deals[0]) * 20 < logged  # the point: a record is a small part of the log
    report = await service.audit("one", PLATFORM)
    assert report.valid and report.deals == 2 and report.first_deal == 1, report


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_records_and_the_log_audit_as_the_full_log_did(
    stores: list[TableStore], ruleset: str
) -> None:
    store = Recorder(stores[0])
    service = _service(store, 8)
    await _play(service, "game", ruleset, random.Random(ruleset), deals=3, acts=0.03)
    records, live = await _history(stores[0], "game")
    assert [record.deal for record in records] == [1, 2]
    full = audit(store.full("game"))
    assert full.valid, full
    assert (
        audit(live, records) == full
    )  # the same deals, moves, totals, penalties: the same verdict
    assert await service.audit("game", PLATFORM) == full


async def test_with_fewer_deals_kept_the_audit_starts_at_the_earliest_kept(
    stores: list[TableStore],
) -> None:
    store = Recorder(stores[0])
    service = _service(store, 2)
    await _play(service, "few", "tribute", random.Random(4), deals=5)
    records, _ = await _history(stores[0], "few")
    assert [record.deal for record in records] == [3, 4]
    report = await service.audit("few", PLATFORM)
    full = audit(store.full("few"))
    assert full.valid and report.valid, report
    assert (report.first_deal, report.deals) == (3, 3)  # deals 3, 4 and the log's 5
    assert (report.totals, report.penalties) == (full.totals, full.penalties)
    table = await service.read("few", PLATFORM)
    # The results too: the kept deals' and the current one's, now that it is over.
    assert [result.deal for result in table.table.results] == [3, 4, 5]
    sums = [0] * 5
    for event in store.full("few"):
        if isinstance(event, DealOverEvent) and event.result is not None:
            sums = [a + b for a, b in zip(sums, event.result.score.scores or [0] * 5, strict=True)]
    assert table.table.totals == sums  # every deal's, the ones no longer kept included


async def _edit(store: TableStore, table_id: str, index: int, data: bytes | None) -> None:
    """Replace (``None``: remove) the ``index``-th kept record, as someone with the keys could."""
    if isinstance(store, MemoryTableStore):
        entry = store._tables[table_id]
        deals = list(entry.deals)
        if data is None:
            del deals[index]
        else:
            deals[index] = data
        entry.deals = deals
        return
    assert isinstance(store, RedisTableStore)
    key = f"{store.key(table_id)}:deals"
    raw: Any = store._redis
    if data is None:
        await raw.lset(key, index, b"gone")
        await raw.lrem(key, 1, b"gone")
    else:
        await raw.lset(key, index, data)


def _other_move(record: KeptDeal) -> KeptDeal:
    """The record with one move replaced by another legal one (from the 20th move on, the
    first that had another)."""
    dealt = next(e for e in record.events if isinstance(e, DealtEvent))
    snapshot = dealt.snapshot
    events = list(record.events)
    moves = [n for n, e in enumerate(events) if isinstance(e, MoveEvent)]
    for count, n in enumerate(moves):
        move = events[n]
        assert isinstance(move, MoveEvent)
        others = [m for m in legal_moves(snapshot) if m != move.move]
        if count >= 20 and others:
            events[n] = msgspec.structs.replace(move, move=others[0])
            return msgspec.structs.replace(record, events=events)
        snapshot, _ = apply_move(snapshot, move.move)
    raise AssertionError("no move had another")


def _seed(record: KeptDeal) -> KeptDeal:
    return _events(record, lambda e: msgspec.structs.replace(e, seed=(e.seed or 0) + 1), DealtEvent)


def _richer(record: KeptDeal) -> KeptDeal:
    def edit(event: Any) -> Any:
        score = msgspec.structs.replace(event.result.score, scores=[9, 0, 0, 0, -9])
        return msgspec.structs.replace(
            event, result=msgspec.structs.replace(event.result, score=score)
        )

    return _events(record, edit, DealOverEvent)


def _events(record: KeptDeal, edit: Callable[[Any], Any], kind: type) -> KeptDeal:
    events = [edit(e) if isinstance(e, kind) else e for e in record.events]
    return msgspec.structs.replace(record, events=events)


def _drop_move(record: KeptDeal) -> KeptDeal:
    moves = [n for n, e in enumerate(record.events) if isinstance(e, MoveEvent)]
    return msgspec.structs.replace(
        record, events=[e for n, e in enumerate(record.events) if n != moves[len(moves) // 2]]
    )


EDITS: dict[str, Callable[[KeptDeal], KeptDeal]] = {
    "another legal move": _other_move,
    "another seed": _seed,
    "a richer result": _richer,
    "a move dropped": _drop_move,
    "other totals": lambda r: msgspec.structs.replace(r, totals=[t + 1 for t in r.totals]),
    "other penalties": lambda r: msgspec.structs.replace(
        r, penalties=[r.penalties[0] - 40, *r.penalties[1:]]
    ),
    "a seat said to have left": lambda r: msgspec.structs.replace(r, left=[*r.left, 4]),
    "another digest": lambda r: msgspec.structs.replace(r, digest="0" * 32),
    "another deal number": lambda r: msgspec.structs.replace(r, deal=r.deal + 1),
    "other seqs": lambda r: msgspec.structs.replace(r, seqs=(r.seqs[0] + 1, r.seqs[1] + 1)),
}


async def test_an_edited_record_fails_the_audit(stores: list[TableStore]) -> None:
    """Each edit of either kept record — the earliest, which the audit starts from when the
    deals before it are gone, or a later one — is caught, as the same edit of the log was. The
    table is played once; each edit is made to the record as kept, audited, and undone (the
    audit passes again once the record's edits are undone: each edit rewrites the whole record
    from the kept one, so no edit can stay behind under the next)."""
    store = stores[0]
    service = _service(store, 2)
    await _play(service, "edited", "classic", random.Random(9), deals=4, acts=0.0)
    assert (await service.audit("edited", PLATFORM)).valid
    records, _ = await _history(store, "edited")
    assert [r.deal for r in records] == [2, 3]
    for which, record in enumerate(records):
        kept = encode_deal(record)
        for edit, make in sorted(EDITS.items()):
            if edit == "a seat said to have left" and 4 in record.left:  # pragma: no cover
                continue  # that seat did leave
            await _edit(store, "edited", which, encode_deal(make(record)))
            report = await service.audit("edited", PLATFORM)
            assert not report.valid and report.failure is not None, (which, edit, report)
        await _edit(store, "edited", which, kept)
        assert (await service.audit("edited", PLATFORM)).valid, which


async def test_a_missing_or_unreadable_record_fails_the_audit(stores: list[TableStore]) -> None:
    store = stores[0]
    service = _service(store, 3)
    await _play(service, "gap", "classic", random.Random(2), deals=4, acts=0.0)
    await _edit(store, "gap", 1, None)  # deal 2's record: 1, then 3
    report = await service.audit("gap", PLATFORM)
    assert not report.valid and report.failure is not None
    assert report.failure.deal == 3 and "deal 2 was due" in report.failure.message, report
    await _edit(store, "gap", 0, zlib.compress(b"{not a record"))
    report = await service.audit("gap", PLATFORM)
    assert (
        not report.valid
        and report.failure is not None
        and "not a deal record" in (report.failure.message)
    )


async def test_readers_behind_the_trim_are_reset_and_readers_at_it_go_on(
    stores: list[TableStore],
) -> None:
    service = _service(stores[0], 4)
    await _play(service, "r", "classic", random.Random(3), deals=1)
    table = await service.read("r", PLATFORM)
    fifth = (await service.events("r", PLATFORM, 4, limit=1)).events[0].id
    assert fifth is not None
    await service.next_deal("r", PLATFORM, table.version, 11)
    new = await service.read("r", PLATFORM)
    # A poller at the deal's last event reads on into the next deal; at any earlier one it is
    # reset, whether its position carries its write's token or is a bare seq; from 0 it reads
    # the log as far back as it goes: the current deal.
    on = await service.events("r", PLATFORM, _at(table.last_event_id))
    assert not on.reset and isinstance(on.events[0], DealStartedEvent)
    assert not (await service.events("r", PLATFORM, table.last_seq)).reset
    for behind in (_at(fifth), 5, table.last_seq - 1):
        page = await service.events("r", PLATFORM, behind)
        assert page.reset and page.events == [] and page.last_event_id == new.last_event_id
    from_start = await service.events("r", PLATFORM, 0)
    assert not from_start.reset and from_start.events[0].seq == table.last_seq + 1
    # A stream resumed behind the trim opens with a reset (the view as it now is).
    for resume in (_at(fifth), Position(5)):
        resumed = await service.follow("r", PLATFORM, after=resume)
        async with asyncio.timeout(5):
            first = await anext(resumed)
        await resumed.aclose()  # type: ignore[attr-defined]
        assert isinstance(first, Reset) and first.table.last_event_id == new.last_event_id


def _at(event_id: str) -> Position:
    position = parse_position(event_id)
    assert position is not None
    return position


async def test_a_stream_across_a_deal_boundary_gets_every_event_and_no_reset(
    stores: list[TableStore],
) -> None:
    service = _service(stores[0], 4)
    await service.start(clock_task=False)
    try:
        await _play(service, "s", "classic", random.Random(5), deals=1, last_over=True)
        table = await service.read("s", PLATFORM)
        seat = await service.read_seat("s", 2, PLATFORM)
        stream = await service.follow("s", Caller("seat", 2, table.instance), after=None)
        assert isinstance(await anext(stream), Opening)
        await service.next_deal("s", PLATFORM, table.version, 21)
        await _play_deal(service, "s", random.Random(6), 0.0)
        items: list[Any] = []
        async with asyncio.timeout(10):
            while not any(isinstance(item, DealOverEvent) for item in items):
                item = await anext(stream)
                items.extend(item.events if isinstance(item, Events) else [item])
        await stream.aclose()  # type: ignore[attr-defined]
    finally:
        await service.close()
    assert not any(isinstance(item, Reset) for item in items)
    assert isinstance(items[0], DealStartedEvent) and items[0].deal == 2
    assert not any(isinstance(item, DealtEvent | MoveEvent) for item in items)  # cut to the seat
    seqs = [item.seq for item in items if item.seq is not None]
    assert seqs == sorted(seqs) and seqs[0] == seat.last_seq + 1


async def test_a_replay_of_a_move_of_a_trimmed_deal_answers_as_the_first_time(
    stores: list[TableStore],
) -> None:
    service = _service(stores[0], 4)
    rng = random.Random(8)
    await _play(service, "k", "classic", rng, deals=1, last_over=False)
    table = await service.read("k", PLATFORM)
    assert isinstance(table.view, Snapshot)
    move = legal_moves(table.view)[0]
    first = await service.move("k", PLATFORM, move, table.version, idempotency_key="key-1")
    await _play_deal(service, "k", rng, 0.0)
    table = await service.read("k", PLATFORM)
    await service.next_deal("k", PLATFORM, table.version, 3)
    again = await service.move("k", PLATFORM, move, first.version - 1, idempotency_key="key-1")
    assert again.replayed and again.version == first.version
    bare = [msgspec.structs.replace(e, id=None) for e in first.events]
    assert again.events == bare  # the same events; their ids went with the deal's log


MUTATIONS = ["drop", "swap", "other move", "flip trustee", "penalty", "seed", "result", "by"]
Edit = Callable[[list[Event]], list[Event]]
ACTED_ON: dict[str, type] = {
    "other move": MoveEvent,
    "by": MoveEvent,
    "flip trustee": TrusteeEvent,
    "penalty": LeftEvent,
    "seed": DealtEvent,
    "result": DealOverEvent,
}


def _mutation(events: list[Event], index: int, how: str, rng: random.Random) -> Edit | None:
    """A change of the kept event at ``index`` of a finished deal (``events``: its kept events,
    in order), that applies alike to the record's events and to the log's (``None``: ``how``
    does not apply to that event)."""
    event = events[index]
    change: Callable[[Event], Event] | None = None
    if how == "drop":
        return lambda kept: [e for n, e in enumerate(kept) if n != index]
    if how == "swap":
        if index + 1 >= len(events):
            return None
        return lambda kept: [
            kept[index + 1] if n == index else kept[index] if n == index + 1 else e
            for n, e in enumerate(kept)
        ]
    if how == "other move" and isinstance(event, MoveEvent):
        snapshot = next(e for e in events if isinstance(e, DealtEvent)).snapshot
        for earlier in events[:index]:
            if isinstance(earlier, MoveEvent):
                snapshot, _ = apply_move(snapshot, earlier.move)
        others = [m for m in legal_moves(snapshot) if m != event.move]
        if not others:
            return None
        other = rng.choice(others)
        change = lambda e: msgspec.structs.replace(e, move=other)  # noqa: E731
    elif how == "flip trustee" and isinstance(event, TrusteeEvent):
        change = lambda e: msgspec.structs.replace(e, on=not event.on)  # noqa: E731
    elif how == "penalty" and isinstance(event, LeftEvent):
        penalty = -40 if event.penalty == 0 else 0
        change = lambda e: msgspec.structs.replace(e, penalty=penalty)  # noqa: E731
    elif how == "seed" and isinstance(event, DealtEvent):
        change = lambda e: msgspec.structs.replace(e, seed=(event.seed or 0) + 1)  # noqa: E731
    elif how == "result" and isinstance(event, DealOverEvent) and event.result is not None:
        score = msgspec.structs.replace(event.result.score, final=not event.result.score.final)
        result = msgspec.structs.replace(event.result, score=score)
        change = lambda e: msgspec.structs.replace(e, result=result)  # noqa: E731
    elif how == "by" and isinstance(event, MoveEvent):
        by = "bot" if event.by != "bot" else "seat"
        change = lambda e: msgspec.structs.replace(e, by=by)  # noqa: E731
    if change is None:
        return None
    made = change
    return lambda kept: [made(e) if n == index else e for n, e in enumerate(kept)]


def _in_log(full: list[Event], record: KeptDeal, edit: Edit) -> list[Event]:
    """The full log with ``edit`` made to the record's deal as it is made to the record: each
    kept event goes with what follows it in the log up to the next (what a move made, the
    table's clock), so that dropping or moving one drops or moves that too, and a changed one
    keeps it."""
    inside = [n for n, e in enumerate(full) if record.seqs[0] <= (e.seq or 0) <= record.seqs[1]]
    first, last = inside[0], inside[-1]
    blocks: list[list[Event]] = []
    for event in full[first : last + 1]:
        if isinstance(event, KEPT) or not blocks:
            blocks.append([event])
        else:
            blocks[-1].append(event)
    heads = [block[0] for block in blocks]
    edited: list[Event] = []
    for n, head in enumerate(edit(heads)):
        moved = next((m for m, original in enumerate(heads) if original is head), n)
        tail = blocks[moved][1:]
        place = blocks[moved][0]
        edited += [msgspec.structs.replace(head, seq=place.seq, version=place.version), *tail]
    return [*full[:first], *edited, *full[last + 1 :]]


@settings(max_examples=examples(200), deadline=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32 - 1),
    deals=st.integers(2, 3),
    kept=st.integers(1, 3),
    how=st.sampled_from(MUTATIONS),
    where=st.floats(0, 1, exclude_max=True),
)
def test_property_the_compact_form_audits_as_the_full_log_edits_included(
    ruleset: str, seed: int, deals: int, kept: int, how: str, where: float
) -> None:
    """For random tables — moves, 托管 asked for and left, seats leaving, several deals, any
    number kept — the audit of records and log gives the full log's verdict; and the same edit of
    a finished deal's kept events, made in a record or in the full log, gives the same verdict
    in both (an edit the log's events would catch, the record's digest catches)."""
    asyncio.run(_compact_audits_as_full(ruleset, seed, deals, kept, how, where))


async def _compact_audits_as_full(
    ruleset: str, seed: int, deals: int, kept: int, how: str, where: float
) -> None:
    rng = random.Random(seed)
    store = Recorder(MemoryTableStore())
    service = _service(store, kept)
    await _play(service, "p", ruleset, rng, deals=deals, acts=0.04)
    page = await store.inner.read_events("p", 0, 100_000, with_deals=True)
    assert page is not None and page.deals is not None
    full, records = store.full("p"), [decode_deal(data) for data in page.deals]
    live = [logged_event(entry) for entry in page.events if entry.seq > page.recorded]
    table = (await service.read("p", PLATFORM)).table
    whole, compact = audit(full, table=table), audit(live, records, table)
    assert whole.valid and compact.valid, (whole, compact)
    assert (compact.totals, compact.penalties) == (whole.totals, whole.penalties)
    assert compact.first_deal == records[0].deal
    assert compact.deals == deals - compact.first_deal + 1
    if records[0].deal == 1:
        assert compact == whole
    # One edit of a kept record's events, made alike in the full log.
    target = int(where * len(records))
    record = records[target]
    kind = ACTED_ON.get(how, object)
    candidates = [n for n, e in enumerate(record.events) if isinstance(e, kind)]
    if not candidates:
        return  # e.g. nobody left during that deal
    edit = _mutation(record.events, candidates[int(where * 997) % len(candidates)], how, rng)
    if edit is None:
        return
    edited = list(records)
    edited[target] = msgspec.structs.replace(record, events=edit(list(record.events)))
    verdict_full = audit(_in_log(full, record, edit), table=table).valid
    verdict_compact = audit(live, edited, table).valid
    # What the log's audit catches, the record's catches; the record is stricter only where the
    # log's edit is consistent with itself — a move dropped with what it made, where the deal
    # went on the same (a 让 followed by the seat's pass) — which its digest still catches.
    assert verdict_full or not verdict_compact, (how, verdict_full, verdict_compact)
    if how != "drop":
        assert verdict_full == verdict_compact, (how, verdict_full, verdict_compact)
