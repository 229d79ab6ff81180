"""What durable writes (WAIT) cost on a real Redis Cluster, and how long a failover makes tables wait.

    .venv/bin/python bench/ha_bench.py                          # both parts, defaults below
    .venv/bin/python bench/ha_bench.py --runs 7 --seconds 3 --tasks 16
    .venv/bin/python bench/ha_bench.py --skip-failover          # throughput only

Builds its own Redis Cluster (3 primaries, 3 replicas) on free loopback ports with the launcher
the tests use (tests/redis_topologies.py), so it never touches a shared Redis.

1. Throughput: ``--tasks`` concurrent table players, each looping ``compare_and_set`` on its own
   table with a real opening snapshot (the store's whole cost of a table move), through two stores
   on the same cluster in the same run, one with ``WAIT 1`` after every write and one without,
   alternated run by run (A B A B …) so that machine noise hits both. Prints moves per second per
   run, the medians and the ratio WAIT/no-WAIT, and the median latency of one move.
2. Failover: with the same load running, kill (``SIGKILL``) the primary of some tables and time,
   for each table on that shard, the longest time without an acknowledged move around the kill
   (the unavailability a player sees), for ``WAIT 0``; for ``WAIT 1`` on the same
   3×3 cluster, where the promoted replica has no replica of its own until the killed node comes
   back (here at once, as an empty replica, as Kubernetes would restart it); and for ``WAIT 1`` on
   a cluster with 2 replicas per primary, where it never lacks one. Every error the store raised
   is counted by type: only StoreUnavailable/StoreOutcomeUnknown (503) may appear.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baohuang.engine import deal, opening_snapshot, ruleset_of  # noqa: E402
from baohuang.store import (  # noqa: E402
    CasOk,
    RedisTableStore,
    StoreOutcomeUnknown,
    StoreUnavailable,
)
from quiet import wait_for_quiet  # noqa: E402
from redis_server import find_redis_server  # noqa: E402
from redis_topologies import ClusterSetup  # noqa: E402

SNAPSHOT = msgspec.json.encode(opening_snapshot("classic", deal(ruleset_of("classic"), 7, 0)))


def _store(url: str, wait_replicas: int) -> RedisTableStore:
    return RedisTableStore.from_url(
        url,
        3600,
        cluster=True,
        key_prefix=f"bench-ha:{uuid.uuid4().hex}:",
        wait_replicas=wait_replicas,
    )


class Load:
    """``tasks`` players, each on its own table, moving until stopped; records every ack."""

    def __init__(self, store: RedisTableStore, tasks: int) -> None:
        self.store = store
        self.tables = [f"t{n}" for n in range(tasks)]
        self.acks: dict[str, list[float]] = {t: [] for t in self.tables}
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.stop = asyncio.Event()

    async def player(self, table: str, deadline: float) -> None:
        version = 0
        perf = time.perf_counter
        while not self.stop.is_set() and perf() < deadline:
            start = perf()
            try:
                if version == 0:
                    version = (await self.store.put(table, SNAPSHOT)).version
                else:
                    result = await self.store.compare_and_set(table, version, SNAPSHOT)
                    if not isinstance(result, CasOk):
                        version = 0  # re-create (a failover rolled the table back)
                        continue
                    version = result.version
            except (StoreOutcomeUnknown, StoreUnavailable) as exc:
                self.errors[type(exc).__name__] += 1
                current = None
                try:
                    current = await self.store.get(table)
                except StoreUnavailable:
                    await asyncio.sleep(0.02)
                version = current.version if current is not None else 0
                continue
            except Exception as exc:  # anything else would be a 500: count it, loudly
                self.errors[f"UNEXPECTED {type(exc).__name__}: {exc}"] += 1
                await asyncio.sleep(0.02)
                continue
            now = perf()
            self.latencies.append(now - start)
            self.acks[table].append(now)

    def run(self, seconds: float) -> asyncio.Future[list[None]]:
        deadline = time.perf_counter() + seconds
        return asyncio.gather(*(self.player(t, deadline) for t in self.tables))


async def throughput(url: str, tasks: int, seconds: float, runs: int) -> None:
    stores = {"no WAIT": _store(url, 0), "WAIT 1": _store(url, 1)}
    rates: dict[str, list[float]] = {name: [] for name in stores}
    latencies: dict[str, list[float]] = {name: [] for name in stores}
    try:
        for store in stores.values():  # warm-up: connections, slot map, scripts
            await Load(store, tasks).run(0.5)
        for run in range(runs):
            for name, store in stores.items():
                load = Load(store, tasks)
                started = time.perf_counter()
                await load.run(seconds)
                elapsed = time.perf_counter() - started
                moves = sum(len(v) for v in load.acks.values())
                rates[name].append(moves / elapsed)
                latencies[name].extend(load.latencies)
                errors = f"  errors {dict(load.errors)}" if load.errors else ""
                print(f"  run {run + 1} {name:>8}: {moves / elapsed:8,.0f} moves/s{errors}")
    finally:
        for store in stores.values():
            await store.close()
    print(f"\nthroughput, {tasks} players, {runs} runs of {seconds:g} s each (medians):")
    base = statistics.median(rates["no WAIT"])
    for name in stores:
        rate = statistics.median(rates[name])
        lat = statistics.median(latencies[name]) * 1e3
        print(
            f"  {name:>8}: {rate:8,.0f} moves/s  (runs {min(rates[name]):,.0f}–"
            f"{max(rates[name]):,.0f})  median move {lat:.2f} ms  ratio {rate / base:.2f}"
        )


async def failover(
    label: str, replicas_per_primary: int, wait_replicas: int, rejoin: bool, tasks: int
) -> None:
    binary = find_redis_server()
    assert binary is not None, "no redis-server"
    cluster = ClusterSetup(binary, replicas_per_primary=replicas_per_primary)
    cluster.start()
    store = _store(cluster.url, wait_replicas)
    load = Load(store, tasks)
    try:
        running = asyncio.ensure_future(load.run(120))
        await asyncio.sleep(2.0)
        victim_table = load.tables[0]
        primary = cluster.primary_of(store.key(victim_table))
        replicas = await asyncio.to_thread(cluster.replicas_of, primary)
        on_shard = [t for t in load.tables if cluster.primary_of(store.key(t)) is primary]
        killed = time.perf_counter()
        primary.kill()
        promoted = None
        for _ in range(600):  # which replica won, bounded (~30 s)
            for replica in replicas:
                info = await asyncio.to_thread(_role, replica)
                if info == "master":
                    promoted = replica
            if promoted is not None:
                break
            await asyncio.sleep(0.05)
        assert promoted is not None, "no replica was promoted"
        promoted_at = time.perf_counter() - killed
        if rejoin:
            await asyncio.to_thread(cluster.rejoin, primary, promoted)
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline:
            if all(any(a > killed for a in load.acks[t]) for t in on_shard):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)
        load.stop.set()
        await running
    finally:
        await store.close()
        cluster.close()
    gaps = []  # per table: the longest time without an acknowledged move around the kill
    for table in on_shard:
        acks = [a for a in load.acks[table] if a > killed - 1.0]
        if len(acks) >= 2 and acks[-1] > killed:
            gaps.append(max(later - earlier for earlier, later in itertools.pairwise(acks)))
    gap = f"{statistics.median(gaps):.2f} s (max {max(gaps):.2f})" if gaps else "no recovery"
    print(
        f"  {label}: promoted after {promoted_at:.2f} s; tables of the shard moved again after "
        f"{gap}; errors {dict(load.errors)}"
    )


def _role(server: object) -> str:
    from redis_topologies import admin

    client = admin(server)  # type: ignore[arg-type]
    try:
        return str(client.info("replication").get("role"))
    except Exception:
        return "?"
    finally:
        client.close()


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=16, help="concurrent table players")
    parser.add_argument("--seconds", type=float, default=3.0, help="one timed run")
    parser.add_argument("--runs", type=int, default=5, help="runs per store (alternated)")
    parser.add_argument("--skip-failover", action="store_true")
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args(argv)
    binary = find_redis_server()
    if binary is None:
        raise SystemExit("no redis-server binary")
    print(f"snapshot {len(SNAPSHOT)} B; redis-server {binary}")
    if not args.skip_throughput:
        wait_for_quiet(max_wait=60)
        cluster = ClusterSetup(binary)
        cluster.start()
        try:
            await throughput(cluster.url, args.tasks, args.seconds, args.runs)
        finally:
            cluster.close()
    if not args.skip_failover:
        print(f"\nfailover of one primary under load ({args.tasks} players):")
        for label, per, wait, rejoin in (
            ("3x3, WAIT 0                  ", 1, 0, False),
            ("3x3, WAIT 1, node back at once", 1, 1, True),
            ("3x6, WAIT 1                  ", 2, 1, False),
        ):
            wait_for_quiet(max_wait=30, say=False)
            await failover(label, per, wait, rejoin, args.tasks)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
