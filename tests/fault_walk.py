"""A fault at every step: FoundationDB's simulation, TigerBeetle's VOPR, at the size of this
service. A scenario (tests/fault_scenarios.py) is a few requests made by clients that behave as
docs/clients.md tells them to (a write sent again with its ``Idempotency-Key`` on every 503, a
table read again after a 409), against table services over a store seam
(tests/stepped_store.py) that numbers the store calls those requests make. The walk runs the
scenario once to find its calls, then again with a fault at each of them, and again with a lost
answer followed by a rollback at every later call:

* ``lose``: the call runs, its write (if any) on the primary alone, and its answer is lost;
* ``switch``: before the call the primary fails over to a replica that had caught up;
* ``rollback``: before the call the primary fails over to a replica that holds what was
  acknowledged and no more: whatever the primary took since is gone.

After each run the audit (:func:`audit`) holds what the clients were told against the final log:
no 200 whose write is not in it, no version answered for two different writes, no write the
store acknowledged that it lost, no event id naming two events, the log without a gap, every
follower ending with the log as its caller may see it — plus each scenario's own checks.

The faults act through a :class:`Target`: the in-memory store's twin with a replica and ``WAIT``
(tests/replicated_memory.py) in the quick loop, real Sentinel and Cluster setups in CI.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import msgspec

from baohuang.engine import Event
from baohuang.store import CasOk, StoreUnavailable
from baohuang.tables.callers import Caller
from baohuang.tables.views import cut_event
from stepped_store import Call, Proceed

YIELDS = 4
"""Turns of the event loop before each stepped call: what a round trip to Redis gives the other
tasks of the process (the feed reading the log, the streams sending it), so that followers see
a write before the fault that takes it back."""
Kind = Literal["lose", "switch", "rollback"]
KINDS: tuple[Kind, ...] = ("lose", "switch", "rollback")


@dataclass(frozen=True)
class Fault:
    kind: Kind
    at: int
    """The number of the stepped call it strikes (:class:`stepped_store.Call`)."""


Plan = tuple[Fault, ...]


class Target(Protocol):
    """What the faults act on: a store with a primary and a replica."""

    backoff: float
    """Seconds a client waits before it sends a request again after a 503."""
    patience: float
    """Seconds a client goes on sending a request again (at least :data:`ATTEMPTS` times), and
    followers are given to catch up at the end."""

    async def ready(self) -> None:
        """Return once the replicas hold everything the primary wrote (before each run)."""
        ...

    async def link(self, up: bool) -> None:
        """Mend (``up``) or cut the replica's link: cut, every write is the primary's alone."""
        ...

    async def notify(self) -> None:
        """Tell the services' change subscriptions that anything may have changed."""
        ...

    async def lose(self, proceed: Proceed) -> None:
        """Make the call with its write, if any, left on the primary alone (unacknowledged)."""
        ...

    async def fail_over(self, *, lossy: bool) -> None:
        """Promote the replica (``lossy``: it holds what was acknowledged, no more)."""
        ...


class Faults:
    """The step (tests/stepped_store.py) that strikes a plan's faults at their calls, and
    writes down what the store acknowledged to the service."""

    def __init__(self, target: Target, plan: Plan) -> None:
        self.target = target
        self.plan = {fault.at: fault.kind for fault in plan}
        self.acknowledged: list[CasOk] = []
        """Every compare-and-set the store answered as written (after its ``WAIT``)."""

    async def step(self, call: Call, proceed: Proceed) -> Any:
        for _ in range(YIELDS):  # a round trip's worth of the loop for the feed and the streams
            await asyncio.sleep(0)
        kind = self.plan.get(call.n)
        if kind == "switch":
            await self.target.fail_over(lossy=False)
        elif kind == "rollback":
            await self.target.fail_over(lossy=True)
        elif kind == "lose":
            await self.target.lose(proceed)
            raise StoreUnavailable(f"the answer to {call} was lost")
        result = await proceed()
        if isinstance(result, CasOk):
            self.acknowledged.append(result)
        return result


@dataclass(frozen=True)
class Answered:
    """A 200 to a write: what it was, the version and the events it answered (a platform's
    caller: all of them, with their ids where the answer gave them)."""

    what: str
    version: int
    events: tuple[Event, ...]


@dataclass
class Ledger:
    """What the clients were told."""

    answered: list[Answered] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class Follower:
    """What a stream of the table (``TableService.follow``) gave one caller: the events since
    its opening or its last reset (and where that stood in the log), how it closed."""

    name: str
    caller: Caller
    start_seq: int = 0
    history: list[Event] = field(default_factory=list)
    closed: str | None = None
    opened: bool = False


@dataclass(frozen=True)
class FinalLog:
    """The table as the store holds it at the end (read past the seam)."""

    version: int
    events: list[Event]
    trimmed: int
    deals: list[bytes]
    snapshot: bytes


def canonical(event: Event) -> str:
    return json.dumps(msgspec.to_builtins(event), sort_keys=True, separators=(",", ":"))


def _stripped(event: Event) -> str:
    return canonical(msgspec.structs.replace(event, id=None))


def audit(
    ledger: Ledger,
    final: FinalLog,
    acknowledged: list[CasOk],
    followers: list[Follower],
    seen: list[Event],
) -> list[str]:
    """Everything that must hold after a run, whatever the faults (module docstring).
    ``seen``: every whole event (as a platform sees it) met on the way: in answers, streams,
    deliveries."""
    wrong = list(ledger.problems)
    logged: dict[int, list[Event]] = {}
    for event in final.events:
        logged.setdefault(event.version or 0, []).append(event)
    claims: dict[int, set[str]] = {}
    for answer in ledger.answered:
        claims.setdefault(answer.version, set()).add(
            json.dumps([_stripped(e) for e in answer.events])
        )
        if all((event.seq or 0) <= final.trimmed for event in answer.events):
            continue  # a finished deal's, trimmed from the log
        found = logged.get(answer.version, [])
        if [_stripped(e) for e in found] != [_stripped(e) for e in answer.events]:
            wrong.append(f"{answer.what} v{answer.version} answered 200 is not in the final log")
        elif any(
            e.id is not None and e.id != f.id for e, f in zip(answer.events, found, strict=True)
        ):
            wrong.append(f"{answer.what} v{answer.version}: its event ids are not the log's")
    wrong += [
        f"v{v} answered for {len(s)} different writes" for v, s in claims.items() if len(s) > 1
    ]
    for write in acknowledged:
        tokens = {e.id.partition(".")[2] for e in logged.get(write.version, []) if e.id}
        if write.last_seq > final.trimmed and tokens != {write.token}:
            wrong.append(f"the store acknowledged v{write.version} ({write.token}) and lost it")
    wrong += _continuity(final)
    wrong += _event_ids([*seen, *final.events])
    for follower in followers:
        wrong += _follower(follower, final)
    return wrong


def _continuity(final: FinalLog) -> list[str]:
    seqs = [event.seq or 0 for event in final.events]
    if seqs and seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        return [f"the log's seqs break: {seqs}"]
    if seqs and seqs[0] != final.trimmed + 1:
        return [f"the log starts at {seqs[0]}, trimmed up to {final.trimmed}: a gap"]
    versions = [event.version or 0 for event in final.events]
    if versions != sorted(versions):
        return ["versions go backwards in the log"]
    return []


def _event_ids(events: list[Event]) -> list[str]:
    named: dict[str, str] = {}
    twice: set[str] = set()
    for event in events:
        if event.id is not None and named.setdefault(event.id, _stripped(event)) != _stripped(
            event
        ):
            twice.add(event.id)
    return [f"event id {event_id} names two events" for event_id in sorted(twice)]


def visible(final: FinalLog, follower: Follower) -> list[str]:
    shown = (
        cut_event(e, follower.caller) for e in final.events if (e.seq or 0) > follower.start_seq
    )
    return [canonical(event) for event in shown if event is not None]


def caught_up(follower: Follower, final: FinalLog) -> bool:
    if follower.closed is not None:
        return True
    return [canonical(event) for event in follower.history] == visible(final, follower)


def _follower(follower: Follower, final: FinalLog) -> list[str]:
    if not follower.opened:
        return [f"{follower.name} never opened"]
    if follower.closed is not None:
        return []
    if not caught_up(follower, final):
        got = [canonical(event)[:90] for event in follower.history]
        return [f"{follower.name} ends off the log: holds {got}, log {visible(final, follower)}"]
    return []


Run = Callable[[Plan], Awaitable[tuple[list[Call], list[str]]]]
"""One run of a scenario under a plan: the stepped calls it made, and what its audit found."""


async def walk(
    name: str, run: Run, *, pairs: bool = True, kinds: tuple[Kind, ...] = KINDS
) -> list[str]:
    """Every point of the scenario ``run`` with every fault of ``kinds``, then (``pairs``) a lost
    answer at each point followed by a rollback at each later one; each run is printed; what
    the audits found, each prefixed with its plan."""
    found: list[str] = []

    async def one(plan: Plan) -> list[Call]:
        calls, wrong = await run(plan)
        struck = ", ".join(f"{f.kind}@{calls[f.at] if f.at < len(calls) else f.at}" for f in plan)
        print(f"{name:>9} {struck or 'no fault':<44} {len(calls):>3} calls, {len(wrong)} wrong")
        found.extend(f"{name} [{struck or 'no fault'}]: {w}" for w in wrong)
        return calls

    points = await one(())
    lost: dict[int, list[Call]] = {}
    for n in range(len(points)):
        for kind in kinds:
            calls = await one((Fault(kind, n),))
            if kind == "lose":
                lost[n] = calls
    if pairs and "lose" in kinds:
        for n, calls in lost.items():
            for later in range(n + 1, len(calls)):
                await one((Fault("lose", n), Fault("rollback", later)))
    return found
