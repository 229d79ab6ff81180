"""What Redis holds per table after N deals, and what the write that starts a deal costs.

    flock /tmp/bench.lock .venv/bin/python bench/retention_bench.py --before 93277c4 [--runs 3]

A redis-server of its own; for each run, the ``--before`` revision and the working tree in turn,
each in a child process (its ``service/`` first on ``PYTHONPATH``, as codes_bench does), through
the table service over ``RedisTableStore`` in-process, one table per mode:

* ``moves``: every deal played move by move (seeded random legal moves, by the platform), then
  ``POST …/deals`` (``TableService.next_deal``) for the next;
* ``trustee``: every deal played out by 托管 (the five seats put in 托管 one after the other: the
  fifth write plays the rest of the deal), then the next deal.

After deals 1, 10 and 100 each of the table's keys is weighed with ``MEMORY USAGE <key> SAMPLES
0`` (every element counted); the deal-start write (``next_deal``, wall time from the call to its
answer: the finished deal's log read and its compact record included, after) is timed for every
deal. Deals and moves are the same in both versions (same seeds); the defaults of both are used
(``BAOHUANG_DEALS_KEPT`` 32 after).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))
from loadgen import alternate  # noqa: E402

CHECKPOINTS = (1, 10, 100)
SUFFIXES = ("", ":log", ":idem", ":idemq", ":deals")


async def _weigh(raw: Any, key: str) -> dict[str, int]:
    sizes = {}
    for suffix in SUFFIXES:
        size = await raw.memory_usage(key + suffix, samples=0)
        if size:
            sizes[suffix or "hash"] = int(size)
    sizes["log_entries"] = int(await raw.xlen(key + ":log"))
    return sizes


async def child(url: str, deals: int) -> dict[str, Any]:
    from redis.asyncio import Redis

    from baohuang.engine import Snapshot, deal, legal_moves, opening_snapshot
    from baohuang.engine.rulesets import ruleset_of
    from baohuang.store import RedisTableStore
    from baohuang.tables import Authority, TableService
    from baohuang.tables.callers import PLATFORM

    prefix = f"retention-bench:{time.monotonic_ns()}:"
    store = RedisTableStore.from_url(url, key_prefix=prefix)
    raw = Redis.from_url(url)
    service = TableService(store, Authority((), "bench"))
    out: dict[str, Any] = {}
    try:
        for mode in ("moves", "trustee"):
            table_id = f"t-{mode}"
            rng = random.Random(mode)
            snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 1, 0))
            await service.create(table_id, snapshot, PLATFORM)
            starts: list[float] = []
            sizes: dict[int, dict[str, int]] = {}
            for number in range(1, deals + 1):
                if number > 1:
                    table = await service.read(table_id, PLATFORM)
                    start = time.perf_counter()
                    await service.next_deal(table_id, PLATFORM, table.version, number)
                    starts.append((time.perf_counter() - start) * 1e3)
                if mode == "moves":
                    while True:
                        table = await service.read(table_id, PLATFORM)
                        assert isinstance(table.view, Snapshot)
                        if table.view.over:
                            break
                        move = rng.choice(legal_moves(table.view))
                        await service.move(table_id, PLATFORM, move, table.version)
                else:
                    for seat in range(5):
                        table = await service.read(table_id, PLATFORM)
                        if table.view.over:
                            break
                        await service.set_trustee(table_id, PLATFORM, seat, True, table.version)
                if number in CHECKPOINTS:
                    sizes[number] = await _weigh(raw, store.key(table_id))
            out[mode] = {"sizes": sizes, "deal_start_ms": starts}
    finally:
        keys = [key async for key in raw.scan_iter(match=f"{prefix}*")]
        if keys:
            await raw.delete(*keys)
        await raw.aclose()
        await store.close()
    return out


def _total(sizes: dict[str, int]) -> int:
    return sum(value for name, value in sizes.items() if name != "log_entries")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--deals", type=int, default=max(CHECKPOINTS))
    parser.add_argument("--before", help="a git revision run alternately with the tree")
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child(args.redis, args.deals))))
        return
    from live import own_redis

    redis = own_redis()
    try:
        lines = alternate(
            __file__, args.runs, args.before, "--redis", redis.url, "--deals", str(args.deals)
        )
    finally:
        redis.stop()
    runs = {name: [json.loads(line) for line in found] for name, found in lines.items()}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(runs))
    for mode in ("moves", "trustee"):
        print(f"\n{mode}: bytes per table (MEMORY USAGE, all keys) after N deals; log entries")
        for name, results in runs.items():
            sizes = results[0][mode]["sizes"]  # the same in every run: same seeds, same moves
            cells = [
                f"N={n}: {_total(sizes[str(n)]) / 1024:,.1f} KiB "
                f"({sizes[str(n)]['log_entries']} entries; "
                + ", ".join(
                    f"{k} {v / 1024:,.1f}" for k, v in sizes[str(n)].items() if k != "log_entries"
                )
                + ")"
                for n in CHECKPOINTS
                if str(n) in sizes
            ]
            print(f"  {name}: " + " | ".join(cells))
        print(f"{mode}: the deal-start write, ms (median of each run's median; min–max of those)")
        for name, results in runs.items():
            medians = [statistics.median(r[mode]["deal_start_ms"]) for r in results]
            p90s = [statistics.quantiles(r[mode]["deal_start_ms"], n=10)[-1] for r in results]
            print(
                f"  {name}: median {statistics.median(medians):.2f} "
                f"({min(medians):.2f}–{max(medians):.2f}), p90 {statistics.median(p90s):.2f}"
            )


if __name__ == "__main__":
    main()
