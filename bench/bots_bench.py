"""The bots' timing and isolation (bench/RESULTS.md section 25).

    flock /tmp/bench.lock .venv/bin/python bench/bots_bench.py [budget] [flood] [polite]

``budget``: searches through the service's bot workers (:class:`baohuang.bots.thinkers.Thinkers`,
real worker processes, the real clock), 200 positions in play from random deals per budget,
alone and then under a CPU hog (one spinning process per CPU, at the service's own priority):
the answer's time over its budget, p50/p99/max, and the stages of the three latest answers
(:class:`~baohuang.bots.thinkers.Stages`). Beside it, forced moves (one legal move) and free
ones of both levels: their median times, which pacing should make equal.

``flood``: a real ``baohuang serve`` on a redis-server of its own. Another platform's table is
played move after move (each move's time), in rounds of a quiet part and a part while one
platform key floods ``POST /v1/bots/suggest`` at the search level from 40 connections of a
process of its own, retrying 50 ms after a 429 (``polite``: 1 s, as ``Retry-After`` asks); a
table of five search bots plays all along. Reported per round: the other table's move p50/p99
quiet and flooded and their ratio, the flooder's 200/429 counts, the server's and the
flooder's CPU; then the median ratio and the bot moves' gaps (delay + floor expected) during
the floods. ``BOTS_BENCH_SERVICE``: the ``service`` directory of another checkout, whose server
is run instead (a before/after with the same benchmark).
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
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import httpx
import msgspec

from baohuang.bots import BotInput, Level
from baohuang.bots.levels import DEFAULT_BUDGET_MS, floor_ms
from baohuang.bots.thinkers import Stages, Thinkers
from baohuang.engine import Snapshot, legal_moves, seat_view
from baohuang.http.collector import DEFAULT_THRESHOLDS, tune_collector
from bots.deals import RULESETS, walk
from live_server import ProcessServer
from redis_server import RedisServer
from table_support import advanced_position

FLOODER, OTHER = "bench-flooder", "bench-other"
BOT_DELAY = 0.2
PACED_PAIRS = 60
"""Forced and free moves timed side by side, of each level."""
FLOOD_ROUNDS = 5
"""Quiet and flooded parts, alternating: the figure is the median of the rounds' p99 ratios."""
FLOOD_BUDGET_MS = 2000


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


def _stages(stage: Stages) -> str:
    """Where one answer's time went, in ms after it was asked."""

    def ms(seconds: float | None) -> str:
        return "-" if seconds is None else f"{seconds * 1000:.1f}"

    return (
        f"first thoughts {ms(stage.thought)}, to a worker {ms(stage.submitted)}, its move back "
        f"{ms(stage.searched)}, floor {ms(stage.floor)}, answered {ms(stage.answered)}"
    )


async def budget_part(count: int) -> None:
    free, forced = positions(count)
    # As `baohuang serve` does once started: what exists now is never scanned again, so that a
    # full collection of the positions above never lands on an answer's deadline.
    tune_collector(DEFAULT_THRESHOLDS)
    stages: list[Stages] = []
    thinkers = Thinkers(2, observe=stages.append)
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
                    stages.clear()
                    ratios = [
                        await _timed(thinkers, s, "search", budget) / (budget / 1000)
                        for s in free[:count]
                    ]
                    late = sorted(zip(ratios, stages, strict=True), key=lambda pair: pair[0])
                    print(
                        f"search {budget:.0f} ms {label}: n={len(ratios)} "
                        f"p50 {quantile(ratios, 0.5):.3f} p99 {quantile(ratios, 0.99):.3f} "
                        f"max {max(ratios):.3f} (answer time / budget; paced to "
                        f"{floor_ms('search', budget) / budget:.2f})",
                        flush=True,
                    )
                    for ratio, stage in late[-3:]:
                        print(f"  {ratio:.3f}: {_stages(stage)}", flush=True)
                levels: list[tuple[Level, float]] = [
                    ("heuristic", DEFAULT_BUDGET_MS),
                    ("search", 200.0),
                ]
                for level, budget in levels:
                    rows = []
                    pairs = min(len(forced), PACED_PAIRS)
                    for name, group in (("forced", forced[:pairs]), ("free", free[:pairs])):
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
    """One of the flooder's connections, keep-alive HTTP/1.1 written and read by hand: an
    HTTP client library spends about a millisecond of CPU a request, which on a machine of
    two cores would measure the load generator rather than the service."""
    body = msgspec.json.encode({"view": view, "level": "search", "budget_ms": FLOOD_BUDGET_MS})
    request = (
        f"POST /v1/bots/suggest HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {FLOODER}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        while time.monotonic() < until:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.lower().split(b"\r\n")
                if line.startswith(b"content-length:")
            )
            await reader.readexactly(length)
            codes.append(status)
            if status == 429:
                await asyncio.sleep(pause)
    finally:
        writer.close()


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
        codes.append(-time.process_time())  # the flooder's own CPU seconds, negated

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


def _other_service() -> dict[str, str]:
    """The environment that runs the server of ``BOTS_BENCH_SERVICE``, if set."""
    other = os.environ.get("BOTS_BENCH_SERVICE")
    return {"PYTHONPATH": other} if other else {}


def _in_play() -> Snapshot:
    rng = random.Random(3)
    for seed in range(20261203, 20261303):
        snapshot = advanced_position("classic", seed, 0, 40, rng)
        if snapshot.phase == "play" and not snapshot.over and len(legal_moves(snapshot)) > 2:
            return snapshot
    raise AssertionError("no deal in play")


def _moves_within_deals(events: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """The ``move`` events, with ``None`` where a deal ends: the time from one deal's last
    move to the next deal's first is no bot's pace."""
    moves: list[dict[str, Any] | None] = []
    for event in events:
        if event["type"] == "move":
            moves.append(event)
        elif event["type"] == "deal_over":
            moves.append(None)
    return moves


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Round(NamedTuple):
    quiet: list[float]
    flooded: list[float]
    codes: list[int]
    window: tuple[float, float]
    """When the flood was on (wall clock)."""
    server_cpu: tuple[float, float]
    """The serving process's CPU share (of one core) in the quiet part and in the flood."""
    flooder_cpu: float
    """The flooder's CPU share (of one core) while it flooded."""


async def _flood_round(
    client: httpx.AsyncClient,
    server: ProcessServer,
    view: dict[str, Any],
    seconds: float,
    pause: float,
    rng: random.Random,
) -> Round:
    """One round: the other table's moves for ``seconds`` quietly, then for ``seconds`` while
    the flooder floods."""
    cpu = cpu_seconds(server.pid)
    quiet = await _play(client, time.monotonic() + seconds, rng)
    quiet_cpu = (cpu_seconds(server.pid) - cpu) / seconds
    context = multiprocessing.get_context("fork")
    with context.Manager() as manager:
        shared = manager.list()
        started = time.time()
        flooder = context.Process(
            target=_flood_process, args=(server.url, view, seconds + 1.0, shared, pause)
        )
        flooder.start()
        await asyncio.sleep(1.0)  # the flood is on
        cpu = cpu_seconds(server.pid)
        flooded = await _play(client, time.monotonic() + seconds, rng)
        flooded_cpu = (cpu_seconds(server.pid) - cpu) / seconds
        await asyncio.to_thread(flooder.join)
        ended = time.time()
        codes = [int(code) for code in shared if code > 0]
        flooder_cpu = -sum(code for code in shared if code < 0) / (seconds + 1.0)
    # The flood's last searches finish in their workers (2 s budget) before the next quiet part.
    await asyncio.sleep(FLOOD_BUDGET_MS / 1000 + 0.5)
    return Round(quiet, flooded, codes, (started, ended), (quiet_cpu, flooded_cpu), flooder_cpu)


async def flood_part(rounds: int, seconds: float, pause: float) -> None:
    """``pause``: how long a flooding connection waits after a 429 (0.05 s: a hostile caller;
    1 s: one that honours ``Retry-After``). Quiet and flooded parts alternate, ``rounds`` of
    each, so that both see the same machine; the figure is the median of the rounds' p99
    ratios."""
    with RedisServer.from_environment() as redis:
        server = ProcessServer(
            {
                "REDIS_URL": redis.url,
                "BAOHUANG_API_KEYS": f"{FLOODER},{OTHER}",
                "BAOHUANG_TOKEN_SECRET": "bots-bench",
                "BAOHUANG_BOT_DELAY_SECONDS": str(BOT_DELAY),
                "BAOHUANG_ACCESS_LOG": "false",
                "NO_PROXY": "127.0.0.1",
                **_other_service(),
            }
        )
        snapshot = _in_play()
        view = msgspec.to_builtins(seat_view(snapshot, snapshot.turn))
        headers = {"Authorization": f"Bearer {OTHER}"}
        ratios: list[float] = []
        codes: list[int] = []
        windows: list[tuple[float, float]] = []
        print(f"flood retrying {pause} s after a 429, {rounds} rounds:", flush=True)
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
            for round_ in range(rounds):
                done = await _flood_round(client, server, view, seconds, pause, rng)
                quiet, flooded, found = done.quiet, done.flooded, done.codes
                codes += found
                windows.append(done.window)
                q50, q99 = quantile(quiet, 0.5), quantile(quiet, 0.99)
                f50, f99 = quantile(flooded, 0.5), quantile(flooded, 0.99)
                ratios.append(f99 / q99)
                print(
                    f"round {round_ + 1}: other table's moves quiet n={len(quiet)} "
                    f"p50 {q50 * 1000:.1f} ms p99 {q99 * 1000:.1f} ms; flooded n={len(flooded)} "
                    f"p50 {f50 * 1000:.1f} ms p99 {f99 * 1000:.1f} ms; p99 ratio {f99 / q99:.2f}; "
                    f"flooder 200: {found.count(200)}, 429: {found.count(429)}; CPU: server "
                    f"{done.server_cpu[0]:.2f} quiet, {done.server_cpu[1]:.2f} flooded, flooder "
                    f"{done.flooder_cpu:.2f}",
                    flush=True,
                )
            page = await client.get(f"/v1/tables/{tid}/events", headers=headers)
        events = page.json()["events"]
        kinds = Counter(e["type"] for e in events)
        gaps = [
            b["at"] - a["at"]
            for a, b in itertools.pairwise(_moves_within_deals(events))
            if a is not None
            and b is not None
            and any(started <= a["at"] + BOT_DELAY <= ended for started, ended in windows)
        ]
        expected = BOT_DELAY + floor_ms("search", DEFAULT_BUDGET_MS) / 1000
        print(
            f"median p99 ratio {statistics.median(ratios):.2f} (rounds: "
            f"{', '.join(f'{r:.2f}' for r in ratios)}); load {os.getloadavg()}",
            flush=True,
        )
        print(
            f"bot moves during the floods: {len(gaps)}, gap min {min(gaps):.2f} s median "
            f"{statistics.median(gaps):.2f} s max {max(gaps):.2f} s ({expected:.2f} s expected: "
            f"delay + floor); flooder 200: {codes.count(200)}, 429: {codes.count(429)}, "
            f"other: {len(codes) - codes.count(200) - codes.count(429)}; the bots' table's "
            f"events: {dict(kinds)}",
            flush=True,
        )


def main() -> None:
    parts = sys.argv[1:] or ["budget", "flood"]
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()}", flush=True)
    if "budget" in parts:
        asyncio.run(budget_part(200))  # p99 of 200 answers: their second largest
    if "flood" in parts:
        asyncio.run(flood_part(FLOOD_ROUNDS, 5.0, 0.05))
    if "polite" in parts:
        asyncio.run(flood_part(FLOOD_ROUNDS, 5.0, 1.0))


if __name__ == "__main__":
    main()
