"""Failover under load: tables played through the HTTP API while Redis primaries are killed.

A real Redis Cluster (3 primaries, 3 replicas) and a real Sentinel setup (1 primary, 2 replicas,
3 Sentinels), built from the ``redis-server``/``redis-sentinel`` binaries (tests/redis_topologies.py).
Concurrent players drive tables with legal moves (the engine's ``legal_moves``) through one app
whose settings point at the setup, with ``WAIT`` for one replica (the default in these modes).
Meanwhile a primary is killed (``SIGKILL``), then another one right after its replica was frozen
for a second (``DEBUG SLEEP`` while the primary drops its link: writes of that second reach no
replica, and the service must not have confirmed any of them).

What must hold, checked on every answer and again at the end:

* no acknowledged move is lost: a table never reads older than its last 200 answer, and at that
  version it holds exactly the state that answer gave;
* no version is acknowledged for two different states;
* no 5xx other than 503 (with ``Retry-After``), and nothing else unexpected (404, 422…);
* the service recovers by itself: every table moves on again after each failover.

A killed node comes back as a new empty replica (as an operator or Kubernetes would replace it):
with ``WAIT 1`` a primary without any replica cannot confirm writes, so until then its tables
answer 503 ``OUTCOME_UNKNOWN``, which is the point.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from baohuang.engine import Snapshot, deal, legal_moves, opening_snapshot, ruleset_of
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from redis_server import RedisServer
from redis_topologies import SERVICE, cluster_setup, lag, sentinel_setup

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.slow]

KEY = "failover-platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
REQUEST_TIMEOUT = 10.0
"""No single request may take longer (the store answers within ~1-2 s even during failover)."""
RECOVERY_TIMEOUT = 45.0
"""Every table must move on again within this long after a kill (a loaded 2-core machine)."""

LAG_SECONDS = 1.5
"""How long a replica is cut off before its primary is killed (it is killed within this)."""

_decode_snapshot = msgspec.json.Decoder(Snapshot).decode


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Ledger:
    """Every answer the players got, and the invariants over them."""

    def __init__(self) -> None:
        self.acknowledged: dict[tuple[str, int], str] = {}  # (table, version) -> state
        self.last: dict[str, int] = {}  # table -> highest acknowledged version
        self.last_ok: dict[str, float] = {}  # table -> monotonic time of its last 200
        self.tried: dict[str, int] = {}  # table -> highest version any write may have made
        self.statuses: Counter[str] = Counter()
        self.violations: list[str] = []
        self.unknown_writes = 0
        self.unknown_lost = 0

    def acknowledge(self, table: str, version: int, state: Any) -> None:
        canonical = _canonical(state)
        seen = self.acknowledged.get((table, version))
        if seen is not None and seen != canonical:
            self.violations.append(f"{table} v{version} acknowledged for two different states")
        if version < self.last.get(table, 0):
            self.violations.append(
                f"{table}: v{version} acknowledged after v{self.last[table]}: a move was lost"
            )
        self.acknowledged[(table, version)] = canonical
        self.last[table] = max(version, self.last.get(table, 0))
        self.last_ok[table] = time.monotonic()

    def attempt(self, table: str, version: int) -> None:
        """A write against ``version`` is on its way: it may make ``version + 1``."""
        self.tried[table] = max(self.tried.get(table, 0), version + 1)

    def check_read(self, table: str, version: int, state: Any) -> None:
        """A read shows the last acknowledged write, or unconfirmed writes made after it (which
        may stand or be rolled back), never anything older, nor a version nobody wrote."""
        last = self.last.get(table, 0)
        if version < last:
            self.violations.append(f"{table}: reads v{version} after v{last} was acknowledged")
        elif version == last and self.acknowledged[(table, last)] != _canonical(state):
            self.violations.append(f"{table}: v{last} holds another state than acknowledged")
        elif version > self.tried.get(table, 0):
            self.violations.append(f"{table}: reads v{version}, but no write could make it")

    def answer(self, table: str, response: Any, expected: tuple[int, ...]) -> None:
        status = response.status_code
        code = ""
        if status >= 400:
            try:
                code = response.json()["errors"][0]["code"]
            except (ValueError, KeyError, IndexError, TypeError):
                code = "?"
        self.statuses[f"{status} {code}".strip()] += 1
        if status == 503 and response.headers.get("retry-after") != "1":
            self.violations.append(f"{table}: 503 without Retry-After")
        if status not in expected:
            self.violations.append(f"{table}: unexpected {status} {response.text[:300]}")


class Player:
    """One table, played by one client: PUT a deal, then legal moves, re-reading after a 503."""

    def __init__(self, client: AsyncTestClient[Any], table: str, ledger: Ledger, seed: int):
        self.client = client
        self.table = table
        self.ledger = ledger
        self.rng = random.Random(seed)
        self.version = 0
        self.instance: str | None = None
        self.state: Any = None  # None: unknown, read it again
        self.deals = 0

    @property
    def url(self) -> str:
        return f"/v1/tables/{self.table}"

    async def _request(self, method: str, url: str, **kwargs: Any) -> Any:
        async with asyncio.timeout(REQUEST_TIMEOUT):
            return await self.client.request(method, url, headers=PLATFORM, **kwargs)

    async def new_deal(self) -> None:
        self.deals += 1
        ruleset = "classic"
        snapshot = opening_snapshot(
            ruleset, deal(ruleset_of(ruleset), self.rng.randrange(1 << 30), self.deals % 5)
        )
        body = {"snapshot": msgspec.to_builtins(snapshot)}
        self.ledger.attempt(self.table, max(self.version, self.ledger.tried.get(self.table, 0)))
        response = await self._request("PUT", self.url, json=body)
        self.ledger.answer(self.table, response, (200, 201, 503))
        if response.status_code in (200, 201):
            answer = response.json()
            self.version, self.instance = answer["version"], answer["instance"]
            self.state = answer["snapshot"]
            self.ledger.acknowledge(self.table, self.version, self.state)
        else:
            self.state = None

    async def reread(self, deadline: float) -> bool:
        """Read the table until it answers (or ``deadline``); False when it never did."""
        while time.monotonic() < deadline:
            response = await self._request("GET", self.url)
            self.ledger.answer(self.table, response, (200, 404, 503))
            if response.status_code == 200:
                answer = response.json()
                self.ledger.check_read(self.table, answer["version"], answer["view"])
                self.version, self.instance = answer["version"], answer["instance"]
                self.state = answer["view"]
                return True
            if response.status_code == 404:
                if self.ledger.last.get(self.table):
                    self.ledger.violations.append(f"{self.table}: acknowledged table is gone")
                return False
            await asyncio.sleep(0.05)
        return False

    async def step(self, deadline: float) -> None:
        if self.state is None and not await self.reread(deadline):
            if not self.ledger.last.get(self.table):
                await self.new_deal()
            return
        moves = legal_moves(_decode_snapshot(json.dumps(self.state)))
        if not moves:  # the deal is over: the platform starts the next one on the same table
            await self.new_deal()
            return
        move = self.rng.choice(moves)
        body = {"move": msgspec.to_builtins(move), "version": self.version}
        if self.instance:
            body["instance"] = self.instance
        self.ledger.attempt(self.table, self.version)
        response = await self._request("POST", f"{self.url}/moves", json=body)
        self.ledger.answer(self.table, response, (200, 409, 503))
        if response.status_code == 200:
            answer = response.json()
            if answer["version"] != self.version + 1:
                self.ledger.violations.append(
                    f"{self.table}: move on v{self.version} answered v{answer['version']}"
                )
            self.version = answer["version"]
            self.state = answer["view"]
            self.ledger.acknowledge(self.table, self.version, self.state)
            return
        tried = self.version
        self.state = None  # 503 or 409: the outcome is unknown, re-read before anything else
        if response.status_code == 503 and await self.reread(deadline):
            self.ledger.unknown_writes += 1
            if self.version == tried:
                self.ledger.unknown_lost += 1

    async def play(self, stop: asyncio.Event, deadline: float) -> None:
        await self.new_deal()
        steps = 0
        while not stop.is_set() and time.monotonic() < deadline and steps < 100_000:
            await self.step(deadline)
            steps += 1
            await asyncio.sleep(0)
        if self.state is None:  # end on a known state
            await self.reread(deadline)


async def _unconfirmed_since(ledger: Ledger, before: int) -> bool:
    """While replicas are cut off, writes answer 503 OUTCOME_UNKNOWN: whether one did (bounded
    wait: the players may all be between writes, rereading after the last failover)."""
    deadline = time.monotonic() + LAG_SECONDS - 0.2
    while ledger.statuses["503 OUTCOME_UNKNOWN"] <= before and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return ledger.statuses["503 OUTCOME_UNKNOWN"] > before


async def _cut_off(
    ledger: Ledger, start: Callable[[], list[threading.Thread]], attempts: int = 3
) -> list[threading.Thread]:
    """Cut the replicas off (``start``) until a write is seen unconfirmed, at most ``attempts``
    times; the replicas are still cut off when this returns."""
    for _ in range(attempts):
        before = ledger.statuses["503 OUTCOME_UNKNOWN"]
        sleepers = start()
        if await _unconfirmed_since(ledger, before):
            return sleepers
        for sleeper in sleepers:
            await asyncio.to_thread(sleeper.join, 10)
    raise AssertionError(f"no write went unconfirmed while cut off: {dict(ledger.statuses)}")


async def _wait_all_moved_since(
    ledger: Ledger, tables: list[str], since: float, timeout: float
) -> float:
    """Wait until every table got a 200 after ``since``; returns how long after ``since`` the
    last of them did."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(ledger.last_ok.get(t, 0.0) > since for t in tables):
            return max(ledger.last_ok[t] for t in tables) - since
        await asyncio.sleep(0.05)
    stuck = [t for t in tables if ledger.last_ok.get(t, 0.0) <= since]
    raise AssertionError(
        f"no recovery within {timeout:g} s for {stuck}: {dict(ledger.statuses)} "
        f"{ledger.violations[:5]}"
    )


async def _run_players(
    settings: Settings,
    tables: list[str],
    scenario: Callable[[Ledger], Awaitable[None]],
    budget: float = 150.0,
) -> Ledger:
    """Play ``tables`` through one app while ``scenario`` runs; then check every table."""
    ledger = Ledger()
    stop = asyncio.Event()
    deadline = time.monotonic() + budget
    async with AsyncTestClient(create_app(settings), timeout=REQUEST_TIMEOUT) as client:
        players = [Player(client, t, ledger, seed) for seed, t in enumerate(tables)]
        tasks = [asyncio.create_task(p.play(stop, deadline)) for p in players]
        try:
            await _wait_all_moved_since(ledger, tables, 0.0, RECOVERY_TIMEOUT)
            await scenario(ledger)
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=False)
        for player in players:  # the end state: exactly what was acknowledged last
            response = await player._request("GET", player.url)
            assert response.status_code == 200, response.text
            answer = response.json()
            ledger.check_read(player.table, answer["version"], answer["view"])
    assert not ledger.violations, "\n".join(ledger.violations[:20])
    unexpected = [s for s in ledger.statuses if s[0] == "5" and not s.startswith("503")]
    assert not unexpected, dict(ledger.statuses)
    return ledger


def _settings(**redis: Any) -> Settings:
    return Settings(api_keys=(KEY,), token_secret="failover-test", **redis)


def _tables_by_node(
    primary_of: Callable[[str], RedisServer], count: int, per_node: int
) -> dict[int, list[str]]:
    """``per_node`` table ids on each of ``count`` primaries (by port)."""
    found: dict[int, list[str]] = {}
    for n in range(10_000):
        table = f"failover-{n}"
        port = primary_of(f"baohuang:table:{{{table}}}").port
        if len(found.setdefault(port, [])) < per_node:
            found[port].append(table)
        if len(found) == count and all(len(v) == per_node for v in found.values()):
            return found
    raise RuntimeError("could not place tables on every primary")


async def test_cluster_failovers_lose_no_acknowledged_move() -> None:
    with cluster_setup() as cluster:
        by_node = _tables_by_node(cluster.primary_of, 3, 2)
        tables = [t for group in by_node.values() for t in group]
        first, second = [group[0] for group in by_node.values()][:2]
        windows: list[float] = []

        async def fail_over(ledger: Ledger, table: str, lagging: bool) -> None:
            primary = cluster.primary_of(f"baohuang:table:{{{table}}}")
            replica = (await asyncio.to_thread(cluster.replicas_of, primary))[0]
            if lagging:  # the replica stops acknowledging; writes of this second stay unconfirmed
                sleepers = await _cut_off(ledger, lambda: [lag(replica, LAG_SECONDS, primary)])
            killed_at = time.monotonic()
            primary.kill()
            if lagging:
                for sleeper in sleepers:
                    await asyncio.to_thread(sleeper.join, 10)
            await asyncio.to_thread(cluster.wait_promoted, replica, RECOVERY_TIMEOUT)
            await asyncio.to_thread(cluster.rejoin, primary, replica, RECOVERY_TIMEOUT)
            windows.append(await _wait_all_moved_since(ledger, tables, killed_at, RECOVERY_TIMEOUT))

        async def scenario(ledger: Ledger) -> None:
            await fail_over(ledger, first, lagging=False)
            await fail_over(ledger, second, lagging=True)

        ledger = await _run_players(
            _settings(redis_url=cluster.url, redis_mode="cluster"), tables, scenario
        )
        print(
            f"cluster: {dict(ledger.statuses)}; unconfirmed writes {ledger.unknown_writes}, "
            f"rolled back {ledger.unknown_lost}; recovery {[round(w, 2) for w in windows]} s"
        )


async def test_sentinel_failovers_lose_no_acknowledged_move() -> None:
    with sentinel_setup() as setup:
        tables = [f"failover-s{n}" for n in range(4)]
        windows: list[float] = []

        async def fail_over(ledger: Ledger, lagging: bool) -> None:
            primary = setup.primary()
            if lagging:  # both replicas lag: nothing written now can be confirmed
                sleepers = await _cut_off(
                    ledger,
                    lambda: [lag(replica, LAG_SECONDS, primary) for replica in setup.replicas()],
                )
            killed_at = time.monotonic()
            primary.kill()
            if lagging:
                for sleeper in sleepers:
                    await asyncio.to_thread(sleeper.join, 10)
            await asyncio.to_thread(setup.wait_failover, primary, RECOVERY_TIMEOUT)
            await asyncio.to_thread(setup.rejoin, primary, RECOVERY_TIMEOUT)
            windows.append(await _wait_all_moved_since(ledger, tables, killed_at, RECOVERY_TIMEOUT))

        async def scenario(ledger: Ledger) -> None:
            await fail_over(ledger, lagging=False)
            await fail_over(ledger, lagging=True)

        settings = _settings(
            redis_url=setup.url, redis_mode="sentinel", redis_sentinel_service=SERVICE
        )
        ledger = await _run_players(settings, tables, scenario)
        print(
            f"sentinel: {dict(ledger.statuses)}; unconfirmed writes {ledger.unknown_writes}, "
            f"rolled back {ledger.unknown_lost}; recovery {[round(w, 2) for w in windows]} s"
        )
