"""Bench-only instrumentation of the collector in the processes a bench starts (their
``PYTHONPATH`` is this directory, bench/loadgen.py): inert unless asked for.

* ``GC_LOG=/tmp/prefix``: every process writes ``/tmp/prefix.<pid>``, one line a collection:
  wall time, generation, duration in ms, objects collected (bench/RESULTS.md section 18, "The
  collector").
* ``GC_NOFREEZE=1``: ``gc.freeze()`` does nothing (to measure the thresholds alone).
"""

import gc
import os
import time
from typing import Any

if os.environ.get("GC_LOG"):
    _out = open(f"{os.environ['GC_LOG']}.{os.getpid()}", "w", buffering=1)  # noqa: SIM115
    _began = [0.0]

    def _collected(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            _began[0] = time.perf_counter()
            return
        took = 1e3 * (time.perf_counter() - _began[0])
        _out.write(f"{time.time():.3f} {info['generation']} {took:.2f} {info['collected']}\n")

    gc.callbacks.append(_collected)

if os.environ.get("GC_NOFREEZE"):
    gc.freeze = lambda: None
