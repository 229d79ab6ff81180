"""The Redis table store's plumbing: one bounded, observed, durable way to call Redis (see
:mod:`.redis` for what the store keeps and why). Every command the store sends goes through
:meth:`RedisCore._call`; every write through :meth:`RedisCore._write`, which waits for replicas
when asked to.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.sentinel import Sentinel
from redis.commands.core import AsyncScript
from redis.exceptions import AskError

from .base import (
    DEFAULT_MAX_REMEMBERED,
    DEFAULT_TTL_SECONDS,
    Index,
    Observe,
    StoreOutcomeUnknown,
    StoreOverloaded,
    StoreUnavailable,
    no_observe,
    safe_observe,
)
from .layout import KEY_SUFFIXES
from .redis_batch import FALLBACK, Batcher
from .redis_config import DEFAULT_WAIT_TIMEOUT_MS
from .redis_durable import cluster_write_and_wait, write_and_wait
from .redis_failures import is_outage, is_pool_exhausted, warn_cluster_redirect
from .redis_replies import always
from .redis_scripts import (
    ADVANCE_LUA,
    BACKOFF_LUA,
    CAS_LUA,
    DELETE_LUA,
    DUE_LUA,
    EVENTS_LUA,
    GET_LUA,
    PRESENT_LUA,
    PUT_LUA,
    RELEASE_LUA,
    REMEMBER_LUA,
    REPLAY_LUA,
)

T = TypeVar("T")

DEFAULT_KEY_PREFIX: Final = "baohuang:table:"
MAX_IN_FLIGHT: Final = 64
"""Table operations of one process using Redis at once (``REDIS_MAX_CONNECTIONS``): a Redis
round trip here is ~0.1–0.2 ms, so 64 in flight is far more than one Python process can feed."""
WAIT_SECONDS: Final = 2.0
"""How long an operation waits for its turn before 503 ``OVERLOADED`` (``REDIS_POOL_TIMEOUT``)."""


class RedisCore:
    """The client, its scripts and keys, and the bounded way every call and write is made."""

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
        max_remembered: int = DEFAULT_MAX_REMEMBERED,
    ) -> None:
        """Wrap an existing client; prefer :meth:`from_url`, which sets the timeouts and pool.

        ``owns_client``: whether :meth:`close` closes the client (and its pool).
        ``max_in_flight``/``wait_seconds``: the bound on table work (module docstring).
        ``wait_replicas``/``wait_timeout_ms``: durable acknowledgement (module docstring); the
        client's socket timeout must be longer than ``wait_timeout_ms``.
        ``max_remembered``: idempotency records a table keeps at most (the oldest go first).
        """
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be positive")
        if max_in_flight <= 0 or wait_seconds <= 0:
            raise ValueError("max_in_flight and wait_seconds must be positive")
        if wait_replicas < 0 or wait_timeout_ms <= 0:
            raise ValueError("wait_replicas must be >= 0 and wait_timeout_ms positive")
        if max_remembered <= 0:
            raise ValueError("max_remembered must be positive")
        self._max_remembered = int(max_remembered)
        self._wait_replicas = int(wait_replicas)
        self._wait_timeout_ms = int(wait_timeout_ms)
        self._sentinel: Sentinel | None = None  # closed with the store when it made one
        self._sentinel_service: str | None = None  # the primary's name, with ``_sentinel``
        self._slots = asyncio.Semaphore(max_in_flight)
        self._wait = wait_seconds
        self._redis = client
        self._batch = Batcher(client, self._wait_command() if self._wait_replicas else None)
        self._ttl = int(ttl_seconds)
        self._prefix = key_prefix
        self._observe = observe
        self._owns_client = owns_client
        self._closed = False
        self._put = client.register_script(PUT_LUA)
        self._cas = client.register_script(CAS_LUA)
        self._get = client.register_script(GET_LUA)
        self._remember = client.register_script(REMEMBER_LUA)
        self._events = client.register_script(EVENTS_LUA)
        self._delete = client.register_script(DELETE_LUA)
        self._due = client.register_script(DUE_LUA)
        self._release = client.register_script(RELEASE_LUA)
        self._advance = client.register_script(ADVANCE_LUA)
        self._backoff = client.register_script(BACKOFF_LUA)
        self._replay = client.register_script(REPLAY_LUA)
        self._present = client.register_script(PRESENT_LUA)
        self._channel = f"{key_prefix}changes"
        self._indexes: dict[Index, str] = {
            "deadlines": f"{key_prefix}deadlines",
            "webhooks": f"{key_prefix}webhooks",
            "playouts": f"{key_prefix}playouts",
        }
        # Unique across processes and replicas: a random prefix per store, a counter per write.
        self._token_prefix = secrets.token_hex(8)
        self._tokens = itertools.count()

    def __repr__(self) -> str:
        return f"RedisTableStore(prefix={self._prefix!r}, ttl_seconds={self._ttl})"

    def key(self, table_id: str) -> str:
        """The Redis key of ``table_id``'s hash (for operators and tests); its log, its
        remembered answers and their order, and its finished deals' records add ``:log``,
        ``:idem``, ``:idemq`` and ``:deals``."""
        return f"{self._prefix}{{{table_id}}}"

    def _keys(self, table_id: str) -> list[str]:
        """The table's five keys, in the order every table script takes them."""
        key = self.key(table_id)
        return [key + suffix for suffix in KEY_SUFFIXES]

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
            if is_pool_exhausted(exc):
                self._done(operation, "overloaded", start)
                raise StoreOverloaded(f"redis {operation}: {exc}") from exc
            if is_outage(exc):
                self._done(operation, "unavailable", start)
                if isinstance(exc, AskError) and not isinstance(self._redis, RedisCluster):
                    warn_cluster_redirect()
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
        committed: Callable[[Any], bool] = always,
    ) -> Any:
        """Every write the store makes goes through here: run ``script`` in its turn (see
        :meth:`_call`) and, when replicas must acknowledge writes, ``WAIT`` for them on the same
        connection. Returns the script's reply.

        ``committed(reply)``: whether the script wrote something (a refused compare-and-set did
        not, so there is nothing to wait for). A write that ran but was not acknowledged by
        ``wait_replicas`` replicas in time raises :class:`StoreOutcomeUnknown`.
        """
        durable = self._wait_replicas > 0
        return await self._call(
            operation,
            lambda: self._script(operation, script, keys, args, durable, committed),
            start,
        )

    async def _read(
        self, operation: str, start: float, script: AsyncScript, keys: list[str], args: list[Any]
    ) -> Any:
        """A script that only reads (or, like the clock's claims, needs no replica's word),
        in its turn (see :meth:`_call`)."""
        return await self._call(
            operation, lambda: self._script(operation, script, keys, args, False, always), start
        )

    async def _script(
        self,
        operation: str,
        script: AsyncScript,
        keys: list[str],
        args: list[bytes | int | str],
        durable: bool,
        committed: Callable[[Any], bool],
    ) -> Any:
        """``EVALSHA`` batched with the loop turn's other commands (:mod:`.redis_batch`), or,
        when the batch could not carry it, sent alone the usual way: redis-py's script object
        (which loads the script after ``NOSCRIPT``), or with ``durable`` the write and its
        ``WAIT`` of :mod:`.redis_durable`."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        reply = await self._batch.submit(command, keys[0], durable)
        if reply is FALLBACK:
            if not durable:
                return await script(keys=keys, args=args)
            if isinstance(self._redis, RedisCluster):
                reply = await cluster_write_and_wait(
                    self._redis, script, keys, args, self._wait_command()
                )
            else:
                reply = await write_and_wait(self._redis, script, keys, args, self._wait_command())
        elif not durable:
            return reply
        reply, acknowledged = reply
        if committed(reply) and not (
            isinstance(acknowledged, int) and acknowledged >= self._wait_replicas
        ):
            raise StoreOutcomeUnknown(
                f"redis {operation}: written, but {acknowledged!r} of {self._wait_replicas} "
                f"replicas acknowledged it within {self._wait_timeout_ms} ms"
            )
        return reply

    async def _command(
        self,
        operation: str,
        start: float,
        command: tuple[Any, ...],
        alone: Callable[[], Awaitable[T]],
    ) -> T | Any:
        """A plain command (``command[1]`` its key) batched, in its turn; ``alone`` sends it
        the usual way when the batch could not carry it."""

        async def call() -> Any:
            reply = await self._batch.submit(command, command[1], False)
            return await alone() if reply is FALLBACK else reply

        return await self._call(operation, call, start)

    def _wait_command(self) -> tuple[str, int, int]:
        return ("WAIT", self._wait_replicas, self._wait_timeout_ms)

    async def close(self) -> None:
        """Close the client if this store made it; idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._batch.aclose()
        if self._owns_client:
            await self._redis.aclose()
        if self._sentinel is not None:
            await self._sentinel.aclose()
