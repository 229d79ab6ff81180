"""A retried move is answered 200 again only from where its write lives (docs/clients.md
"Idempotency"): the remembered answer is read again, in one step, where the store proves it holds
it (``TableStore.replay``), and the move's events must be in the log. The in-memory store here,
with the store's calls stepped (tests/stepped_store.py): the fast twins of the Sentinel tests of
tests/tables/test_replays_through_failover.py (on Redis, the proof and its ``WAIT`` leave on one
connection: tests/store/test_redis_modes.py)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from baohuang.engine import PlayMove
from baohuang.store import MemoryTableStore, StoreOutcomeUnknown
from baohuang.tables import Authority, TableService
from baohuang.tables.callers import PLATFORM
from stepped_store import Call, Proceed, SteppedStore
from table_support import SMALL

pytestmark = pytest.mark.anyio

MOVE = PlayMove(0, ["7S", "7H"])
KEY = "the-move"


async def _moved(service: TableService, table: str) -> None:
    await service.create(table, SMALL, PLATFORM)
    answer = await service.move(table, PLATFORM, MOVE, 1, idempotency_key=KEY)
    assert answer.version == 2 and answer.events


@pytest.fixture
def stepped() -> SteppedStore:
    return SteppedStore(MemoryTableStore())


def _service(stepped: SteppedStore) -> TableService:
    """A process that did not make the move (it judges the retry on the store, not on its
    memory of its own last write)."""
    return TableService(stepped.store, Authority((), "replays"))


async def test_a_replay_gives_the_first_answer_with_its_event_ids(stepped: SteppedStore) -> None:
    first = _service(stepped)
    await _moved(first, "t")
    with stepped.stepping() as calls:
        again = await _service(stepped).move("t", PLATFORM, MOVE, 1, idempotency_key=KEY)
    assert again.replayed and again.version == 2
    assert all(event.id for event in again.events)
    assert [call.operation for call in calls] == ["get", "replay", "read_events", "get"]


async def test_a_replay_whose_record_is_gone_where_it_is_proven_is_503_never_200(
    stepped: SteppedStore,
) -> None:
    """Found by the retry's read, then a failover to a node without it (the record, and the
    move it was written with, are not there): not confirmed."""
    await _moved(_service(stepped), "t")
    memory = stepped.inner
    assert isinstance(memory, MemoryTableStore)

    async def lost_after_found(call: Call, proceed: Proceed) -> Any:
        result = await proceed()
        if call.operation == "get" and result.remembered is not None:
            memory._tables["t"].remembered.clear()  # what the promoted replica holds
        return result

    with stepped.stepping(lost_after_found), pytest.raises(StoreOutcomeUnknown):
        answer = await _service(stepped).move("t", PLATFORM, MOVE, 1, idempotency_key=KEY)
        pytest.fail(f"answered a move the store no longer holds: {answer}")


async def test_a_replay_of_the_current_deal_whose_events_are_not_in_the_log_is_503_never_200(
    stepped: SteppedStore,
) -> None:
    """The record is there, the log is not as it answered (rolled back beneath it, another
    write in its place): never a 200 without ids, as replays used to answer."""
    await _moved(_service(stepped), "t")

    async def log_rolled_back(call: Call, proceed: Proceed) -> Any:
        result = await proceed()
        if call.operation == "read_events":
            return msgspec.structs.replace(result, events=[], last_seq=1)
        return result

    with stepped.stepping(log_rolled_back), pytest.raises(StoreOutcomeUnknown):
        answer = await _service(stepped).move("t", PLATFORM, MOVE, 1, idempotency_key=KEY)
        pytest.fail(f"answered a move whose events the log does not hold: {answer}")


async def test_a_remembered_refusal_is_given_again_without_a_proof(stepped: SteppedStore) -> None:
    """A refusal changed nothing: no replica needs to hold it."""
    service = _service(stepped)
    await service.create("t", SMALL, PLATFORM)
    wrong = PlayMove(1, ["8S", "8H"])
    with pytest.raises(Exception, match="turn") as first:
        await service.move("t", PLATFORM, wrong, 1, idempotency_key=KEY)
    with stepped.stepping() as calls, pytest.raises(type(first.value)):
        await _service(stepped).move("t", PLATFORM, wrong, 1, idempotency_key=KEY)
    assert [call.operation for call in calls] == ["get"]
