"""A write's events reach the table's webhook even when a dispatcher claims the table between
the write's index update and its commit: the dispatcher then reads the log without them and
gives its claim back, and what the write put in the index before committing is gone with the
claim. The store's calls are stepped (tests/stepped_store.py) to put the claim exactly there."""

from __future__ import annotations

import json
from typing import Any

import pytest

from baohuang.engine import PlayMove
from baohuang.store import MemoryTableStore
from baohuang.tables import Authority, TableService
from baohuang.tables.callers import PLATFORM
from baohuang.tables.record import Webhook
from baohuang.tables.webhook_targets import Targets
from baohuang.tables.webhooks import Dispatcher
from stepped_store import Call, Proceed, SteppedStore
from table_support import SMALL, Time

pytestmark = pytest.mark.anyio


async def _public(host: str, port: int) -> list[str]:
    return ["93.184.216.34"]  # never connected to: the receiver is a fake


async def test_a_claim_between_a_writes_index_and_its_commit_loses_none_of_its_events() -> None:
    stepped = SteppedStore(MemoryTableStore())
    time = Time()
    delivered: list[str] = []

    async def send(url: str, body: bytes, headers: dict[str, str]) -> int:
        delivered.append(json.loads(body)["event"]["type"])
        return 204

    dispatcher = Dispatcher(
        stepped.store, "secret", send, clock=time, targets=Targets(resolve=_public)
    )
    service = TableService(
        stepped.store, Authority((), "claims"), clock=time, dispatcher=dispatcher
    )
    hook = Webhook(url="https://receiver.example/hook", events=["played"])
    created, _ = await service.create("t", SMALL, PLATFORM, webhook=hook)
    assert await dispatcher.tick() == 0  # nothing subscribed yet: claimed and given back

    async def claimed_before_the_commit(call: Call, proceed: Proceed) -> Any:
        if call.operation == "compare_and_set":
            await dispatcher.tick()  # the write's index update is in; its events are not
        return await proceed()

    with stepped.stepping(claimed_before_the_commit):
        await service.move("t", PLATFORM, PlayMove(0, ["7S", "7H"]), created.version)
    for _ in range(3):
        await dispatcher.tick()
        time.now += 61
    assert delivered == ["played"]
