"""The garbage collector of a ``baohuang serve`` process (docs/deploy.md "The collector").

CPython frees most objects by reference counting; the cyclic collector looks for the rest. A
young collection runs when the tracked objects allocated less those freed exceed the first
threshold (700 by default), and moves what survives into the next generation; a full one
(generation 2) scans every tracked object in the process, and in 3.11 runs only once the objects
that reached generation 2 since the last full one exceed a quarter of those it kept. A process
with 10,000 open streams holds about a million tracked objects, so a full collection stops its
event loop for most of a second (bench/RESULTS.md section 18, "The collector"). With the default
thresholds, the objects a burst of deliveries has in hand when a young collection runs (the
streams woken by a move, their frames, futures and handlers) keep being promoted, and a full
collection comes every few seconds.

:func:`tune_collector`, at the end of each worker's start-up (:func:`.serving.serve_app`):

* raises the thresholds (``BAOHUANG_GC_THRESHOLDS``, :data:`DEFAULT_THRESHOLDS`): a young
  collection every 50,000 objects instead of 700, so that the objects of one delivery are nearly
  all freed by their reference counts before one runs and are not promoted; garbage in cycles is
  still collected, later (at most one young generation's worth of it waits);
* collects once and freezes what is left (``gc.freeze()``): the modules, classes and the app
  built at start-up live as long as the process, and no collection scans them again. Only this
  once: objects made later (requests, streams, tables) are never frozen, so their cycles stay
  collectable. The collector is never disabled.
"""

from __future__ import annotations

import gc
import re
from typing import Final

DEFAULT_THRESHOLDS: Final = (50_000, 20, 10)
"""``gc.set_threshold`` for ``baohuang serve`` unless ``BAOHUANG_GC_THRESHOLDS`` says otherwise
(Python's own: 700, 10, 10)."""


def parse_thresholds(raw: str | None, name: str = "BAOHUANG_GC_THRESHOLDS") -> tuple[int, int, int]:
    """Three positive whole numbers, comma-separated (``50000,20,10``); unset or empty: the
    default. Anything else stops the start-up, 0 included (0 would turn the collector off)."""
    if raw is None or not raw.strip():
        return DEFAULT_THRESHOLDS
    parts = [part.strip() for part in raw.split(",")]
    if len(parts) != 3 or not all(_WHOLE.fullmatch(part) and int(part) > 0 for part in parts):
        raise ValueError(
            f"{name}={raw!r}: three positive whole numbers, comma-separated, such as "
            f"{','.join(map(str, DEFAULT_THRESHOLDS))} (the thresholds of generations 0, 1 "
            "and 2; Python's default is 700,10,10; 0 would turn the collector off)"
        )
    first, second, third = (int(part) for part in parts)
    return first, second, third


_WHOLE: Final = re.compile(r"[0-9]+")


def tune_collector(thresholds: tuple[int, int, int]) -> int:
    """Set ``thresholds``, collect once and freeze the objects of the start-up: how many."""
    gc.set_threshold(*thresholds)
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
