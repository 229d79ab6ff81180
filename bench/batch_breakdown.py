"""Where the time of one 10,000-pair /v1/combos/compare-batch goes, in-process, stage by stage.

    .venv/bin/python bench/batch_breakdown.py [--runs 7] [--gc]

Replays the controller's steps on the body http_bench.py sends (bench/out/batch_10k.jsonl,
written by ``http_bench.py``; rebuilt here if missing): strict decode (BATCH), the pair list,
compare_many (the engine time the metrics report), count_verdicts, the result list, and JSON
encoding of the response. Median ms per stage over ``--runs`` runs of 5 calls each. Like the
controller, decode to results run with the cyclic GC paused (``bodies.gc_paused``); ``--gc`` leaves
it on, to show what the pause saves.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from time import perf_counter_ns

sys.path.insert(0, str(Path(__file__).resolve().parent))

import msgspec

from baohuang.engine import compare_many, ruleset_of
from baohuang.http.bodies import gc_paused
from baohuang.http.controllers.combos import BATCH
from baohuang.http.metrics import count_verdicts
from baohuang.http.schemas import BatchResult
from quiet import wait_for_quiet

BODY = Path(__file__).resolve().parent / "out" / "batch_10k.jsonl"


def one(body: bytes, pause: bool = True) -> dict[str, float]:
    if pause:
        with gc_paused():
            return _one(body)
    return _one(body)


def _one(body: bytes) -> dict[str, float]:
    t = [perf_counter_ns()]
    query = BATCH.decode(body)
    t.append(perf_counter_ns())
    ruleset = ruleset_of(query.ruleset)
    codes = compare_many(query.pairs, ruleset)
    t.append(perf_counter_ns())
    count_verdicts("batch", codes)
    t.append(perf_counter_ns())
    result = BatchResult.of(codes)
    t.append(perf_counter_ns())
    msgspec.json.encode(result)
    t.append(perf_counter_ns())
    names = ("decode", "compare_many", "count_verdicts", "results", "encode")
    return {n: (t[i + 1] - t[i]) / 1e6 for i, n in enumerate(names)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--gc", action="store_true", help="leave the cyclic GC on (no pause)")
    args = parser.parse_args()
    if not BODY.exists():
        from http_bench import write_bodies

        write_bodies()
    body = BODY.read_bytes().strip()
    print(f"body: {len(body)} bytes, GC {'on' if args.gc else 'paused, as the controller does'}")
    one(body)
    per_stage: dict[str, list[float]] = {}
    for _ in range(args.runs):
        wait_for_quiet(max_wait=20)
        samples = [one(body, not args.gc) for _ in range(5)]
        for name in samples[0]:
            per_stage.setdefault(name, []).append(statistics.median(s[name] for s in samples))
    total = 0.0
    for name, values in per_stage.items():
        m = statistics.median(values)
        total += m
        print(f"{name:<16}{m:>8.2f} ms   (runs: {min(values):.2f}..{max(values):.2f})")
    print(f"{'sum':<16}{total:>8.2f} ms")


if __name__ == "__main__":
    main()
