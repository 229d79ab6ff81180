"""Committed dealing at a live table (docs/dealing.md, G-4): the commitment before any card, the
seats' entropy, the deal when the window closes or every seat that can add has, the seed
revealed at the end — with time under the test's control.

Run on the in-memory store and on a real Redis; on Redis, two services stand for two replicas.
"""

from __future__ import annotations

import hashlib

import pytest

from baohuang.engine import (
    DealCommittedEvent,
    DealOverEvent,
    DealStartedEvent,
    DealtEvent,
    EntropyEvent,
    Event,
    MoveRefused,
    PassMove,
    committed_deal,
    pay_tribute,
    ruleset_of,
)
from baohuang.store import TableStore
from baohuang.tables import Authority, Forbidden, TableService
from baohuang.tables.audit import audit
from baohuang.tables.callers import PLATFORM, Caller
from baohuang.tables.dealing import CommittedDeal
from baohuang.tables.deals import decode_deal
from baohuang.tables.following import logged_event
from table_support import Time

pytestmark = pytest.mark.anyio


def services(stores: list[TableStore], time: Time) -> list[TableService]:
    authority = Authority((), "committed-secret")
    return [TableService(store, authority, clock=time) for store in stores]


def seats(instance: str) -> list[Caller]:
    return [Caller("seat", seat, instance) for seat in range(5)]


async def log_of(service: TableService, table_id: str) -> list[Event]:
    page = await service.store.read_events(table_id, 0, 100_000)
    assert page is not None
    return [logged_event(entry) for entry in page.events]


async def play_out(service: TableService, table_id: str, callers: list[Caller]) -> None:
    """Every seat asks for 托管: the deal is played to its end (T-11: unscored, all in 托管)."""
    for seat, caller in enumerate(callers):
        table = await service.read(table_id, PLATFORM)
        if not table.view.over:
            await service.set_trustee(table_id, caller, seat, True, table.version)
    while not (await service.read(table_id, PLATFORM)).view.over:
        assert await service.tick() > 0


async def test_G_4_the_commitment_is_shown_to_every_caller_before_any_card(
    stores: list[TableStore],
) -> None:
    time = Time()
    first, second = services(stores, time)
    created, _ = await first.create("c", CommittedDeal("lianzhong-simple", 2, 30), PLATFORM)
    commitment = created.table.dealing.commitment
    assert commitment is not None and created.table.dealing.method == "committed"
    assert created.snapshot.phase == "deal" and created.snapshot.hands == [[]] * 5
    for caller in [PLATFORM, Caller("spectator", None, created.instance), *seats(created.instance)]:
        table = await second.read("c", caller)
        assert table.table.dealing.commitment == commitment
        assert table.table.dealing.seed is None  # nobody sees the seed, the platform neither
        assert table.view.phase == "deal"
        if caller.kind != "platform":
            assert table.view.counts == [0] * 5  # type: ignore[union-attr]
        if caller.kind == "seat":
            assert table.view.hand == []  # type: ignore[union-attr]
    [opening] = await log_of(first, "c")
    assert isinstance(opening, DealCommittedEvent)
    assert (opening.deal, opening.dealer, opening.commitment) == (1, 2, commitment)
    assert opening.algorithm == "sha256-ctr/1" and opening.closes == time.now + 30
    assert created.table.deadline == opening.closes  # the clock's index deals it then


async def test_G_4_every_seats_entropy_deals_the_cards_at_once(stores: list[TableStore]) -> None:
    time = Time()
    first, second = services(stores, time)
    created, _ = await first.create("e", CommittedDeal("classic", 1, 60), PLATFORM)
    callers = seats(created.instance)
    entropy = ["01", "0203", "aa" * 64, "ff", "00"]
    for seat in (4, 0, 3, 1):
        answer = await (first if seat % 2 else second).add_entropy(
            "e", callers[seat], seat, entropy[seat]
        )
        assert [type(e) for e in answer.events] == [EntropyEvent]
        assert answer.view.phase == "deal"
    with pytest.raises(MoveRefused) as refused:
        await first.move("e", callers[1], PassMove(1), (await first.read("e", PLATFORM)).version)
    assert refused.value.reason.code == "NOT_DEALT"
    last = await second.add_entropy("e", callers[2], 2, entropy[2])
    assert [type(e).__struct_config__.tag for e in last.events][:2] == ["entropy", "deal_started"]
    assert last.view.phase == "crown" and len(last.view.hand) > 0  # type: ignore[union-attr]
    table = await first.read("e", PLATFORM)
    dealing = table.table.dealing
    assert dealing.entropy == entropy and dealing.closes is None and dealing.seed is None
    started = next(e for e in await log_of(first, "e") if isinstance(e, DealStartedEvent))
    assert started.commitment == dealing.commitment and started.entropy == entropy
    # Once it is over the seed is revealed, hashes to the commitment, and deals these hands.
    hands = table.view.hands  # type: ignore[union-attr]
    await play_out(first, "e", callers)
    over = next(e for e in await log_of(first, "e") if isinstance(e, DealOverEvent))
    seed = over.seed
    assert seed is not None and (await second.read("e", callers[3])).table.dealing.seed == seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == dealing.commitment
    assert committed_deal(ruleset_of("classic"), seed, entropy, 1).hands == hands
    assert audit(await log_of(first, "e")).valid


async def test_G_4_a_seat_that_adds_none_is_dealt_in_when_the_window_closes(
    stores: list[TableStore],
) -> None:
    time = Time()
    first, second = services(stores, time)
    created, _ = await first.create("w", CommittedDeal("tribute", 0, 20), PLATFORM)
    callers = seats(created.instance)
    await first.add_entropy("w", callers[3], 3, "3333")
    time.now += 19.9
    assert await second.tick() == 0
    assert (await first.read("w", PLATFORM)).view.phase == "deal"
    time.now += 0.2
    assert await second.tick() == 1  # the other replica deals it, with what was given
    table = await first.read("w", PLATFORM)
    assert table.view.phase == "crown" and table.table.dealing.entropy == [
        None,
        None,
        None,
        "3333",
        None,
    ]
    with pytest.raises(MoveRefused) as refused:
        await first.add_entropy("w", callers[1], 1, "11")  # too late
    assert refused.value.reason.code == "ENTROPY_CLOSED"


async def test_G_4_seats_that_left_or_are_bots_are_not_waited_for(stores: list[TableStore]) -> None:
    time = Time()
    service = services(stores, time)[0]
    bots = {0: "heuristic", 4: "heuristic"}
    created, _ = await service.create("b", CommittedDeal("classic", 0, 600), PLATFORM, bots=bots)  # type: ignore[arg-type]
    callers = seats(created.instance)
    await service.add_entropy("b", callers[1], 1, "01")
    table = await service.read("b", PLATFORM)
    await service.leave("b", callers[2], 2, table.version)
    assert (await service.read("b", PLATFORM)).view.phase == "deal"
    with pytest.raises(MoveRefused) as refused:
        await service.add_entropy("b", callers[2], 2, "02")
    assert refused.value.reason.code == "SEAT_LEFT"
    answer = await service.add_entropy("b", callers[3], 3, "03")  # the last seat waited for
    assert answer.view.phase != "deal"


async def test_G_4_a_seat_adds_its_own_entropy_once(stores: list[TableStore]) -> None:
    time = Time()
    service = services(stores, time)[0]
    created, _ = await service.create("o", CommittedDeal("classic", 0, 60), PLATFORM)
    callers = seats(created.instance)
    added = await service.add_entropy("o", callers[0], 0, "abcd")
    again = await service.add_entropy("o", callers[0], 0, "abcd")  # a retry: nothing changes
    assert again.events == [] and again.table.dealing.entropy == added.table.dealing.entropy
    with pytest.raises(MoveRefused) as refused:
        await service.add_entropy("o", callers[0], 0, "abce")
    assert refused.value.reason.code == "ENTROPY_ADDED"
    for caller in (PLATFORM, Caller("spectator", None, created.instance), callers[1]):
        with pytest.raises(Forbidden):
            await service.add_entropy("o", caller, 0, "ee")
    # Zero seconds: dealt at once from the seed alone.
    zero, _ = await service.create("z", CommittedDeal("classic", 0, 0), PLATFORM)
    assert zero.snapshot.phase == "crown" and zero.table.dealing.entropy == [None] * 5


async def test_G_4_neither_the_platform_nor_a_retry_changes_the_seed_once_committed(
    stores: list[TableStore],
) -> None:
    time = Time()
    service = services(stores, time)[0]
    created, _ = await service.create("n", CommittedDeal("classic", 0, 60), PLATFORM)
    commitment = created.table.dealing.commitment
    table = await service.read("n", PLATFORM)
    for seed, committed in ((7, None), (None, True), (None, None)):
        with pytest.raises(MoveRefused) as refused:
            await service.next_deal("n", PLATFORM, table.version, seed, committed)
        assert refused.value.reason.code == "DEAL_NOT_OVER"
    stored = await service.store.get("n")
    assert stored is not None
    assert (await service.read("n", PLATFORM)).table.dealing.commitment == commitment


@pytest.mark.parametrize("ruleset", ["tribute", "lianzhong-classic"])
async def test_G_4_next_deals_stay_committed_and_pay_tribute(
    stores: list[TableStore], ruleset: str
) -> None:
    """A committed table deals its next deals committed (P's tribute paid from the deal before),
    one with a seed when the platform passes one, and its log and kept records audit."""
    time = Time()
    service = services(stores, time)[0]
    created, _ = await service.create("n", CommittedDeal(ruleset, 0, 0), PLATFORM)
    callers = seats(created.instance)
    for seed in (None, 99, None):
        await play_out(service, "n", callers)
        table = await service.read("n", PLATFORM)
        started = await service.next_deal(
            "n", PLATFORM, table.version, seed, None if seed else True, 5
        )
        if seed is None:
            assert started.table.dealing.method == "committed" and started.view.phase == "deal"
            assert [type(e) for e in started.events] == [DealCommittedEvent]
            time.now += 5
            assert await service.tick() == 1
        else:
            assert started.table.dealing.method == "seed"
            assert started.table.dealing.chosen_by == "platform"
    await play_out(service, "n", callers)
    log = await log_of(service, "n")
    page = await service.store.read_events("n", 0, 1, with_deals=True)
    assert page is not None and page.deals is not None
    records = [decode_deal(data) for data in page.deals]
    assert [record.deal for record in records] == [1, 2, 3]
    assert isinstance(records[1].events[0], DealCommittedEvent)
    report = audit(log, records, (await service.read("n", PLATFORM)).table)
    assert report.valid, report.failure
    assert report.deals == 4
    # the tribute of the last committed deal is what its predecessor's result asks for
    begun = next(e for e in log if isinstance(e, DealStartedEvent))
    dealt = next(e for e in log if isinstance(e, DealtEvent))
    over = next(e for e in log if isinstance(e, DealOverEvent))
    assert over.seed is not None and begun.entropy is not None
    hands = committed_deal(ruleset_of(ruleset), over.seed, begun.entropy, begun.dealer).hands
    if begun.previous is not None:
        previous = begun.previous
        hands = pay_tribute(
            ruleset_of(ruleset),
            previous.mode,
            previous.emperor,
            previous.guard,
            previous.finished,
            hands,
        ).hands
    assert hands == dealt.snapshot.hands


async def test_G_4_an_audit_catches_a_seed_that_is_not_the_one_committed_to(
    stores: list[TableStore],
) -> None:
    time = Time()
    service = services(stores, time)[0]
    created, _ = await service.create("a", CommittedDeal("classic", 3, 0), PLATFORM)
    await play_out(service, "a", seats(created.instance))
    log = await log_of(service, "a")
    assert audit(log).valid
    swapped = [
        e.__class__(**{**{f: getattr(e, f) for f in e.__struct_fields__}, "seed": "00" * 32})
        if isinstance(e, DealOverEvent)
        else e
        for e in log
    ]
    report = audit(swapped)
    assert not report.valid and report.failure is not None
    assert "committed to" in report.failure.message
    entropy = [
        e.__class__(**{**{f: getattr(e, f) for f in e.__struct_fields__}, "entropy": ["01"] * 5})
        if isinstance(e, DealStartedEvent)
        else e
        for e in log
    ]
    assert not audit(entropy).valid
