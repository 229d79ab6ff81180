"""The Redis table store: live tables shared by any number of service replicas.

Layout: ONE key per table, a hash ``{prefix}{table_id}`` (default prefix ``baohuang:table:``)
with fields ``v`` (version, an integer), ``s`` (the snapshot bytes, never parsed here) and ``w``
(a token naming the last write, see below). Every command and every Lua script touches exactly
that one key, so nothing ever spans two hash slots: the same code and data work unchanged on a
single Redis, behind a proxy, on Redis Cluster (``from_url(..., cluster=True)``) or behind Redis
Sentinel (:meth:`RedisTableStore.from_sentinel`), and behind any number of service replicas,
because Redis runs each script atomically.

Writes are Lua scripts (``register_script``; redis-py runs them by SHA and reloads them after
``NOSCRIPT``, e.g. when Redis restarted and lost its script cache). ``compare_and_set`` checks
the version and writes in one script, so no interleaving of clients can apply two writes to one
version. Both write scripts set the TTL again in the same script: an expiry can never be lost
between a write and a separate ``EXPIRE``.

Failing fast: the client has short socket timeouts and one retry (redis-py 8 defaults to 5 s and
ten retries), and every connection-level failure becomes :class:`StoreUnavailable`, which the
service turns into 503 with ``Retry-After``. The connection pool reconnects by itself, so the same
store object works again as soon as Redis is back.

Overload is not an outage: at most ``max_in_flight`` table operations of this process use Redis
at once; the others wait their turn, in order, for at most ``wait_seconds``, then fail with
:class:`StoreOverloaded` (503 ``OVERLOADED``), which never touches readiness. The pool holds a
few connections more than that bound, so ``ping`` (``/readyz``) always finds one free.

Durable acknowledgement: replication is asynchronous, so a write the primary ran may be lost when
a replica that never received it is promoted. With ``wait_replicas`` > 0 every write goes through
:meth:`RedisTableStore._write`, which sends the script and ``WAIT wait_replicas timeout`` on the
same connection, one after the other (a pipeline: one round trip). ``WAIT`` blocks until that many
replicas acknowledged everything this connection wrote, at most ``wait_timeout_ms``; when fewer
did, the store raises :class:`StoreOutcomeUnknown` (503 ``OUTCOME_UNKNOWN``) instead of reporting
success. On Redis Cluster the pair goes to the node that owns the key, on one of its connections
(``WAIT`` cannot run inside a script, nor in ``MULTI``, where it does not block).

Failover: every error the client raises while the topology changes (connections reset or closed
under it, ``READONLY`` from a demoted primary, ``MOVED``/``ASK`` it could not follow, cluster
down, no primary known to the Sentinels, …) is an outage, :class:`StoreUnavailable`; the clients
find the new primary by themselves, so the store recovers without a restart.

Retries and idempotence: a write whose reply was lost (a timeout or a dropped connection after the
server ran it) is retried by redis-py with the same arguments. Each write carries a unique token
stored in ``w``; a script that finds its own token already there returns the result of the first
run instead of applying the write again or reporting a false conflict.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, TypeVar

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, PipelineCommand, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ClusterError,
    InvalidResponse,
    MaxConnectionsError,
    MovedError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.utils import HIREDIS_AVAILABLE

from .base import (
    DEFAULT_TTL_SECONDS,
    CasConflict,
    CasMissing,
    CasOk,
    CasResult,
    Observe,
    PutResult,
    StoredTable,
    StoreOutcomeUnknown,
    StoreOverloaded,
    StoreUnavailable,
    new_instance,
    no_observe,
    safe_observe,
)
from .redis_config import DEFAULT_WAIT_TIMEOUT_MS

__all__ = ["DEFAULT_KEY_PREFIX", "RedisTableStore"]

logger = logging.getLogger("baohuang.store")

T = TypeVar("T")

DEFAULT_KEY_PREFIX: Final = "baohuang:table:"
SOCKET_TIMEOUT_SECONDS: Final = 0.5
"""Long enough for a multi-KiB snapshot on a busy server, short enough to answer 503 in ~1 s."""
RETRIES: Final = 1
HEALTH_CHECK_INTERVAL_SECONDS: Final = 30
"""A connection idle this long is PINGed before use, so a dead one is replaced, not failed on."""
MAX_IN_FLIGHT: Final = 64
"""Table operations of one process using Redis at once (``REDIS_MAX_CONNECTIONS``): a Redis
round trip here is ~0.1–0.2 ms, so 64 in flight is far more than one Python process can feed."""
WAIT_SECONDS: Final = 2.0
"""How long an operation waits for its turn before 503 ``OVERLOADED`` (``REDIS_POOL_TIMEOUT``)."""
SPARE_CONNECTIONS: Final = 2
"""Connections beyond ``max_in_flight``, so that a readiness ping never waits behind table work."""

# KEYS[1] table key; ARGV[1] snapshot, ARGV[2] TTL seconds, ARGV[3] write token,
# ARGV[4] the new instance. Returns the new version (1 means the table was created).
_PUT_LUA: Final = """
local key = KEYS[1]
local last = redis.call('HMGET', key, 'v', 'w')
if last[1] and last[2] == ARGV[3] then
  return tonumber(last[1])
end
local v = redis.call('HINCRBY', key, 'v', 1)
redis.call('HSET', key, 's', ARGV[1], 'w', ARGV[3], 'e', ARGV[4])
redis.call('EXPIRE', key, ARGV[2])
return v
"""

# KEYS[1] table key; ARGV[1] expected version, ARGV[2] snapshot, ARGV[3] TTL, ARGV[4] token,
# ARGV[5] the token the table's last write must have ('' for any), ARGV[6] the instance the
# table must be ('' for any).
# Returns  n > 0: written, new version n;  n < 0: conflict, current version -n;  0: no table.
_CAS_LUA: Final = """
local key = KEYS[1]
local cur = redis.call('HMGET', key, 'v', 'w', 'e')
if not cur[1] then
  return 0
end
local v = tonumber(cur[1])
local expected = tonumber(ARGV[1])
if v ~= expected then
  if v == expected + 1 and cur[2] == ARGV[4] then
    return v
  end
  return -v
end
if (ARGV[5] ~= '' and cur[2] ~= ARGV[5]) or (ARGV[6] ~= '' and cur[3] ~= ARGV[6]) then
  return -v
end
v = redis.call('HINCRBY', key, 'v', 1)
redis.call('HSET', key, 's', ARGV[2], 'w', ARGV[4])
redis.call('EXPIRE', key, ARGV[3])
return v
"""

# KEYS[1] table key. Returns 1 when there was a table. A script like every write (see _write).
_DELETE_LUA: Final = "return redis.call('DEL', KEYS[1])"

REDIRECTIONS: Final = 5
"""``MOVED``/``ASK``/``NOSCRIPT`` answers a durable cluster write follows before giving up (503)."""

_OUTAGE_ERRORS: Final = (
    RedisConnectionError,  # refused, reset, closed, auth, LOADING, Master/SlaveNotFoundError
    RedisTimeoutError,
    OSError,  # includes the built-in TimeoutError and ConnectionResetError
    ReadOnlyError,  # a replica promoted away from under us
    ClusterError,  # ClusterDownError (also MASTERDOWN), "TTL exhausted" (redirected in circles)
    AskError,  # and MovedError: a redirection the client did not follow
    TryAgainError,
    SlotNotCoveredError,  # a slot with no known owner while the cluster changes
    InvalidResponse,  # a reply cut short by a connection torn down under it
    OutOfMemoryError,  # maxmemory with noeviction: writes refused until memory frees
)
_OUTAGE_REPLY_PREFIXES: Final = (
    "BUSY", "NOREPLICAS", "MISCONF", "LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN",
    "TRYAGAIN", "UNBLOCKED",  # UNBLOCKED: a blocked command (WAIT) ended by a role change
)  # fmt: skip
_CLUSTER_UNREACHABLE: Final = (
    "Redis Cluster cannot be connected",
    "All slots are not covered",
    "startup_nodes could not agree",
    "Cluster mode is not enabled",  # REDIS_MODE=cluster against a plain Redis: not ready
)
_TEARDOWN_ERRORS: Final = (RuntimeError, AttributeError)
"""What a connection closed under a command in flight raises from inside the client: the cluster
client tears down every connection of a node it gave up on, so a concurrent command meets
``RuntimeError: unable to perform operation on <TCPTransport closed=True …>`` or
``AttributeError: 'NoneType' object has no attribute 'writelines'``."""
_CLIENT_MODULES: Final = ("redis.", "asyncio.", "uvloop.", "hiredis")


def _is_pool_exhausted(exc: BaseException) -> bool:
    """redis-py's pools saying "no connection free", which is load, not an outage."""
    if isinstance(exc, MaxConnectionsError):
        return True
    return isinstance(exc, RedisConnectionError) and str(exc) == "No connection available."


def _raised_in_client(exc: BaseException) -> bool:
    """Whether ``exc`` was raised inside the Redis client or the event loop's transports (the
    innermost frame of its traceback), not in this package: a bug of ours stays a bug (500)."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    module = tb.tb_frame.f_globals.get("__name__", "")
    return isinstance(module, str) and module.startswith(_CLIENT_MODULES)


def _is_outage(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a Redis client call, means Redis (or the way to it) is down or
    changing hands: 503 with ``Retry-After``, never 500."""
    if isinstance(exc, _OUTAGE_ERRORS):
        return True
    if isinstance(exc, ResponseError):
        return str(exc).startswith(_OUTAGE_REPLY_PREFIXES)
    if isinstance(exc, RedisClusterException):
        return str(exc).startswith(_CLUSTER_UNREACHABLE)
    return isinstance(exc, _TEARDOWN_ERRORS) and _raised_in_client(exc)


def _always(reply: Any) -> bool:
    return True


def _cas_wrote(reply: Any) -> bool:
    """The CAS script wrote (n > 0); a conflict or a missing table wrote nothing to wait for."""
    return int(reply) > 0


class RedisTableStore:
    """Live tables in Redis; see the module docstring for layout, atomicity and failure modes."""

    def __init__(
        self,
        client: Redis | RedisCluster,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        key_prefix: str = DEFAULT_KEY_PREFIX,
        observe: Observe = no_observe,
        owns_client: bool = False,
        max_in_flight: int = MAX_IN_FLIGHT,
        wait_seconds: float = WAIT_SECONDS,
        wait_replicas: int = 0,
        wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS,
    ) -> None:
        """Wrap an existing client; prefer :meth:`from_url`, which sets the timeouts and pool.

        ``owns_client``: whether :meth:`close` closes the client (and its pool).
        ``max_in_flight``/``wait_seconds``: the bound on table work (module docstring).
        ``wait_replicas``/``wait_timeout_ms``: durable acknowledgement (module docstring); the
        client's socket timeout must be longer than ``wait_timeout_ms``.
        """
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        if max_in_flight <= 0 or wait_seconds <= 0:
            raise ValueError("max_in_flight and wait_seconds must be positive")
        if wait_replicas < 0 or wait_timeout_ms <= 0:
            raise ValueError("wait_replicas must be >= 0 and wait_timeout_ms positive")
        self._wait_replicas = int(wait_replicas)
        self._wait_timeout_ms = int(wait_timeout_ms)
        self._sentinel: Sentinel | None = None  # closed with the store when it made one
        self._slots = asyncio.Semaphore(max_in_flight)
        self._wait = wait_seconds
        self._redis = client
        self._ttl = int(ttl_seconds)
        self._prefix = key_prefix
        self._observe = observe
        self._owns_client = owns_client
        self._closed = False
        self._put = client.register_script(_PUT_LUA)
        self._cas = client.register_script(_CAS_LUA)
        self._delete = client.register_script(_DELETE_LUA)
        # Unique across processes and replicas: a random prefix per store, a counter per write.
        self._token_prefix = secrets.token_hex(8)
        self._tokens = itertools.count()

    @classmethod
    def from_url(
        cls,
        url: str,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        key_prefix: str = DEFAULT_KEY_PREFIX,
        observe: Observe = no_observe,
        socket_timeout: float = SOCKET_TIMEOUT_SECONDS,
        retries: int = RETRIES,
        max_in_flight: int = MAX_IN_FLIGHT,
        wait_seconds: float = WAIT_SECONDS,
        cluster: bool = False,
        username: str | None = None,
        password: str | None = None,
        ssl_ca_certs: str | None = None,
        wait_replicas: int = 0,
        wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS,
    ) -> RedisTableStore:
        """A store with its own client (closed by :meth:`close`), tuned to fail within ~1 s.

        ``url``: ``redis://`` or ``rediss://`` (TLS, verified against ``ssl_ca_certs`` or the
        system's CAs); with ``cluster`` any one node of a Redis Cluster. ``username`` and
        ``password`` (ACL) when they are not in the URL.

        Connecting is lazy: this never touches the network, so the service starts while Redis is
        down and becomes ready when it is back. hiredis parses replies when it is installed.
        The pool blocks (for ``wait_seconds``) rather than raising when all its connections are
        in use, and holds :data:`SPARE_CONNECTIONS` more than ``max_in_flight``.
        """
        options = _client_options(
            socket_timeout, retries, wait_replicas, wait_timeout_ms, username, password
        )
        if ssl_ca_certs:
            options["ssl_ca_certs"] = ssl_ca_certs
        connections = max_in_flight + SPARE_CONNECTIONS
        client: Redis | RedisCluster
        if cluster:  # one pool per node, each of this size
            client = RedisCluster.from_url(url, max_connections=connections, **options)
        else:
            pool = BlockingConnectionPool.from_url(
                url, max_connections=connections, timeout=wait_seconds, **options
            )
            client = Redis.from_pool(pool)
        _warn_without_hiredis()
        return cls(
            client,
            ttl_seconds,
            key_prefix=key_prefix,
            observe=observe,
            owns_client=True,
            max_in_flight=max_in_flight,
            wait_seconds=wait_seconds,
            wait_replicas=wait_replicas,
            wait_timeout_ms=wait_timeout_ms,
        )

    @classmethod
    def from_sentinel(
        cls,
        sentinels: Sequence[tuple[str, int]],
        service: str,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        *,
        db: int = 0,
        key_prefix: str = DEFAULT_KEY_PREFIX,
        observe: Observe = no_observe,
        socket_timeout: float = SOCKET_TIMEOUT_SECONDS,
        retries: int = RETRIES,
        max_in_flight: int = MAX_IN_FLIGHT,
        wait_seconds: float = WAIT_SECONDS,
        username: str | None = None,
        password: str | None = None,
        sentinel_username: str | None = None,
        sentinel_password: str | None = None,
        tls: bool = False,
        ssl_ca_certs: str | None = None,
        wait_replicas: int = 1,
        wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS,
    ) -> RedisTableStore:
        """A store on the primary that the Sentinels at ``sentinels`` name ``service``.

        Every new connection asks the Sentinels where the primary is, so after a failover the
        store reconnects to the promoted replica by itself; a connection still open to a demoted
        primary fails (``READONLY``) and is replaced. ``username``/``password`` are the data
        nodes', ``sentinel_username``/``sentinel_password`` the Sentinels' own (when they require
        any); ``tls`` applies to both. Lazy like :meth:`from_url`.
        """
        options = _client_options(
            socket_timeout, retries, wait_replicas, wait_timeout_ms, username, password
        )
        tls_options: dict[str, Any] = {}
        if tls:
            tls_options["ssl"] = True
            if ssl_ca_certs:
                tls_options["ssl_ca_certs"] = ssl_ca_certs
        asking: dict[str, Any] = {
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": socket_timeout,
            "retry": Retry(ExponentialBackoff(cap=0.1, base=0.02), retries),
            **tls_options,
        }
        if sentinel_username:
            asking["username"] = sentinel_username
        if sentinel_password:
            asking["password"] = sentinel_password
        sentinel = Sentinel(  # type: ignore[no-untyped-call]
            list(sentinels), sentinel_kwargs=asking, db=db, **options, **tls_options
        )
        client: Redis = sentinel.master_for(
            service,
            connection_pool_class=SentinelConnectionPool,
            max_connections=max_in_flight + SPARE_CONNECTIONS,
        )
        _warn_without_hiredis()
        store = cls(
            client,
            ttl_seconds,
            key_prefix=key_prefix,
            observe=observe,
            owns_client=True,
            max_in_flight=max_in_flight,
            wait_seconds=wait_seconds,
            wait_replicas=wait_replicas,
            wait_timeout_ms=wait_timeout_ms,
        )
        store._sentinel = sentinel
        return store

    def __repr__(self) -> str:
        return f"RedisTableStore(prefix={self._prefix!r}, ttl_seconds={self._ttl})"

    def key(self, table_id: str) -> str:
        """The Redis key holding ``table_id`` (for operators and tests)."""
        return self._prefix + table_id

    def _token(self) -> str:
        return f"{self._token_prefix}{next(self._tokens):x}"

    def _done(self, operation: str, outcome: str, start: float) -> None:
        safe_observe(self._observe, operation, outcome, time.perf_counter() - start)

    async def _call(self, operation: str, call: Callable[[], Awaitable[T]], start: float) -> T:
        """One Redis call in its turn (see the module docstring), turning pool exhaustion into
        :class:`StoreOverloaded` and an outage into :class:`StoreUnavailable` (both observed)."""
        slots = self._slots
        if slots.locked():  # every slot taken: wait in line, but not for ever
            try:
                async with asyncio.timeout(self._wait):
                    await slots.acquire()
            except TimeoutError:
                self._done(operation, "overloaded", start)
                raise StoreOverloaded(
                    f"redis {operation}: no connection came free in {self._wait:g} s"
                ) from None
        else:
            await slots.acquire()
        try:
            return await self._run(operation, call, start)
        finally:
            slots.release()

    async def _run(self, operation: str, call: Callable[[], Awaitable[T]], start: float) -> T:
        try:
            return await call()
        except StoreOutcomeUnknown:
            self._done(operation, "unconfirmed", start)
            raise
        except Exception as exc:
            if _is_pool_exhausted(exc):
                self._done(operation, "overloaded", start)
                raise StoreOverloaded(f"redis {operation}: {exc}") from exc
            if _is_outage(exc):
                self._done(operation, "unavailable", start)
                if isinstance(exc, AskError) and not isinstance(self._redis, RedisCluster):
                    _warn_cluster_redirect()
                raise StoreUnavailable(f"redis {operation}: {type(exc).__name__}: {exc}") from exc
            self._done(operation, "error", start)
            raise

    async def _write(
        self,
        operation: str,
        start: float,
        script: AsyncScript,
        keys: list[str],
        args: list[bytes | int | str],
        *,
        committed: Callable[[Any], bool] = _always,
    ) -> Any:
        """Every write the store makes goes through here: run ``script`` in its turn (see
        :meth:`_call`) and, when replicas must acknowledge writes, ``WAIT`` for them on the same
        connection. Returns the script's reply.

        ``committed(reply)``: whether the script wrote something (a refused compare-and-set did
        not, so there is nothing to wait for). A write that ran but was not acknowledged by
        ``wait_replicas`` replicas in time raises :class:`StoreOutcomeUnknown`.
        """
        if not self._wait_replicas:
            return await self._call(operation, lambda: script(keys=keys, args=args), start)

        async def durable() -> Any:
            if isinstance(self._redis, RedisCluster):
                reply, acknowledged = await self._cluster_write_and_wait(
                    self._redis, script, keys, args
                )
            else:
                reply, acknowledged = await self._write_and_wait(self._redis, script, keys, args)
            if committed(reply) and not (
                isinstance(acknowledged, int) and acknowledged >= self._wait_replicas
            ):
                raise StoreOutcomeUnknown(
                    f"redis {operation}: written, but {acknowledged!r} of {self._wait_replicas} "
                    f"replicas acknowledged it within {self._wait_timeout_ms} ms"
                )
            return reply

        return await self._call(operation, durable, start)

    def _wait_command(self) -> tuple[str, int, int]:
        return ("WAIT", self._wait_replicas, self._wait_timeout_ms)

    async def _write_and_wait(
        self, client: Redis, script: AsyncScript, keys: list[str], args: list[bytes | int | str]
    ) -> tuple[Any, Any]:
        """One Redis or a Sentinel-managed primary: ``EVALSHA`` then ``WAIT`` in one pipeline
        (no ``MULTI``), which redis-py sends on one connection and, on a connection error,
        sends again whole on a new one. Loads the script once when Redis lost it."""
        for _ in range(2):
            pipe = client.pipeline(transaction=False)
            pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
            pipe.execute_command(*self._wait_command())
            reply, acknowledged = await pipe.execute(raise_on_error=False)
            if not isinstance(reply, NoScriptError):
                break
            await client.script_load(script.script)
        if isinstance(reply, Exception):
            raise reply
        return reply, acknowledged

    async def _cluster_write_and_wait(
        self,
        cluster: RedisCluster,
        script: AsyncScript,
        keys: list[str],
        args: list[bytes | int | str],
    ) -> tuple[Any, Any]:
        """Redis Cluster: ``EVALSHA`` then ``WAIT`` pipelined on one connection of the node that
        owns the key (the client's own pipeline would send ``WAIT`` to every node), following
        ``MOVED``/``ASK`` (at most :data:`REDIRECTIONS`) as the client does. A connection
        error makes the client read the cluster's layout again before the next command."""
        await cluster.initialize()  # a no-op unless the client was told to re-read the layout
        node = cluster.get_node_from_key(keys[0])
        asking = False
        for _ in range(REDIRECTIONS):
            if node is None:
                break
            commands = [
                PipelineCommand(0, "EVALSHA", script.sha, len(keys), *keys, *args),
                PipelineCommand(1, *self._wait_command()),
            ]
            if asking:
                commands.insert(0, PipelineCommand(0, "ASKING"))
            try:
                await node.execute_pipeline(commands)
            except (RedisConnectionError, RedisTimeoutError, OSError):
                await _relearn_layout(cluster, node)
                raise
            reply, acknowledged = commands[-2].result, commands[-1].result
            if isinstance(reply, NoScriptError):
                await node.execute_command("SCRIPT", "LOAD", script.script)
                continue
            asking = False
            if isinstance(reply, MovedError):
                await cluster.nodes_manager.move_slot(reply)
                node = cluster.get_node_from_key(keys[0])
                continue
            if isinstance(reply, AskError):
                node, asking = cluster.get_node(host=reply.host, port=reply.port), True
                continue
            if isinstance(reply, (RedisConnectionError, RedisTimeoutError, ClusterDownError)):
                await _relearn_layout(cluster, node)
            if isinstance(reply, Exception):
                raise reply
            return reply, acknowledged
        raise ClusterError(f"{keys[0]}: redirected {REDIRECTIONS} times")

    async def get(self, table_id: str) -> StoredTable | None:
        start = time.perf_counter()
        key = self.key(table_id)
        version, snapshot, instance = await self._call(
            "get", lambda: self._redis.hmget(key, "v", "s", "e"), start
        )
        if version is None or snapshot is None:
            self._done("get", "missing", start)
            return None
        table = StoredTable(int(version), _as_bytes(snapshot), _as_str(instance))
        self._done("get", "ok", start)
        return table

    async def put(self, table_id: str, snapshot: bytes) -> PutResult:
        start = time.perf_counter()
        snapshot = bytes(snapshot)
        token = self._token()
        instance = new_instance()
        keys = [self.key(table_id)]
        args: list[bytes | int | str] = [snapshot, self._ttl, token, instance]
        version = int(await self._write("put", start, self._put, keys, args))
        self._done("put", "ok", start)
        return PutResult(version, snapshot, instance, version == 1, token)

    async def compare_and_set(
        self,
        table_id: str,
        expected_version: int,
        snapshot: bytes,
        written_as: str | None = None,
        *,
        instance: str | None = None,
    ) -> CasResult:
        start = time.perf_counter()
        token = self._token()
        keys = [self.key(table_id)]
        args: list[bytes | int | str] = [
            int(expected_version),
            bytes(snapshot),
            self._ttl,
            token,
            written_as or "",
            instance or "",
        ]
        answer = int(await self._write("cas", start, self._cas, keys, args, committed=_cas_wrote))
        if answer > 0:
            self._done("cas", "ok", start)
            return CasOk(answer, token)
        if answer < 0:
            self._done("cas", "conflict", start)
            return CasConflict(-answer)
        self._done("cas", "missing", start)
        return CasMissing()

    async def delete(self, table_id: str) -> bool:
        start = time.perf_counter()
        removed = await self._write("delete", start, self._delete, [self.key(table_id)], [])
        self._done("delete", "ok" if removed else "missing", start)
        return bool(removed)

    async def ping(self) -> None:
        """Readiness: bypasses the bound on table work (a spare connection is kept for it)."""
        start = time.perf_counter()
        await self._run("ping", self._redis.ping, start)
        self._done("ping", "ok", start)

    async def close(self) -> None:
        """Close the client if this store made it; idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._owns_client:
            await self._redis.aclose()
        if self._sentinel is not None:
            await self._sentinel.aclose()


def _client_options(
    socket_timeout: float,
    retries: int,
    wait_replicas: int,
    wait_timeout_ms: int,
    username: str | None,
    password: str | None,
) -> dict[str, Any]:
    """Connection options of every mode: short timeouts (longer than ``WAIT`` may block when
    writes wait for replicas), one retry, a health check, a client name, credentials if any."""
    read_timeout = socket_timeout + (wait_timeout_ms / 1000 if wait_replicas else 0)
    options: dict[str, Any] = {
        "socket_timeout": read_timeout,
        "socket_connect_timeout": socket_timeout,
        "retry": Retry(ExponentialBackoff(cap=0.1, base=0.02), retries),
        "health_check_interval": HEALTH_CHECK_INTERVAL_SECONDS,
        "client_name": "baohuang-rules",
    }
    if username:
        options["username"] = username
    if password:
        options["password"] = password
    return options


async def _relearn_layout(cluster: RedisCluster, node: ClusterNode) -> None:
    """After ``node`` failed under a write: drop its idle connections and read the cluster's
    layout again (bounded; a failure here changes nothing, the write already failed)."""
    node.update_active_connections_for_reconnect()
    try:
        async with asyncio.timeout(2 * SOCKET_TIMEOUT_SECONDS):
            await node.disconnect_free_connections()
            await cluster.nodes_manager.initialize(last_failed_node_name=node.name)
    except Exception as exc:  # the next command tries again; this one answers 503 anyway
        logger.debug("re-reading the cluster layout failed: %r", exc)


_warned: set[str] = set()


def _warn_without_hiredis() -> None:
    if not HIREDIS_AVAILABLE and "hiredis" not in _warned:
        _warned.add("hiredis")
        logger.warning("hiredis is not installed: Redis replies parsed in pure Python")


def _warn_cluster_redirect() -> None:
    if "redirect" not in _warned:
        _warned.add("redirect")
        logger.warning(
            "Redis answered MOVED/ASK: REDIS_URL names a Redis Cluster node; set REDIS_MODE=cluster"
        )


def _as_bytes(value: bytes | str) -> bytes:
    """Snapshots come back as bytes unless someone built the client with decode_responses."""
    return value if isinstance(value, bytes) else value.encode()


def _as_str(value: bytes | str | None) -> str:
    """An instance as text ('' for a table written before instances existed)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
