"""What refusing a key named twice costs a request body's decoding, in one run.

    flock /tmp/bench.lock .venv/bin/python bench/duplicate_keys_bench.py [--runs 5]

Per body, each sample is the CPU time (``time.thread_time_ns``: the machine is shared) of decoding
it the route's way, with the check (``BodyDecoder.decode``: the typed decode, then
``bodies.refuse_duplicate_keys``) and without it (the same typed decoder alone), samples
alternated; a run reports the medians and their ratio, and the summary the median over runs:

  move      a table move, ``{"move", "version"}`` (``POST /v1/tables/{id}/moves``)
  validate  ``/v1/moves/validate`` with the documented 216-card-deal snapshot
  batch     the 10,000-pair kaopai ``/v1/combos/compare-batch`` body (bench/pairs.py's
            ``batch_pairs``, as bench/codes_bench.py's batch), decoded
            by the route's ``KnownCodesBatch`` decoder, its members counted from the decoded
            batch (``combos._batch_members``), GC paused as the route does
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from time import thread_time_ns
from typing import Any

import msgspec

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from baohuang.http import examples  # noqa: E402
from baohuang.http.bodies import gc_paused, refuse_duplicate_keys  # noqa: E402
from baohuang.http.controllers.combos import _KNOWN_CODES_BATCH, _batch_members  # noqa: E402
from baohuang.http.controllers.moves import VALIDATE  # noqa: E402
from baohuang.http.controllers.tables import POST_MOVE  # noqa: E402
from baohuang.http.examples.positions import PLAY_JACKS  # noqa: E402
from pairs import batch_pairs  # noqa: E402


def _bodies() -> dict[str, tuple[Callable[[], Any], Callable[[], Any], int]]:
    """name → (decode without the check, decode with it, repetitions per sample)."""
    move = msgspec.json.encode({"move": PLAY_JACKS, "version": 7})
    validate = msgspec.json.encode({"snapshot": examples.SNAPSHOT, "move": PLAY_JACKS})
    pairs = [
        {"previous": p, "candidate": c} for p, c in batch_pairs(10_000, "lianzhong-classic", True)
    ]
    ruleset = {"base": "lianzhong-classic", "kaopai": True}
    batch = msgspec.json.encode({"ruleset": ruleset, "pairs": pairs})

    def batch_plain() -> Any:
        with gc_paused():
            return _KNOWN_CODES_BATCH.decode(batch)

    def batch_checked() -> Any:
        with gc_paused():
            query = _KNOWN_CODES_BATCH.decode(batch)
            refuse_duplicate_keys(batch, _batch_members(batch, len(query.pairs)))
            return query

    return {
        "move": (lambda: POST_MOVE._decoder.decode(move), lambda: POST_MOVE.decode(move), 2000),
        "validate": (
            lambda: VALIDATE._decoder.decode(validate),
            lambda: VALIDATE.decode(validate),
            500,
        ),
        "batch": (batch_plain, batch_checked, 1),
    }


def _sample(call: Callable[[], Any], repeat: int) -> float:
    start = thread_time_ns()
    for _ in range(repeat):
        call()
    return (thread_time_ns() - start) / repeat / 1000  # µs per decode


def one_run(samples: int = 30) -> dict[str, dict[str, float]]:
    found: dict[str, dict[str, float]] = {}
    for name, (plain, checked, repeat) in _bodies().items():
        plain(), checked()  # warm
        without, with_check = [], []
        for _ in range(samples):
            without.append(_sample(plain, repeat))
            with_check.append(_sample(checked, repeat))
        a, b = statistics.median(without), statistics.median(with_check)
        found[name] = {"without_us": a, "with_us": b, "ratio": b / a}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = [one_run() for _ in range(args.runs)]
    summary = {
        name: {
            figure: round(statistics.median(run[name][figure] for run in runs), 3)
            for figure in ("without_us", "with_us", "ratio")
        }
        for name in runs[0]
    }
    print(json.dumps({"runs": runs, "median": summary}, indent=1))


if __name__ == "__main__":
    main()
