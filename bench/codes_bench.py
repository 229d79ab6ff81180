"""The engine from card codes, before and after a change, in one run.

    .venv/bin/python bench/codes_bench.py [--runs 5] [--before REV]

Times are the thread's CPU time (``time.thread_time_ns``), not wall time: on a shared machine a
process waiting for a CPU would otherwise charge the wait to whichever sample it fell in, and more
often to the longer one. Per run (a child process each, so both versions run under the same load, alternated):
  compare     judging.compare(previous, candidate, ruleset) per pair, the /v1/combos/compare
              engine path (verdict and K-6 cover), on bench/pairs.py's 2,000 mixed pairs (30 %
              kaopai); warm (one pass first: caches filled, as a serving process has them)
  read        card_set.parse(previous) and card_set.parse(candidate) per pair, the same pairs:
              merely reading the codes into card ids; samples interleaved with ``compare``
  ratio       compare / read, per run (target <= 3)
  batch       the 10,000-pair kaopai batch (lianzhong-classic): the route's decode of the JSON
              body plus judging.compare_many, and compare_many alone, ms (GC paused, as served)
  legal       engine legal_moves for bench/play_bench.py's joker-rich 44-card hand, leading and
              against joker-hung tops, kaopai on, us

``--before REV`` checks REV out into a temporary git worktree and runs it alternately with the
working tree (PYTHONPATH puts its ``service/`` first); the summary gives the median of the runs
and, for each figure, after / before.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
from pathlib import Path
from time import thread_time_ns as perf_counter_ns  # CPU time: the machine is shared
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from loadgen import alternate  # noqa: E402


def _median_of(fn: Any, reps: int) -> float:
    values = []
    for _ in range(reps):
        start = perf_counter_ns()
        fn()
        values.append(perf_counter_ns() - start)
    return statistics.median(values)


def child() -> None:
    """One run of every figure, printed as JSON (runs in the version under test)."""
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT / "tests" / "engine"))
    import msgspec

    from baohuang.engine import judging, legal_moves
    from baohuang.engine.rulesets import resolve_ruleset
    from baohuang.http.controllers import combos as controller
    from pairs import batch_pairs, mixed_pairs, ruleset_named
    from play_bench import full_deal, hung, joker_rich

    triples = [
        (ruleset_named(name), previous, candidate)
        for name, previous, candidate in mixed_pairs(2000, seed=2025, kaopai_share=0.3)
    ]
    chunks = [triples[i : i + 100] for i in range(0, len(triples), 100)]

    def compare_pass(part: list[Any]) -> None:
        compare = judging.compare
        for ruleset, previous, candidate in part:
            compare(previous, candidate, ruleset)

    def read_pass(part: list[Any]) -> None:
        for ruleset, previous, candidate in part:
            parse = ruleset.cards.parse
            parse(previous)
            parse(candidate)

    for part in chunks:
        compare_pass(part)
        read_pass(part)
    compare_ns, read_ns = [], []
    for sample in range(400):
        part = chunks[sample % len(chunks)]
        for fn, out in ((compare_pass, compare_ns), (read_pass, read_ns)):
            start = perf_counter_ns()
            fn(part)
            out.append((perf_counter_ns() - start) / len(part))
    result: dict[str, float] = {
        "compare_ns": statistics.median(compare_ns),
        "read_ns": statistics.median(read_ns),
    }
    result["ratio"] = result["compare_ns"] / result["read_ns"]

    pairs = batch_pairs(10_000, "lianzhong-classic", True)
    ruleset = resolve_ruleset("lianzhong-classic", kaopai=True)
    body = msgspec.json.encode(
        {
            "pairs": [{"previous": p, "candidate": c} for p, c in pairs],
            "ruleset": {"base": "lianzhong-classic", "kaopai": True},
        }
    )
    known = getattr(controller, "_KNOWN_CODES_BATCH", None)

    def decode() -> Any:
        if known is not None:
            try:
                return known.decode(body)
            except (msgspec.MsgspecError, RecursionError):
                pass
        return controller.BATCH.decode(body)

    def served() -> None:
        query = decode()
        judging.compare_many(query.pairs, ruleset)

    decoded = decode().pairs
    served()
    gc.disable()
    try:
        result["batch_served_ms"] = _median_of(served, 7) / 1e6
        result["batch_engine_ms"] = (
            _median_of(lambda: judging.compare_many(decoded, ruleset), 7) / 1e6
        )
    finally:
        gc.enable()

    lead = joker_rich(full_deal(ruleset_kaopai := resolve_ruleset("classic", kaopai=True)))
    del ruleset_kaopai
    positions = {"legal_lead_us": lead}
    for top in (["SJ", "9S", "9H", "9C"], ["SJ", "SJ", "7S"], ["BJ", "SJ", "7S"]):
        positions[f"legal_{'_'.join(top)}_us"] = hung(lead, top)
    for name, snapshot in positions.items():
        legal_moves(snapshot)
        result[name] = _median_of(lambda s=snapshot: legal_moves(s), 200) / 1000
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", help="a git revision to run alternately with the tree")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help="also write the per-run figures here")
    args = parser.parse_args()
    if args.child:
        child()
        return
    runs = {
        name: [json.loads(line) for line in lines]
        for name, lines in alternate(__file__, args.runs, args.before).items()
    }
    medians = {
        name: {key: statistics.median(r[key] for r in found) for key in found[0]}
        for name, found in runs.items()
    }
    print(f"\nmedian of {args.runs} runs, nproc {os.cpu_count()}")
    header = f"{'figure':<26}" + "".join(f"{name:>12}" for name in medians)
    print(header + ("   after/before" if args.before else ""))
    for key in medians["after"]:
        row = f"{key:<26}" + "".join(f"{medians[name][key]:>12.2f}" for name in medians)
        if args.before:
            row += f"   {medians['after'][key] / medians['before'][key]:>8.2f}"
        print(row)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": runs, "medians": medians}, indent=2))


if __name__ == "__main__":
    main()
