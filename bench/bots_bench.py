"""The bots' timing and isolation (bench/RESULTS.md section 25).

    flock /tmp/bench.lock .venv/bin/python bench/bots_bench.py [budget] [flood] [polite]

``budget``: searches through the service's bot workers (:class:`baohuang.bots.thinkers.Thinkers`,
real worker processes, the real clock), on positions in play from random deals, each budget
alone and then under a CPU hog (one spinning process per CPU, at the service's own priority):
the answer's time over its budget, p50/p99/max. Beside it, forced moves (one legal move) and
free ones of both levels: their median times, which pacing should make equal.

``flood``: a real ``baohuang serve`` on a redis-server of its own. Another platform's table is
played move after move (each move's time), first quietly, then while one platform key floods
``POST /v1/bots/suggest`` at the search level from 40 connections; a table of five search bots
plays all along. Reported: the other table's move p50/p99 quiet and flooded and their ratio,
the bot moves' gaps (delay + floor expected) during the flood, and the flooder's 200/429 counts.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import httpx
import msgspec

from baohuang.bots import BotInput, Level
from baohuang.bots.levels import DEFAULT_BUDGET_MS
from baohuang.bots.thinkers import Thinkers
from baohuang.engine import Snapshot, legal_moves, seat_view
from bots.deals import RULESETS, walk
from live_server import ProcessServer
from redis_server import RedisServer
from table_support import advanced_position

FLOODER, OTHER = "bench-flooder", "bench-other"
BOT_DELAY = 0.2


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def positions(count: int) -> tuple[list[Snapshot], list[Snapshot]]:
    """``count`` positions in play with several legal moves, and the forced ones met on the way."""
    free: list[Snapshot] = []
    forced: list[Snapshot] = []
    for seed in itertools.count():
        snapshot, _ = walk(seed, seed % len(RULESETS), 40 + seed % 250, settle=True, by_bots=0.5)
        if snapshot.phase != "play":
            continue
        moves = len(legal_moves(snapshot))
        if moves == 1 and len(forced) < count:
            forced.append(snapshot)
        elif moves > 2 and len(free) < count:
            free.append(snapshot)
        if len(free) >= count and (len(forced) >= count // 4 or seed > 20 * count):
            return free, forced
    raise AssertionError("unreachable")


def _spin() -> None:
    while True:
        pass


async def _timed(thinkers: Thinkers, snapshot: Snapshot, level: Level, budget: float) -> float:
    bot = BotInput(view=seat_view(snapshot, snapshot.turn))
    started = time.monotonic()
    await thinkers.think(bot, level, budget_ms=budget, seed=1)
    return time.monotonic() - started


async def budget_part(count: int) -> None:
    free, forced = positions(count)
    thinkers = Thinkers(2)
    thinkers.start()
    while len(thinkers.pids()) < thinkers.processes:
        await asyncio.sleep(0.1)  # the workers are up
    for snapshot in free[:10]:  # and have thought once (imports, caches): not measured
        await _timed(thinkers, snapshot, "search", 200.0)
    try:
        for hog in (False, True):
            spinners = []
            if hog:
                for _ in range(os.cpu_count() or 1):
                    spinner = multiprocessing.get_context("fork").Process(target=_spin, daemon=True)
                    spinner.start()
                    spinners.append(spinner)
            try:
                label = "under a CPU hog" if hog else "alone"
                for budget in (200.0, DEFAULT_BUDGET_MS):
                    runs = free[: count if budget < DEFAULT_BUDGET_MS else count // 3]
                    ratios = [
                        await _timed(thinkers, s, "search", budget) / (budget / 1000) for s in runs
                    ]
                    print(
                        f"search {budget:.0f} ms {label}: n={len(ratios)} "
                        f"p50 {quantile(ratios, 0.5):.3f} p99 {quantile(ratios, 0.99):.3f} "
                        f"max {max(ratios):.3f} (answer time / budget)",
                        flush=True,
                    )
                levels: list[tuple[Level, float]] = [
                    ("heuristic", DEFAULT_BUDGET_MS),
                    ("search", 200.0),
                ]
                for level, budget in levels:
                    rows = []
                    for name, group in (("forced", forced), ("free", free[: len(forced)])):
                        times = [await _timed(thinkers, s, level, budget) * 1000 for s in group]
                        rows.append(
                            f"{name} median {statistics.median(times):.1f} ms (n={len(times)})"
                        )
                    print(f"{level} {label}: " + ", ".join(rows), flush=True)
            finally:
                for spinner in spinners:
                    spinner.kill()
                    spinner.join()
    finally:
        await thinkers.stop()


async def _flood(
    base: str, view: dict[str, Any], until: float, codes: list[int], pause: float
) -> None:
    body = {"view": view, "level": "search", "budget_ms": 2000}
    headers = {"Authorization": f"Bearer {FLOODER}"}
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as client:
        while time.monotonic() < until:
            answer = await client.post("/v1/bots/suggest", json=body, headers=headers)
            codes.append(answer.status_code)
            if answer.status_code == 429:
                await asyncio.sleep(pause)


def _flood_process(
    base: str, view: dict[str, Any], seconds: float, codes: Any, pause: float
) -> None:
    """The flooder, in a process of its own (as it would be on another host): its connections'
    work never delays the measuring client's loop."""

    async def run() -> None:
        found: list[int] = []
        until = time.monotonic() + seconds
        await asyncio.gather(*(_flood(base, view, until, found, pause) for _ in range(40)))
        codes.extend(found)

    asyncio.run(run())


async def _play(client: httpx.AsyncClient, until: float, rng: random.Random) -> list[float]:
    headers = {"Authorization": f"Bearer {OTHER}"}
    times: list[float] = []
    while time.monotonic() < until:
        tid = f"bench-other-{uuid.uuid4().hex}"
        snapshot = advanced_position("classic", rng.randrange(1 << 30), 0, 0, rng)
        created = await client.put(
            f"/v1/tables/{tid}", json={"snapshot": msgspec.to_builtins(snapshot)}, headers=headers
        )
        version = created.json()["version"]
        while not snapshot.over and time.monotonic() < until:
            move = rng.choice(legal_moves(snapshot))
            started = time.monotonic()
            moved = await client.post(
                f"/v1/tables/{tid}/moves",
                json={"move": msgspec.to_builtins(move), "version": version},
                headers=headers,
            )
            times.append(time.monotonic() - started)
            answer = moved.json()
            version = answer["version"]
            snapshot = msgspec.convert(answer["view"], Snapshot)
    return times


def _in_play() -> Snapshot:
    rng = random.Random(3)
    for seed in range(20261203, 20261303):
        snapshot = advanced_position("classic", seed, 0, 40, rng)
        if snapshot.phase == "play" and not snapshot.over and len(legal_moves(snapshot)) > 2:
            return snapshot
    raise AssertionError("no deal in play")


async def flood_part(seconds: float, pause: float) -> None:
    """``pause``: how long a flooding connection waits after a 429 (0.05 s: a hostile caller;
    1 s: one that honours ``Retry-After``)."""
    with RedisServer.from_environment() as redis:
        server = ProcessServer(
            {
                "REDIS_URL": redis.url,
                "BAOHUANG_API_KEYS": f"{FLOODER},{OTHER}",
                "BAOHUANG_TOKEN_SECRET": "bots-bench",
                "BAOHUANG_BOT_DELAY_SECONDS": str(BOT_DELAY),
                "BAOHUANG_ACCESS_LOG": "false",
                "NO_PROXY": "127.0.0.1",
            }
        )
        snapshot = _in_play()
        view = msgspec.to_builtins(seat_view(snapshot, snapshot.turn))
        headers = {"Authorization": f"Bearer {OTHER}"}
        async with (
            server,
            httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as client,
        ):
            tid = f"bench-bots-{uuid.uuid4().hex}"
            bots = [{"seat": seat, "level": "search"} for seat in range(5)]
            body = {"snapshot": msgspec.to_builtins(snapshot), "bots": bots}
            await client.put(f"/v1/tables/{tid}", json=body, headers=headers)
            rng = random.Random(5)
            await _play(client, time.monotonic() + 2.0, rng)  # warm-up
            quiet = await _play(client, time.monotonic() + seconds, rng)
            manager = multiprocessing.get_context("fork").Manager()
            shared = manager.list()
            started = time.time()
            flooder = multiprocessing.get_context("fork").Process(
                target=_flood_process, args=(server.url, view, seconds + 1.0, shared, pause)
            )
            flooder.start()
            await asyncio.sleep(1.0)
            flooded = await _play(client, time.monotonic() + seconds, rng)
            await asyncio.to_thread(flooder.join)
            ended = time.time()
            codes = list(shared)
            manager.shutdown()
            page = await client.get(f"/v1/tables/{tid}/events", headers=headers)
        moves = [e for e in page.json()["events"] if e["type"] == "move"]
        gaps = [
            b["at"] - a["at"]
            for a, b in itertools.pairwise(moves)
            if started <= a["at"] + BOT_DELAY <= ended
        ]
        q50, q99 = quantile(quiet, 0.5), quantile(quiet, 0.99)
        f50, f99 = quantile(flooded, 0.5), quantile(flooded, 0.99)
        print(f"flood retrying {pause} s after a 429:", flush=True)
        print(
            f"other table's moves: quiet n={len(quiet)} p50 {q50 * 1000:.1f} ms p99 {q99 * 1000:.1f} ms; "
            f"flooded n={len(flooded)} p50 {f50 * 1000:.1f} ms p99 {f99 * 1000:.1f} ms; "
            f"p99 ratio {f99 / q99:.2f}",
            flush=True,
        )
        print(
            f"bot moves during the flood: {len(gaps)}, gap min {min(gaps):.2f} s median "
            f"{statistics.median(gaps):.2f} s max {max(gaps):.2f} s (delay {BOT_DELAY} + floor "
            f"{DEFAULT_BUDGET_MS / 1000:.1f} s expected); flooder 200: {codes.count(200)}, "
            f"429: {codes.count(429)}, other: {len(codes) - codes.count(200) - codes.count(429)}",
            flush=True,
        )


def main() -> None:
    parts = sys.argv[1:] or ["budget", "flood"]
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()}", flush=True)
    if "budget" in parts:
        asyncio.run(budget_part(150))
    if "flood" in parts:
        asyncio.run(flood_part(8.0, 0.05))
    if "polite" in parts:
        asyncio.run(flood_part(8.0, 1.0))


if __name__ == "__main__":
    main()
