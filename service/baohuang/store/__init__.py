"""Live tables: one :class:`TableStore` interface, a Redis and an in-memory implementation.

The service opens one store per process in its lifespan (:func:`open_store`) and closes it on the
way out. Without ``REDIS_URL`` the tables live in the process (one replica only); with it they
live in Redis and any number of replicas share them: one Redis, a Redis Cluster or a primary
watched by Sentinels (``REDIS_MODE``, :class:`RedisConfig`).
"""

from __future__ import annotations

from typing import Any

from .base import (
    DEFAULT_MAX_REMEMBERED,
    DEFAULT_TTL_SECONDS,
    OPERATIONS,
    OUTCOMES,
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
    StoreFull,
    StoreOutcomeUnknown,
    StoreOverloaded,
    StoreUnavailable,
    TableStore,
    new_instance,
    no_observe,
)
from .memory import MemoryTableStore
from .redis import RedisTableStore
from .redis_config import RedisConfig, parse_sentinel_url

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
    "HookBackoff",
    "Index",
    "LoggedEvent",
    "MemoryTableStore",
    "Observe",
    "PutResult",
    "RedisConfig",
    "RedisTableStore",
    "StoreFull",
    "StoreOutcomeUnknown",
    "StoreOverloaded",
    "StoreUnavailable",
    "StoredTable",
    "TableStore",
    "new_instance",
    "open_store",
]


def open_store(
    redis: str | RedisConfig | None,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    *,
    observe: Observe = no_observe,
    cluster: bool = False,
    max_in_flight: int | None = None,
    wait_seconds: float | None = None,
    max_remembered: int = DEFAULT_MAX_REMEMBERED,
) -> TableStore:
    """Redis when ``redis`` is a :class:`RedisConfig` or a non-empty URL (a single Redis, or a
    Redis Cluster node with ``cluster``), else the embedded in-memory store.

    Does no I/O: the Redis client connects on first use, so a service can start (and report
    not-ready) while Redis is down. Call ``await store.ping()`` for readiness.
    """
    if isinstance(redis, str):
        if not redis.strip():
            return MemoryTableStore(ttl_seconds, observe=observe, max_remembered=max_remembered)
        redis = RedisConfig(url=redis.strip(), mode="cluster" if cluster else "standalone")
    if redis is None:
        return MemoryTableStore(ttl_seconds, observe=observe, max_remembered=max_remembered)
    common: dict[str, Any] = {
        "observe": observe,
        "max_remembered": max_remembered,
        "wait_replicas": redis.replicas_to_wait,
        "wait_timeout_ms": redis.wait_timeout_ms,
        "username": redis.username,
        "password": redis.password,
    }
    if max_in_flight is not None:
        common["max_in_flight"] = max_in_flight
    if wait_seconds is not None:
        common["wait_seconds"] = wait_seconds
    if redis.mode == "sentinel":
        address = parse_sentinel_url(redis.url)
        assert redis.sentinel_service  # RedisConfig requires it in this mode
        return RedisTableStore.from_sentinel(
            address.sentinels,
            redis.sentinel_service,
            ttl_seconds,
            db=address.db,
            tls=address.tls,
            ssl_ca_certs=redis.tls_ca_file,
            sentinel_username=redis.sentinel_username,
            sentinel_password=redis.sentinel_password,
            **{
                **common,
                "username": redis.username or address.username,
                "password": redis.password or address.password,
            },
        )
    return RedisTableStore.from_url(
        redis.url.strip(),
        ttl_seconds,
        cluster=redis.mode == "cluster",
        ssl_ca_certs=redis.tls_ca_file,
        **common,
    )
