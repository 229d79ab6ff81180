"""Rate limits per credential, counted in Redis so that every replica spends one budget.

Three limits, each off unless set (``<n>/<second|minute|hour>``):

* ``BAOHUANG_RATE_LIMIT``: the ``/v1/tables`` routes, per platform key and per seat or spectator
  token;
* ``BAOHUANG_RATE_LIMIT_STATELESS``: every other ``/v1/`` route, per platform key;
* ``BAOHUANG_RATE_LIMIT_AUTH_FAILURES``: requests to the ``/v1/tables`` routes that will be
  refused 401 (no credential where keys are configured, a malformed header, a bearer that is
  neither a key nor a token of the table), per client address.

Only a **verified** credential has a bucket of its own: a known platform key, or on a table route
a token whose signature checks for that table (of any instance: only a holder of a real token has
one). Any other request counts against its client address, whatever bearer it sends, so that a
client cannot get a fresh budget, nor leave a Redis key, per invented credential. The address is
the socket's peer, or ``X-Forwarded-For`` when the peer is one of the proxies uvicorn's
``FORWARDED_ALLOW_IPS`` names (docs/deploy.md "Client addresses behind a proxy").

``/healthz``, ``/readyz``, ``/metrics`` and ``/schema`` are never limited (nor is any path
outside ``/v1/``). A credential is never stored: the Redis key is
``<prefix><limit>:<BLAKE2b-128 of the credential or address>``.

**Algorithm**: a token bucket in GCRA form (one number per caller: the time at which its bucket
is full again). ``600/minute`` lets a caller send up to 600 requests at once and refills one every
0.1 s, so the sustained rate is at most 600 a minute. In Redis it is one Lua script on one key
that reads the clock with ``TIME``: replicas with skewed clocks agree, no two replicas can both
spend the last request, and the key works on Redis Cluster. Without ``REDIS_URL`` the same bucket
is kept in the process.

**Answers**: a refused request is a 429 ``RATE_LIMITED`` problem with ``Retry-After`` (seconds
until one more request is allowed); every answer of a limited route carries the RateLimit header
fields of draft-ietf-httpapi-ratelimit-headers-06: ``RateLimit-Limit`` (n),
``RateLimit-Remaining`` (requests that may be sent now), ``RateLimit-Reset`` (seconds until the
whole budget is back) and ``RateLimit-Policy`` (``n;w=<window seconds>``).

**Redis down**: a rate limit protects the service, it is not a record of truth, so it must not
turn a Redis outage into an outage of the stateless routes. When Redis fails or is slow (250 ms),
the process counts in memory for a second and tries Redis again (each replica then has the whole
budget to itself); ``baohuang_rate_limit_fallback_total`` counts those decisions.

Why not Litestar's ``RateLimitMiddleware`` over a ``RedisStore``: it reads the caller's history,
appends to it and writes it back under a lock that exists in one process only, so two replicas
racing both spend the same request; it stores one timestamp per request (600 of them for
``600/minute``) and sends no ``Retry-After``.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Final, NamedTuple

from litestar import Litestar
from litestar.middleware import DefineMiddleware
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from .metrics import RATE_LIMIT_FALLBACKS, RATE_LIMITED
from .problems import rate_limited_problem

__all__ = ["Rate", "RateLimits", "parse_rate"]

log = logging.getLogger("baohuang.http")

UNITS: Final = {"second": 1, "minute": 60, "hour": 3600}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(second|minute|hour)s?\s*$", re.I)

TABLES: Final = "tables"
STATELESS: Final = "stateless"
AUTH_FAILURES: Final = "auth_failures"
TABLES_ROUTES: Final = "/v1/tables"
LIMITED_ROUTES: Final = "/v1/"

SOCKET_TIMEOUT_SECONDS: Final = 0.25
CONNECTIONS: Final = 32
FALLBACK_SECONDS: Final = 1.0
TOLERANCE: Final = 1e-6
"""Seconds: ``n`` intervals of ``window / n`` may add up to a hair over the window in floats."""
MEMORY_SWEEP_AT: Final = 10_000
"""Buckets kept in memory before the full ones (nothing spent) are first dropped; after a sweep
the next one waits until the buckets have doubled (:class:`MemoryBuckets`)."""


class Rate(NamedTuple):
    """``limit`` requests per ``window`` seconds, for the limit named ``name``."""

    name: str
    limit: int
    window: int

    @property
    def interval(self) -> float:
        """Seconds for one request to come back into the bucket."""
        return self.window / self.limit

    @property
    def policy(self) -> str:
        return f"{self.limit};w={self.window}"


def parse_rate(name: str, text: str, variable: str) -> Rate:
    """``"600/minute"`` → ``Rate(name, 600, 60)``; anything else is a start-up error."""
    match = _RATE.match(text)
    if not match or int(match.group(1)) <= 0:
        raise ValueError(
            f"{variable}={text!r}: expected <n>/<second|minute|hour> with n ≥ 1, e.g. 600/minute"
        )
    return Rate(name, int(match.group(1)), UNITS[match.group(2).lower()])


class Decision(NamedTuple):
    allowed: bool
    remaining: int
    reset: float
    """Seconds until the whole budget is back."""
    retry_after: float
    """Seconds until one more request is allowed (0 when allowed)."""


def _decide(rate: Rate, allowed: bool, ahead: float) -> Decision:
    """From the bucket's state after the request: ``ahead`` = full-again time − now (s)."""
    if allowed:
        remaining = int((rate.window - ahead) / rate.interval + 1e-9)
        return Decision(True, max(remaining, 0), ahead, 0.0)
    return Decision(False, 0, ahead, max(ahead + rate.interval - rate.window, 0.0))


class MemoryBuckets:
    """The bucket of each caller in this process (``time.monotonic``).

    A new caller arriving when :attr:`_sweep_at` buckets are kept first drops the full ones.
    The next sweep waits until the buckets have doubled since (at least :data:`MEMORY_SWEEP_AT`):
    were it at a fixed size, callers that are all still refilling would make every new caller
    scan them all again, so a client inventing keys would pay O(n) per request; doubling makes
    the scans amortised O(1) a request.
    """

    def __init__(self) -> None:
        self._full_at: dict[str, float] = {}
        self._sweep_at = MEMORY_SWEEP_AT

    def take(self, key: str, rate: Rate) -> Decision:
        now = time.monotonic()
        full_at = max(self._full_at.get(key, now), now)
        after = full_at + rate.interval
        if after - now > rate.window + TOLERANCE:
            return _decide(rate, False, full_at - now)
        if len(self._full_at) >= self._sweep_at and key not in self._full_at:
            self._sweep(now)
        self._full_at[key] = after
        return _decide(rate, True, after - now)

    def _sweep(self, now: float) -> None:
        self._full_at = {k: t for k, t in self._full_at.items() if t > now}
        self._sweep_at = max(MEMORY_SWEEP_AT, 2 * len(self._full_at))


# KEYS[1] the caller's bucket; ARGV[1] interval (µs), ARGV[2] window (µs).
# Returns {1 allowed | 0 refused, full-again time − now in µs (after the request when allowed)}.
_TAKE_LUA: Final = """
if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local full_at = tonumber(redis.call('GET', KEYS[1]) or '0')
if full_at < now then full_at = now end
local after = full_at + interval
if after - now > window + 1 then  -- 1 µs: n intervals may sum to a hair over the window
  return {0, math.floor(full_at - now)}
end
redis.call('SET', KEYS[1], string.format('%.0f', after), 'PX', math.ceil((after - now) / 1000))
return {1, math.floor(after - now)}
"""


class RedisBuckets:
    """The buckets in Redis (module docstring): one ``EVALSHA`` per request."""

    def __init__(self, url: str) -> None:
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=CONNECTIONS,
            timeout=SOCKET_TIMEOUT_SECONDS,
            socket_timeout=SOCKET_TIMEOUT_SECONDS,
            socket_connect_timeout=SOCKET_TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 0),  # a retried script could spend a request twice
            health_check_interval=30,
            client_name="baohuang-rules-ratelimit",
        )
        self._redis = Redis.from_pool(pool)
        self._take = self._redis.register_script(_TAKE_LUA)

    async def take(self, key: str, rate: Rate) -> Decision:
        interval_us = 1_000_000 * rate.interval
        allowed, ahead_us = await self._take(
            keys=[key], args=[repr(interval_us), 1_000_000 * rate.window]
        )
        return _decide(rate, bool(allowed), int(ahead_us) / 1_000_000)

    async def close(self) -> None:
        await self._redis.aclose()


Verify = Callable[[str, str | None], bool]
"""Whether a bearer credential is a platform key, or a token of the table id given (``None``
off the table routes), as :meth:`baohuang.tables.Authority.verifies` answers."""


def _bearer(scope: Any) -> tuple[bool, str | None]:
    """Whether an ``Authorization`` header was sent, and its bearer credential when it is a
    well-formed one (as :func:`.auth.bearer` reads it)."""
    name: bytes
    value: bytes
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, credential = value.partition(b" ")
            credential = credential.strip()
            if scheme.lower() == b"bearer" and credential:
                return True, credential.decode("latin-1")
            return True, None
    return False, None


def _address(scope: Any) -> bytes:
    client = scope.get("client")
    return b"address\x00" + (client[0] if client else "").encode()


def verified_caller(scope: Any, verify: Verify, table_id: str | None = None) -> bytes:
    """Who a request counts as: its bearer credential when ``verify`` accepts it (for
    ``table_id``), else its client address, so an invented bearer gets no count of its own."""
    _, credential = _bearer(scope)
    if credential is not None and verify(credential, table_id):
        return _CREDENTIAL + credential.encode("latin-1")
    return _address(scope)


_CREDENTIAL: Final = b"credential\x00"


class Who(NamedTuple):
    caller: bytes
    """The bucket's owner: a verified credential, else the client address (hashed later)."""
    failing: bool
    """A table route's request that authentication will refuse (401)."""


def _whole_seconds(seconds: float) -> int:
    """``seconds`` rounded up, less the float noise of a clock's subtraction: a bucket full
    again in 20 s (``(now + 20) - now``, 20.000000000003) says 20, not 21."""
    return math.ceil(seconds - TOLERANCE)


def _headers(rate: Rate, decision: Decision) -> list[tuple[bytes, bytes]]:
    return [
        (b"ratelimit-limit", str(rate.limit).encode()),
        (b"ratelimit-remaining", str(decision.remaining).encode()),
        (b"ratelimit-reset", str(_whole_seconds(decision.reset)).encode()),
        (b"ratelimit-policy", rate.policy.encode()),
    ]


class RateLimits:
    """Both limits, their buckets and the middleware that applies them."""

    def __init__(
        self,
        tables: Rate | None,
        stateless: Rate | None,
        redis_url: str | None,
        prefix: str,
        verify: Verify,
        open_routes: bool = False,
        auth_failures: Rate | None = None,
    ) -> None:
        self.tables = tables
        self.stateless = stateless
        self.auth_failures = auth_failures
        self._verify = verify
        self._open = open_routes  # no platform keys: a table request without credential passes
        self._redis_url = redis_url
        self._prefix = prefix
        self._redis: RedisBuckets | None = None
        self._memory = MemoryBuckets()
        self._redis_down_until = 0.0
        self._degraded = False
        rates = [r for r in (tables, stateless, auth_failures) if r]
        self._refused = {r.name: RATE_LIMITED.labels(r.name) for r in rates}
        self._fallbacks = {r.name: RATE_LIMIT_FALLBACKS.labels(r.name) for r in rates}

    @classmethod
    def from_settings(
        cls, settings: Any, verify: Verify, open_routes: bool = False
    ) -> RateLimits | None:
        """``None`` when no limit is set (then nothing is added to the app)."""
        tables = stateless = failures = None
        if settings.rate_limit:
            tables = parse_rate(TABLES, settings.rate_limit, "BAOHUANG_RATE_LIMIT")
        if settings.rate_limit_stateless:
            stateless = parse_rate(
                STATELESS, settings.rate_limit_stateless, "BAOHUANG_RATE_LIMIT_STATELESS"
            )
        if settings.rate_limit_auth_failures:
            failures = parse_rate(
                AUTH_FAILURES,
                settings.rate_limit_auth_failures,
                "BAOHUANG_RATE_LIMIT_AUTH_FAILURES",
            )
        if tables is None and stateless is None and failures is None:
            return None
        return cls(
            tables,
            stateless,
            settings.redis_url,
            settings.rate_limit_prefix,
            verify,
            open_routes,
            failures,
        )

    @property
    def middleware(self) -> DefineMiddleware:
        return DefineMiddleware(RateLimitMiddleware, limits=self)

    @asynccontextmanager
    async def lifespan(self, app: Litestar) -> AsyncIterator[None]:
        """One Redis client per process (no I/O until the first request), closed on exit."""
        if self._redis_url and self._redis_url.strip():
            self._redis = RedisBuckets(self._redis_url.strip())
        try:
            yield
        finally:
            if self._redis is not None:
                await self._redis.close()
                self._redis = None

    def rate_for(self, route: str) -> Rate | None:
        if route.startswith(TABLES_ROUTES):
            return self.tables
        if route.startswith(LIMITED_ROUTES):
            return self.stateless
        return None

    def key(self, rate: Rate, caller: bytes) -> str:
        return f"{self._prefix}{rate.name}:{hashlib.blake2b(caller, digest_size=16).hexdigest()}"

    async def take(self, rate: Rate, caller: bytes) -> Decision:
        key = self.key(rate, caller)
        redis = self._redis
        if redis is None:
            return self._memory.take(key, rate)
        if time.monotonic() >= self._redis_down_until:
            try:
                decision = await redis.take(key, rate)
            except (RedisError, OSError) as error:  # outage, timeout, no connection free
                if not self._degraded:
                    log.warning("rate limits counted per process for now: Redis failed (%s)", error)
                    self._degraded = True
                self._redis_down_until = time.monotonic() + FALLBACK_SECONDS
            else:
                if self._degraded:
                    log.warning("rate limits counted in Redis again")
                    self._degraded = False
                return decision
        self._fallbacks[rate.name].inc()
        return self._memory.take(key, rate)

    def who(self, scope: Any, route: str) -> Who:
        """Whose budget the request spends, and whether it will fail authentication."""
        sent, credential = _bearer(scope)
        table_route = route.startswith(TABLES_ROUTES)
        table_id = scope.get("path_params", {}).get("table_id") if table_route else None
        if credential is not None and self._verify(credential, table_id):
            return Who(_CREDENTIAL + credential.encode("latin-1"), False)
        return Who(_address(scope), table_route and (sent or not self._open))

    async def check(self, rate: Rate, caller: bytes) -> list[tuple[bytes, bytes]]:
        """The RateLimit headers for an allowed request; raises the 429 problem otherwise."""
        decision = await self.take(rate, caller)
        if decision.allowed:
            return _headers(rate, decision)
        self._refused[rate.name].inc()
        headers = {k.decode(): v.decode() for k, v in _headers(rate, decision)}
        headers["retry-after"] = str(max(1, _whole_seconds(decision.retry_after)))
        raise rate_limited_problem(headers, failed_auth=rate.name == AUTH_FAILURES)

    async def apply(self, scope: Any, route: str) -> list[tuple[bytes, bytes]]:
        """Every limit that applies to the request, failed authentications first: the RateLimit
        headers of the route's limit, or the 429 problem raised."""
        rate = self.rate_for(route)
        if rate is None and (self.auth_failures is None or not route.startswith(TABLES_ROUTES)):
            return []  # nothing to count (failed authentications are the table routes')
        who = self.who(scope, route)
        if who.failing and self.auth_failures is not None:
            await self.check(self.auth_failures, who.caller)
        return await self.check(rate, who.caller) if rate is not None else []


class RateLimitMiddleware:
    """Applies :class:`RateLimits` after routing (the route template picks the limit)."""

    def __init__(self, app: Callable[..., Any], limits: RateLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        route = (scope.get("path_template") or "") if scope["type"] == "http" else ""
        extra = await self.limits.apply(scope, route) if route.startswith(LIMITED_ROUTES) else []
        if not extra:
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)
