"""Every step of a move, a replay, a dry run, the next deal, a token rotation, a clock running
out and a webhook's deliveries, struck by a fault — a lost answer, a switch of the primary, a
rollback to what the replica held, and a lost answer then a rollback at every later step — and
the audit finds nothing (tests/fault_walk.py, tests/fault_scenarios.py). The in-memory store's
twin with a replica and ``WAIT`` (tests/replicated_memory.py) in the quick loop; real Sentinel
and Cluster setups in the thorough run (tests/fault_targets.py). Each run is printed (``pytest
-s`` or ``-rP`` shows them)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from baohuang.store import RedisTableStore, StoreUnavailable
from fault_scenarios import SCENARIOS, TABLE, run_once
from fault_targets import ClusterTarget, SentinelTarget
from fault_walk import Kind, Plan, walk
from redis_topologies import SERVICE, ClusterSetup, SentinelSetup, cluster_setup, sentinel_setup
from replicated_memory import ReplicatedMemory
from stepped_store import Call, Proceed

pytestmark = pytest.mark.anyio


class MemoryTarget:
    """Faults on the in-memory twin: instant, and exactly where they are asked for."""

    backoff = 0.0
    patience = 0.0

    def __init__(self, memory: ReplicatedMemory) -> None:
        self.memory = memory

    async def ready(self) -> None:
        pass

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


# -- in CI: the same walk on real Sentinel and Cluster setups -----------------------------------

REAL_KINDS: tuple[Kind, ...] = ("lose", "switch")
"""A lost answer and a real switch of the primary at every step (tests/fault_targets.py). The
rollbacks, and a lost answer followed by a rollback at every later step, are walked on the
in-memory twin above, where they take no time: on real Redis a rollback is a killed primary,
what tests/http/test_failover_drill.py and tests/tables/test_replays_through_failover.py make."""
SENTINEL_SWITCHED = frozenset({"move"})
"""The scenarios walked with a switch on Sentinel too: a forced failover, its replicas caught up
and every Sentinel agreeing take 3–6 s there, against about 1 s on Cluster. The other scenarios'
steps are switched on Cluster, and lose their answers on both; a replay's confirmation after a
Sentinel switch is tests/tables/test_replays_through_failover.py's."""


@pytest.fixture(scope="module")
def sentinels() -> Iterator[SentinelSetup]:
    with sentinel_setup() as setup:
        yield setup


@pytest.fixture(scope="module")
def cluster() -> Iterator[ClusterSetup]:
    with cluster_setup() as setup:
        yield setup


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_every_step_on_sentinel_keeps_every_200(sentinels: SentinelSetup, name: str) -> None:
    async def run(plan: Plan) -> tuple[list[Call], list[str]]:
        store = RedisTableStore.from_sentinel(
            [(s.host, s.port) for s in sentinels.sentinels],
            SERVICE,
            key_prefix=f"walk-{uuid.uuid4().hex[:8]}:",
            wait_replicas=1,
            wait_timeout_ms=300,
        )
        try:
            return await run_once(SCENARIOS[name], store, SentinelTarget(sentinels, store), plan)
        finally:
            await store.close()

    kinds = REAL_KINDS if name in SENTINEL_SWITCHED else ("lose",)
    found = await walk(name, run, pairs=False, kinds=kinds)
    assert not found, "\n".join(found[:30])


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_every_step_on_cluster_keeps_every_200(cluster: ClusterSetup, name: str) -> None:
    async def run(plan: Plan) -> tuple[list[Call], list[str]]:
        store = RedisTableStore.from_url(
            cluster.url,
            cluster=True,
            key_prefix=f"walk-{uuid.uuid4().hex[:8]}:",
            wait_replicas=1,
            wait_timeout_ms=300,
        )
        try:
            target = ClusterTarget(cluster, store, "{" + TABLE + "}")
            return await run_once(SCENARIOS[name], store, target, plan)
        finally:
            await store.close()

    found = await walk(name, run, pairs=False, kinds=REAL_KINDS)
    assert not found, "\n".join(found[:30])
