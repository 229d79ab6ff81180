"""One caller flooding ``POST /v1/bots/suggest`` at the search level takes no more than its
share (docs/deploy.md "Bot suggestions", docs/bots-service.md).

* Its cap, exactly: with ``BAOHUANG_SUGGEST_PER_CALLER`` = N, N of its searches think, the next
  is 429 ``TOO_MANY_SUGGESTIONS``, and another caller is answered meanwhile (a gate the test
  opens, no timing).
* Over its cap, the refusal is decided by the caller's key and the body's level alone, before
  the body is checked, with the same document and headers.
* Against a real ``baohuang serve`` on a real Redis (and, briefly, on its memory store in the
  quick loop): while the flood runs, another table's moves go on, the bot seats keep moving
  (each after its delay and its level's floor, never sooner), another caller's search is
  answered, and the searches run in worker processes that the service stops when it stops.
  How much slower the other table's moves get is measured by ``bench/bots_bench.py``
  (RESULTS.md); here only a real stall (seconds) fails.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from baohuang.bots import BotInput, Level
from baohuang.bots.levels import DEFAULT_BUDGET_MS, first_thoughts, floor_ms
from baohuang.engine import Move, Snapshot, legal_moves, seat_view
from baohuang.http.settings import Settings
from live_server import LiveServer, ProcessServer
from redis_server import RedisServer
from table_support import advanced_position

pytestmark = pytest.mark.anyio

FLOODER = "suggest-flooder-key"
OTHER = "suggest-other-key"
CAP = 3
BOT_DELAY = 0.2
FLOOD = 40
"""Search suggestions the flooder keeps in flight (its cap lets two think; the rest are 429)."""
FLOOD_SECONDS = 8.0
SHORT_FLOOD_SECONDS = 4.0
"""Long enough for one of the flooder's searches (2 s budget, 1.9 s floor) to be answered and a
bot move (0.2 s delay, 0.9 s floor) to fall due during the flood."""
STALL = 1.0
"""Seconds that only a stall reaches: a move on another table, or a bot move beyond its delay
and floor. Quiet, a move takes milliseconds; before the searches moved to worker processes, a
flood held other tables' moves at p99 2.3 s and a bot seat 3.2 s late."""


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def in_play() -> Snapshot:
    """A classic deal in play, where a search has candidates to weigh."""
    rng = random.Random(3)
    for seed in range(20261203, 20261303):
        snapshot = advanced_position("classic", seed, 0, 40, rng)
        if snapshot.phase == "play" and not snapshot.over and len(legal_moves(snapshot)) > 2:
            return snapshot
    raise AssertionError("no deal in play among the seeds")


def in_play_view() -> dict[str, Any]:
    snapshot = in_play()
    view: dict[str, Any] = msgspec.to_builtins(seat_view(snapshot, snapshot.turn))
    return view


class HeldThinkers:
    """Stands in for the bot workers: the first ``held`` searches wait for the gate to open,
    any later one is answered at once (the heuristic's move)."""

    def __init__(self, held: int) -> None:
        self.held = held
        self.waiting = 0
        self.arrived = asyncio.Event()
        self.gate = asyncio.Event()

    async def think(
        self, bot: BotInput, level: Level, *, budget_ms: float | None, seed: int, **_: Any
    ) -> Move:
        if level == "search" and self.held > 0:
            self.held -= 1
            self.waiting += 1
            if self.held == 0:
                self.arrived.set()
            await self.gate.wait()
            self.waiting -= 1
        return first_thoughts(bot, seed)[1]


async def test_a_caller_has_exactly_its_cap_of_searches_in_flight_and_others_still_get_theirs() -> (
    None
):
    """With the cap at N, N of one caller's searches think at once, the next is 429, another
    caller is answered meanwhile, and the slots come back with the answers. The searches wait
    on a gate the test opens: no timing involved."""
    settings = Settings(api_keys=(FLOODER, OTHER), suggest_per_caller=CAP, access_log=False)
    request = {"view": in_play_view(), "level": "search", "budget_ms": 2000}
    flooder = bearer(FLOODER)
    server = LiveServer(settings)
    async with server, httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        app = server.app
        held = HeldThinkers(CAP)
        app.state.suggestions.thinkers = held
        in_flight = [
            asyncio.create_task(client.post("/v1/bots/suggest", json=request, headers=flooder))
            for _ in range(CAP)
        ]
        await asyncio.wait_for(held.arrived.wait(), 10)
        assert held.waiting == CAP
        assert app.state.suggestions.in_flight(b"credential\x00" + FLOODER.encode()) == CAP
        refused = await client.post("/v1/bots/suggest", json=request, headers=flooder)
        assert refused.status_code == 429, refused.text
        assert refused.json()["errors"][0]["code"] == "TOO_MANY_SUGGESTIONS"
        assert refused.headers["retry-after"] == "1"
        other = await client.post("/v1/bots/suggest", json=request, headers=bearer(OTHER))
        assert other.status_code == 200, other.text
        assert held.waiting == CAP  # the flooder's searches are still thinking
        held.gate.set()
        answers = await asyncio.gather(*in_flight)
        assert [answer.status_code for answer in answers] == [200] * CAP
        again = await client.post("/v1/bots/suggest", json=request, headers=flooder)
        assert again.status_code == 200, again.text  # its slots came back with the answers


async def test_a_caller_over_its_cap_is_refused_before_its_body_is_checked() -> None:
    """Over its cap, a caller's search is refused by its key and the body's level alone (the
    cheap way: a flood of refusals costs the event loop little), with the same document and
    headers (CORS included) as any refusal; its heuristic suggestions are still answered, and
    its bad bodies still refused for what is wrong with them."""
    origin = "https://game.example"
    settings = Settings(
        api_keys=(FLOODER, OTHER),
        suggest_per_caller=CAP,
        access_log=False,
        cors_origins=(origin,),
    )
    view = in_play_view()
    flooder = {**bearer(FLOODER), "Origin": origin}
    server = LiveServer(settings)
    async with server, httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        held = HeldThinkers(CAP)
        server.app.state.suggestions.thinkers = held
        search = {"view": view, "level": "search", "budget_ms": 2000}
        in_flight = [
            asyncio.create_task(client.post("/v1/bots/suggest", json=search, headers=flooder))
            for _ in range(CAP)
        ]
        await asyncio.wait_for(held.arrived.wait(), 10)
        no_view = {"level": "search", "seed": -1}  # two faults the handler would name
        refused = await client.post("/v1/bots/suggest", json=no_view, headers=flooder)
        assert refused.status_code == 429, refused.text
        problem = refused.json()
        assert problem["errors"][0]["code"] == "TOO_MANY_SUGGESTIONS"
        assert problem["instance"] == f"urn:request:{refused.headers['x-request-id']}"
        assert refused.headers["retry-after"] == "1"
        assert refused.headers["access-control-allow-origin"] == origin
        heuristic = {"view": view, "level": "heuristic"}
        answered = await client.post("/v1/bots/suggest", json=heuristic, headers=flooder)
        assert answered.status_code == 200, answered.text
        bad = await client.post("/v1/bots/suggest", json={"level": "heuristic"}, headers=flooder)
        assert bad.status_code == 400, bad.text  # no view: what the handler says
        broken = await client.post(
            "/v1/bots/suggest", content=b'{"level": "search"', headers=flooder
        )
        assert broken.status_code == 400, broken.text  # not JSON: the handler says so
        assert held.waiting == CAP
        held.gate.set()
        answers = await asyncio.gather(*in_flight)
        assert [answer.status_code for answer in answers] == [200] * CAP


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with RedisServer.from_environment() as server:
        yield server.url


async def _flood(base: str, view: dict[str, Any], until: float, codes: list[int]) -> None:
    """One of the flooder's connections: search suggestions back to back until ``until``."""
    body = {"view": view, "level": "search", "budget_ms": 2000}
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as client:
        while time.monotonic() < until:
            answer = await client.post("/v1/bots/suggest", json=body, headers=bearer(FLOODER))
            codes.append(answer.status_code)
            if answer.status_code == 429:
                assert answer.json()["errors"][0]["code"] == "TOO_MANY_SUGGESTIONS"
                await asyncio.sleep(0.05)


async def _play(client: httpx.AsyncClient, until: float, least: int = 5) -> list[float]:
    """Another platform's table, played move after move by the platform until ``until`` and
    for ``least`` moves at least (a loaded machine may take seconds to create the table):
    each move's time."""
    times: list[float] = []
    rng = random.Random(4)

    def more() -> bool:
        return time.monotonic() < until or len(times) < least

    while more():
        tid = f"suggest-other-{uuid.uuid4().hex}"
        snapshot = advanced_position("classic", rng.randrange(1 << 30), 0, 0, rng)
        body = {"snapshot": msgspec.to_builtins(snapshot)}
        created = await client.put(f"/v1/tables/{tid}", json=body, headers=bearer(OTHER))
        assert created.status_code == 201, created.text
        version = created.json()["version"]
        while not snapshot.over and more():
            move = rng.choice(legal_moves(snapshot))
            started = time.monotonic()
            moved = await client.post(
                f"/v1/tables/{tid}/moves",
                json={"move": msgspec.to_builtins(move), "version": version},
                headers=bearer(OTHER),
            )
            times.append(time.monotonic() - started)
            assert moved.status_code == 200, moved.text
            answer = moved.json()
            version = answer["version"]
            snapshot = msgspec.convert(answer["view"], Snapshot)
    return times


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (its bot workers and their fork server), from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def _gone(pids: set[int], timeout: float = 10.0) -> bool:
    """Whether every one of ``pids`` has exited, waiting up to ``timeout`` (the fork server
    and the resource tracker leave as soon as they see the service's end of their pipe go)."""
    async with asyncio.timeout(timeout):
        while any(_alive(pid) for pid in pids):
            await asyncio.sleep(0.05)
    return True


def _waits_after_deadlines(
    events: list[dict[str, Any]], started: float, ended: float
) -> list[float]:
    """For each bot move whose seat's deadline fell between ``started`` and ``ended``: how long
    after that deadline (the ``clock`` event the move before it wrote) the move was logged.

    A bot's delay counts from when the move before it was judged, which is the deadline's
    ``BOT_DELAY`` before; the move's ``at`` is when its write was made, later by that write's
    time (under the flood, up to a few hundred milliseconds). So the gap between two moves' ``at``
    can be that much under ``BOT_DELAY`` + the floor although every bot waited both: the
    deadline the log announces is what a move is measured against."""
    waits: list[float] = []
    deadline: dict[str, Any] | None = None
    for event in events:
        if event["type"] == "clock":
            deadline = event
        elif event["type"] == "move" and deadline is not None and deadline["deadline"] is not None:
            assert deadline["seat"] == event["move"]["seat"], (deadline, event)
            if started <= deadline["deadline"] <= ended:
                waits.append(event["at"] - deadline["deadline"])
    return waits


def _p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


@pytest.mark.slow
@pytest.mark.redis
async def test_a_search_flood_leaves_other_tables_and_bot_seats_moving(redis_url: str) -> None:
    await _flood_beside_a_table_and_bots(
        {"REDIS_URL": redis_url}, FLOOD_SECONDS, least_moves=3, quiet_seconds=2.0, stall_bounds=True
    )


async def test_a_short_search_flood_leaves_other_tables_and_bot_seats_moving() -> None:
    """The quick twin of the one above: the same real processes, on the service's own memory
    store, for a flood just long enough that one of the flooder's searches is answered. It
    checks order and counts only: beside two busy loops the quick loop's own workers held a
    move on the other table 1.1 s, so the bounds in seconds are the slow test's (CI) and
    bench/bots_bench.py's. Before the flood the other table plays a few moves, not two
    seconds' worth: with no bound to compare them with, they show only that it moves."""
    await _flood_beside_a_table_and_bots(
        {}, SHORT_FLOOD_SECONDS, least_moves=1, quiet_seconds=0.0, stall_bounds=False
    )


async def _flood_beside_a_table_and_bots(
    environment: dict[str, str],
    seconds: float,
    least_moves: int,
    *,
    quiet_seconds: float,
    stall_bounds: bool,
) -> None:
    """A real ``baohuang serve`` flooded for ``seconds`` while five search bots play and
    another platform plays a table (for ``quiet_seconds`` before the flood, and five moves at
    least); ``least_moves``: the bot moves due during the flood; ``stall_bounds``: whether no
    move, the other table's or a bot's, took :data:`STALL` more than it should."""
    server = ProcessServer(
        {
            **environment,
            "BAOHUANG_API_KEYS": f"{FLOODER},{OTHER}",
            "BAOHUANG_TOKEN_SECRET": "suggestions",
            "BAOHUANG_BOT_DELAY_SECONDS": str(BOT_DELAY),
            "BAOHUANG_ACCESS_LOG": "false",
            "NO_PROXY": "127.0.0.1",
        }
    )
    view = in_play_view()
    floor = floor_ms("search", DEFAULT_BUDGET_MS) / 1000
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as client:
            await server.start()
            tid = f"suggest-bots-{uuid.uuid4().hex}"
            bots = [{"seat": seat, "level": "search"} for seat in range(5)]
            body = {"snapshot": msgspec.to_builtins(in_play()), "bots": bots}
            created = await client.put(f"/v1/tables/{tid}", json=body, headers=bearer(OTHER))
            assert created.status_code == 201, created.text
            quiet = await _play(client, time.monotonic() + quiet_seconds)
            codes: list[int] = []
            started = time.time()
            until = time.monotonic() + seconds
            flood = [
                asyncio.create_task(_flood(server.url, view, until, codes)) for _ in range(FLOOD)
            ]
            await asyncio.sleep(1.0)  # the flood is on
            pid = server.pid
            workers = _descendants(pid)
            other = await client.post(
                "/v1/bots/suggest",
                json={"view": view, "level": "search", "budget_ms": 200},
                headers=bearer(OTHER),
            )
            flooded = await _play(client, until - 0.5)
            await asyncio.gather(*flood)
            ended = time.time()
            page = await client.get(f"/v1/tables/{tid}/events", headers=bearer(OTHER))
            assert page.status_code == 200, page.text
            assert await server.terminate() == -signal.SIGTERM  # stopped gracefully
    finally:
        await server.stop()
    assert other.status_code == 200, other.text  # another caller's search, during the flood
    assert codes.count(429) > 0 and codes.count(200) > 0, codes
    assert not [code for code in codes if code >= 500], codes
    events = page.json()["events"]
    moves = [e for e in events if e["type"] == "move"]
    assert all(move["by"] == "bot" for move in moves)
    waits = _waits_after_deadlines(events, started, ended)
    assert len(waits) >= least_moves, waits  # the bots kept moving through the flood
    # Each after its delay and its floor, never sooner (timing says nothing of the hand) ...
    assert min(waits) >= floor - 0.05, waits
    assert quiet and flooded  # the other table moved before and during the flood
    if stall_bounds:  # ... and neither it nor the bots were held up behind the flood
        assert max(waits) < floor + STALL, waits
        assert _p99(flooded) < STALL, (_p99(quiet), _p99(flooded))
    # The searches think in worker processes, and the service stopped every one of them.
    assert workers, "no bot worker processes under the service"
    assert await _gone(workers), workers


@pytest.mark.slow
async def test_the_bot_workers_leave_with_a_service_killed_outright() -> None:
    """SIGKILL leaves the service no time to stop its workers: they leave by themselves (before,
    they waited for work forever, and kept the fork server alive with them)."""
    server = ProcessServer({"BAOHUANG_ACCESS_LOG": "false", "NO_PROXY": "127.0.0.1"})
    body = {"view": in_play_view(), "level": "search", "budget_ms": 300}
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as client:
            await server.start()
            workers: set[int] = set()
            for _ in range(20):  # the pool starts with the first search
                answer = await client.post("/v1/bots/suggest", json=body)
                assert answer.status_code == 200, answer.text
                workers = _descendants(server.pid)
                if len(workers) >= 4:
                    break
            assert workers, "no bot worker processes under the service"
    finally:
        await server.stop()  # SIGKILL
    assert await _gone(workers), workers
