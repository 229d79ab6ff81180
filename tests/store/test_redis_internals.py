"""The redis-py internals the Redis store leans on are still there (store/redis_batch.py and
store/redis_durable.py: each piece names the upstream function it mirrors).

The batcher sends pipelines on connections it takes from redis-py's pools itself, and the
durable cluster write pipelines ``EVALSHA`` and ``WAIT`` on one node's connection and follows
redirections as the cluster client does: both reach below redis-py's public API. pyproject pins
redis-py to one minor release; when another is let in, these tests say whether those pieces
moved, before a failover does. They look at the installed code only (no Redis needed).
"""

from __future__ import annotations

import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import ClusterNode, NodesManager, PipelineCommand, RedisCluster
from redis.asyncio.connection import AbstractConnection, Connection
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import SentinelConnectionPool, SentinelManagedConnection
from redis.commands.core import AsyncScript

ROOT = Path(__file__).resolve().parents[2]


def _parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


def _source(function: Any) -> str:
    return inspect.getsource(function)


def test_redis_is_pinned_to_one_minor_release_and_the_installed_one_is_in_it() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    [pin] = [Requirement(d) for d in dependencies if Requirement(d).name == "redis"]
    upper = [spec for spec in pin.specifier if spec.operator == "<"]
    lower = [spec for spec in pin.specifier if spec.operator == ">="]
    assert upper and lower, pin
    assert upper[0].version.split(".")[:1] == lower[0].version.split(".")[:1], pin
    assert version("redis") in pin.specifier
    for lock in ("runtime.txt", "test.txt"):
        assert f"redis=={version('redis')}" in (ROOT / "requirements" / lock).read_text(), lock


def test_the_pool_and_connection_pieces_the_batcher_uses() -> None:
    """``Batcher._on_pool`` mirrors ``redis.asyncio.client.Redis.execute_command``: a
    connection from the pool, the command sent under the connection's ``Retry`` (which
    disconnects it on failure and tries again), the connection given back."""
    for pool in (BlockingConnectionPool, SentinelConnectionPool):
        assert _parameters(pool.get_connection)[1:] == ["command_name", "keys", "options"]
        assert inspect.iscoroutinefunction(pool.get_connection)
        assert inspect.iscoroutinefunction(pool.release)
    execute = _source(Redis.execute_command)
    assert "await pool.get_connection()" in execute
    assert "conn.retry.call_with_retry(" in execute
    assert "await pool.release(conn)" in execute
    assert "await conn.disconnect(" in _source(Redis._close_connection)
    assert _parameters(Retry.call_with_retry)[1:3] == ["do", "fail"]
    assert "await fail(error" in _source(Retry.call_with_retry)
    assert "error" in _parameters(AbstractConnection.disconnect)


def test_the_wire_pieces_the_batcher_uses() -> None:
    """``_exchange`` mirrors ``Pipeline._execute_pipeline``: the commands packed into one
    write, then a reply read per command, an error reply read whole and kept in its place."""
    assert _parameters(Connection.send_packed_command)[1:] == ["command", "check_health"]
    assert "pack_commands" in dir(Connection) and "read_response" in dir(Connection)
    pipeline = _source(Pipeline._execute_pipeline)
    assert "connection.pack_commands(" in pipeline
    assert "await connection.send_packed_command(all_cmds)" in pipeline
    assert "except ResponseError as e:" in pipeline
    # a re-sent command reaches the address the connection had (Sentinel is not asked again):
    # the replay's proof is in its script, whichever node runs it (store/redis.py "Replays")
    send = _source(AbstractConnection.send_packed_command)
    assert "await self.connect_check_health(check_health=False)" in send
    assert "_connect_retry" in dir(SentinelManagedConnection)


def test_the_cluster_pieces_the_batcher_and_the_durable_write_use() -> None:
    """``Batcher._node_of`` and ``_on_node`` mirror ``RedisCluster._execute_command`` and
    ``ClusterNode.execute_command``: the ``_initialize`` flag, the node owning the key, one of
    its connections taken, checked and given back; ``cluster_write_and_wait`` mirrors the
    redirections of ``RedisCluster._execute_command`` (``MOVED``: ``NodesManager.move_slot``;
    ``ASK``: ``ASKING`` first) and ``relearn_layout`` its connection-error branch."""
    command = _source(RedisCluster._execute_command)
    assert "self._initialize = True" in command
    assert "target_node.update_active_connections_for_reconnect()" in command
    assert "await target_node.disconnect_free_connections()" in command
    assert "await self.nodes_manager.move_slot(e)" in command
    assert "self._initialize" in _source(RedisCluster.execute_command)
    assert _parameters(RedisCluster.get_node_from_key)[1:] == ["key", "replica"]
    assert _parameters(RedisCluster.get_node)[1:] == ["host", "port", "node_name"]
    for method in ("acquire_connection", "release", "update_active_connections_for_reconnect"):
        assert callable(getattr(ClusterNode, method)), method
    for method in ("disconnect_if_needed", "disconnect_free_connections", "execute_pipeline"):
        assert inspect.iscoroutinefunction(getattr(ClusterNode, method)), method
    assert _parameters(ClusterNode.execute_pipeline)[1:] == ["commands"]
    assert "last_failed_node_name" in _parameters(NodesManager.initialize)
    assert _parameters(NodesManager.move_slot)[1:] == ["e"]
    assert _parameters(PipelineCommand.__init__)[1:] == ["position", "args", "kwargs"]
    assert "self.result" in _source(PipelineCommand.__init__)


def test_the_script_pieces_the_store_uses() -> None:
    """A registered script's ``sha`` and text, for ``EVALSHA`` sent by hand and for ``SCRIPT
    LOAD`` after ``NOSCRIPT`` (store/redis_durable.py)."""
    script = AsyncScript(Redis(), "return 1")
    assert script.sha and script.script == "return 1"
