"""Every step of a move, a replay, a dry run, the next deal, a token rotation, a clock running
out and a webhook's deliveries, struck by a fault — a lost answer, a switch of the primary, a
rollback to what the replica held, and a lost answer then a rollback at every later step — and
the audit finds nothing (tests/fault_walk.py, tests/fault_scenarios.py). The in-memory store's
twin with a replica and ``WAIT`` (tests/replicated_memory.py) here, in the quick loop; each run
is printed (``pytest -s`` or ``-rP`` shows them)."""

from __future__ import annotations

import pytest

from baohuang.store import StoreUnavailable
from fault_scenarios import SCENARIOS, run_once
from fault_walk import Plan, walk
from replicated_memory import ReplicatedMemory
from stepped_store import Call, Proceed

pytestmark = pytest.mark.anyio


class MemoryTarget:
    """Faults on the in-memory twin: instant, and exactly where they are asked for."""

    backoff = 0.0
    patience = 0.0

    def __init__(self, memory: ReplicatedMemory) -> None:
        self.memory = memory

    async def link(self, up: bool) -> None:
        self.memory.linked = up

    async def notify(self) -> None:
        self.memory.recheck()

    async def lose(self, proceed: Proceed) -> None:
        self.memory.linked = False
        try:
            await proceed()
        except StoreUnavailable:
            pass  # not acknowledged: what a lost answer leaves behind
        finally:
            self.memory.linked = True

    async def fail_over(self, *, lossy: bool) -> None:
        self.memory.fail_over(lossy=lossy)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_every_step_with_every_fault_keeps_every_200(name: str) -> None:
    async def run(plan: Plan) -> tuple[list[Call], list[str]]:
        memory = ReplicatedMemory()
        return await run_once(SCENARIOS[name], memory, MemoryTarget(memory), plan)

    found = await walk(name, run)
    assert not found, "\n".join(found[:30])
