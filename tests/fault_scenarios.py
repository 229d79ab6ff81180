"""The scenarios the fault walk (tests/fault_walk.py) strikes at every step, and the world they
run in: two table services over one store (the process that made the table, whose feed serves
the followers, and another replica that serves the walked requests), a clock the test moves, a
webhook receiver, and a platform and a seat following the table from before the walk.

Each scenario prepares a table (not walked), then its clients act (walked), then it checks what
is its own on top of the common audit. The clients behave as docs/clients.md says: a write is
sent again on every 503 (with its ``Idempotency-Key`` where it has one), a table is read again
after a 409 and the write decided anew; the clock and the webhook dispatcher go on as their
process would, their claims lapsing when they fail.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import msgspec

from baohuang.engine import (
    Event,
    MoveRefused,
    PlayMove,
    Snapshot,
    TokenRotatedEvent,
    legal_moves,
)
from baohuang.store import StoreUnavailable, TableStore
from baohuang.tables import (
    Authority,
    Closed,
    Events,
    MoveAnswer,
    Opening,
    Reset,
    TableService,
    VersionConflict,
)
from baohuang.tables.audit import audit_table
from baohuang.tables.callers import PLATFORM, Caller
from baohuang.tables.clock import CLOCK_LEASE_SECONDS
from baohuang.tables.following import logged_event
from baohuang.tables.record import Clock, Webhook, decode_record
from baohuang.tables.views import View
from baohuang.tables.webhook_targets import Targets
from baohuang.tables.webhooks import LEASE_SECONDS, Dispatcher
from fault_walk import (
    Answered,
    Faults,
    FinalLog,
    Follower,
    Ledger,
    Plan,
    Target,
    audit,
    caught_up,
)
from stepped_store import Call, SteppedStore
from table_support import SMALL, Time, near_end

TABLE = "walked"
SECRET = "fault-walk-secret"
ATTEMPTS = 12
"""A client's attempts at one request before it gives up (the audit then says so)."""
CLOCK = Clock(turn_seconds=20, before_play_seconds=30)
SUBSCRIBED = ["played", "trick_won", "deal_over", "trustee"]
MOVE = PlayMove(0, ["7S", "7H"])
SEAT = Caller("seat", 1)


async def _public(host: str, port: int) -> list[str]:
    return ["93.184.216.34"]  # never connected to: the receiver is a fake


class Receiver:
    """A webhook receiver that keeps every delivery, by delivery id."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict[str, Any]]] = []

    async def send(self, url: str, body: bytes, headers: dict[str, str]) -> int:
        self.got.append((headers["Baohuang-Delivery"], json.loads(body)))
        return 204

    def events(self) -> list[Event]:
        return [msgspec.convert(body["event"], Event) for _, body in self.got]


@dataclass
class World:
    store: TableStore
    """The store past the seam (the final log is read there)."""
    target: Target
    stepped: SteppedStore
    time: Time
    creator: TableService
    worker: TableService
    dispatcher: Dispatcher
    receiver: Receiver
    ledger: Ledger = field(default_factory=Ledger)
    followers: list[Follower] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    seen: list[Event] = field(default_factory=list)
    """Platform events seen on the way (answers, deliveries) besides the final log."""

    def answered(self, what: str, answer: MoveAnswer[View]) -> None:
        self.ledger.answered.append(Answered(what, answer.version, tuple(answer.events)))
        self.seen.extend(answer.events)


@asynccontextmanager
async def world(store: TableStore, target: Target) -> AsyncIterator[World]:
    """Two services over ``store`` behind the seam, the creator following tables."""
    stepped = SteppedStore(store)
    time = Time()
    receiver = Receiver()
    targets = Targets(resolve=_public)
    dispatcher = Dispatcher(stepped.store, SECRET, receiver.send, clock=time, targets=targets)
    authority = Authority((), "fault-walk")

    def service() -> TableService:
        return TableService(
            stepped.store, authority, clock=time, dispatcher=dispatcher, heartbeat_seconds=3600
        )

    made = World(store, target, stepped, time, service(), service(), dispatcher, receiver)
    await made.creator.start(clock_task=False)
    try:
        yield made
    finally:
        for task in made.tasks:
            task.cancel()
        await asyncio.gather(*made.tasks, return_exceptions=True)
        await made.creator.close()
        await made.worker.close()


async def follow(world: World, name: str, caller: Caller) -> None:
    """A stream of the table for ``caller`` through the creator, kept in a task."""
    follower = Follower(name, caller)
    stream = await world.creator.follow(TABLE, caller)

    async def consume() -> None:
        async for item in stream:
            if isinstance(item, Opening | Reset):
                follower.opened = True
                follower.start_seq, follower.history = item.table.last_seq, []
            elif isinstance(item, Events):
                follower.history.extend(item.events)
            elif isinstance(item, Closed):
                follower.closed = item.reason
                return

    world.followers.append(follower)
    world.tasks.append(asyncio.create_task(consume()))
    for _ in range(100):
        if follower.opened:
            return
        await asyncio.sleep(0)


async def final_log(world: World) -> FinalLog:
    page = await world.store.read_events(TABLE, 0, 100_000, with_snapshot=True, with_deals=True)
    assert page is not None and page.snapshot is not None
    events = [logged_event(entry) for entry in page.events]
    return FinalLog(page.version, events, page.trimmed, page.deals or [], page.snapshot)


async def settle(world: World, final: FinalLog) -> None:
    """Let the followers catch up with the final log (bounded: the audit says if one did not):
    a few hundred turns of the loop, and the target's patience."""
    await world.target.notify()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + world.target.patience
    for turn in itertools.count():
        if all(caught_up(follower, final) for follower in world.followers):
            return
        if turn > 400 and loop.time() > deadline:
            return
        await asyncio.sleep(0 if turn < 400 else 0.05)


# -- the clients ------------------------------------------------------------------------------


def attempts(world: World) -> Iterator[int]:
    """A client's attempts at one thing: at least :data:`ATTEMPTS`, for the target's patience."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + world.target.patience
    for attempt in itertools.count():
        if attempt >= ATTEMPTS and loop.time() > deadline:
            return
        yield attempt


async def retried(world: World, what: str, request: Callable[[], Awaitable[Any]]) -> Any:
    """``request`` until a definite answer (503: again; anything else is the answer)."""
    for attempt in attempts(world):
        if attempt:
            await asyncio.sleep(world.target.backoff)
        try:
            answer = await request()
        except StoreUnavailable as unavailable:
            world.ledger.outcomes.append(f"{what}: 503 {type(unavailable).__name__}")
            continue
        except (VersionConflict, MoveRefused) as definite:
            world.ledger.outcomes.append(f"{what}: {type(definite).__name__}")
            return definite
        if isinstance(answer, MoveAnswer):
            world.answered(what, answer)
        return answer
    world.ledger.problems.append(f"{what}: no definite answer")
    return None


async def move_client(world: World, key: str = "the-move") -> None:
    await retried(
        world,
        "move",
        lambda: world.worker.move(TABLE, PLATFORM, MOVE, 1, idempotency_key=key),
    )


async def read_table(world: World) -> Any:
    return await retried(world, "read", lambda: world.worker.read(TABLE, PLATFORM))


# -- the scenarios ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    name: str
    prepare: Callable[[World], Awaitable[None]]
    act: Callable[[World], Awaitable[None]]
    check: Callable[[World, FinalLog], Awaitable[list[str]]]


async def _small(world: World) -> None:
    await world.creator.create(TABLE, SMALL, PLATFORM, CLOCK)


async def _nothing_more(world: World, final: FinalLog) -> list[str]:
    return []


async def _replay_prepared(world: World) -> None:
    """The table, and a keyed move that ran on the primary alone (503 ``OUTCOME_UNKNOWN``):
    what the walked client then sends again."""
    await _small(world)
    await world.target.link(False)
    try:
        await world.worker.move(TABLE, PLATFORM, MOVE, 1, idempotency_key="the-move")
    except StoreUnavailable:
        pass
    finally:
        await world.target.link(True)


async def _check_act(world: World) -> None:
    verdict = await retried(world, "check", lambda: world.worker.check(TABLE, PLATFORM, MOVE, 1))
    world.ledger.outcomes.append(f"check: {verdict!r}")


async def _check_check(world: World, final: FinalLog) -> list[str]:
    wrong = []
    if final.version != 1 or any((event.version or 0) > 1 for event in final.events):
        wrong.append(f"a dry run wrote: the table is at v{final.version}")
    if not any("legal=True" in outcome for outcome in world.ledger.outcomes):
        wrong.append(f"the dry run's verdict: {world.ledger.outcomes}")
    return wrong


async def _played_to_the_end(world: World) -> None:
    created, _ = await world.creator.create(TABLE, near_end(11, 16), PLATFORM)
    rng = random.Random(5)
    version, view = created.version, created.snapshot
    while legal := legal_moves(view):
        answer = await world.creator.move(TABLE, PLATFORM, rng.choice(legal), version)
        version, view = answer.version, msgspec.convert(answer.view, Snapshot)


async def _deal_act(world: World) -> None:
    """The platform deals the next deal: no key (``/deals`` takes none), so after a 503 it
    reads the table and deals only if the deal it saw is still the table's."""
    for attempt in attempts(world):
        if attempt:
            await asyncio.sleep(world.target.backoff)
        table = await read_table(world)
        if table is None or table.table.deal > 1:
            return  # dealt: by an attempt whose answer was lost
        try:
            answer = await world.worker.next_deal(TABLE, PLATFORM, table.version, 7)
        except (StoreUnavailable, VersionConflict) as unknown:  # read again, then decide
            world.ledger.outcomes.append(f"deal: {type(unknown).__name__}")
            continue
        world.answered("deal", answer)
        return
    world.ledger.problems.append("the next deal was never dealt")


async def _deal_check(world: World, final: FinalLog) -> list[str]:
    table = decode_record(final.snapshot).table
    wrong = [] if table.deal == 2 else [f"deal {table.deal} at the end, not 2"]
    if len(final.deals) != 1:
        wrong.append(f"{len(final.deals)} finished deals' records, not 1")
    return wrong


async def _rotate_act(world: World) -> None:
    answer = await retried(world, "rotate", lambda: world.worker.rotate_token(TABLE, PLATFORM, 2))
    if answer is not None:
        world.ledger.outcomes.append(f"rotated: {answer.generation} at v{answer.version}")


async def _rotate_check(world: World, final: FinalLog) -> list[str]:
    rotated = [o for o in world.ledger.outcomes if o.startswith("rotated")]
    generation = decode_record(final.snapshot).token_generations[2]
    logged = [e.generation for e in final.events if isinstance(e, TokenRotatedEvent)]
    if not rotated:
        return ["the token was never rotated"]
    answered = int(rotated[-1].split()[1])
    if answered != generation or generation not in logged:
        return [f"rotation answered generation {answered}; the table's is {generation}, {logged}"]
    return []


async def _clocked_playout(world: World) -> None:
    created, _ = await world.creator.create(TABLE, near_end(11, 16), PLATFORM, CLOCK)
    version = created.version
    for seat in range(5):
        if seat != near_end(11, 16).turn:
            answer = await world.creator.set_trustee(TABLE, PLATFORM, seat, True, version)
            version = answer.version


async def _clock_act(world: World) -> None:
    """Time runs out for the seat to act; the clock, then the play-out, end the deal. A tick
    that failed leaves its claim to lapse: the next tick comes after the lease."""
    world.time.now += CLOCK.turn_seconds + 1

    async def over() -> bool:
        table = await read_table(world)
        return table is not None and bool(table.view.over)

    await _until(world, "tick", world.worker.tick, over, CLOCK_LEASE_SECONDS + 1)


async def _until(
    world: World,
    what: str,
    step: Callable[[], Awaitable[Any]],
    done: Callable[[], Awaitable[bool]],
    later: float,
) -> None:
    """``step`` (a 503 is written down) until ``done()``, the test's clock moved on by ``later``
    seconds after each step that was not enough: a process's background duty, its claims
    lapsing when it fails."""
    for attempt in attempts(world):
        if attempt:
            await asyncio.sleep(world.target.backoff)
        try:
            await step()
        except StoreUnavailable as unavailable:
            world.ledger.outcomes.append(f"{what}: 503 {type(unavailable).__name__}")
        if await done():
            return
        world.time.now += later
    world.ledger.problems.append(f"{what}: never done")


async def _webhooked(world: World) -> None:
    hook = Webhook(url="https://receiver.example/hook", events=SUBSCRIBED)
    created, _ = await world.creator.create(TABLE, SMALL, PLATFORM, webhook=hook)
    await world.creator.move(TABLE, PLATFORM, MOVE, created.version)


async def _webhook_act(world: World) -> None:
    """The dispatcher delivers what is due; a delivery that failed is claimed again when its
    claim lapses (the receiver always accepts)."""

    async def delivered() -> bool:
        cursor = await world.store.hook_cursor(TABLE)
        page = await world.store.read_events(TABLE, 0, 1)
        return cursor is not None and page is not None and cursor[1] >= page.last_seq

    await _until(world, "deliver", world.dispatcher.tick, delivered, LEASE_SECONDS + 61)


async def _webhook_check(world: World, final: FinalLog) -> list[str]:
    delivered = {delivery for delivery, _ in world.receiver.got}
    bodies: dict[str, set[str]] = {}
    for delivery, body in world.receiver.got:
        bodies.setdefault(delivery, set()).add(json.dumps(body["event"], sort_keys=True))
    wrong = [f"delivery {d} named two events" for d, seen in bodies.items() if len(seen) > 1]
    for event in final.events:
        tag = str(type(event).__struct_config__.tag)
        if tag in SUBSCRIBED and not any(d.endswith(f".{event.id}") for d in delivered):
            wrong.append(f"{tag} {event.id} of the final log was never delivered")
    return wrong


SCENARIOS = {
    scenario.name: scenario
    for scenario in [
        Scenario("move", _small, move_client, _nothing_more),
        Scenario("replay", _replay_prepared, move_client, _nothing_more),
        Scenario("check", _small, _check_act, _check_check),
        Scenario("deal", _played_to_the_end, _deal_act, _deal_check),
        Scenario("rotate", _small, _rotate_act, _rotate_check),
        Scenario("clock", _clocked_playout, _clock_act, _nothing_more),
        Scenario("webhook", _webhooked, _webhook_act, _webhook_check),
    ]
}
"""The scenarios by name: a move, its replay, a dry run, the next deal (its record and the
trim), a token rotation, a clock running out and 托管 playing the deal out, a webhook's
deliveries."""


async def run_once(
    scenario: Scenario, store: TableStore, target: Target, plan: Plan
) -> tuple[list[Call], list[str]]:
    """One run of ``scenario`` on ``store`` under ``plan``: its stepped calls and what is wrong."""
    await target.ready()
    async with world(store, target) as made:
        await scenario.prepare(made)
        await follow(made, "platform", PLATFORM)
        await follow(made, "seat 1", SEAT)
        faults = Faults(target, plan)
        with made.stepped.stepping(faults.step) as calls:
            await scenario.act(made)
        final = await final_log(made)
        await settle(made, final)
        report = await audit_table(made.store, TABLE)
        made.seen.extend(made.receiver.events())
        wrong = audit(
            made.ledger,
            final,
            faults.acknowledged,
            made.followers,
            [*made.seen, *made.followers[0].history],
        )
        wrong += await scenario.check(made, final)
        if not report.valid:
            wrong.append(f"the table's audit: {report.failure}")
        return list(calls), wrong
