"""The engine's verdict from card codes beside qqbot2's algorithm and the parse floor, one run.

    flock /tmp/bench.lock .venv/bin/python bench/peer_bench.py [--runs 3] [--before REV]

20,000 pairs of the normal rules (bench/pairs.py's ``mixed_pairs``, no 烤牌: qqbot2 has none),
across three rulesets and both decks. Per run (a child process; with ``--before`` the older
revision's engine alternates with the tree's), samples of 100 pairs, the figures interleaved and
their order shuffled per sample, thread CPU time (``time.thread_time_ns``), GC paused, warm (one
pass first, as a serving process has it). Figures, ns per pair:
  floor     ruleset.cards.parse of both lists (merely reading the codes into card ids)
  qqbot2    bench/peers.py's re-creation of qqbot2's judge (verdict only)
  verdict   engine verdict() (before: compare(...).reason, the only way it had)
  compare   engine compare(): verdict and K-6 cover
Every pair's qqbot2 verdict is checked to agree with the engine's first.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
from pathlib import Path
from time import thread_time_ns
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from loadgen import alternate  # noqa: E402


def child(pairs: int) -> None:
    from baohuang.engine import judging
    from pairs import mixed_pairs, ruleset_named
    from peers import qqbot2_beats

    compare = judging.compare
    verdict = getattr(judging, "verdict", None) or (lambda p, c, r: compare(p, c, r).reason)
    triples = [
        (ruleset_named(name), previous, candidate)
        for name, previous, candidate in mixed_pairs(pairs, seed=2025, kaopai_share=0.0)
    ]
    disagree = sum(qqbot2_beats(p, c) != (verdict(p, c, r) is None) for r, p, c in triples)

    def floor(part: list[Any]) -> None:
        for ruleset, previous, candidate in part:
            parse = ruleset.cards.parse
            parse(previous)
            parse(candidate)

    def qqbot2(part: list[Any]) -> None:
        for _, previous, candidate in part:
            qqbot2_beats(previous, candidate)

    def engine_verdict(part: list[Any]) -> None:
        for ruleset, previous, candidate in part:
            verdict(previous, candidate, ruleset)

    def engine_compare(part: list[Any]) -> None:
        for ruleset, previous, candidate in part:
            compare(previous, candidate, ruleset)

    figures = {
        "floor": floor,
        "qqbot2": qqbot2,
        "verdict": engine_verdict,
        "compare": engine_compare,
    }
    chunks = [triples[i : i + 100] for i in range(0, len(triples), 100)]
    for part in chunks:
        for fn in figures.values():
            fn(part)
    samples: dict[str, list[float]] = {name: [] for name in figures}
    order = list(figures)
    shuffler = random.Random(1)
    gc.disable()
    for sample in range(2 * len(chunks)):
        part = chunks[sample % len(chunks)]
        shuffler.shuffle(order)  # no figure always follows the same one
        for name in order:
            start = thread_time_ns()
            figures[name](part)
            samples[name].append((thread_time_ns() - start) / len(part))
    gc.enable()
    result = {name: statistics.median(values) for name, values in samples.items()}
    result["qqbot2/verdict"] = result["qqbot2"] / result["verdict"]
    result["verdict/floor"] = result["verdict"] / result["floor"]
    result["compare/floor"] = result["compare"] / result["floor"]
    result["disagree"] = disagree
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--before", help="a git revision to run alternately with the tree")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.child:
        child(args.pairs)
        return
    lines = alternate(__file__, args.runs, args.before, "--pairs", str(args.pairs))
    runs = {name: [json.loads(line) for line in found] for name, found in lines.items()}
    medians = {
        name: {key: statistics.median(r[key] for r in found) for key in found[0]}
        for name, found in runs.items()
    }
    for name, figures in medians.items():
        print(name, " ".join(f"{key}={value:.2f}" for key, value in figures.items()))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": runs, "medians": medians}, indent=2))


if __name__ == "__main__":
    main()
