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

Retries and idempotence: a write whose reply was lost (a timeout or a dropped connection after the
server ran it) is retried by redis-py with the same arguments. Each write carries a unique token
stored in ``w``; a script that finds its own token already there returns the result of the first
run instead of applying the write again or reporting a false conflict.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import Any, Final, TypeVar

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import (
    ClusterDownError,
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
    StoreUnavailable,
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

# KEYS[1] table key; ARGV[1] snapshot, ARGV[2] TTL seconds, ARGV[3] write token.
# Returns the new version (1 means the table was created).
_PUT_LUA: Final = """
local key = KEYS[1]
local last = redis.call('HMGET', key, 'v', 'w')
if last[1] and last[2] == ARGV[3] then
  return tonumber(last[1])
end
local v = redis.call('HINCRBY', key, 'v', 1)
redis.call('HSET', key, 's', ARGV[1], 'w', ARGV[3])
redis.call('EXPIRE', key, ARGV[2])
return v
"""

# KEYS[1] table key; ARGV[1] expected version, ARGV[2] snapshot, ARGV[3] TTL, ARGV[4] token,
# ARGV[5] the token the table's last write must have ('' for any).
# Returns  n > 0: written, new version n;  n < 0: conflict, current version -n;  0: no table.
_CAS_LUA: Final = """
local key = KEYS[1]
local cur = redis.call('HMGET', key, 'v', 'w')
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
if ARGV[5] ~= '' and cur[2] ~= ARGV[5] then
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
    ) -> None:
        """Wrap an existing client; prefer :meth:`from_url`, which sets the timeouts.

        ``owns_client``: whether :meth:`close` closes the client (and its pool).
        """
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
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
        max_connections: int | None = None,
        cluster: bool = False,
    ) -> RedisTableStore:
        """A store with its own client (closed by :meth:`close`), tuned to fail within ~1 s.

        Connecting is lazy: this never touches the network, so the service starts while Redis is
        down and becomes ready when it is back. hiredis parses replies when it is installed.
        """
        retry = Retry(ExponentialBackoff(cap=0.1, base=0.02), retries)
        options: dict[str, Any] = {
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": socket_timeout,
            "retry": retry,
            "health_check_interval": HEALTH_CHECK_INTERVAL_SECONDS,
            "client_name": "baohuang-rules",
        }
        if max_connections is not None:
            options["max_connections"] = max_connections
        client: Redis | RedisCluster
        if cluster:
            client = RedisCluster.from_url(url, **options)
        else:
            client = Redis.from_url(url, **options)
        if not HIREDIS_AVAILABLE:
            logger.warning("hiredis is not installed: Redis replies parsed in pure Python")
        return cls(client, ttl_seconds, key_prefix=key_prefix, observe=observe, owns_client=True)

    def __repr__(self) -> str:
        return f"RedisTableStore(prefix={self._prefix!r}, ttl_seconds={self._ttl})"

    def key(self, table_id: str) -> str:
        """The Redis key holding ``table_id`` (for operators and tests)."""
        return self._prefix + table_id

    def _token(self) -> str:
        return f"{self._token_prefix}{next(self._tokens):x}"

    def _done(self, operation: str, outcome: str, start: float) -> None:
        safe_observe(self._observe, operation, outcome, time.perf_counter() - start)

    async def _call(self, operation: str, call: Awaitable[T], start: float) -> T:
        """Await one Redis call, turning an outage into :class:`StoreUnavailable` (observed)."""
        try:
            return await call
        except Exception as exc:
            if _is_outage(exc):
                self._done(operation, "unavailable", start)
                raise StoreUnavailable(f"redis {operation}: {exc}") from exc
            self._done(operation, "error", start)
            raise

    async def get(self, table_id: str) -> StoredTable | None:
        start = time.perf_counter()
        version, snapshot = await self._call(
            "get", self._redis.hmget(self.key(table_id), "v", "s"), start
        )
        if version is None or snapshot is None:
            self._done("get", "missing", start)
            return None
        table = StoredTable(int(version), _as_bytes(snapshot))
        self._done("get", "ok", start)
        return table

    async def put(self, table_id: str, snapshot: bytes) -> PutResult:
        start = time.perf_counter()
        snapshot = bytes(snapshot)
        token = self._token()
        version = int(
            await self._call(
                "put",
                self._put(keys=[self.key(table_id)], args=[snapshot, self._ttl, token]),
                start,
            )
        )
        self._done("put", "ok", start)
        return PutResult(version, snapshot, version == 1, token)

    async def compare_and_set(
        self,
        table_id: str,
        expected_version: int,
        snapshot: bytes,
        written_as: str | None = None,
    ) -> CasResult:
        start = time.perf_counter()
        token = self._token()
        args: list[bytes | int | str] = [
            int(expected_version),
            bytes(snapshot),
            self._ttl,
            token,
            written_as or "",
        ]
        answer = int(
            await self._call("cas", self._cas(keys=[self.key(table_id)], args=args), start)
        )
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
        removed = await self._call("delete", self._redis.delete(self.key(table_id)), start)
        self._done("delete", "ok" if removed else "missing", start)
        return bool(removed)

    async def ping(self) -> None:
        start = time.perf_counter()
        await self._call("ping", self._redis.ping(), start)
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
