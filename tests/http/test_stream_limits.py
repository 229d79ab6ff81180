"""Open streams per credential, table, address and process (http/stream_slots.py, docs/deploy.md
"Streams"); tests/http/test_one_caller.py runs them against ``baohuang serve``."""

from __future__ import annotations

import httpx
import pytest

from baohuang.http.problems import Problem
from baohuang.http.settings import Settings
from baohuang.http.stream_slots import StreamLimits, StreamSlots, stream_capacity
from baohuang.tables import Caller
from caller_support import Streams, bearer
from live_server import LiveServer
from table_support import SMALL_BODY

pytestmark = pytest.mark.anyio

SEAT_1 = Caller("seat", 1, "a" * 16)
SEAT_2 = Caller("seat", 2, "a" * 16)
SPECTATOR = Caller("spectator", None, "a" * 16)
PLATFORM = Caller("platform")


def refused(slots: StreamSlots, caller: Caller, table: str, address: str) -> tuple[int, str, str]:
    with pytest.raises(Problem) as caught:
        slots.take(caller, table, address)
    problem = caught.value
    assert problem.headers is not None
    return problem.status_code, problem.document.errors[0].code, problem.headers["Retry-After"]


def test_each_limit_refuses_the_stream_past_it_and_a_release_gives_the_slot_back() -> None:
    slots = StreamSlots(StreamLimits(per_credential=2, per_table=5, per_address=3, per_process=7))
    held = [slots.take(SEAT_1, "t", "10.0.0.1") for _ in range(2)]
    assert refused(slots, SEAT_1, "t", "10.0.0.2") == (429, "TOO_MANY_STREAMS", "5")  # credential
    held.append(slots.take(SEAT_2, "t", "10.0.0.1"))
    assert refused(slots, SPECTATOR, "t", "10.0.0.1") == (429, "TOO_MANY_STREAMS", "5")  # address
    # The same seat of another table is another credential; a platform has neither limit.
    held.append(slots.take(SEAT_1, "u", "10.0.0.9"))
    held += [slots.take(PLATFORM, "t", "10.0.0.1") for _ in range(2)]
    assert refused(slots, PLATFORM, "t", "10.0.0.1") == (429, "TOO_MANY_STREAMS", "5")  # table
    held.append(slots.take(PLATFORM, "v", "10.0.0.1"))
    assert slots.total == 7
    assert refused(slots, PLATFORM, "w", "10.0.0.1")[:2] == (503, "OVERLOADED")  # process
    held[0].release()
    held[0].release()  # once only
    assert slots.total == 6
    held.append(slots.take(SEAT_1, "t", "10.0.0.1"))
    for slot in held:
        slot.release()
    assert slots.total == 0 and not slots._open  # nothing kept per caller once all ended


def test_streams_never_take_the_reserve_of_the_connection_cap() -> None:
    assert stream_capacity(2048, 128) == 1920
    assert stream_capacity(40, 128) == 20  # a reserve above half a small cap leaves half
    assert stream_capacity(1, 128) == 1


def test_settings_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "BAOHUANG_MAX_STREAMS_PER_CREDENTIAL": "4",
            "BAOHUANG_MAX_STREAMS_PER_TABLE": "50",
            "BAOHUANG_MAX_STREAMS_PER_ADDRESS": "9",
            "BAOHUANG_STREAM_RESERVE": "16",
            "BAOHUANG_RATE_LIMIT_AUTH_FAILURES": "60/minute",
            "BAOHUANG_PROBE_PORT": "8081",
        }
    )
    assert settings.probe_port == 8081 and Settings.from_env({}).probe_port is None
    assert (
        settings.max_streams_per_credential,
        settings.max_streams_per_table,
        settings.max_streams_per_address,
        settings.stream_reserve,
        settings.rate_limit_auth_failures,
    ) == (4, 50, 9, 16, "60/minute")
    defaults = Settings.from_env({})
    assert (
        defaults.max_streams_per_credential,
        defaults.max_streams_per_table,
        defaults.max_streams_per_address,
        defaults.stream_reserve,
        defaults.rate_limit_auth_failures,
    ) == (32, 256, 64, 128, None)
    with pytest.raises(ValueError, match="BAOHUANG_MAX_STREAMS_PER_TABLE"):
        Settings.from_env({"BAOHUANG_MAX_STREAMS_PER_TABLE": "0"})
    with pytest.raises(ValueError, match="BAOHUANG_PROBE_PORT"):
        Settings.from_env({"BAOHUANG_PROBE_PORT": "http"})


async def test_a_stream_refused_before_it_starts_gives_its_slot_back() -> None:
    """A stream of a table that is not there is 404 after its slot was taken: the slot comes
    back, so the table's one stream can open once the table exists."""
    settings = Settings(api_keys=("k",), token_secret="s", max_streams_per_table=1)
    async with LiveServer(settings) as server, Streams(server.url) as streams:
        assert (await streams.open("later", "k")).status == 404
        async with httpx.AsyncClient(base_url=server.url, trust_env=False) as client:
            created = await client.put(
                "/v1/tables/later", json={"snapshot": SMALL_BODY}, headers=bearer("k")
            )
            assert created.status_code == 201
        assert (await streams.open("later", "k")).status == 200
        assert (await streams.open("later", created.json()["spectator_token"])).status == 429
