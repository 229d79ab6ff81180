"""The Redis table store: live tables shared by any number of service replicas.

Layout: three keys per table, sharing one hash tag (the table id in braces), so they always live
in one hash slot and every script may touch all three — on a single Redis, behind a proxy, or on
Redis Cluster (connect with ``cluster=True``):

* ``{prefix}{<id>}`` — a hash: ``v`` version, ``s`` snapshot bytes (never parsed here), ``w`` a
  token naming the last write, ``e`` the instance, ``q`` the last event ``seq``;
* ``{prefix}{<id>}:log`` — a Redis Stream, the event log: entry id ``<seq>-0``, fields ``v``
  (the version the event's write produced) and ``d`` (the event's bytes);
* ``{prefix}{<id>}:idem`` — a hash: idempotency key → the remembered answer.

Every write publishes the table id on ``{prefix}changes``, so that each replica's single
subscriber learns of it (:meth:`RedisTableStore.changes`); the log, not the message, is the
record: a missed message costs a delay, never an event.

Writes are Lua scripts (``register_script``; redis-py runs them by SHA and reloads them after
``NOSCRIPT``, e.g. when Redis restarted and lost its script cache). ``compare_and_set`` checks
the version, writes, appends the events and remembers the answer in one script, so no
interleaving of clients can apply two writes to one version, and no write is ever without its
events. Every write script sets the TTL of all three keys again: an expiry can never be lost
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
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
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
    RECHECK_ALL,
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    CasResult,
    EventPage,
    LoggedEvent,
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
SPARE_CONNECTIONS: Final = 3
"""Connections beyond ``max_in_flight``, so that a readiness ping and the changes subscription
never wait behind table work."""
RESUBSCRIBE_SECONDS: Final = 1.0
"""How long the changes subscriber waits before subscribing again after losing Redis."""

# Every script: KEYS[1] the table hash, KEYS[2] its event log, KEYS[3] its remembered answers.

# ARGV[1] snapshot, ARGV[2] TTL seconds, ARGV[3] write token, ARGV[4] the new instance,
# ARGV[5] the changes channel, ARGV[6] the table id, ARGV[7…] the new log's first events.
# Returns the new version (1 means the table was created).
_PUT_LUA: Final = """
local last = redis.call('HMGET', KEYS[1], 'v', 'w')
if last[1] and last[2] == ARGV[3] then
  return tonumber(last[1])
end
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('DEL', KEYS[2], KEYS[3])
local q = 0
for i = 7, #ARGV do
  q = q + 1
  redis.call('XADD', KEYS[2], q .. '-0', 'v', v, 'd', ARGV[i])
end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'w', ARGV[3], 'e', ARGV[4], 'q', q)
redis.call('EXPIRE', KEYS[1], ARGV[2])
if q > 0 then
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return v
"""

# KEYS[1] the deadlines index. ARGV[1] now, ARGV[2] how many at most, ARGV[3] the lease: tables
# due by now, claimed for the lease (their score moves to now + lease, so another replica takes
# them over if this one does not finish).
_DUE_LUA: Final = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(due) do
  redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), id)
end
return due
"""

# ARGV[1] expected version, ARGV[2] snapshot, ARGV[3] TTL, ARGV[4] token, ARGV[5] the token the
# table's last write must have ('' for any), ARGV[6] the instance the table must be ('' for any),
# ARGV[7] the changes channel, ARGV[8] the table id, ARGV[9] an idempotency key ('' for none),
# ARGV[10] the record to keep under it, ARGV[11…] the events to append.
# Returns {1, version, last seq}: written;  {-1, current version}: conflict;  {0}: no table;
# {2, record}: the idempotency key already has a record, nothing written.
_CAS_LUA: Final = """
local cur = redis.call('HMGET', KEYS[1], 'v', 'w', 'e', 'q')
if not cur[1] then
  return {0}
end
if ARGV[9] ~= '' then
  local kept = redis.call('HGET', KEYS[3], ARGV[9])
  if kept then
    return {2, kept}
  end
end
local v = tonumber(cur[1])
local expected = tonumber(ARGV[1])
if v ~= expected then
  if v == expected + 1 and cur[2] == ARGV[4] then
    return {1, v, tonumber(cur[4] or 0)}
  end
  return {-1, v}
end
if (ARGV[5] ~= '' and cur[2] ~= ARGV[5]) or (ARGV[6] ~= '' and cur[3] ~= ARGV[6]) then
  return {-1, v}
end
v = redis.call('HINCRBY', KEYS[1], 'v', 1)
local q = tonumber(cur[4] or 0)
for i = 11, #ARGV do
  q = q + 1
  redis.call('XADD', KEYS[2], q .. '-0', 'v', v, 'd', ARGV[i])
end
redis.call('HSET', KEYS[1], 's', ARGV[2], 'w', ARGV[4], 'q', q)
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[9], ARGV[10])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[3])
redis.call('PUBLISH', ARGV[7], ARGV[8])
return {1, v, q}
"""

# ARGV[1] an idempotency key ('' for none). Returns {version, snapshot, instance, last seq,
# record or false}, or {} when there is no table.
_GET_LUA: Final = """
local cur = redis.call('HMGET', KEYS[1], 'v', 's', 'e', 'q')
if not cur[1] or not cur[2] then
  return {}
end
local kept = false
if ARGV[1] ~= '' then
  kept = redis.call('HGET', KEYS[3], ARGV[1])
end
return {cur[1], cur[2], cur[3] or '', cur[4] or '0', kept}
"""

# ARGV[1] the instance, ARGV[2] key, ARGV[3] record, ARGV[4] TTL. Returns the record kept under
# the key (the one given, or an earlier one), or false when the table is not that instance.
_REMEMBER_LUA: Final = """
if redis.call('HGET', KEYS[1], 'e') ~= ARGV[1] then
  return false
end
redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[3], redis.call('TTL', KEYS[1]))
return redis.call('HGET', KEYS[3], ARGV[2])
"""

# ARGV[1] the first seq wanted, ARGV[2] how many at most. Returns {instance, version, last seq,
# entries} or {} when there is no table.
_EVENTS_LUA: Final = """
local cur = redis.call('HMGET', KEYS[1], 'e', 'v', 'q')
if not cur[2] then
  return {}
end
local entries = redis.call('XRANGE', KEYS[2], ARGV[1] .. '-0', '+', 'COUNT', ARGV[2])
return {cur[1] or '', cur[2], cur[3] or '0', entries}
"""

# ARGV[1] the changes channel, ARGV[2] the table id. Returns how many keys were removed.
_DELETE_LUA: Final = """
local removed = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if removed > 0 then
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return removed
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
        self._get = client.register_script(_GET_LUA)
        self._remember = client.register_script(_REMEMBER_LUA)
        self._events = client.register_script(_EVENTS_LUA)
        self._delete = client.register_script(_DELETE_LUA)
        self._channel = f"{key_prefix}changes"
        self._deadlines = f"{key_prefix}deadlines"
        self._due = client.register_script(_DUE_LUA)
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
        """The Redis key of ``table_id``'s hash (for operators and tests); its log and its
        remembered answers add ``:log`` and ``:idem``."""
        return f"{self._prefix}{{{table_id}}}"

    def _keys(self, table_id: str) -> list[str]:
        key = self.key(table_id)
        return [key, f"{key}:log", f"{key}:idem"]

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

    async def get(self, table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        start = time.perf_counter()
        keys, args = self._keys(table_id), [remembered_as or ""]
        reply = await self._call("get", lambda: self._get(keys=keys, args=args), start)
        if not reply:
            self._done("get", "missing", start)
            return None
        version, snapshot, instance, last_seq, kept = reply
        table = StoredTable(
            int(version),
            _as_bytes(snapshot),
            _as_str(instance),
            int(last_seq),
            _as_bytes(kept) if kept is not None else None,
        )
        self._done("get", "ok", start)
        return table

    async def put(self, table_id: str, snapshot: bytes, events: Sequence[bytes] = ()) -> PutResult:
        start = time.perf_counter()
        snapshot = bytes(snapshot)
        token = self._token()
        instance = new_instance()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [
            snapshot, self._ttl, token, instance, self._channel, table_id, *events
        ]  # fmt: skip
        version = int(await self._call("put", lambda: self._put(keys=keys, args=args), start))
        self._done("put", "ok", start)
        return PutResult(
            version, snapshot, instance, len(events), created=version == 1, token=token
        )

    async def schedule(
        self, table_id: str, deadline: float | None, *, earlier_only: bool = False
    ) -> None:
        start = time.perf_counter()
        key = self._deadlines
        if deadline is None:
            await self._call("schedule", lambda: self._redis.zrem(key, table_id), start)
        else:
            mapping = {table_id: deadline}
            await self._call(
                "schedule", lambda: self._redis.zadd(key, mapping, lt=earlier_only), start
            )
        self._done("schedule", "ok", start)

    async def due(self, now: float, limit: int, lease: float) -> list[str]:
        start = time.perf_counter()
        keys, args = [self._deadlines], [now, limit, lease]
        ids = await self._call("due", lambda: self._due(keys=keys, args=args), start)
        self._done("due", "ok", start)
        return [_as_str(table_id) for table_id in ids]

    async def compare_and_set(
        self,
        table_id: str,
        expected_version: int,
        snapshot: bytes,
        written_as: str | None = None,
        *,
        instance: str | None = None,
        events: Sequence[bytes] = (),
        remember: tuple[str, bytes] | None = None,
    ) -> CasResult:
        start = time.perf_counter()
        token = self._token()
        keys = self._keys(table_id)
        key, record = remember if remember is not None else ("", b"")
        args: list[bytes | int | str] = [
            int(expected_version),
            bytes(snapshot),
            self._ttl,
            token,
            written_as or "",
            instance or "",
            self._channel,
            table_id,
            key,
            record,
            *events,
        ]
        reply = await self._call("cas", lambda: self._cas(keys=keys, args=args), start)
        status = int(reply[0])
        if status == 1:
            self._done("cas", "ok", start)
            return CasOk(int(reply[1]), token, int(reply[2]))
        if status == -1:
            self._done("cas", "conflict", start)
            return CasConflict(int(reply[1]))
        if status == 2:
            self._done("cas", "conflict", start)
            return CasRemembered(_as_bytes(reply[1]))
        self._done("cas", "missing", start)
        return CasMissing()

    async def remember(self, table_id: str, instance: str, key: str, record: bytes) -> bytes | None:
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [instance, key, bytes(record), self._ttl]
        kept = await self._call("remember", lambda: self._remember(keys=keys, args=args), start)
        self._done("remember", "ok" if kept is not None else "missing", start)
        return _as_bytes(kept) if kept is not None else None

    async def read_events(self, table_id: str, after: int, limit: int) -> EventPage | None:
        start = time.perf_counter()
        keys, args = self._keys(table_id), [max(after, 0) + 1, limit]
        reply = await self._call("events", lambda: self._events(keys=keys, args=args), start)
        if not reply:
            self._done("events", "missing", start)
            return None
        instance, version, last_seq, entries = reply
        events = []
        for entry_id, fields in entries:
            values = dict(zip(fields[::2], fields[1::2], strict=True))
            seq = int(_as_str(entry_id).partition("-")[0])
            events.append(LoggedEvent(seq, int(values[b"v"]), _as_bytes(values[b"d"])))
        page = EventPage(_as_str(instance), int(version), int(last_seq), events)
        self._done("events", "ok", start)
        return page

    async def changes(self) -> AsyncIterator[str]:
        """One subscription for as long as it is iterated (one connection, whatever the number
        of followers); after losing Redis it subscribes again and yields :data:`RECHECK_ALL`."""
        while not self._closed:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.subscribe(self._channel)
                yield RECHECK_ALL  # anything may have happened while not subscribed
                while not self._closed:
                    message = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=SOCKET_TIMEOUT_SECONDS / 2
                    )
                    if message is not None and message.get("type") == "message":
                        yield _as_str(message["data"])
            except Exception as exc:
                if not _is_outage(exc):
                    raise
                logger.warning("changes subscription lost (%s); subscribing again", exc)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)
            finally:
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def delete(self, table_id: str) -> bool:
        start = time.perf_counter()
        keys, args = self._keys(table_id), [self._channel, table_id]
        removed = await self._call("delete", lambda: self._delete(keys=keys, args=args), start)
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
