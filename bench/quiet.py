"""The machine is shared: wait (bounded) for it to be idle, and measure how much CPU others took.

``wait_for_quiet()`` samples /proc/stat until the CPUs are mostly idle or ``max_wait`` seconds
have passed, and returns the busy fraction it saw last. ``group_cpu_seconds(pgid)`` sums user+sys
time of the processes in a process group (a server and its workers), so a benchmark can report
the share of a CPU its server actually got during a run.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def _cpu_times() -> tuple[int, int]:
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    values = [int(v) for v in fields]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values[:8]), idle


def busy_fraction(seconds: float = 1.0) -> float:
    """Fraction of all CPUs busy over ``seconds`` (everyone's work, ours included)."""
    total0, idle0 = _cpu_times()
    time.sleep(seconds)
    total1, idle1 = _cpu_times()
    total = total1 - total0
    return 1.0 - (idle1 - idle0) / total if total else 0.0


def wait_for_quiet(threshold: float = 0.15, max_wait: float = 90.0, say: bool = True) -> float:
    """Block until the CPUs are at most ``threshold`` busy, at most ``max_wait`` seconds."""
    deadline = time.monotonic() + max_wait
    busy = busy_fraction()
    waited = False
    while busy > threshold and time.monotonic() < deadline:
        if say and not waited:
            print(
                f"  (machine {busy:.0%} busy: waiting up to {max_wait:.0f} s for quiet)", flush=True
            )
            waited = True
        time.sleep(2.0)
        busy = busy_fraction()
    return busy


_TICKS = os.sysconf("SC_CLK_TCK")


def group_cpu_seconds(pgid: int) -> float:
    """user+system CPU seconds of the live processes in process group ``pgid``."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        # fields[0] is state (field 3); pgrp is field 5, utime 14, stime 15
        if int(fields[2]) == pgid:
            total += int(fields[11]) + int(fields[12])
    return total / _TICKS
