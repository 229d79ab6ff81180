"""A replay is answered 200 only where its write lives: real Redis Sentinel (one primary, two
replicas, three Sentinels), ``WAIT 1``, and a switch of the primary at a chosen step of a retry.

Each test makes the same history. The replicas are cut off (their ``masterauth`` made wrong, the
primary's links to them dropped), so a move with an ``Idempotency-Key`` runs on the primary
alone: 503 ``OUTCOME_UNKNOWN``. Its retry finds the remembered answer on that primary — and
then, before the retry has confirmed it, the primary dies and Sentinel promotes a replica that
never had the write (the links mended, so the other replica follows the new primary and ``WAIT``
can succeed there). The retry must answer 503 ``OUTCOME_UNKNOWN``, never 200: the move is gone,
and the client's next retry makes it afresh. The switch comes at three places:

* between the two round trips of the retry (a stalled process: the confirmation starts late),
  the store asking the Sentinels for the primary (``REDIS_MODE=sentinel``);
* inside the batch (store/redis_batch.py) that carries the confirmation: its connection breaks
  before any answer, and the batch sends the unanswered commands again on a new connection;
* inside the fallback pipeline (store/redis_durable.py's ``write_and_wait``) that carries it when
  the batch could not: its connection breaks, and redis-py sends the pipeline again.

A re-sent command goes to the address the connection had (redis-py 8.1 reconnects a Sentinel
connection there without asking the Sentinels again), so the last two reach the new primary when
that address follows the primary: the store is given one here (:mod:`primary_proxy`,
``REDIS_MODE=standalone`` behind a proxy that follows Sentinel's primary).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from redis.asyncio.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError

from baohuang.engine import PlayMove
from baohuang.store import CasRemembered, RedisTableStore, StoreOutcomeUnknown, redis_batch
from baohuang.store.redis_batch import FALLBACK
from baohuang.tables import Authority, TableService
from baohuang.tables.callers import PLATFORM
from failover_drill import ask, cut_links, mend_links
from primary_proxy import PrimaryProxy
from redis_server import RedisServer
from redis_topologies import SERVICE, SentinelSetup, sentinel_setup
from replica_link import in_sync, until
from stepped_store import Call, Proceed, Step, SteppedStore
from table_support import SMALL

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.slow]

MOVE = PlayMove(0, ["7S", "7H"])
SWITCH_TIMEOUT = 45.0


@pytest.fixture(scope="module")
def sentinels() -> Iterator[SentinelSetup]:
    with sentinel_setup() as setup:
        yield setup


class Switch:
    """Kills the primary, whose replicas are cut off, and waits until Sentinel promoted one of
    them (which lacks what the primary took meanwhile) and the other follows it; an address
    that follows the primary (:attr:`proxy`) then leads to the new one."""

    def __init__(self, setup: SentinelSetup, proxy: PrimaryProxy) -> None:
        self.setup = setup
        self.proxy = proxy
        self.killed: list[RedisServer] = []

    def cut(self) -> None:
        cut_links(self.setup.primary(), self.setup.replicas())

    async def __call__(self) -> None:
        primary = self.setup.primary()
        replicas = self.setup.replicas()
        primary.kill()
        self.killed.append(primary)
        await asyncio.to_thread(mend_links, replicas)
        promoted = await asyncio.to_thread(self.setup.wait_failover, primary, SWITCH_TIMEOUT)
        await self.proxy.point_at(promoted)

    async def settle(self) -> None:
        """Every node a replica again (killed ones come back empty), every link up, every
        replica holding all the primary wrote, the last failover over on every Sentinel."""
        await asyncio.to_thread(mend_links, self.setup.replicas())
        for node in self.killed:
            await asyncio.to_thread(self.setup.rejoin, node, SWITCH_TIMEOUT)
        self.killed.clear()
        primary = await asyncio.to_thread(self.setup.wait_settled, SWITCH_TIMEOUT)
        await self.proxy.point_at(primary)
        await until(lambda: in_sync(primary), SWITCH_TIMEOUT)


@pytest.fixture
async def switch(sentinels: SentinelSetup) -> AsyncIterator[Switch]:
    proxy = await PrimaryProxy(sentinels.primary()).start()
    switching = Switch(sentinels, proxy)
    try:
        await switching.settle()
        yield switching
    finally:
        await switching.settle()
        await proxy.close()


@asynccontextmanager
async def _service(
    setup: SentinelSetup, store: RedisTableStore
) -> AsyncIterator[tuple[TableService, SteppedStore]]:
    stepped = SteppedStore(store)
    try:
        for node in setup.data:  # every node knows the scripts: a switch needs no reload
            for script in _scripts(store):
                await asyncio.to_thread(ask, node, "SCRIPT", "LOAD", script)
        yield TableService(stepped.store, Authority((), "replay-switch-secret")), stepped
    finally:
        await store.close()


def _through_sentinels(setup: SentinelSetup) -> RedisTableStore:
    return RedisTableStore.from_sentinel(
        [(s.host, s.port) for s in setup.sentinels],
        SERVICE,
        key_prefix=f"replay-switch:{uuid.uuid4().hex}:",
        wait_replicas=1,
        wait_timeout_ms=300,
    )


def _through_proxy(switch: Switch) -> RedisTableStore:
    return RedisTableStore.from_url(
        switch.proxy.url,
        key_prefix=f"replay-switch:{uuid.uuid4().hex}:",
        wait_replicas=1,
        wait_timeout_ms=300,
    )


def _scripts(store: RedisTableStore) -> list[str]:
    return [
        value.script
        for value in vars(store).values()
        if hasattr(value, "script") and hasattr(value, "sha")
    ]


async def _unconfirmed_move(service: TableService, switch: Switch, table: str) -> None:
    """The table at version 1, and a keyed move that ran on the cut-off primary only."""
    await service.create(table, SMALL, PLATFORM)
    await asyncio.to_thread(switch.cut)
    with pytest.raises(StoreOutcomeUnknown):
        await service.move(table, PLATFORM, MOVE, 1, idempotency_key="the-move")


async def _retry_is_unknown_then_fresh(
    service: TableService, stepped: SteppedStore, table: str, step: Step, switch: Switch
) -> None:
    with stepped.stepping(step), pytest.raises(StoreOutcomeUnknown):
        answer = await service.move(table, PLATFORM, MOVE, 1, idempotency_key="the-move")
        pytest.fail(f"a replay of a move the new primary never had was answered: {answer}")
    read = await service.read(table, PLATFORM)
    assert read.version == 1, "the move was never on the promoted replica"
    # The client's next retry makes the move afresh, and it is confirmed: the new primary's
    # replica first holds all the primary wrote and gets what it writes now. A replica back from
    # a full sync (here, when Sentinel failed the new primary over once more on its own and it
    # came back as a replica) can hold all and yet get nothing for up to a second (in_sync).
    await until(lambda: in_sync(switch.setup.primary()), SWITCH_TIMEOUT)
    again = await service.move(table, PLATFORM, MOVE, 1, idempotency_key="the-move")
    assert (again.version, again.replayed) == (2, False), "the next retry makes the move afresh"


def _found_remembered(call: Call, result: Any) -> bool:
    """Whether ``call`` found the move's remembered answer: the read of a retry (with its key),
    or the compare-and-set of one judged on this process's last write of the table."""
    if call.operation == "get":
        return getattr(result, "remembered", None) is not None
    return isinstance(result, CasRemembered)


def _arming(armed: list[str], state: str) -> Step:
    async def arm_once_found(call: Call, proceed: Proceed) -> Any:
        result = await proceed()
        if _found_remembered(call, result):
            armed.append(state)
        return result

    return arm_once_found


async def test_a_confirmation_that_comes_after_a_switch_is_503_never_200(
    sentinels: SentinelSetup, switch: Switch
) -> None:
    async with _service(sentinels, _through_sentinels(sentinels)) as (tables, stepped):
        table = f"late-{uuid.uuid4().hex[:8]}"
        await _unconfirmed_move(tables, switch, table)

        async def switch_once_found(call: Call, proceed: Proceed) -> Any:
            result = await proceed()
            if _found_remembered(call, result):
                await switch()  # the process stalls here; Sentinel promotes meanwhile
            return result

        await _retry_is_unknown_then_fresh(tables, stepped, table, switch_once_found, switch)


async def test_the_batch_sending_a_confirmation_again_after_a_switch_is_503_never_200(
    sentinels: SentinelSetup, switch: Switch, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with _service(sentinels, _through_proxy(switch)) as (tables, stepped):
        table = f"batch-{uuid.uuid4().hex[:8]}"
        await _unconfirmed_move(tables, switch, table)
        armed: list[str] = []
        exchange = redis_batch._exchange

        async def breaks_once(connection: Any, commands: list[Any]) -> Any:
            if armed and any(table in str(part) for command in commands for part in command):
                armed.clear()
                await switch()  # the batch's connection dies before any answer
                return [], RedisConnectionError("connection lost under the batch")
            return await exchange(connection, commands)

        monkeypatch.setattr(redis_batch, "_exchange", breaks_once)
        await _retry_is_unknown_then_fresh(tables, stepped, table, _arming(armed, "batch"), switch)
        assert not armed, "the batch never carried the confirmation"


async def test_the_pipeline_sending_a_confirmation_again_after_a_switch_is_503_never_200(
    sentinels: SentinelSetup, switch: Switch, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with _service(sentinels, _through_proxy(switch)) as (tables, stepped):
        table = f"pipe-{uuid.uuid4().hex[:8]}"
        await _unconfirmed_move(tables, switch, table)
        armed: list[str] = []
        submit = redis_batch.Batcher.submit
        execute = Pipeline._execute_pipeline

        def falls_back(
            self: redis_batch.Batcher, command: Any, key: str, durable: bool
        ) -> asyncio.Future[Any]:
            if armed == ["batch"] and durable and table in key:
                armed[0] = "pipeline"  # as after an error answer (NOSCRIPT, MOVED, …)
                future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
                future.set_result(FALLBACK)
                return future
            return submit(self, command, key, durable)

        async def breaks_once(
            self: Pipeline, connection: Any, commands: Any, raise_on_error: bool
        ) -> Any:
            if armed == ["pipeline"]:
                armed.clear()
                await switch()  # the pipeline's connection dies before any answer
                raise RedisConnectionError("connection lost under the pipeline")
            return await execute(self, connection, commands, raise_on_error)

        monkeypatch.setattr(redis_batch.Batcher, "submit", falls_back)
        monkeypatch.setattr(Pipeline, "_execute_pipeline", breaks_once)
        await _retry_is_unknown_then_fresh(tables, stepped, table, _arming(armed, "batch"), switch)
        assert not armed, "the pipeline never carried the confirmation"
