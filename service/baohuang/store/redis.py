"""The Redis table store: live tables shared by any number of service replicas.

Layout: five keys per table, sharing one hash tag (the table id in braces), so they always live
in one hash slot and every script may touch all five — on a single Redis, behind a proxy, or on
Redis Cluster (``from_url(..., cluster=True)``) or behind Redis Sentinel
(:meth:`RedisTableStore.from_sentinel`):

* ``{prefix}{<id>}`` — a hash: ``v`` version, ``s`` snapshot bytes (never parsed here), ``w`` a
  token naming the last write, ``e`` the instance, ``q`` the last event ``seq``, ``k`` the token
  of the write that logged it, ``h`` the last ``seq`` its webhook delivered, ``b`` the webhook's
  retry schedule (once an attempt failed), ``c`` a counter that only
  :meth:`RedisTableStore.confirm` writes, ``r`` the last ``seq`` of the finished deals, ``p``
  the last ``seq`` trimmed from the log and ``u`` the token of the event that had it;
* ``{prefix}{<id>}:log`` — a Redis Stream, the event log: entry id ``<seq>-0``, fields ``v``
  (the version the event's write produced), ``d`` (the event's bytes) and ``t`` (the token of
  its write: after a failover rolled the log back, a seq logged again has another token). It
  holds the current deal: the write that starts the next deal trims every entry before it
  (``XTRIM MINID``; seqs go on from where they were), except those the webhook (cursor ``h``)
  has not delivered yet, which go as :meth:`RedisTableStore.advance_hook` moves past them;
* ``{prefix}{<id>}:idem`` — a hash: idempotency key → the remembered answer; ``:idemq`` — a list
  of those keys, oldest first, so that at most ``max_remembered`` are kept;
* ``{prefix}{<id>}:deals`` — a list of the finished deals' compact records (bytes, never parsed
  here), oldest first: the write that starts a deal pushes the one before's, and keeps the
  newest ``DealEnd.kept`` (``BAOHUANG_DEALS_KEPT``).

Beside the tables: the indexes of due tables (``{prefix}deadlines``, ``webhooks``,
``playouts``: sorted sets of table ids by when), and ``{prefix}present:<group>``, a sorted set of
live processes by when they are forgotten (:meth:`RedisTableStore.present`: the webhook
dispatchers' settings).

Every write publishes the table id on ``{prefix}changes``, so that each replica's single
subscriber learns of it (:meth:`RedisTableStore.changes`); the log, not the message, is the
record: a missed message costs a delay, never an event.

Writes are Lua scripts (``register_script``; redis-py runs them by SHA and reloads them after
``NOSCRIPT``, e.g. when Redis restarted and lost its script cache). ``compare_and_set`` checks
the version, writes, appends the events and remembers the answer in one script, so no
interleaving of clients can apply two writes to one version, and no write is ever without its
events. Every write script sets the TTL of every key it writes again: an expiry can never be lost
between a write and a separate ``EXPIRE``. Each script's arguments are one ``NamedTuple`` of
:mod:`.redis_scripts`, unpacked by name at the top of the script.

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

Batching: the commands that concurrent operations issue in one turn of the event loop leave as
one pipeline on one connection (per owning node on Redis Cluster), a batch holding a write
ending in one ``WAIT`` that vouches for all its writes; anything but a plain reply is sent again
alone, the way described here (:mod:`.redis_batch`).

Failover: every error the client raises while the topology changes (connections reset or closed
under it, ``READONLY`` from a demoted primary, ``MOVED``/``ASK`` it could not follow, cluster
down, no primary known to the Sentinels, …) is an outage, :class:`StoreUnavailable`; the clients
find the new primary by themselves, so the store recovers without a restart.

Retries and idempotence: a write whose reply was lost (a timeout or a dropped connection after the
server ran it) is retried by redis-py with the same arguments. Each write carries a unique token
stored in ``w``; a script that finds its own token already there returns the result of the first
run instead of applying the write again or reporting a false conflict; it still touches the
table's hash (``c``), because the retry's ``WAIT`` vouches only for what its own connection wrote,
and the touch replicates after the first run's write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff

from .base import (
    DEFAULT_MAX_REMEMBERED,
    DEFAULT_TTL_SECONDS,
    RECHECK_ALL,
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    CasResult,
    DealEnd,
    EventPage,
    HookBackoff,
    Index,
    LoggedEvent,
    Observe,
    PutResult,
    StoredTable,
    new_instance,
    no_observe,
)
from .redis_config import DEFAULT_WAIT_TIMEOUT_MS
from .redis_core import DEFAULT_KEY_PREFIX, MAX_IN_FLIGHT, WAIT_SECONDS, RedisCore
from .redis_durable import (
    RETRIES,
    SOCKET_TIMEOUT_SECONDS,
    client_options,
)
from .redis_failures import (
    cas_wrote,
    is_outage,
    record_kept,
    touched,
    warn_without_hiredis,
)
from .redis_scripts import (
    AdvanceArgs,
    BackoffArgs,
    CasArgs,
    DeleteArgs,
    EventsArgs,
    GetArgs,
    PresentArgs,
    PutArgs,
    RememberArgs,
    TouchArgs,
)

__all__ = ["DEFAULT_KEY_PREFIX", "RedisTableStore"]

logger = logging.getLogger("baohuang.store")

SPARE_CONNECTIONS: Final = 3
"""Connections beyond ``max_in_flight``, so that a readiness ping and the changes subscription
never wait behind table work."""
RESUBSCRIBE_SECONDS: Final = 1.0
"""How long the changes subscriber waits before subscribing again after losing Redis."""


class RedisTableStore(RedisCore):
    """Live tables in Redis; see the module docstring for layout, atomicity and failure modes."""

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
        max_remembered: int = DEFAULT_MAX_REMEMBERED,
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
        options = client_options(
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
        warn_without_hiredis()
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
            max_remembered=max_remembered,
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
        max_remembered: int = DEFAULT_MAX_REMEMBERED,
    ) -> RedisTableStore:
        """A store on the primary that the Sentinels at ``sentinels`` name ``service``.

        Every new connection asks the Sentinels where the primary is, so after a failover the
        store reconnects to the promoted replica by itself; a connection still open to a demoted
        primary fails (``READONLY``) and is replaced. ``username``/``password`` are the data
        nodes', ``sentinel_username``/``sentinel_password`` the Sentinels' own (when they require
        any); ``tls`` applies to both. Lazy like :meth:`from_url`.
        """
        options = client_options(
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
        warn_without_hiredis()
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
            max_remembered=max_remembered,
        )
        store._sentinel = sentinel
        return store

    async def get(self, table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [*GetArgs(remembered_as or "")]
        reply = await self._read("get", start, self._get, keys, args)
        if not reply:
            self._done("get", "missing", start)
            return None
        version, snapshot, instance, last_seq, last_token, kept = reply
        table = StoredTable(
            int(version),
            _as_bytes(snapshot),
            _as_str(instance),
            int(last_seq),
            _as_bytes(kept) if kept is not None else None,
            last_token=_as_str(last_token),
        )
        self._done("get", "ok", start)
        return table

    async def put(self, table_id: str, snapshot: bytes, events: Sequence[bytes] = ()) -> PutResult:
        start = time.perf_counter()
        snapshot = bytes(snapshot)
        token = self._token()
        instance = new_instance()
        keys = self._keys(table_id)
        named = PutArgs(snapshot, self._ttl, token, instance, self._channel, table_id)
        args: list[bytes | int | str] = [*named, *events]
        version = int(await self._write("put", start, self._put, keys, args))
        self._done("put", "ok", start)
        return PutResult(
            version,
            snapshot,
            instance,
            len(events),
            last_token=token if events else "",
            created=version == 1,
            token=token,
        )

    async def schedule(
        self,
        table_id: str,
        deadline: float | None,
        *,
        earlier_only: bool = False,
        index: Index = "deadlines",
    ) -> None:
        start = time.perf_counter()
        key = self._indexes[index]
        if deadline is None:
            command: tuple[Any, ...] = ("ZREM", key, table_id)
            await self._command("schedule", start, command, lambda: self._redis.zrem(key, table_id))
        else:
            mapping = {table_id: deadline}
            command = ("ZADD", key, *(("LT",) if earlier_only else ()), repr(deadline), table_id)
            await self._command(
                "schedule", start, command, lambda: self._redis.zadd(key, mapping, lt=earlier_only)
            )
        self._done("schedule", "ok", start)

    async def due(
        self, now: float, limit: int, lease: float, *, index: Index = "deadlines"
    ) -> list[str]:
        start = time.perf_counter()
        keys = [self._indexes[index]]
        args: list[bytes | int | str] = [repr(now), limit, repr(lease)]  # as redis-py writes floats
        ids = await self._read("due", start, self._due, keys, args)
        self._done("due", "ok", start)
        return [_as_str(table_id) for table_id in ids]

    async def release(self, table_id: str, claimed: float, *, index: Index) -> bool:
        start = time.perf_counter()
        keys = [self._indexes[index]]
        args: list[bytes | int | str] = [table_id, repr(claimed)]
        removed = await self._read("schedule", start, self._release, keys, args)
        self._done("schedule", "ok", start)
        return bool(removed)

    async def present(self, group: str, member: str | None, now: float, ttl: float) -> int:
        start = time.perf_counter()
        keys = [f"{self._prefix}present:{group}"]
        named = PresentArgs(repr(now), repr(now + ttl), max(1, math.ceil(ttl)), member or "")
        count = await self._read("present", start, self._present, keys, [*named])
        self._done("present", "ok", start)
        return int(count)

    async def hook_cursor(self, table_id: str) -> tuple[str, int] | None:
        start = time.perf_counter()
        key = self.key(table_id)
        instance, seq = await self._call("get", lambda: self._redis.hmget(key, "e", "h"), start)
        self._done("get", "ok" if instance is not None else "missing", start)
        return None if instance is None else (_as_str(instance), int(seq or 0))

    async def advance_hook(self, table_id: str, instance: str, seq: int) -> None:
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [*AdvanceArgs(instance, seq)]
        await self._write("remember", start, self._advance, keys, args)
        self._done("remember", "ok", start)

    async def hook_backoff(self, table_id: str) -> HookBackoff | None:
        start = time.perf_counter()
        key = self.key(table_id)
        instance, kept = await self._call("get", lambda: self._redis.hmget(key, "e", "b"), start)
        self._done("get", "ok" if instance is not None else "missing", start)
        if instance is None:
            return None
        of, _, schedule = _as_str(kept).partition(" ")
        if of != _as_str(instance) or not schedule:
            return HookBackoff()  # none yet, or an earlier instance's
        failures, _, retry_at = schedule.partition(" ")
        return HookBackoff(int(failures), float(retry_at))

    async def set_hook_backoff(self, table_id: str, instance: str, backoff: HookBackoff) -> None:
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [
            *BackoffArgs(instance, backoff.failures, repr(backoff.retry_at))
        ]
        await self._write("remember", start, self._backoff, keys, args)
        self._done("remember", "ok", start)

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
        deal_end: DealEnd | None = None,
    ) -> CasResult:
        start = time.perf_counter()
        token = self._token()
        keys = self._keys(table_id)
        key, record = remember if remember is not None else ("", b"")
        named = CasArgs(
            expected=int(expected_version),
            snapshot=bytes(snapshot),
            ttl=self._ttl,
            token=token,
            last_write=written_as or "",
            instance=instance or "",
            channel=self._channel,
            table_id=table_id,
            idem_key=key,
            record=bytes(record),
            most_kept=self._max_remembered,
            deal_record=b"" if deal_end is None else _nonempty(deal_end.record),
            deals_kept=1 if deal_end is None else _positive_kept(deal_end.kept),
            webhook=int(deal_end is not None and deal_end.webhook),
        )
        args: list[bytes | int | str] = [*named, *events]
        reply = await self._write("cas", start, self._cas, keys, args, committed=cas_wrote)
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
        args: list[bytes | int | str] = [
            *RememberArgs(instance, key, bytes(record), self._max_remembered)
        ]
        kept = await self._write(
            "remember", start, self._remember, keys, args, committed=record_kept
        )
        self._done("remember", "ok" if kept is not None else "missing", start)
        return _as_bytes(kept) if kept is not None else None

    async def read_events(
        self,
        table_id: str,
        after: int,
        limit: int,
        *,
        with_snapshot: bool = False,
        with_deals: bool = False,
    ) -> EventPage | None:
        start = time.perf_counter()
        keys = self._keys(table_id)
        named = EventsArgs(max(after, 0), limit, int(with_snapshot), int(with_deals))
        args: list[bytes | int | str] = [*named]
        reply = await self._read("events", start, self._events, keys, args)
        if not reply:
            self._done("events", "missing", start)
            return None
        instance, version, last_seq, last_token, entries, anchor, kept, trimmed, recorded, deals = (
            reply
        )
        snapshot = _as_bytes(kept) if kept else None
        events = []
        for entry_id, fields in entries:
            values = dict(zip(fields[::2], fields[1::2], strict=True))
            seq = int(_as_str(entry_id).partition("-")[0])
            token = _as_str(values.get(b"t"))
            events.append(LoggedEvent(seq, int(values[b"v"]), _as_bytes(values[b"d"]), token))
        page = EventPage(
            _as_str(instance),
            int(version),
            int(last_seq),
            events,
            last_token=_as_str(last_token),
            anchor=None if anchor is None else _as_str(anchor),
            snapshot=snapshot,
            trimmed=int(trimmed),
            recorded=int(recorded),
            deals=None if deals is None else [_as_bytes(deal) for deal in deals],
        )
        self._done("events", "ok", start)
        return page

    async def confirm(self, table_id: str, instance: str) -> None:
        """A touch of the table's hash, then ``WAIT`` on the same connection (see
        :data:`.redis_scripts.TOUCH_LUA`): nothing to do when writes wait for no replica."""
        if not self._wait_replicas:
            return
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [*TouchArgs(instance)]
        await self._write("confirm", start, self._touch, keys, args, committed=touched)
        self._done("confirm", "ok", start)

    async def changes(self) -> AsyncIterator[str]:
        """One subscription for as long as it is iterated (one connection, whatever the number
        of followers); after losing Redis it subscribes again and yields :data:`RECHECK_ALL`."""
        while not self._closed:
            pubsub = self._redis.pubsub()
            try:
                if isinstance(self._redis, RedisCluster):
                    # redis-py's cluster Pub/Sub looks the channel's slot up in the client's slot
                    # cache without filling it first (redis/redis-py#4296): on a client that has
                    # sent no command yet that is a bare KeyError. Read the layout first (a
                    # no-op once it is known).
                    await self._redis.initialize()
                await pubsub.subscribe(self._channel)
                yield RECHECK_ALL  # anything may have happened while not subscribed
                while not self._closed:
                    message = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=SOCKET_TIMEOUT_SECONDS / 2
                    )
                    if message is not None and message.get("type") == "message":
                        yield _as_str(message["data"])
            except Exception as exc:
                if not is_outage(exc):
                    raise
                logger.warning("changes subscription lost (%s); subscribing again", exc)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)
            finally:
                await _close_quietly(pubsub)

    async def delete(self, table_id: str) -> bool:
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [*DeleteArgs(self._channel, table_id)]
        removed = await self._write("delete", start, self._delete, keys, args)
        self._done("delete", "ok" if removed else "missing", start)
        return bool(removed)

    async def ping(self) -> None:
        """Readiness: bypasses the bound on table work (a spare connection is kept for it)."""
        start = time.perf_counter()
        await self._run("ping", self._redis.ping, start)
        self._done("ping", "ok", start)


async def _close_quietly(pubsub: Any) -> None:
    """Close a subscription, even one cut off by an outage or a cancellation: bounded, since a
    connection torn down under it may never answer (a stuck close would hold up shutdown)."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(SOCKET_TIMEOUT_SECONDS * 2):
            await pubsub.aclose()


def _nonempty(record: bytes) -> bytes:
    """A finished deal's record: never empty (the script reads an empty one as "no deal end")."""
    if not record:
        raise ValueError("a finished deal's record must not be empty")
    return bytes(record)


def _positive_kept(kept: int) -> int:
    if kept <= 0:
        raise ValueError("a table keeps at least one finished deal's record")
    return int(kept)


def _as_bytes(value: bytes | str) -> bytes:
    """Snapshots come back as bytes unless someone built the client with decode_responses."""
    return value if isinstance(value, bytes) else value.encode()


def _as_str(value: bytes | str | None) -> str:
    """An instance as text ('' for a table written before instances existed)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
