"""The fifth timeout of a clocked table: 托管 plays the rest of the deal (T-11), in one write
before the play-out was spread over writes, in several after.

    .venv/bin/python bench/playout_bench.py [--runs 5] [--tables 60] [--before REV]

On the in-memory store, ``--tables`` classic tables with 5-second clocks (seed k, dealer k mod 5)
are timed out four times each (every seat in 托管 but the last to act), then the fifth wave is
timed: the thread CPU time (``time.thread_time``) per table of ``TableService.tick`` rounds
until none is due, i.e. the engine playing each deal out plus its writes (a tick goes on with
the play-outs until none is due). ``--before REV`` runs
that revision alternately with the working tree, in child processes (as codes_bench does).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from loadgen import alternate  # noqa: E402


async def fifth_wave(tables: int) -> float:
    """CPU milliseconds per table of the fifth timeout wave."""
    sys.path.insert(0, str(ROOT / "tests"))
    from baohuang.engine import deal, opening_snapshot
    from baohuang.engine.rulesets import resolve_ruleset
    from baohuang.store.memory import MemoryTableStore
    from baohuang.tables import Authority, TableService
    from baohuang.tables.callers import PLATFORM
    from baohuang.tables.record import Clock
    from table_support import Time

    now = Time()
    service = TableService(MemoryTableStore(), Authority((), "bench"), clock=now)
    ruleset = resolve_ruleset("classic")
    for k in range(tables):
        snapshot = opening_snapshot("classic", deal(ruleset, k, k % 5))
        await service.create(f"t{k}", snapshot, PLATFORM, Clock(5, 5))
    for _ in range(4):
        now.now += 5.01
        while await service.tick():
            pass
    now.now += 5.01
    start = time.thread_time()
    while await service.tick():
        pass
    spent = time.thread_time() - start
    for k in range(tables):
        if not (await service.read(f"t{k}", PLATFORM)).view.over:
            raise SystemExit(f"table t{k} is not over after the fifth wave")
    return spent / tables * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--before", help="a git revision to run alternately with the tree")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(asyncio.run(fifth_wave(args.tables)))
        return
    runs = {
        name: [float(line) for line in lines]
        for name, lines in alternate(
            __file__, args.runs, args.before, "--tables", str(args.tables)
        ).items()
    }
    medians = {name: statistics.median(values) for name, values in runs.items()}
    print(json.dumps({"medians_ms_per_table": medians, "runs": runs}))
    if args.before:
        print(f"after / before: {medians['after'] / medians['before']:.2f}")


if __name__ == "__main__":
    main()
