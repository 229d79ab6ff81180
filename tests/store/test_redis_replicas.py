"""Which replicas count (store/redis_replicas.py), from answers as Redis gives them: ``CLUSTER
NODES`` of a 3 × 2 cluster (the shape tests/redis_topologies.py builds with 2 replicas a primary),
parsed by redis-py as the service's client parses it."""

from __future__ import annotations

import pytest
from redis._parsers.helpers import parse_cluster_nodes

from baohuang.store.redis_replicas import replicas_in_cluster, replicas_in_sentinel_answer

A, B, C = "a" * 40, "b" * 40, "c" * 40
NODES = f"""\
{A} 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460
{B} 127.0.0.1:7001@17001 master - 0 1700000000000 2 connected 5461-10922
{C} 127.0.0.1:7002@17002 master - 0 1700000000000 3 connected 10923-16383
{"d" * 40} 127.0.0.1:7003@17003 slave {A} 0 1700000000000 1 connected
{"e" * 40} 127.0.0.1:7004@17004 slave {A} 0 1700000000000 1 connected
{"f" * 40} 127.0.0.1:7005@17005 slave {B} 0 1700000000000 2 connected
{"g" * 40} 127.0.0.1:7006@17006 slave {B} 0 1700000000000 2 connected
{"h" * 40} 127.0.0.1:7007@17007 slave {C} 0 1700000000000 3 connected
{"i" * 40} 127.0.0.1:7008@17008 slave {C} 0 1700000000000 3 connected
"""


def _nodes(text: str) -> dict[str, dict[str, object]]:
    return parse_cluster_nodes(text)  # type: ignore[no-untyped-call,no-any-return]


def test_every_shard_with_two_replicas_counts_two() -> None:
    assert replicas_in_cluster(_nodes(NODES)) == 2


@pytest.mark.parametrize("flag", ["slave,fail", "slave,fail?", "slave,handshake", "slave,noaddr"])
def test_the_shard_with_a_replica_down_decides(flag: str) -> None:
    down = NODES.replace(f"127.0.0.1:7008@17008 slave {C}", f"127.0.0.1:7008@17008 {flag} {C}")
    assert replicas_in_cluster(_nodes(down)) == 1


def test_a_primary_without_slots_is_no_shard() -> None:
    # A node just added (no slots yet, no replica) owns no table: it writes nothing to lose.
    added = NODES + f"{'j' * 40} 127.0.0.1:7009@17009 master - 0 0 0 connected\n"
    assert replicas_in_cluster(_nodes(added)) == 2


def test_no_primary_serving_slots_is_no_answer() -> None:
    only_replicas = "\n".join(line for line in NODES.splitlines() if " slave " in line)
    with pytest.raises(ValueError, match="no primary"):
        replicas_in_cluster(_nodes(only_replicas))


def test_sentinel_replicas_flagged_down_do_not_count() -> None:
    up = {"is_sdown": False, "is_odown": False, "is_disconnected": False}
    listed = [
        up,
        {**up, "is_sdown": True},
        {**up, "is_odown": True},
        {**up, "is_disconnected": True},
    ]
    assert replicas_in_sentinel_answer([up, *listed]) == 2
