"""The Redis table store: live tables shared by any number of service replicas.

Layout: ONE key per table, a hash ``{prefix}{table_id}`` (default prefix ``baohuang:table:``)
with fields ``v`` (version, an integer), ``s`` (the snapshot bytes, never parsed here) and ``w``
(a token naming the last write, see below). Every command and every Lua script touches exactly
that one key, so nothing ever spans two hash slots: the same code and data work unchanged on a
single Redis, behind a proxy, or on Redis Cluster (connect with ``cluster=True``), and behind any
number of service replicas, because Redis runs each script atomically.

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
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import (
    ClusterDownError,
    MaxConnectionsError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
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
    StoreOverloaded,
    StoreUnavailable,
    new_instance,
    no_observe,
    safe_observe,
)

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

_OUTAGE_ERRORS: Final = (
    RedisConnectionError,  # refused, reset, closed, auth, LOADING, too many connections
    RedisTimeoutError,
    OSError,  # includes the built-in TimeoutError
    ReadOnlyError,  # a replica promoted away from under us
    ClusterDownError,  # also MASTERDOWN
    TryAgainError,
    OutOfMemoryError,  # maxmemory with noeviction: writes refused until memory frees
)
_OUTAGE_REPLY_PREFIXES: Final = ("BUSY", "NOREPLICAS", "MISCONF", "LOADING", "READONLY")


def _is_pool_exhausted(exc: BaseException) -> bool:
    """redis-py's pools saying "no connection free", which is load, not an outage."""
    if isinstance(exc, MaxConnectionsError):
        return True
    return isinstance(exc, RedisConnectionError) and str(exc) == "No connection available."


def _is_outage(exc: BaseException) -> bool:
    if isinstance(exc, _OUTAGE_ERRORS):
        return True
    return isinstance(exc, ResponseError) and str(exc).startswith(_OUTAGE_REPLY_PREFIXES)


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
    ) -> None:
        """Wrap an existing client; prefer :meth:`from_url`, which sets the timeouts and pool.

        ``owns_client``: whether :meth:`close` closes the client (and its pool).
        ``max_in_flight``/``wait_seconds``: the bound on table work (module docstring).
        """
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        if max_in_flight <= 0 or wait_seconds <= 0:
            raise ValueError("max_in_flight and wait_seconds must be positive")
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
    ) -> RedisTableStore:
        """A store with its own client (closed by :meth:`close`), tuned to fail within ~1 s.

        Connecting is lazy: this never touches the network, so the service starts while Redis is
        down and becomes ready when it is back. hiredis parses replies when it is installed.
        The pool blocks (for ``wait_seconds``) rather than raising when all its connections are
        in use, and holds :data:`SPARE_CONNECTIONS` more than ``max_in_flight``.
        """
        retry = Retry(ExponentialBackoff(cap=0.1, base=0.02), retries)
        options: dict[str, Any] = {
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": socket_timeout,
            "retry": retry,
            "health_check_interval": HEALTH_CHECK_INTERVAL_SECONDS,
            "client_name": "baohuang-rules",
        }
        connections = max_in_flight + SPARE_CONNECTIONS
        client: Redis | RedisCluster
        if cluster:  # one pool per node, each of this size
            client = RedisCluster.from_url(url, max_connections=connections, **options)
        else:
            pool = BlockingConnectionPool.from_url(
                url, max_connections=connections, timeout=wait_seconds, **options
            )
            client = Redis.from_pool(pool)
        if not HIREDIS_AVAILABLE:
            logger.warning("hiredis is not installed: Redis replies parsed in pure Python")
        return cls(
            client,
            ttl_seconds,
            key_prefix=key_prefix,
            observe=observe,
            owns_client=True,
            max_in_flight=max_in_flight,
            wait_seconds=wait_seconds,
        )

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
        except Exception as exc:
            if _is_pool_exhausted(exc):
                self._done(operation, "overloaded", start)
                raise StoreOverloaded(f"redis {operation}: {exc}") from exc
            if _is_outage(exc):
                self._done(operation, "unavailable", start)
                raise StoreUnavailable(f"redis {operation}: {exc}") from exc
            self._done(operation, "error", start)
            raise

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
        version = int(await self._call("put", lambda: self._put(keys=keys, args=args), start))
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
        answer = int(await self._call("cas", lambda: self._cas(keys=keys, args=args), start))
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
        key = self.key(table_id)
        removed = await self._call("delete", lambda: self._redis.delete(key), start)
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


def _as_bytes(value: bytes | str) -> bytes:
    """Snapshots come back as bytes unless someone built the client with decode_responses."""
    return value if isinstance(value, bytes) else value.encode()


def _as_str(value: bytes | str | None) -> str:
    """An instance as text ('' for a table written before instances existed)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
