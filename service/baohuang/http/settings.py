"""Service settings, read once from the environment at start-up."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

import msgspec

from ..store.base import DEFAULT_MAX_REMEMBERED
from ..store.redis_config import DEFAULT_WAIT_TIMEOUT_MS, RedisConfig, RedisMode, redact_url
from ..tables.deals import DEFAULT_DEALS_KEPT
from .collector import DEFAULT_THRESHOLDS, parse_thresholds

MAX_BODY_BYTES = 1024 * 1024  # docs/clients.md: a body over 1 MiB is a 413 problem


class Settings(msgspec.Struct, frozen=True):
    """Everything the service reads from its environment (see README "Configuration")."""

    redis_url: str | None = None
    table_ttl_seconds: int = 86400
    api_keys: tuple[str, ...] = ()
    token_secret: str | None = None
    log_level: str = "INFO"
    max_body_bytes: int = MAX_BODY_BYTES
    redis_max_connections: int = 64
    redis_pool_timeout: float = 2.0
    stream_heartbeat_seconds: float = 15.0
    webhook_secret: str | None = None
    # Webhook deliveries (tables/webhooks.py, docs/deploy.md "Webhooks").
    webhook_allow_private: bool = False
    webhook_concurrency: int = 16
    webhook_timeout_seconds: float = 10.0
    play_page: bool = True
    bot_delay_seconds: float = 1.0  # a bot seat's pause before it moves (docs/clients.md "Bots")
    # Slow clients (http/bounds.py, docs/deploy.md "Slow clients").
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0
    keep_alive_seconds: int = 75
    max_connections: int = 2048
    max_in_flight: int = 1024
    backlog: int = 2048
    # Streams (http/stream_slots.py, docs/deploy.md "Streams"): open streams per process.
    max_streams_per_credential: int = 32
    max_streams_per_table: int = 256
    max_streams_per_address: int = 64
    stream_reserve: int = 128
    probe_port: int | None = None  # http/probes.py: /healthz, /readyz, /metrics also there
    workers: int = 1  # processes of `baohuang serve` (http/workers.py, docs/deploy.md "Workers")
    shutdown_seconds: int = 10  # a stopping process waits this long for its open requests
    # Bot suggestions (http/controllers/bots.py, docs/deploy.md "Bot suggestions").
    suggest_threads: int = 2
    suggest_per_caller: int = 2
    redis_mode: RedisMode = "standalone"
    redis_sentinel_service: str | None = None
    redis_username: str | None = None
    redis_password: str | None = None
    redis_sentinel_username: str | None = None
    redis_sentinel_password: str | None = None
    redis_tls_ca_file: str | None = None
    redis_wait_replicas: int | None = None  # None: 1 in cluster and sentinel, 0 standalone
    redis_wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS
    idempotency_keys: int = DEFAULT_MAX_REMEMBERED
    """``BAOHUANG_IDEMPOTENCY_KEYS``: remembered answers a table keeps at most."""
    deals_kept: int = DEFAULT_DEALS_KEPT
    """``BAOHUANG_DEALS_KEPT``: finished deals a table keeps a record and a result of (docs/deploy.md
    "What a table keeps")."""
    gc_thresholds: tuple[int, int, int] = DEFAULT_THRESHOLDS
    """``BAOHUANG_GC_THRESHOLDS``: the collector's thresholds in ``baohuang serve`` (http/collector.py,
    docs/deploy.md "The collector")."""

    def redis_config(self) -> RedisConfig | None:
        """How to reach Redis, or ``None`` for the in-memory store (no ``REDIS_URL``).
        Raises ``ValueError`` for settings that contradict each other (checked at start-up)."""
        if not self.redis_url or not self.redis_url.strip():
            if self.redis_mode != "standalone":
                raise ValueError(f"REDIS_MODE={self.redis_mode} needs REDIS_URL")
            return None
        return RedisConfig(
            url=self.redis_url.strip(),
            mode=self.redis_mode,
            sentinel_service=self.redis_sentinel_service,
            username=self.redis_username,
            password=self.redis_password,
            sentinel_username=self.redis_sentinel_username,
            sentinel_password=self.redis_sentinel_password,
            tls_ca_file=self.redis_tls_ca_file,
            wait_replicas=self.redis_wait_replicas,
            wait_timeout_ms=self.redis_wait_timeout_ms,
        )

    def __repr__(self) -> str:  # never print the secrets
        hidden = {
            "redis_password", "redis_sentinel_password", "token_secret", "api_keys",
            "webhook_secret",
        }  # fmt: skip
        shown = []
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if name in hidden and value:
                value = "***"
            elif name == "redis_url" and value:
                value = redact_url(value)
            shown.append(f"{name}={value!r}")
        return f"Settings({', '.join(shown)})"

    # Operations (see _operations_from_env): logs and rate limits.
    log_format: str = "json"
    access_log: bool = True
    rate_limit: str | None = None
    rate_limit_stateless: str | None = None
    rate_limit_auth_failures: str | None = None
    rate_limit_prefix: str = "baohuang:ratelimit:"
    # Browsers on these origins may call the API (CORS); empty: no CORS headers at all.
    cors_origins: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        keys = tuple(k.strip() for k in env.get("BAOHUANG_API_KEYS", "").split(",") if k.strip())
        mode = (env.get("REDIS_MODE") or "standalone").strip().lower()
        if mode not in ("standalone", "cluster", "sentinel"):
            raise ValueError(f"REDIS_MODE must be standalone, cluster or sentinel, not {mode!r}")
        wait_replicas = (env.get("REDIS_WAIT_REPLICAS") or "").strip()
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            table_ttl_seconds=int(env.get("TABLE_TTL_SECONDS") or 86400),
            api_keys=keys,
            token_secret=env.get("BAOHUANG_TOKEN_SECRET") or None,
            log_level=(env.get("LOG_LEVEL") or "INFO").upper(),
            redis_max_connections=int(env.get("REDIS_MAX_CONNECTIONS") or 64),
            redis_pool_timeout=float(env.get("REDIS_POOL_TIMEOUT") or 2.0),
            stream_heartbeat_seconds=float(env.get("BAOHUANG_STREAM_HEARTBEAT_SECONDS") or 15.0),
            webhook_secret=env.get("BAOHUANG_WEBHOOK_SECRET") or None,
            webhook_allow_private=_switch(env.get("BAOHUANG_WEBHOOK_ALLOW_PRIVATE"), default=False),
            webhook_concurrency=int(_positive(env, "BAOHUANG_WEBHOOK_CONCURRENCY", 16)),
            webhook_timeout_seconds=_positive(env, "BAOHUANG_WEBHOOK_TIMEOUT_SECONDS", 10.0),
            play_page=_switch(env.get("BAOHUANG_PLAY_PAGE"), default=True),
            bot_delay_seconds=_positive(env, "BAOHUANG_BOT_DELAY_SECONDS", 1.0),
            header_timeout_seconds=_positive(env, "BAOHUANG_HEADER_TIMEOUT_SECONDS", 10.0),
            body_timeout_seconds=_positive(env, "BAOHUANG_BODY_TIMEOUT_SECONDS", 30.0),
            keep_alive_seconds=int(_positive(env, "BAOHUANG_KEEP_ALIVE_SECONDS", 75)),
            max_connections=int(_positive(env, "BAOHUANG_MAX_CONNECTIONS", 2048)),
            max_in_flight=int(_positive(env, "BAOHUANG_MAX_IN_FLIGHT", 1024)),
            backlog=int(_positive(env, "BAOHUANG_BACKLOG", 2048)),
            max_streams_per_credential=int(
                _positive(env, "BAOHUANG_MAX_STREAMS_PER_CREDENTIAL", 32)
            ),
            max_streams_per_table=int(_positive(env, "BAOHUANG_MAX_STREAMS_PER_TABLE", 256)),
            max_streams_per_address=int(_positive(env, "BAOHUANG_MAX_STREAMS_PER_ADDRESS", 64)),
            stream_reserve=int(_positive(env, "BAOHUANG_STREAM_RESERVE", 128)),
            probe_port=int(_positive(env, "BAOHUANG_PROBE_PORT", 0)) or None,
            workers=_count(env, "BAOHUANG_WORKERS", 1),
            shutdown_seconds=_count(env, "BAOHUANG_SHUTDOWN_SECONDS", 10),
            suggest_threads=_count(env, "BAOHUANG_SUGGEST_THREADS", 2),
            suggest_per_caller=_count(env, "BAOHUANG_SUGGEST_PER_CALLER", 2),
            redis_mode=mode,  # type: ignore[arg-type]  # checked above
            redis_sentinel_service=env.get("REDIS_SENTINEL_SERVICE") or None,
            redis_username=env.get("REDIS_USERNAME") or None,
            redis_password=env.get("REDIS_PASSWORD") or None,
            redis_sentinel_username=env.get("REDIS_SENTINEL_USERNAME") or None,
            redis_sentinel_password=env.get("REDIS_SENTINEL_PASSWORD") or None,
            redis_tls_ca_file=env.get("REDIS_TLS_CA_FILE") or None,
            redis_wait_replicas=int(wait_replicas) if wait_replicas else None,
            redis_wait_timeout_ms=int(env.get("REDIS_WAIT_TIMEOUT_MS") or DEFAULT_WAIT_TIMEOUT_MS),
            idempotency_keys=int(
                _positive(env, "BAOHUANG_IDEMPOTENCY_KEYS", DEFAULT_MAX_REMEMBERED)
            ),
            deals_kept=max(1, int(_positive(env, "BAOHUANG_DEALS_KEPT", DEFAULT_DEALS_KEPT))),
            gc_thresholds=parse_thresholds(env.get("BAOHUANG_GC_THRESHOLDS")),
            **_operations_from_env(env),
        )


def _positive(env: Mapping[str, str], name: str, default: float) -> float:
    """A positive number from ``env``; a malformed or non-positive value stops the start-up."""
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a number") from None
    if not value > 0:
        raise ValueError(f"{name}={raw!r} must be positive")
    return value


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    """A positive whole number from ``env``; anything else stops the start-up."""
    value = _positive(env, name, default)
    if value != int(value):
        raise ValueError(f"{name}={env.get(name)!r} must be a whole number")
    return int(value)


def _switch(value: str | None, *, default: bool) -> bool:
    """An on/off setting: ``off``, ``false``, ``no`` or ``0`` turn it off, anything else on;
    unset or empty keeps the default."""
    if value is None or not value.strip():
        return default
    return value.strip().lower() not in _FALSE


_FALSE = frozenset({"0", "false", "no", "off"})


def _operations_from_env(env: Any) -> dict[str, Any]:
    """``LOG_FORMAT`` (json or text), ``BAOHUANG_ACCESS_LOG`` (on unless 0/false/no/off),
    ``BAOHUANG_RATE_LIMIT``, ``BAOHUANG_RATE_LIMIT_STATELESS`` and
    ``BAOHUANG_RATE_LIMIT_AUTH_FAILURES`` (``<n>/<second|minute|hour>``; unset or empty: no
    limit). Values are checked when the app is built."""
    return {
        "log_format": (env.get("LOG_FORMAT") or "json").strip().lower(),
        "access_log": (env.get("BAOHUANG_ACCESS_LOG") or "true").strip().lower() not in _FALSE,
        "rate_limit": (env.get("BAOHUANG_RATE_LIMIT") or "").strip() or None,
        "rate_limit_stateless": (env.get("BAOHUANG_RATE_LIMIT_STATELESS") or "").strip() or None,
        "rate_limit_auth_failures": (
            (env.get("BAOHUANG_RATE_LIMIT_AUTH_FAILURES") or "").strip() or None
        ),
        "cors_origins": _cors_origins(env.get("BAOHUANG_CORS_ORIGINS") or ""),
    }


def _cors_origins(raw: str) -> tuple[str, ...]:
    """``BAOHUANG_CORS_ORIGINS``: comma-separated origins (``https://app.example``, scheme and
    host and an optional port, no path), or ``*`` for any. A browser compares origins exactly,
    so an origin with a path or a trailing slash would never match: it stops the start-up."""
    origins = tuple(origin.strip() for origin in raw.split(",") if origin.strip())
    for origin in origins:
        if origin != "*" and not _ORIGIN.match(origin):
            raise ValueError(
                f"BAOHUANG_CORS_ORIGINS: {origin!r} is not an origin such as https://app.example "
                "(scheme, host, optional port; no path, no trailing slash) or *"
            )
    return origins


_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?$")
