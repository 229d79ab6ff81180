"""What the replay's durability check costs: a replayed move, before and after.

    flock /tmp/bench.lock .venv/bin/python bench/replay_bench.py
    flock /tmp/bench.lock .venv/bin/python bench/replay_bench.py --runs 7 --replays 2000

Builds its own primary and replica (tests/redis_server.py) on free loopback ports, with
``WAIT 1`` as in Sentinel mode. A replay is what the table service does for a retried move whose
key has a record: the compare-and-set that finds the remembered answer, then the read of the
table for the caller's view. *before* stops there (the code before replays were checked);
*after* adds :meth:`RedisTableStore.replay` (the record read again by a script that touches the
table's hash where it finds it, and ``WAIT 1`` on the same connection). A fresh durable move (compare-and-set + ``WAIT 1``) is timed beside them as the
yardstick. The three are alternated run by run in the same process, so machine noise hits each;
prints each run's median latency and the medians of the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from baohuang.engine import deal, opening_snapshot, ruleset_of  # noqa: E402
from baohuang.store import CasOk, CasRemembered, RedisTableStore  # noqa: E402
from redis_server import RedisServer  # noqa: E402

SNAPSHOT = msgspec.json.encode(opening_snapshot("classic", deal(ruleset_of("classic"), 7, 0)))
RECORD = b'{"fingerprint":"0123456789abcdef0123456789abcdef","instance":"0","version":2}'


async def _median_ms(step: Callable[[], Awaitable[None]], count: int) -> float:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await step()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


async def main(runs: int, replays: int) -> None:
    with RedisServer.from_environment() as primary:
        replica = RedisServer.from_environment(
            extra_args=("--replicaof", primary.host, str(primary.port))
        )
        with replica:
            store = RedisTableStore.from_url(
                primary.url, 3600, key_prefix=f"bench-{uuid.uuid4().hex}:", wait_replicas=1
            )
            try:
                await _run(store, runs, replays)
            finally:
                await store.close()


async def _run(store: RedisTableStore, runs: int, replays: int) -> None:
    for _ in range(200):  # the replica's link up before timing anything
        try:
            await store.put("warm", SNAPSHOT)
            break
        except Exception:
            await asyncio.sleep(0.05)
    put = await store.put("t", SNAPSHOT)
    done = await store.compare_and_set("t", put.version, SNAPSHOT, remember=("k", RECORD))
    assert isinstance(done, CasOk)
    await store.put("fresh", SNAPSHOT)
    fresh_version = [(await store.get("fresh")).version]  # type: ignore[union-attr]

    async def replay_before() -> None:
        kept = await store.compare_and_set("t", put.version, SNAPSHOT, remember=("k", RECORD))
        assert isinstance(kept, CasRemembered)
        await store.get("t")

    async def replay_after() -> None:
        kept = await store.compare_and_set("t", put.version, SNAPSHOT, remember=("k", RECORD))
        assert isinstance(kept, CasRemembered)
        assert await store.replay("t", "k") == RECORD
        await store.get("t")

    async def fresh_move() -> None:
        moved = await store.compare_and_set("fresh", fresh_version[0], SNAPSHOT)
        assert isinstance(moved, CasOk)
        fresh_version[0] = moved.version

    results: dict[str, list[float]] = {"before": [], "after": [], "fresh": []}
    steps = {"before": replay_before, "after": replay_after, "fresh": fresh_move}
    for run in range(runs):
        order = list(steps) if run % 2 == 0 else list(reversed(steps))
        for name in order:
            results[name].append(await _median_ms(steps[name], replays))
        print(f"run {run + 1}: " + ", ".join(f"{n} {results[n][-1]:.3f} ms" for n in steps))
    medians = {name: statistics.median(values) for name, values in results.items()}
    print(
        "median of runs: "
        + ", ".join(f"{name} {value:.3f} ms" for name, value in medians.items())
        + f"; the check adds {medians['after'] - medians['before']:.3f} ms per replay"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--replays", type=int, default=1000)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.runs, arguments.replays))
