"""The failover drill in the suite: a 200 means the move is kept, and every follower and webhook
receiver ends with the log as it is, through real failovers (tests/failover_drill.py says how).

Two real ``baohuang serve`` processes on a real Redis Cluster (3 primaries, 3 replicas,
``REDIS_WAIT_REPLICAS=1``) and on a real Sentinel setup (1 primary, 2 replicas, 3 Sentinels,
``REDIS_WAIT_REPLICAS=2``: its Sentinels also fail over a primary still up now and then, see
docs/deploy.md "What a 200 guarantees");
clients retrying every move with its ``Idempotency-Key``; SSE and NDJSON followers on both
processes; a webhook receiver that deduplicates on delivery ids. Faults: a plain ``kill -9`` of
a primary, then a ``kill -9`` of a primary whose replica links were cut so that writes went
unconfirmed (Cluster); the second alone (Sentinel: its plain kill is the Sentinel fault walk's
and tests/http/test_redis_failover.py's, and the cut one kills too). Deals end and the next
start during the faults (their records kept, the log trimmed). The audit (tests/log_audit.py,
and each table's own ``/audit``) must find nothing.
"""

from __future__ import annotations

import pytest

from failover_drill import (
    Drill,
    DrillReport,
    cluster_environment,
    cluster_fault,
    cluster_tables,
    sentinel_environment,
    sentinel_fault,
)
from redis_topologies import cluster_setup, sentinel_setup

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.slow]


def _check(report: DrillReport) -> None:
    print(report.summary())
    assert report.acknowledged > 100, report.summary()  # the drill played, or it proves nothing
    assert all(f.unconfirmed_before_kill > 0 for f in report.faults if "cut" in f.name), (
        "the cut never left a write unconfirmed: the second fault tested nothing"
    )
    assert report.deals_during_faults >= 1, "no deal ended and the next started in the faults"
    assert report.deals_kept >= 1, report.summary()
    assert not report.violations, "\n".join(report.violations[:40])
    # In cluster mode every process used to log "change notifications failed" with a
    # KeyError from redis-py's cluster Pub/Sub at start-up.
    raised = [line for line in report.log_errors if "KeyError" in line]
    assert not raised, "\n".join(report.log_errors[:20])


async def test_cluster_drill_keeps_every_acknowledged_move_and_every_follower_on_the_log() -> None:
    with cluster_setup() as cluster:
        by_shard = list(cluster_tables(cluster, 3).values())
        tables = [table for shard in by_shard for table in shard][:8]
        drill = Drill(cluster_environment(cluster), tables)
        faults = [
            cluster_fault(cluster, by_shard[0][0], cut=False),
            cluster_fault(cluster, by_shard[1][0], cut=True),
        ]
        _check(await drill.run("cluster 3+3", faults))


async def test_sentinel_drill_keeps_every_acknowledged_move_and_every_follower_on_the_log() -> None:
    """One fault, the cut and the kill: with every replica cut off, the writes the primary takes
    are answered 503 (``WAIT 2``), and the Sentinels' promotion must lose none answered 200. A
    plain kill before it took 4-5 s more; its case, a primary killed with both replicas in sync,
    is the Sentinel fault walk's and tests/http/test_redis_failover.py's."""
    with sentinel_setup() as setup:
        drill = Drill(sentinel_environment(setup), [f"drill-s{n}" for n in range(8)])
        _check(await drill.run("sentinel 1+2", [sentinel_fault(setup, cut=True)]))
