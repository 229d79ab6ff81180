"""Live tables: one :class:`TableStore` interface, a Redis and an in-memory implementation.

The service opens one store per process in its lifespan (:func:`open_store`) and closes it on the
way out. Without ``REDIS_URL`` the tables live in the process (one replica only); with it they
live in Redis and any number of replicas share them.
"""

from __future__ import annotations

from typing import Any

from .base import (
    DEFAULT_TTL_SECONDS,
    OPERATIONS,
    OUTCOMES,
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
    StoreFull,
    StoreOverloaded,
    StoreUnavailable,
    TableStore,
    new_instance,
    no_observe,
)
from .memory import MemoryTableStore
from .redis import RedisTableStore

__all__ = [
    "DEFAULT_TTL_SECONDS",
    "OPERATIONS",
    "OUTCOMES",
    "RECHECK_ALL",
    "CasConflict",
    "CasMissing",
    "CasOk",
    "CasRemembered",
    "CasResult",
    "EventPage",
    "LoggedEvent",
    "MemoryTableStore",
    "Observe",
    "PutResult",
    "RedisTableStore",
    "StoreFull",
    "StoreOverloaded",
    "StoreUnavailable",
    "StoredTable",
    "TableStore",
    "new_instance",
    "open_store",
]


def open_store(
    redis_url: str | None,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    *,
    observe: Observe = no_observe,
    cluster: bool = False,
    max_in_flight: int | None = None,
    wait_seconds: float | None = None,
) -> TableStore:
    """Redis when ``redis_url`` is set and non-empty, else the embedded in-memory store.

    Does no I/O: the Redis client connects on first use, so a service can start (and report
    not-ready) while Redis is down. Call ``await store.ping()`` for readiness.
    """
    if redis_url and redis_url.strip():
        bounds: dict[str, Any] = {}
        if max_in_flight is not None:
            bounds["max_in_flight"] = max_in_flight
        if wait_seconds is not None:
            bounds["wait_seconds"] = wait_seconds
        return RedisTableStore.from_url(
            redis_url.strip(), ttl_seconds, observe=observe, cluster=cluster, **bounds
        )
    return MemoryTableStore(ttl_seconds, observe=observe)
