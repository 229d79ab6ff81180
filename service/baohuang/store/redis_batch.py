"""Auto-pipelining: the commands that concurrent table operations issue in one turn of the event
loop leave together, as one pipeline on one connection (per node on Redis Cluster), instead of
one pool checkout, one socket write and one read wake-up each.

Only the way commands travel changes, never what they do: each command is exactly the one the
store would have sent alone, each gets its own reply (or its own error), and nothing in a batch
depends on another command of it (the requests are independent; one request's own commands are
issued one after another, each awaited). Redis runs a connection's commands in order, so a
script that is a write is still one atomic ``EVALSHA``.

Durable acknowledgement: when writes wait for replicas, a batch that holds a write ends with
``WAIT n timeout`` on the same connection. ``WAIT`` answers once ``n`` replicas acknowledged
everything this connection wrote before it, so one ``WAIT`` vouches for every write of the
batch (on Cluster: every write of the batch sent to that node, the one that owns their keys).

Failures are handled as without batching:

* A command whose reply is an error of any kind (``NOSCRIPT`` after Redis lost its scripts,
  ``MOVED``/``ASK``, ``READONLY``, ``BUSY``, a wrong type, …) gets :data:`FALLBACK`, and the
  store sends it again alone, the way it did before batching existed
  (:meth:`.redis_core.RedisCore._script`): redis-py's client, which loads scripts, follows
  redirections and raises what is left, or the durable write-and-wait of :mod:`.redis_durable`.
  These are refused before anything runs, and a write sent again is token-idempotent anyway;
  the other commands of the batch never notice.
* A connection that breaks (reset, closed, timed out) under a batch: on one Redis or a
  Sentinel-managed primary the commands not yet answered are sent again once on a new connection
  after the connection's own ``Retry`` backoff, as redis-py retries a single command (every write
  is token-idempotent, so one that ran before its reply was lost is not applied twice); a second
  failure is the error (503). On Cluster they fail at once, after the client is told to read the
  layout again, as the cluster client and the durable cluster write do.
* A durable write whose reply was read but whose ``WAIT`` was not (the connection broke in
  between) gets the error as its acknowledgement, so the store answers 503 ``OUTCOME_UNKNOWN``;
  it is not sent again: the script would find its own token and write nothing, and a ``WAIT``
  on a new connection would vouch for nothing.
* No connection to be had (the pool's wait ran out, connecting failed) fails the batch's commands
  as it fails a single command.

The bound on table work (:meth:`.redis_core.RedisCore._call`) is untouched: an operation holds
its slot while its command is batched, and a batch holds one connection, so the pool's spare
connections stay free for ``/readyz``'s ping.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import ResponseError

from .redis_durable import relearn_layout

try:  # the C packer: ~8x faster than redis.asyncio's own for a snapshot-sized EVALSHA
    from hiredis import pack_command
except ImportError:  # pragma: no cover - hiredis is a dependency (redis[hiredis])
    pack_command = None  # type: ignore[assignment]

FALLBACK: Final = object()
"""The reply of a command the batch did not carry through: send it again the unbatched way."""

Command = tuple[Any, ...]


Entry = tuple[Command, bool, "asyncio.Future[Any]"]


class Batcher:
    """Collects the commands of one loop turn per target (the pool, or a cluster node) and sends
    each target's as one pipeline. :meth:`submit` returns the command's reply, ``(reply,
    acknowledged)`` for a durable write (``acknowledged``: ``WAIT``'s answer, or the error that
    kept it from being read), or :data:`FALLBACK`."""

    def __init__(self, client: Redis | RedisCluster, wait: tuple[str, int, int] | None) -> None:
        self._client = client
        self._cluster = client if isinstance(client, RedisCluster) else None
        self._wait = wait
        self._pending: dict[ClusterNode | None, list[Entry]] = {}
        self._scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()

    def submit(self, command: Command, key: str, durable: bool) -> asyncio.Future[Any]:
        """Queue ``command`` (whose first key is ``key``; ``durable``: a write to ``WAIT`` for)
        for the end of this loop turn."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        target: ClusterNode | None = None
        if self._cluster is not None:
            target = self._node_of(key)
            if target is None:  # the layout is not known (yet, or any more): the client's way
                future.set_result(FALLBACK)
                return future
        queue = self._pending.get(target)
        if queue is None:
            self._pending[target] = queue = []
        queue.append((command, durable and self._wait is not None, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        return future

    def _node_of(self, key: str) -> ClusterNode | None:
        # mirrors redis-py's RedisCluster.execute_command (the _initialize flag: the slot map
        # must be read again first) and _determine_nodes (get_node_from_key)
        cluster = self._cluster
        assert cluster is not None
        if cluster._initialize:
            return None
        try:
            return cluster.get_node_from_key(key)
        except Exception:  # a slot with no owner while the cluster changes
            return None

    def _flush(self) -> None:
        self._scheduled = False
        pending, self._pending = self._pending, {}
        for target, entries in pending.items():
            task = asyncio.ensure_future(self._send(target, entries))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _send(self, node: ClusterNode | None, entries: list[Entry]) -> None:
        try:
            if node is None:
                await self._on_pool(entries)
            else:
                await self._on_node(node, entries)
        finally:  # whatever happened (even a cancellation), every caller gets an answer
            for _, _, future in entries:
                if not future.done():
                    future.set_result(FALLBACK)

    def _commands(self, entries: list[Entry]) -> list[Command]:
        """The batch's commands, ``WAIT`` last if it holds a durable write."""
        commands = [command for command, _, _ in entries]
        if self._wait is not None and any(durable for _, durable, _ in entries):
            commands.append(self._wait)
        return commands

    async def _on_pool(self, entries: list[Entry]) -> None:
        """One Redis (or the Sentinels' primary): one connection of the client's pool. A lost
        connection is retried as redis-py retries a command (the connection's own ``Retry``:
        once, after a short backoff, on a new connection), for the commands not answered."""
        # mirrors redis-py's redis.asyncio.client.Redis.execute_command: a connection from the
        # pool, the exchange under the connection's Retry (on failure it disconnects, then
        # tries again: the connection reconnects to the address it had), the connection back
        assert isinstance(self._client, Redis)
        pool = self._client.connection_pool
        try:  # as redis-py's own command would, outside its retry: no connection, no try
            connection = await pool.get_connection()  # type: ignore[no-untyped-call]
        except Exception as exc:
            _fail(entries, exc)
            return
        unanswered = entries

        async def attempt() -> None:
            nonlocal unanswered
            replies, lost = await _exchange(connection, self._commands(unanswered))
            unanswered = _answer(unanswered, replies, lost)
            if lost is not None and unanswered:
                raise lost

        async def failed(error: Exception) -> None:
            await connection.disconnect(error=error)

        try:
            await connection.retry.call_with_retry(attempt, failed)
        except Exception as exc:
            _fail(unanswered, exc)
        finally:
            await pool.release(connection)

    async def _on_node(self, node: ClusterNode, entries: list[Entry]) -> None:
        """Redis Cluster: one connection of the node that owns the commands' keys. A lost
        connection fails the commands not answered, after reading the cluster's layout again,
        as the cluster client and the durable cluster write do."""
        # mirrors redis-py's ClusterNode.execute_command and RedisCluster._execute_command's
        # connection-error branch (relearn_layout)
        try:
            connection = node.acquire_connection()
        except Exception as exc:  # MaxConnectionsError, as the cluster client raises it
            _fail(entries, exc)
            return
        lost: BaseException | None = None
        try:
            await node.disconnect_if_needed(connection)
            replies, lost = await _exchange(connection, self._commands(entries))
            unanswered = _answer(entries, replies, lost)
            if lost is not None:
                _fail(unanswered, lost)
        finally:
            try:
                await node.disconnect_if_needed(connection)
            finally:
                node.release(connection)
            if lost is not None:
                assert self._cluster is not None
                await relearn_layout(self._cluster, node)

    async def aclose(self) -> None:
        """Wait (bounded by the client's timeouts) for the batches in flight."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


def _fail(entries: list[Entry], error: BaseException) -> None:
    for _, _, future in entries:
        if not future.done():
            future.set_exception(error)


def _answer(entries: list[Entry], replies: list[Any], lost: BaseException | None) -> list[Entry]:
    """Give each command with a reply its answer; return those without one. ``replies`` is
    short when the connection broke (``lost``: its error). A command whose reply is an error
    falls back; a durable write gets ``(reply, WAIT's answer)``, or ``(reply, lost)`` when the
    connection broke before ``WAIT`` answered (not sent again: see the module docstring)."""
    waited = len(replies) > len(entries)  # the batch's WAIT was answered too
    acknowledged: Any = replies[-1] if waited else lost
    for (_, durable, future), reply in zip(entries, replies, strict=False):
        if future.done():  # its caller gave up (cancelled)
            continue
        if isinstance(reply, Exception):
            future.set_result(FALLBACK)
        elif durable:
            future.set_result((reply, acknowledged))
        else:
            future.set_result(reply)
    return entries[len(replies) :]


async def _exchange(
    connection: Any, commands: list[Command]
) -> tuple[list[Any], BaseException | None]:
    """Send ``commands`` in one write and read a reply per command, a :class:`ResponseError`
    in place of a reply that is an error. If the connection breaks (and redis-py disconnects
    it), the replies read so far and its error."""
    # mirrors redis-py's redis.asyncio.client.Pipeline._execute_pipeline
    replies: list[Any] = []
    try:
        if pack_command is not None:
            await connection.send_packed_command(b"".join(map(pack_command, commands)))
        else:  # pragma: no cover - redis-py's own packer
            await connection.send_packed_command(connection.pack_commands(commands))
        read = connection.read_response
        for _ in commands:
            try:
                replies.append(await read())
            except ResponseError as exc:  # read whole: the connection is still in step
                replies.append(exc)
    except Exception as exc:
        return replies, exc
    return replies, None
