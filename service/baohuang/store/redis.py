"""The Redis table store: live tables shared by any number of service replicas.

Layout: five keys per table, sharing one hash tag (the table id in braces), so they always live
in one hash slot and every script may touch all five — on a single Redis, behind a proxy, or on
Redis Cluster (``from_url(..., cluster=True)``) or behind Redis Sentinel
(:meth:`RedisTableStore.from_sentinel`):

* ``{prefix}{<id>}`` — a hash, the table's record: its version, snapshot bytes (never parsed
  here), the token of its last write, its instance, its last event ``seq`` and the token that
  logged it, its webhook's cursor and retry schedule, the finished deals' last ``seq`` and the
  log's trimmed end (the fields, each named once: :class:`.layout.Field`);
* ``{prefix}{<id>}:log`` — a Redis Stream, the event log: entry id ``<seq>-0``, each entry the
  version its write produced, the event's bytes and the token of its write
  (:class:`.layout.LogField`: after a failover rolled the log back, a seq logged again has
  another token). It holds the current deal: the write that starts the next deal trims every
  entry before it (``XTRIM MINID``; seqs go on from where they were), except those the
  webhook has not delivered yet, which go as :meth:`RedisTableStore.advance_hook` moves past
  them;
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
:mod:`.redis_scripts`, unpacked by name at the top of the script; its reply is decoded once, in
:mod:`.redis_replies`.

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
kept as the table's last write; a script that finds its own token already there returns the
result of the first run instead of applying the write again or reporting a false conflict; it
still touches the table's hash (:attr:`.layout.Field.TOUCHES`), because the retry's ``WAIT``
vouches only for what its own connection wrote, and the touch replicates after the first run's
write.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

from .base import (
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    CasResult,
    DealEnd,
    EventPage,
    HookBackoff,
    Index,
    PutResult,
    StoredTable,
    StoreOutcomeUnknown,
    new_instance,
)
from .layout import Field
from .redis_changes import subscribe
from .redis_clients import RedisClients
from .redis_core import DEFAULT_KEY_PREFIX
from .redis_replies import (
    as_bytes,
    as_str,
    cas_result,
    cas_wrote,
    event_page,
    record_kept,
    stored_table,
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
    ReplayArgs,
)

__all__ = ["DEFAULT_KEY_PREFIX", "RedisTableStore"]

_CAS_OUTCOMES: Final = {
    CasOk: "ok",
    CasConflict: "conflict",
    CasRemembered: "conflict",
    CasMissing: "missing",
}
"""The ``outcome`` each compare-and-set result is reported as (metrics)."""

logger = logging.getLogger("baohuang.store")


class RedisTableStore(RedisClients):
    """Live tables in Redis; see the module docstring for layout, atomicity and failure modes."""

    async def get(self, table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [*GetArgs(remembered_as or "")]
        table = stored_table(await self._read("get", start, self._get, keys, args))
        self._done("get", "missing" if table is None else "ok", start)
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
        return [as_str(table_id) for table_id in ids]

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
        instance, seq = await self._call(
            "get", lambda: self._redis.hmget(key, Field.INSTANCE, Field.HOOKED), start
        )
        self._done("get", "ok" if instance is not None else "missing", start)
        return None if instance is None else (as_str(instance), int(seq or 0))

    async def advance_hook(self, table_id: str, instance: str, seq: int) -> None:
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [*AdvanceArgs(instance, seq)]
        await self._write("remember", start, self._advance, keys, args)
        self._done("remember", "ok", start)

    async def hook_backoff(self, table_id: str) -> HookBackoff | None:
        start = time.perf_counter()
        key = self.key(table_id)
        instance, kept = await self._call(
            "get", lambda: self._redis.hmget(key, Field.INSTANCE, Field.BACKOFF), start
        )
        self._done("get", "ok" if instance is not None else "missing", start)
        if instance is None:
            return None
        of, _, schedule = as_str(kept).partition(" ")
        if of != as_str(instance) or not schedule:
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
        result = cas_result(reply, token)
        self._done("cas", _CAS_OUTCOMES[type(result)], start)
        return result

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
        return as_bytes(kept) if kept is not None else None

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
        page = event_page(await self._read("events", start, self._events, keys, args))
        self._done("events", "missing" if page is None else "ok", start)
        return page

    async def replay(self, table_id: str, key: str) -> bytes:
        """The answer under ``key``, read and proven held by the node in one script
        (:data:`.redis_scripts.REPLAY_LUA`), then ``WAIT`` on the same connection when writes
        wait for replicas. Every way the script is sent again after a lost answer (the batch's
        re-send, the fallback pipeline's, redis-py's retry) sends the same proof to whichever
        node it reaches."""
        start = time.perf_counter()
        keys = self._keys(table_id)
        args: list[bytes | int | str] = [*ReplayArgs(key, int(self._wait_replicas > 0))]
        kept = await self._write("replay", start, self._replay, keys, args, committed=record_kept)
        if kept is None:
            self._done("replay", "unconfirmed", start)
            raise StoreOutcomeUnknown(
                f"redis replay: the node that answered holds no answer under the key for "
                f"{table_id} (a failover since it was found: the write may be gone)"
            )
        self._done("replay", "ok", start)
        return as_bytes(kept)

    def changes(self) -> AsyncIterator[str]:
        """One subscription for as long as it is iterated (one connection, whatever the number
        of followers); after losing Redis it subscribes again and yields :data:`RECHECK_ALL`
        (:func:`.redis_changes.subscribe`)."""
        return subscribe(self._redis, self._channel, lambda: self._closed)

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


def _nonempty(record: bytes) -> bytes:
    """A finished deal's record: never empty (the script reads an empty one as "no deal end")."""
    if not record:
        raise ValueError("a finished deal's record must not be empty")
    return bytes(record)


def _positive_kept(kept: int) -> int:
    if kept <= 0:
        raise ValueError("a table keeps at least one finished deal's record")
    return int(kept)
