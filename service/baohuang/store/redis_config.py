"""How the service reaches Redis: the mode, the address, TLS, credentials and durable writes.

Three modes (``REDIS_MODE``), one URL (``REDIS_URL``) each:

* ``standalone`` (default): ``redis://[user:password@]host:port/db``, ``rediss://`` for TLS, or
  ``unix://``; a single Redis, or a proxy in front of several.
* ``cluster``: the URL of any one node of a Redis Cluster (same syntax); the client learns the
  others from it and follows failovers and slot moves. Only database 0 exists in a cluster.
* ``sentinel``: the Sentinels, ``redis+sentinel://[user:password@]host1:26379,host2:26379/db``
  (``rediss+sentinel://`` for TLS, to the Sentinels and to the data nodes alike), or just the
  comma list ``host1:26379,host2:26379`` (port 26379 when left out). ``REDIS_SENTINEL_SERVICE``
  names the primary as the Sentinels know it (their ``sentinel monitor <name> …``). The user and
  password in the URL are those of the data nodes; the Sentinels' own are
  ``REDIS_SENTINEL_USERNAME``/``REDIS_SENTINEL_PASSWORD``, when they require any.

Credentials may instead come from ``REDIS_USERNAME``/``REDIS_PASSWORD`` (e.g. a Kubernetes
Secret), not both ways at once. ``REDIS_TLS_CA_FILE`` names the CA bundle that verifies the
server's certificate (the system's CAs otherwise); it requires a TLS URL.

Durable writes: after each table write, the store waits (``WAIT``) until ``wait_replicas``
replicas acknowledged it, at most ``wait_timeout_ms``; see :mod:`.redis`.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias
from urllib.parse import unquote, urlsplit

import msgspec

__all__ = [
    "DEFAULT_WAIT_TIMEOUT_MS",
    "MODES",
    "SENTINEL_PORT",
    "RedisConfig",
    "RedisMode",
    "SentinelAddress",
    "parse_sentinel_url",
    "redact_url",
]

RedisMode: TypeAlias = Literal["standalone", "cluster", "sentinel"]
MODES: Final = ("standalone", "cluster", "sentinel")
SENTINEL_PORT: Final = 26379
DEFAULT_WAIT_TIMEOUT_MS: Final = 500
"""``REDIS_WAIT_TIMEOUT_MS``: a healthy replica acknowledges in about a round trip (the primary
asks it at once when a client waits), so 0.5 s only runs out when a replica really lags."""

_SENTINEL_SCHEMES: Final = {"redis+sentinel": False, "rediss+sentinel": True}


class SentinelAddress(msgspec.Struct, frozen=True):
    """The Sentinels to ask, the database, TLS, and the data nodes' credentials from the URL."""

    sentinels: tuple[tuple[str, int], ...]
    db: int = 0
    tls: bool = False
    username: str | None = None
    password: str | None = None


def _host_port(item: str, default_port: int) -> tuple[str, int]:
    item = item.strip()
    if item.startswith("["):  # [::1]:26379
        host, _, rest = item[1:].partition("]")
        port = rest.removeprefix(":")
    else:
        host, _, port = item.rpartition(":") if ":" in item else (item, "", "")
    if not host:
        raise ValueError(f"a Sentinel address has no host: {item!r}")
    try:
        number = int(port) if port else default_port
    except ValueError:
        raise ValueError(f"a Sentinel address has a bad port: {item!r}") from None
    if not 0 < number < 65536:
        raise ValueError(f"a Sentinel address has a bad port: {item!r}")
    return host, number


def parse_sentinel_url(url: str) -> SentinelAddress:
    """``redis+sentinel://[user:pw@]h1:p1,h2:p2/db``, ``rediss+sentinel://…`` or ``h1:p1,h2:p2``."""
    url = url.strip()
    scheme, has_scheme, rest = url.partition("://")
    if not has_scheme:
        scheme, rest = "redis+sentinel", url
    if scheme not in _SENTINEL_SCHEMES:
        raise ValueError(
            f"REDIS_MODE=sentinel wants redis+sentinel://, rediss+sentinel:// or host:port,… "
            f"(got {scheme}://)"
        )
    tls = _SENTINEL_SCHEMES[scheme]
    netloc, _, path = rest.partition("/")
    path = path.split("?", 1)[0].split("#", 1)[0]
    userinfo, at, hosts = netloc.rpartition("@")
    username = password = None
    if at:
        user, colon, secret = userinfo.partition(":")
        username = unquote(user) or None
        password = unquote(secret) if colon else None
    sentinels = tuple(_host_port(item, SENTINEL_PORT) for item in hosts.split(",") if item.strip())
    if not sentinels:
        raise ValueError("REDIS_URL names no Sentinel")
    try:
        db = int(path) if path else 0
    except ValueError:
        raise ValueError(f"REDIS_URL: the database must be a number, got {path!r}") from None
    return SentinelAddress(sentinels, db, tls, username, password)


class RedisConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Everything :func:`~baohuang.store.open_store` needs to build a Redis store.

    ``wait_replicas`` ``None`` means the mode's default: 1 in ``cluster`` and ``sentinel`` (a
    failover promotes a replica, so an acknowledged write must be on one), 0 in ``standalone``.
    """

    url: str
    mode: RedisMode = "standalone"
    sentinel_service: str | None = None
    username: str | None = None
    password: str | None = None
    sentinel_username: str | None = None
    sentinel_password: str | None = None
    tls_ca_file: str | None = None
    wait_replicas: int | None = None
    wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"REDIS_MODE must be one of {', '.join(MODES)}, not {self.mode!r}")
        if not self.url.strip():
            raise ValueError(f"REDIS_MODE={self.mode} needs REDIS_URL")
        if self.wait_replicas is not None and self.wait_replicas < 0:
            raise ValueError("REDIS_WAIT_REPLICAS must be 0 or more")
        if self.wait_timeout_ms <= 0:
            raise ValueError("REDIS_WAIT_TIMEOUT_MS must be positive")
        if self.mode == "sentinel":
            if not self.sentinel_service:
                raise ValueError("REDIS_MODE=sentinel needs REDIS_SENTINEL_SERVICE")
            address = parse_sentinel_url(self.url)  # raises on a malformed URL
            tls, has_user = address.tls, bool(address.username or address.password)
        else:
            parts = urlsplit(self.url.strip())
            schemes = (
                ("redis", "rediss", "unix") if self.mode == "standalone" else ("redis", "rediss")
            )
            if parts.scheme not in schemes:
                wanted = ", ".join(f"{scheme}://" for scheme in schemes)
                raise ValueError(f"REDIS_MODE={self.mode} wants {wanted} in REDIS_URL")
            tls, has_user = parts.scheme == "rediss", bool(parts.username or parts.password)
        if has_user and (self.username or self.password):
            raise ValueError(
                "credentials are in REDIS_URL and in REDIS_USERNAME/REDIS_PASSWORD: choose one"
            )
        if self.tls_ca_file and not tls:
            raise ValueError("REDIS_TLS_CA_FILE is set but REDIS_URL does not use TLS (rediss)")

    @property
    def replicas_to_wait(self) -> int:
        """How many replicas must acknowledge each write."""
        if self.wait_replicas is not None:
            return self.wait_replicas
        return 0 if self.mode == "standalone" else 1

    def __repr__(self) -> str:  # never print the secrets
        return (
            f"RedisConfig(mode={self.mode!r}, url={redact_url(self.url)!r}, "
            f"wait_replicas={self.replicas_to_wait}, wait_timeout_ms={self.wait_timeout_ms})"
        )


def redact_url(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``, for logs and reprs."""
    scheme, sep, rest = url.partition("://")
    userinfo, at, hosts = rest.rpartition("@")
    if not at:
        return url
    user = userinfo.partition(":")[0]
    return f"{scheme}{sep}{user}:***@{hosts}" if user else f"{scheme}{sep}***@{hosts}"
