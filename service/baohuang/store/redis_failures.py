"""What the Redis client raises, sorted: load (503 ``OVERLOADED``), an outage or a change of
topology (503 ``STORE_UNAVAILABLE``: Redis, or the way to it, is down or changing hands), or a
bug of ours (500)."""

from __future__ import annotations

import logging
from typing import Final

from redis.exceptions import (
    AskError,
    ClusterError,
    InvalidResponse,
    MaxConnectionsError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.utils import HIREDIS_AVAILABLE

logger = logging.getLogger("baohuang.store")

REDIRECTIONS: Final = 5
"""``MOVED``/``ASK``/``NOSCRIPT`` answers a durable cluster write follows before giving up (503)."""

OUTAGE_ERRORS: Final = (
    RedisConnectionError,  # refused, reset, closed, auth, LOADING, Master/SlaveNotFoundError
    RedisTimeoutError,
    OSError,  # includes the built-in TimeoutError and ConnectionResetError
    ReadOnlyError,  # a replica promoted away from under us
    ClusterError,  # ClusterDownError (also MASTERDOWN), "TTL exhausted" (redirected in circles)
    AskError,  # and MovedError: a redirection the client did not follow
    TryAgainError,
    SlotNotCoveredError,  # a slot with no known owner while the cluster changes
    InvalidResponse,  # a reply cut short by a connection torn down under it
    OutOfMemoryError,  # maxmemory with noeviction: writes refused until memory frees
)
OUTAGE_REPLY_PREFIXES: Final = (
    "BUSY", "NOREPLICAS", "MISCONF", "LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN",
    "TRYAGAIN", "UNBLOCKED",  # UNBLOCKED: a blocked command (WAIT) ended by a role change
)  # fmt: skip
CLUSTER_UNREACHABLE: Final = (
    "Redis Cluster cannot be connected",
    "All slots are not covered",
    "startup_nodes could not agree",
    "Cluster mode is not enabled",  # REDIS_MODE=cluster against a plain Redis: not ready
)
TEARDOWN_ERRORS: Final = (RuntimeError, AttributeError)
"""What a connection closed under a command in flight raises from inside the client: the cluster
client tears down every connection of a node it gave up on, so a concurrent command meets
``RuntimeError: unable to perform operation on <TCPTransport closed=True …>`` or
``AttributeError: 'NoneType' object has no attribute 'writelines'``."""
CLIENT_MODULES: Final = ("redis.", "asyncio.", "uvloop.", "hiredis")


def is_pool_exhausted(exc: BaseException) -> bool:
    """redis-py's pools saying "no connection free", which is load, not an outage."""
    if isinstance(exc, MaxConnectionsError):
        return True
    return isinstance(exc, RedisConnectionError) and str(exc) == "No connection available."


def _raised_in_client(exc: BaseException) -> bool:
    """Whether ``exc`` was raised inside the Redis client or the event loop's transports (the
    innermost frame of its traceback), not in this package: a bug of ours stays a bug (500)."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    module = tb.tb_frame.f_globals.get("__name__", "")
    return isinstance(module, str) and module.startswith(CLIENT_MODULES)


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a Redis client call, means Redis (or the way to it) is down or
    changing hands: 503 with ``Retry-After``, never 500."""
    if isinstance(exc, OUTAGE_ERRORS):
        return True
    if isinstance(exc, ResponseError):
        return str(exc).startswith(OUTAGE_REPLY_PREFIXES)
    if isinstance(exc, RedisClusterException):
        return str(exc).startswith(CLUSTER_UNREACHABLE)
    return isinstance(exc, TEARDOWN_ERRORS) and _raised_in_client(exc)


_warned: set[str] = set()


def warn_without_hiredis() -> None:
    if not HIREDIS_AVAILABLE and "hiredis" not in _warned:
        _warned.add("hiredis")
        logger.warning("hiredis is not installed: Redis replies parsed in pure Python")


def warn_cluster_redirect() -> None:
    if "redirect" not in _warned:
        _warned.add("redirect")
        logger.warning(
            "Redis answered MOVED/ASK: REDIS_URL names a Redis Cluster node; set REDIS_MODE=cluster"
        )
