"""Service settings, read once from the environment at start-up."""

from __future__ import annotations

import os
from typing import Any

import msgspec

MAX_BODY_BYTES = 1024 * 1024  # API.md: a body over 1 MiB is a 413 problem


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
    # Operations (see _operations_from_env): logs and rate limits.
    log_format: str = "json"
    access_log: bool = True
    rate_limit: str | None = None
    rate_limit_stateless: str | None = None
    rate_limit_prefix: str = "baohuang:ratelimit:"

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        keys = tuple(k.strip() for k in env.get("BAOHUANG_API_KEYS", "").split(",") if k.strip())
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            table_ttl_seconds=int(env.get("TABLE_TTL_SECONDS") or 86400),
            api_keys=keys,
            token_secret=env.get("BAOHUANG_TOKEN_SECRET") or None,
            log_level=(env.get("LOG_LEVEL") or "INFO").upper(),
            redis_max_connections=int(env.get("REDIS_MAX_CONNECTIONS") or 64),
            redis_pool_timeout=float(env.get("REDIS_POOL_TIMEOUT") or 2.0),
            **_operations_from_env(env),
        )


_FALSE = frozenset({"0", "false", "no", "off"})


def _operations_from_env(env: Any) -> dict[str, Any]:
    """``LOG_FORMAT`` (json or text), ``BAOHUANG_ACCESS_LOG`` (on unless 0/false/no/off),
    ``BAOHUANG_RATE_LIMIT`` and ``BAOHUANG_RATE_LIMIT_STATELESS`` (``<n>/<second|minute|hour>``;
    unset or empty: no limit). Values are checked when the app is built."""
    return {
        "log_format": (env.get("LOG_FORMAT") or "json").strip().lower(),
        "access_log": (env.get("BAOHUANG_ACCESS_LOG") or "true").strip().lower() not in _FALSE,
        "rate_limit": (env.get("BAOHUANG_RATE_LIMIT") or "").strip() or None,
        "rate_limit_stateless": (env.get("BAOHUANG_RATE_LIMIT_STATELESS") or "").strip() or None,
    }
