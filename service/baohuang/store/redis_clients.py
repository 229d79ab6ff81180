"""How the Redis table store is made: its client for one Redis, a Redis Cluster or the primary
the Sentinels name, with the timeouts, retries and pool that :mod:`.redis` describes (see
"Failing fast" and "Overload is not an outage" there)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Self

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff

from .base import DEFAULT_MAX_REMEMBERED, DEFAULT_TTL_SECONDS, Observe, no_observe
from .redis_config import DEFAULT_WAIT_TIMEOUT_MS
from .redis_core import DEFAULT_KEY_PREFIX, MAX_IN_FLIGHT, WAIT_SECONDS, RedisCore
from .redis_durable import RETRIES, SOCKET_TIMEOUT_SECONDS, client_options
from .redis_failures import warn_without_hiredis
from .redis_replicas import count_replicas

SPARE_CONNECTIONS: Final = 3
"""Connections beyond ``max_in_flight``, so that a readiness ping and the changes subscription
never wait behind table work."""


class RedisClients(RedisCore):
    """The ways to make the store, each with a client of its own (closed by ``close``)."""

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
    ) -> Self:
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
    ) -> Self:
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
        store._sentinel_service = service
        return store

    async def count_replicas(self) -> int:
        """The replicas a failover could promote now, as Redis (or the Sentinels) report them;
        raises when it cannot ask (:func:`.redis_replicas.count_replicas`). Bypasses the bound
        on table work, as the readiness ping does."""
        return await count_replicas(self._redis, self._sentinel, self._sentinel_service)
