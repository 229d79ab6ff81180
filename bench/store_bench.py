"""Compare-and-set round trips through the table store, by hand (no assertions, no CI).

    .venv/bin/python bench/store_bench.py                       # REDIS_URL or 127.0.0.1:6379
    .venv/bin/python bench/store_bench.py --tasks 1,8,32,64 --seconds 5 --snapshot-bytes 4096
    .venv/bin/python bench/store_bench.py --contended           # every task races one table
    .venv/bin/python bench/store_bench.py --memory              # the in-memory store, for scale
    PYTHONPATH=<a worktree>/service .venv/bin/python bench/store_bench.py   # another revision

Each of N concurrent tasks loops ``compare_and_set`` on its own table (uncontended: every CAS
wins, so this is the store's round-trip ceiling), or with ``--contended`` all tasks race one table
and re-read after a conflict, as clients of one deal would. Prints CAS per second, the median
and p99 latency of one CAS, and this process's CPU time per CAS (the client's whole cost).
Tables live under a unique prefix and are deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid

from redis.utils import HIREDIS_AVAILABLE

from baohuang.store import CasOk, MemoryTableStore, RedisTableStore, TableStore


async def _worker(
    store: TableStore, table_id: str, snapshot: bytes, stop_at: float, latencies: list[float]
) -> tuple[int, int]:
    """Loop CAS until ``stop_at``; returns (wins, conflicts)."""
    table = await store.get(table_id)
    assert table is not None
    version, wins, conflicts = table.version, 0, 0
    perf = time.perf_counter
    while perf() < stop_at:
        start = perf()
        result = await store.compare_and_set(table_id, version, snapshot)
        latencies.append(perf() - start)
        if isinstance(result, CasOk):
            version, wins = result.version, wins + 1
        else:
            conflicts += 1
            current = await store.get(table_id)
            assert current is not None
            version = current.version
    return wins, conflicts


async def _run(store: TableStore, tasks: int, seconds: float, size: int, contended: bool) -> None:
    snapshot = (b'{"bench":"' + b"x" * size)[: max(size - 2, 0)] + b'"}'
    ids = ["shared"] if contended else [f"t{n}" for n in range(tasks)]
    for table_id in ids:
        await store.put(table_id, snapshot)
    # warm-up: open the pool's connections and load the scripts before timing
    await _gather(store, ids, tasks, snapshot, time.perf_counter() + 0.3, [])

    latencies: list[float] = []
    started, cpu = time.perf_counter(), time.process_time()
    results = await _gather(store, ids, tasks, snapshot, started + seconds, latencies)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    wins = sum(w for w, _ in results)
    conflicts = sum(c for _, c in results)
    latencies.sort()
    median = statistics.median(latencies) * 1e3
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1e3
    print(
        f"{tasks:>5} tasks  {len(latencies) / elapsed:>9,.0f} CAS/s  {wins / elapsed:>9,.0f} won/s"
        f"  {conflicts:>7} conflicts  median {median:6.3f} ms  p99 {p99:6.3f} ms"
        f"  {cpu / len(latencies) * 1e6:6.1f} us CPU per CAS (this process)"
    )
    for table_id in ids:
        await store.delete(table_id)


async def _gather(
    store: TableStore,
    ids: list[str],
    tasks: int,
    snapshot: bytes,
    stop_at: float,
    latencies: list[float],
) -> list[tuple[int, int]]:
    return list(
        await asyncio.gather(
            *(_worker(store, ids[n % len(ids)], snapshot, stop_at, latencies) for n in range(tasks))
        )
    )


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    parser.add_argument("--tasks", default="1,8,32", help="comma-separated concurrency levels")
    parser.add_argument("--seconds", type=float, default=3.0, help="timed run per level")
    parser.add_argument("--snapshot-bytes", type=int, default=2048)
    parser.add_argument("--contended", action="store_true", help="all tasks race one table")
    parser.add_argument("--memory", action="store_true", help="in-memory store instead")
    args = parser.parse_args(argv)

    store: TableStore
    if args.memory:
        store = MemoryTableStore(3600)
        print("store: memory")
    else:
        store = RedisTableStore.from_url(
            args.url, 3600, key_prefix=f"baohuang-bench:{uuid.uuid4().hex}:"
        )
        print(f"store: redis {args.url}  hiredis={'yes' if HIREDIS_AVAILABLE else 'NO'}")
    print(
        f"snapshot {args.snapshot_bytes} B, {args.seconds:g} s per level, "
        f"{'contended (one table)' if args.contended else 'uncontended (a table per task)'}"
    )
    try:
        await store.ping()
        for tasks in (int(n) for n in args.tasks.split(",")):
            await _run(store, tasks, args.seconds, args.snapshot_bytes, args.contended)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
