"""The live-table store contract: what the HTTP layer may rely on, whichever backend holds tables.

A table is an opaque snapshot (JSON bytes the store never parses) under an id, with a version
that grows by one per write, an event log, and the answers remembered under idempotency keys.
Moves go through :meth:`TableStore.compare_and_set`, so that of any number of clients (or service
replicas) writing against the same version exactly one wins and no move is applied twice or lost;
its events are appended and its answer remembered in the same atomic write.

Kept free of Litestar and Prometheus on purpose: the store is tested on its own and the service
wires metrics in through the ``observe`` callback.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Final, Literal, Protocol, TypeAlias, runtime_checkable

import msgspec

__all__ = [
    "DEFAULT_MAX_REMEMBERED",
    "DEFAULT_TTL_SECONDS",
    "OPERATIONS",
    "OUTCOMES",
    "RECHECK_ALL",
    "CasConflict",
    "CasMissing",
    "CasOk",
    "CasRemembered",
    "CasResult",
    "DealEnd",
    "EventPage",
    "Index",
    "LoggedEvent",
    "Observe",
    "PutResult",
    "StoreFull",
    "StoreOutcomeUnknown",
    "StoreOverloaded",
    "StoreUnavailable",
    "StoredTable",
    "TableStore",
    "no_observe",
]

logger = logging.getLogger("baohuang.store")

DEFAULT_TTL_SECONDS: Final = 86400
"""``TABLE_TTL_SECONDS`` default: an abandoned table disappears a day after its last write."""

DEFAULT_MAX_REMEMBERED: Final = 1024
"""``BAOHUANG_IDEMPOTENCY_KEYS`` default: remembered answers a table keeps at most, the oldest
dropped first. A deal is a few hundred writes, so a key is kept for a few deals at least; at
about half a KiB a record that bounds a table's remembered answers near half a MiB."""

OPERATIONS: Final = (
    "get", "put", "cas", "delete", "ping", "events", "remember", "schedule", "due", "confirm",
    "present",
)  # fmt: skip
"""Every ``operation`` label the store reports, so a metrics backend can pre-create series."""

OUTCOMES: Final = (
    "ok", "conflict", "missing", "unavailable", "unconfirmed", "overloaded", "error",
)  # fmt: skip
"""Every ``outcome`` label: ``error`` is an unexpected failure (a bug, not an outage);
``overloaded``: no connection came free in time (the process is busy, Redis may be fine);
``unconfirmed``: a write ran but too few replicas acknowledged it in time."""

Observe: TypeAlias = Callable[[str, str, float], None]
"""``observe(operation, outcome, seconds)``, called once per store operation."""


def no_observe(operation: str, outcome: str, seconds: float) -> None:
    """The default metrics hook: observe nothing."""


def safe_observe(observe: Observe, operation: str, outcome: str, seconds: float) -> None:
    """Call the metrics hook without letting it fail a store operation that already happened.

    A committed compare-and-set must not be reported as a failure because a metrics callback
    raised; the error is logged instead.
    """
    try:
        observe(operation, outcome, seconds)
    except Exception:
        logger.exception("store metrics hook failed for %s/%s", operation, outcome)


def new_instance() -> str:
    """A random table instance (64 bits, hex): unguessable, and never equal to an earlier one."""
    return secrets.token_hex(8)


class StoreUnavailable(Exception):
    """The backend could not be reached or did not answer in time (callers answer 503).

    For a write (``put``, ``compare_and_set``, ``delete``) the outcome is *unknown*: the command
    may have been applied by a server that answered too late. Clients must re-read the table
    rather than assume the write was lost.
    """


class StoreOutcomeUnknown(StoreUnavailable):
    """A write ran on the primary but fewer replicas than required acknowledged it in time
    (callers answer 503 ``OUTCOME_UNKNOWN`` with ``Retry-After``, never a success).

    The write may survive or may be rolled back by a failover that promotes a replica without
    it: clients re-read the table to learn which. A subclass of :class:`StoreUnavailable`, so
    that code which only knows outages still fails closed.
    """


class StoreOverloaded(Exception):
    """This process has more table work in flight than its connections serve, and none came free
    within the bounded wait (callers answer 503 ``OVERLOADED`` with ``Retry-After``).

    Not a :class:`StoreUnavailable`: Redis may be perfectly healthy, so readiness must not fail
    for it, and nothing was sent, so the operation was certainly not applied.
    """


class StoreFull(StoreUnavailable):
    """The in-memory store holds its maximum number of tables and the write would add one.

    A subclass of :class:`StoreUnavailable` so callers answer 503 with ``Retry-After``: tables
    expire, and refusing a new table is better than silently evicting a live one.
    """


class StoredTable(msgspec.Struct, frozen=True, gc=False):
    """A table as stored: its version, the snapshot bytes exactly as they were written, and the
    table *instance*: a random epoch made by each ``put``, so that nothing held from an earlier
    table under the same id (a seat token, a version, a cached write) can match this one."""

    version: int
    snapshot: bytes
    instance: str
    last_seq: int = 0
    """The ``seq`` of the instance's last logged event (0: none yet)."""
    remembered: bytes | None = None
    """With :meth:`TableStore.get`'s ``remembered_as``: the record kept under that key, if any."""
    last_token: str = ""
    """The token of the write that logged the last event ('' when none, or from before tokens
    were logged): with ``last_seq``, the log's position that no rollback can fake."""


class PutResult(StoredTable, frozen=True, gc=False, kw_only=True):
    """What ``put`` wrote (a new instance), plus whether the table was new (201) rather than
    replaced (200), and the write's token (see :meth:`TableStore.compare_and_set`)."""

    created: bool
    token: str


class CasOk(msgspec.Struct, frozen=True, gc=False):
    """The write won: the table now holds the new snapshot at ``version``, written as ``token``."""

    version: int
    token: str
    last_seq: int = 0
    """The ``seq`` of the last event now in the log."""


class CasRemembered(msgspec.Struct, frozen=True, gc=False):
    """Nothing was written: the idempotency key already names a record (the first answer)."""

    record: bytes


class CasConflict(msgspec.Struct, frozen=True, gc=False):
    """Someone else wrote first: the table is at ``current_version`` (409 carries it)."""

    current_version: int


class CasMissing(msgspec.Struct, frozen=True, gc=False):
    """There is no such table (deleted or expired): 404."""


CasResult: TypeAlias = CasOk | CasConflict | CasMissing | CasRemembered
"""The outcomes of a compare-and-set; ``match`` on the class (mypy checks exhaustiveness)."""


class LoggedEvent(msgspec.Struct, frozen=True, gc=False):
    """One event of a table's log: its ``seq`` (1, 2, … per instance), the ``version`` its write
    produced, and its bytes as written."""

    seq: int
    version: int
    data: bytes
    token: str = ""
    """The token of the write that logged it: after a failover rolled the log back, the same
    ``seq`` is logged again by another write, with another token."""


class EventPage(msgspec.Struct, frozen=True, gc=False):
    """Events of a table after some ``seq``, read atomically with the table's instance, version
    and last ``seq``."""

    instance: str
    version: int
    last_seq: int
    events: list[LoggedEvent]
    last_token: str = ""
    """The token of the last event's write (see :attr:`StoredTable.last_token`)."""
    anchor: str | None = None
    """The token of the event at ``after`` ('' for one logged without a token), ``None`` when
    the log holds no such event (``after`` 0, or past the log's end)."""
    snapshot: bytes | None = None
    """The table's snapshot at ``version``, when :meth:`TableStore.read_events` was asked for
    it: a caller that must check the table's record reads it in the same round trip."""
    trimmed: int = 0
    """The log no longer holds any event up to this seq (finished deals', see :class:`DealEnd`):
    a reader whose position is before it has lost events; one exactly at it has not (``anchor``
    is still the token of that event)."""
    recorded: int = 0
    """The last seq of the finished deals (0: none yet): the current deal's events follow it.
    Events up to it may still be in the log, kept for the table's webhook."""
    deals: list[bytes] | None = None
    """With ``with_deals``: the finished deals' records the table keeps, oldest first, read
    atomically with the page."""


class DealEnd(msgspec.Struct, frozen=True, gc=False):
    """What a write that starts the next deal does to the table's history, in the same atomic
    write (:meth:`TableStore.compare_and_set`): every event logged before it belongs to finished
    deals and leaves the log; ``record``, the compact record of the deal that just finished,
    is kept in their place, with at most ``kept`` records per table (the oldest dropped first).
    With ``webhook`` the log keeps every event the table's webhook has not delivered yet, until
    :meth:`TableStore.advance_hook` moves past it."""

    record: bytes
    kept: int
    webhook: bool = False


class HookBackoff(msgspec.Struct, frozen=True, gc=False):
    """A table's webhook retry schedule, kept with the table so any replica follows it: how many
    attempts failed in a row, and when the next may start (seconds since the epoch; 0: now)."""

    failures: int = 0
    retry_at: float = 0.0


Index: TypeAlias = Literal["deadlines", "webhooks", "playouts"]
"""The store's indexes of tables to handle at a time: clocks, webhook deliveries, and deals
that 托管 is playing out over several writes (the clock takes them after the deadlines)."""

RECHECK_ALL: Final = ""
"""Yielded by :meth:`TableStore.changes` when notifications may have been missed (a lost
subscription came back): every table someone follows must be read again."""


@runtime_checkable
class TableStore(Protocol):
    """Live tables by id; one implementation per backend, all passing ``tests/store``.

    Versions start at 1 and grow by one per write; ``put`` over an existing table keeps counting
    from its version. After a delete or an expiry the next ``put`` starts again at 1. Every
    ``put`` makes a new random ``instance``, kept until the next ``put``: a version means
    something only together with its instance. Every write sets the expiry (the TTL) again;
    reads do not.
    """

    async def get(self, table_id: str, remembered_as: str | None = None) -> StoredTable | None:
        """The table, or ``None`` when there is none (never written, deleted or expired); with
        ``remembered_as``, also the record kept under that idempotency key, read atomically."""
        ...

    async def put(self, table_id: str, snapshot: bytes, events: Sequence[bytes] = ()) -> PutResult:
        """Create or replace the table unconditionally, as a new instance: the version is the
        old one plus one, the event log starts with ``events`` (seq 1, 2, …), the remembered
        answers start empty."""
        ...

    async def schedule(
        self,
        table_id: str,
        deadline: float | None,
        *,
        earlier_only: bool = False,
        index: Index = "deadlines",
    ) -> None:
        """Index the table's next deadline (``None``: it has none), for :meth:`due`. The index
        is a hint kept next to the tables, not in their atomic writes: ``earlier_only`` moves a
        deadline only earlier, so that before a write may change it the index can be set to
        run no later than the table's own deadline, whatever happens to the write."""
        ...

    async def due(
        self, now: float, limit: int, lease: float, *, index: Index = "deadlines"
    ) -> list[str]:
        """Up to ``limit`` tables whose indexed time is ``now`` or earlier, each claimed for
        ``lease`` seconds (moved to ``now + lease`` in the index), so that a replica that dies
        before it handles one leaves it to another. ``index``: ``deadlines`` (clocks),
        ``webhooks`` (tables with events to deliver) or ``playouts`` (deals 托管 plays out)."""
        ...

    async def release(self, table_id: str, claimed: float, *, index: Index) -> bool:
        """Take a claimed table out of ``index`` — unless a write moved it since the claim
        (``claimed`` is ``now + lease`` of :meth:`due`): then it stays, to be handled again."""
        ...

    async def present(self, group: str, member: str | None, now: float, ttl: float) -> int:
        """A register of live processes that every replica shares (not of tables): keep
        ``member`` (unless ``None``) in ``group`` until ``now + ttl``, forget the members whose
        time has passed, and answer how many ``group`` holds now. The webhook dispatchers tell
        each other their delivery policy this way (:mod:`baohuang.tables.webhook_senders`)."""
        ...

    async def hook_cursor(self, table_id: str) -> tuple[str, int] | None:
        """The table's instance and the last ``seq`` its webhook has delivered (``None``: no
        table)."""
        ...

    async def advance_hook(self, table_id: str, instance: str, seq: int) -> None:
        """Record that the webhook delivered up to ``seq`` (never backwards; only while the table
        is still ``instance``); finished deals' events it has now delivered leave the log
        (:class:`DealEnd`)."""
        ...

    async def hook_backoff(self, table_id: str) -> HookBackoff | None:
        """The current instance's webhook retry schedule (``None``: no table); a new instance
        starts with none."""
        ...

    async def set_hook_backoff(self, table_id: str, instance: str, backoff: HookBackoff) -> None:
        """Keep ``backoff`` with the table (only while it is still ``instance``)."""
        ...

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
        """Write ``snapshot`` only if the table is at ``expected_version``, atomically.

        With ``instance``, also only if the table is still that instance (a conflict otherwise):
        a table deleted and created again may be at the same version. With ``written_as``, also
        only if the table's last write was the one with that token: a writer that remembers what
        it wrote last may skip reading the table back. Tokens are unique per write across
        processes.

        ``events`` are appended to the log in the same atomic write, numbered on from the
        table's last ``seq``, each logged with the write's token. ``remember`` = ``(key,
        record)`` keeps ``record`` under the idempotency ``key``; if the key already has a
        record, nothing is written and the answer is :class:`CasRemembered` with it (checked
        before the version). A table keeps at most the store's ``max_remembered`` records, the
        oldest dropped first.

        ``deal_end``: the write starts the next deal; the events logged before it leave the log
        (seqs go on growing: :attr:`EventPage.trimmed`) and the finished deal's record is kept
        (:class:`DealEnd`).
        """
        ...

    async def remember(self, table_id: str, instance: str, key: str, record: bytes) -> bytes | None:
        """Keep ``record`` under ``key`` unless the key has one already; return the record now
        kept (``None``: no such table, or another instance). For answers that wrote nothing."""
        ...

    async def read_events(
        self,
        table_id: str,
        after: int,
        limit: int,
        *,
        with_snapshot: bool = False,
        with_deals: bool = False,
    ) -> EventPage | None:
        """Up to ``limit`` logged events with ``seq > after`` that the log still holds, oldest
        first, and the token of the event at ``after`` (``None``: no table); ``with_snapshot``:
        and the table's snapshot, ``with_deals``: and its finished deals' records, read
        atomically with them."""
        ...

    async def confirm(self, table_id: str, instance: str) -> None:
        """Return once the table's state as read now — its remembered answers included — is as
        durable as a write acknowledged now would be; raise :class:`StoreOutcomeUnknown`
        otherwise. For an answer given again from what the store remembers (an idempotent
        replay): the write that made it may never have reached a replica."""
        ...

    def changes(self) -> AsyncIterator[str]:
        """Ids of tables as they are written or deleted, from any replica, for as long as it is
        iterated (best effort: :data:`RECHECK_ALL` when some may have been missed)."""
        ...

    async def delete(self, table_id: str) -> bool:
        """Remove the table; ``True`` when there was one."""
        ...

    async def ping(self) -> None:
        """Return when the backend answers; raise :class:`StoreUnavailable` otherwise."""
        ...

    async def close(self) -> None:
        """Release connections; idempotent."""
        ...
