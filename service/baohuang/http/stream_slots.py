"""Open table streams are a bounded resource of each process (docs/deploy.md "Streams").

A stream holds a connection for as long as its client likes, so streams are counted while they
are open, per process (a stream is a connection to this replica, not a request budget that
replicas share), and a stream beyond a limit is refused before it starts:

* **per credential** (``BAOHUANG_MAX_STREAMS_PER_CREDENTIAL``): the streams of one seat or
  spectator token, that is one caller of one table instance;
* **per table** (``BAOHUANG_MAX_STREAMS_PER_TABLE``): every caller's streams of one table id;
* **per client address** (``BAOHUANG_MAX_STREAMS_PER_ADDRESS``): the seat and spectator streams
  from one address (uvicorn's, behind ``FORWARDED_ALLOW_IPS``);
* **per process**: never more than ``BAOHUANG_MAX_CONNECTIONS`` less
  ``BAOHUANG_STREAM_RESERVE`` connections, so that the reserve is always there for probes,
  ``/metrics`` and ordinary requests: the connection bound (:mod:`.bounds`) evicts idle and slow
  connections but never one being answered, which a stream always is.

A platform key is held to the per-table and per-process limits only: a platform backend follows
all its tables from one address with one key. A refusal is 429 ``TOO_MANY_STREAMS`` with
``Retry-After`` (the per-process one: 503 ``OVERLOADED``, the replica is full, another may not be).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final, NamedTuple

from litestar.types import ASGIApp, Receive, Scope, Send

from ..tables import Caller
from .metrics import count_stream_refusal, observe_streams
from .problems import RETRY_AFTER_SECONDS, Problem

STREAM_RETRY_AFTER_SECONDS: Final = "5"
"""A stream slot comes back only when another stream of the caller ends: not within a second."""

CREDENTIAL: Final = "credential"
TABLE: Final = "table"
ADDRESS: Final = "address"
PROCESS: Final = "process"


class StreamLimits(NamedTuple):
    per_credential: int
    per_table: int
    per_address: int
    per_process: int


def stream_capacity(max_connections: int, reserve: int) -> int:
    """Streams one process may hold: the connection cap less the reserve, and at least half the
    cap kept for streams (a reserve above half a small cap would leave too few)."""
    return max(1, max_connections - min(reserve, max_connections // 2))


def too_many_streams_problem(limit: str, allowed: int) -> Problem:
    """429 for a caller over its own limits; 503 ``OVERLOADED`` for a full process."""
    if limit == PROCESS:
        return Problem(
            503,
            "OVERLOADED",
            f"this replica holds as many streams as it serves ({allowed}); retry after the "
            "Retry-After delay, or poll the events page meanwhile",
            headers={"Retry-After": RETRY_AFTER_SECONDS},
        )
    whose = {CREDENTIAL: "this credential", TABLE: "this table", ADDRESS: "this address"}[limit]
    path = {CREDENTIAL: "$.headers.authorization", TABLE: "$.path.table_id", ADDRESS: "$"}[limit]
    return Problem(
        429,
        "TOO_MANY_STREAMS",
        f"{whose} already has {allowed} streams open on this replica, the most it may; close one "
        "(or poll the events page) and retry after the Retry-After delay",
        path=path,
        headers={"Retry-After": STREAM_RETRY_AFTER_SECONDS},
    )


class StreamSlot:
    """The slots one stream holds; :meth:`release` (idempotent) gives them back."""

    __slots__ = ("_keys", "_kind", "_slots")

    def __init__(self, slots: StreamSlots, keys: tuple[tuple[str, str], ...], kind: str) -> None:
        self._slots: StreamSlots | None = slots
        self._keys = keys
        self._kind = kind

    def release(self) -> None:
        slots, self._slots = self._slots, None
        if slots is not None:
            slots._release(self._keys, self._kind)

    def holding(self, response: ASGIApp) -> ASGIApp:
        """``response`` (the stream), releasing the slot however it ends: finished, client gone,
        replica stopping."""

        async def held(scope: Scope, receive: Receive, send: Send) -> None:
            try:
                await response(scope, receive, send)
            finally:
                self.release()

        return held


class StreamSlots:
    """The streams open in this process, counted by credential, table, address and in all."""

    def __init__(self, limits: StreamLimits) -> None:
        self.limits = limits
        self._open: Counter[tuple[str, str]] = Counter()
        self._by_kind: Counter[str] = Counter()
        self._total = 0

    @property
    def total(self) -> int:
        return self._total

    def take(self, caller: Caller, table_id: str, address: str) -> StreamSlot:
        """A slot for one more stream of ``caller`` on ``table_id`` from ``address``, or the
        problem of the first limit it would pass (nothing taken then)."""
        limits = self.limits
        if self._total >= limits.per_process:
            count_stream_refusal(PROCESS)
            raise too_many_streams_problem(PROCESS, limits.per_process)
        wanted: list[tuple[tuple[str, str], int, str]] = [
            ((TABLE, table_id), limits.per_table, TABLE)
        ]
        if caller.kind != "platform":
            token = f"{table_id}\x00{caller.instance}\x00{caller.kind}\x00{caller.seat}"
            wanted.append(((CREDENTIAL, token), limits.per_credential, CREDENTIAL))
            wanted.append(((ADDRESS, address), limits.per_address, ADDRESS))
        for key, allowed, limit in wanted:
            if self._open[key] >= allowed:
                count_stream_refusal(limit)
                raise too_many_streams_problem(limit, allowed)
        keys = tuple(key for key, _, _ in wanted)
        for key in keys:
            self._open[key] += 1
        self._total += 1
        self._by_kind[caller.kind] += 1
        observe_streams(caller.kind, self._by_kind[caller.kind])
        return StreamSlot(self, keys, caller.kind)

    def _release(self, keys: tuple[tuple[str, str], ...], kind: str) -> None:
        for key in keys:
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]  # nothing kept per caller once its streams are gone
        self._total -= 1
        self._by_kind[kind] -= 1
        observe_streams(kind, self._by_kind[kind])


def client_address(scope: Any) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""
