"""The failover drill as a measurement: per topology, what the clients saw.

    flock /tmp/bench.lock .venv/bin/python bench/drill_bench.py                # every setup
    flock /tmp/bench.lock .venv/bin/python bench/drill_bench.py --setup cluster --wait 0

The same drill as tests/http/test_failover_drill.py (tests/failover_drill.py: two real
``baohuang serve`` processes, tables played by clients that retry every move with its
``Idempotency-Key``, SSE and NDJSON followers on both processes, a deduplicating webhook receiver;
a ``kill -9`` of a primary, then a ``kill -9`` of a primary whose replica links were cut), on
Redis setups built on free loopback ports by tests/redis_topologies.py:

* ``cluster``: 3 primaries × 1 replica; ``cluster2``: 3 primaries × 2 replicas;
* ``sentinel``: 1 primary, 2 replicas, 3 Sentinels.

Prints, per setup, the writes acknowledged, replayed and lost, the followers reset and diverged,
the webhook's losses, and per failover how long until a replica was promoted, until the killed
node was back as a replica, and the longest time a table went without an acknowledged move
around the kill (the unavailability a player sees). ``--json`` writes the reports.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from failover_drill import (  # noqa: E402
    Drill,
    DrillReport,
    cluster_environment,
    cluster_fault,
    cluster_tables,
    sentinel_environment,
    sentinel_fault,
)
from quiet import wait_for_quiet  # noqa: E402
from redis_server import find_redis_sentinel, find_redis_server  # noqa: E402
from redis_topologies import ClusterSetup, SentinelSetup  # noqa: E402

SETUPS = ("cluster", "cluster2", "sentinel")


@contextmanager
def _cluster(replicas_per_primary: int) -> Iterator[ClusterSetup]:
    binary = find_redis_server()
    if binary is None:
        raise SystemExit("no redis-server")
    cluster = ClusterSetup(binary, replicas_per_primary=replicas_per_primary)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()


@contextmanager
def _sentinel() -> Iterator[SentinelSetup]:
    binary, sentinel = find_redis_server(), find_redis_sentinel()
    if binary is None or sentinel is None:
        raise SystemExit("no redis-server / redis-sentinel")
    setup = SentinelSetup(binary, sentinel)
    try:
        setup.start()
        yield setup
    finally:
        setup.close()


async def drill(setup: str, wait: int, tables: int) -> DrillReport:
    extra = {"REDIS_WAIT_REPLICAS": str(wait)}
    if setup == "sentinel":
        with _sentinel() as sentinel:
            run = Drill(
                {**sentinel_environment(sentinel), **extra}, [f"drill-s{n}" for n in range(tables)]
            )
            faults = [sentinel_fault(sentinel, cut=False), sentinel_fault(sentinel, cut=True)]
            return await run.run(f"sentinel 1+2, WAIT {wait}", faults)
    per = 2 if setup == "cluster2" else 1
    with _cluster(per) as cluster:
        by_shard = list(cluster_tables(cluster, -(-tables // 3)).values())
        names = [table for shard in by_shard for table in shard][:tables]
        run = Drill({**cluster_environment(cluster), **extra}, names)
        faults = [
            cluster_fault(cluster, by_shard[0][0], cut=False),
            cluster_fault(cluster, by_shard[1][0], cut=True),
        ]
        return await run.run(f"cluster 3+{3 * per}, WAIT {wait}", faults)


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=[*SETUPS, "all"], default="all")
    parser.add_argument("--wait", type=int, default=1, help="REDIS_WAIT_REPLICAS")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--json", type=Path, help="write the reports here")
    args = parser.parse_args(argv)
    reports = []
    for setup in SETUPS if args.setup == "all" else (args.setup,):
        wait_for_quiet(max_wait=30, say=True)
        report = await drill(setup, args.wait, args.tables)
        reports.append(report)
        print(report.summary(), flush=True)
        for violation in report.violations[:10]:
            print(f"    {violation}")
        if len(report.violations) > 10:
            print(f"    … {len(report.violations) - 10} more")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps([dataclasses.asdict(r) for r in reports], indent=1, default=sorted)
        )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
