"""Service settings, read once from the environment at start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping

import msgspec

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
    # Slow clients (http/bounds.py, docs/deploy.md "Slow clients").
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0
    keep_alive_seconds: int = 75
    max_connections: int = 2048
    max_in_flight: int = 1024
    backlog: int = 2048

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
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
            stream_heartbeat_seconds=float(env.get("BAOHUANG_STREAM_HEARTBEAT_SECONDS") or 15.0),
            header_timeout_seconds=_positive(env, "BAOHUANG_HEADER_TIMEOUT_SECONDS", 10.0),
            body_timeout_seconds=_positive(env, "BAOHUANG_BODY_TIMEOUT_SECONDS", 30.0),
            keep_alive_seconds=int(_positive(env, "BAOHUANG_KEEP_ALIVE_SECONDS", 75)),
            max_connections=int(_positive(env, "BAOHUANG_MAX_CONNECTIONS", 2048)),
            max_in_flight=int(_positive(env, "BAOHUANG_MAX_IN_FLIGHT", 1024)),
            backlog=int(_positive(env, "BAOHUANG_BACKLOG", 2048)),
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
