"""In-process benchmark of the rules engine: median ns per comparison, and a 10,000-pair batch.

    .venv/bin/python bench/engine_bench.py [--runs 7] [--json bench/out/engine.json]

Cases (realistic random pairs from bench/pairs.py, both decks, every joker mix, seeded):
  normal         beating.refusal(p, q, False) on pre-classified combos          target <= 1 us
  kaopai_refusal beating.refusal(p, q, True) on joker-hung tops (yes and no)     (informative)
  kaopai_cover   refusal(p, q, True) then cover(p, q, True), joker-hung tops     target <= 3 us
                 where p beats (the K-6 answer /v1/combos/compare returns)
  compare_codes  judging.compare(previous_codes, candidate_codes, ruleset)       (full path)
  batch_10k      judging.compare_many(10,000 pairs, ruleset), ms per call         (HTTP target 30 ms)

Each run takes many samples (a sample times one pass over a list of pairs with perf_counter_ns
and divides by its length); a run reports the median sample; the result is the median of the
runs (the machine is shared and noisy: min and max of the run medians are shown too). ``net``
subtracts the cost of the bare ``for p, q in pairs`` loop measured the same way.
Bounded: every loop has a fixed count; the whole thing takes well under a minute.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from time import perf_counter_ns
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import random

from baohuang.engine import Combo, beating, judging, read_combo  # modules too, for their internals
from baohuang.engine.rulesets import resolve_ruleset
from pairs import batch_pairs, kaopai_pairs, mixed_pairs, ruleset_named
from quiet import wait_for_quiet


def _combo(codes: list[str], card_set: Any) -> Combo:
    combo = read_combo(codes, card_set)
    assert isinstance(combo, Combo)
    return combo


def build_cases(n: int = 2000) -> dict[str, Any]:
    """Pre-classified pair lists for the per-comparison cases (same seed, same pairs)."""
    triples = mixed_pairs(n, seed=2024, kaopai_share=0.0)
    normal = []
    for name, previous, candidate in triples:
        card_set = ruleset_named(name).cards
        normal.append((_combo(candidate, card_set), _combo(previous, card_set)))  # (p, q)

    rng = random.Random(99)
    roast_all: list[tuple[Combo, Combo]] = []
    roast_yes: list[tuple[Combo, Combo]] = []
    card_sets = [
        resolve_ruleset(b).cards for b in ("classic", "lianzhong-classic", "lianzhong-simple")
    ]
    gens = [(kaopai_pairs(rng, cs), cs) for cs in card_sets]
    while len(roast_yes) < n or len(roast_all) < n:
        gen, card_set = rng.choice(gens)
        previous, candidate = next(gen)
        p, q = _combo(candidate, card_set), _combo(previous, card_set)
        if len(roast_all) < n:
            roast_all.append((p, q))
        if len(roast_yes) < n and beating.refusal(p, q, True) is None:
            roast_yes.append((p, q))

    codes = [
        (ruleset_named(name), previous, candidate)
        for name, previous, candidate in mixed_pairs(n, seed=2025, kaopai_share=0.3)
    ]
    return {"normal": normal, "roast_all": roast_all, "roast_yes": roast_yes, "codes": codes}


def _sample(fn: Callable[[list[Any]], None], data: list[Any]) -> float:
    start = perf_counter_ns()
    fn(data)
    return (perf_counter_ns() - start) / len(data)


def loop_only(pairs: list[Any]) -> None:
    for _p, _q in pairs:
        pass


def normal_case(pairs: list[Any]) -> None:
    refusal = beating.refusal
    for p, q in pairs:
        refusal(p, q, False)


def kaopai_refusal_case(pairs: list[Any]) -> None:
    refusal = beating.refusal
    for p, q in pairs:
        refusal(p, q, True)


def kaopai_cover_case(pairs: list[Any]) -> None:
    refusal, cover = beating.refusal, beating.cover
    for p, q in pairs:
        if refusal(p, q, True) is None:
            cover(p, q, True)


def compare_case(triples: list[Any]) -> None:
    compare = judging.compare
    for ruleset, previous, candidate in triples:
        compare(previous, candidate, ruleset)


def triple_loop_only(triples: list[Any]) -> None:
    for _r, _p, _c in triples:
        pass


def per_item_runs(
    fn: Callable[[list[Any]], None], data: list[Any], runs: int, samples: int, chunk: int
) -> list[float]:
    """Median ns per item of each run; a sample is one pass over ``chunk`` items."""
    chunks = [data[i : i + chunk] for i in range(0, len(data), chunk)]
    for part in chunks:  # warm-up (lru caches, code objects, branch predictors)
        fn(part)
    medians = []
    for _ in range(runs):
        wait_for_quiet(max_wait=QUIET)
        gc.collect()
        values = [_sample(fn, chunks[i % len(chunks)]) for i in range(samples)]
        medians.append(statistics.median(values))
    return medians


def batch_runs(pairs: list[Any], ruleset: Any, runs: int, calls: int) -> list[float]:
    """Median ms per compare_many call of each run."""
    judging.compare_many(pairs, ruleset)  # warm-up
    medians = []
    for _ in range(runs):
        wait_for_quiet(max_wait=QUIET)
        gc.collect()
        values = []
        for _ in range(calls):
            start = perf_counter_ns()
            judging.compare_many(pairs, ruleset)
            values.append((perf_counter_ns() - start) / 1e6)
        medians.append(statistics.median(values))
    return medians


QUIET = 20.0  # seconds to wait, at most, for an idle machine before each run


def summary(medians: list[float]) -> dict[str, float]:
    return {"median": statistics.median(medians), "min": min(medians), "max": max(medians)}


def machine() -> dict[str, Any]:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from importlib.metadata import version

    pkgs = {}
    for name in (
        "litestar",
        "msgspec",
        "prometheus-client",
        "uvicorn",
        "uvloop",
        "httptools",
        "baohuang-rules",
    ):
        try:
            pkgs[name] = version(name)
        except Exception:
            pkgs[name] = None
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "packages": pkgs,
        "loadavg": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--samples", type=int, default=300, help="samples per run")
    parser.add_argument("--chunk", type=int, default=500, help="pairs per sample")
    parser.add_argument("--batch-calls", type=int, default=9, help="compare_many calls per run")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--quiet", type=float, default=20.0, help="max s to wait for quiet/run")
    args = parser.parse_args()
    global QUIET
    QUIET = args.quiet

    cases = build_cases()
    results: dict[str, Any] = {"machine": machine(), "args": vars(args) | {"json": str(args.json)}}
    r, s, c = args.runs, args.samples, args.chunk
    pair_loop = summary(per_item_runs(loop_only, cases["normal"], r, s, c))
    triple_loop = summary(per_item_runs(triple_loop_only, cases["codes"], r, s, c))
    rows = [
        ("normal", normal_case, cases["normal"], pair_loop, 1000.0),
        ("kaopai_refusal", kaopai_refusal_case, cases["roast_all"], pair_loop, None),
        ("kaopai_cover", kaopai_cover_case, cases["roast_yes"], pair_loop, 3000.0),
        ("compare_codes", compare_case, cases["codes"], triple_loop, None),
    ]
    results["loop_ns"] = pair_loop
    print(f"{'case':<16}{'median ns':>11}{'net ns':>9}{'min':>8}{'max':>8}  target")
    for name, fn, data, loop, target in rows:
        found = summary(per_item_runs(fn, data, r, s, c))
        found["net"] = found["median"] - loop["median"]
        found["target_ns"] = target
        results[name] = found
        verdict = (
            ""
            if target is None
            else (f"<= {target:.0f} {'met' if found['median'] <= target else 'MISSED'}")
        )
        print(
            f"{name:<16}{found['median']:>11.0f}{found['net']:>9.0f}{found['min']:>8.0f}"
            f"{found['max']:>8.0f}  {verdict}"
        )
    print(f"{'(bare loop)':<16}{pair_loop['median']:>11.0f}")

    for label, base, kaopai in (
        ("batch_10k_classic", "classic", False),
        ("batch_10k_kaopai", "lianzhong-classic", True),
    ):
        pairs = batch_pairs(10_000, base, kaopai)
        ruleset = resolve_ruleset(base, kaopai=kaopai)
        distinct = len({tuple(x) for pair in pairs for x in pair})
        found = summary(batch_runs(pairs, ruleset, r, args.batch_calls))
        found["distinct_plays"] = distinct
        results[label] = found
        print(
            f"{label:<20} median {found['median']:.2f} ms  (min {found['min']:.2f}, max "
            f"{found['max']:.2f}; {distinct} distinct plays in 20,000)"
        )

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
