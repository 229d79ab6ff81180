"""Prometheus metrics: engine time per operation, HTTP requests by route template, verdicts.

A lean ASGI wrapper over prometheus-client with pre-bound label children (a dict lookup and two
observations per request). bench/RESULTS.md records why this and not Litestar's Prometheus plugin.
The same wrapper gives each request its id and writes its access line (:mod:`.access`), so a
request pays for one wrapper, one clock pair and one ``send`` closure for all three.
With one worker, the process exposes its own registry. With ``baohuang serve --workers N`` each
worker writes its values to files in ``PROMETHEUS_MULTIPROC_DIR`` (a directory of the parent's,
http/workers.py) and ``/metrics`` from any worker adds every worker's up (prometheus-client's
multiprocess mode): counters and histograms are summed, gauges too over the live workers, and
``baohuang_worker_requests`` has one series per live worker (``pid``).
"""

from __future__ import annotations

import os
import re
from collections import Counter as Tally
from collections.abc import Callable, Iterable
from pathlib import Path
from time import perf_counter, time
from typing import Any, Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)

from ..logs import MAX_QUEUED, AccessLine
from ..store import OPERATIONS
from .access import (
    ACCESS_LOGGER,
    REQUEST_ID_HEADER,
    REQUEST_ID_SCOPE_KEY,
    AccessLog,
    request_id_from,
)

disable_created_metrics()  # type: ignore[no-untyped-call]  # the *_created series double the exposition and nobody graphs them

ENGINE_BUCKETS = (
    1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4,
    1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1,
)  # fmt: skip
HTTP_BUCKETS = (1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1, 0.25, 0.5, 1.0)

ENGINE_OPERATIONS = (
    "classify", "compare", "batch", "resolve", "validate", "legal", "auto", "replay", "scores",
    "deal", "tribute", "table_move",
)  # fmt: skip

_engine_seconds = Histogram(
    "baohuang_engine_seconds",
    "Time spent in the rules engine per request (no HTTP, no JSON), by operation.",
    ["operation"],
    buckets=ENGINE_BUCKETS,
)
ENGINE_SECONDS = {op: _engine_seconds.labels(op) for op in ENGINE_OPERATIONS}

_verdicts = Counter(
    "baohuang_verdicts_total",
    "Verdicts given, by operation and reason code (OK for a yes).",
    ["operation", "code"],
)
_http_requests = Counter(
    "baohuang_http_requests_total",
    "HTTP requests by method, route template and status.",
    ["method", "route", "status"],
)
_http_seconds = Histogram(
    "baohuang_http_request_duration_seconds",
    "HTTP request latency by method, route template and status.",
    ["method", "route", "status"],
    buckets=HTTP_BUCKETS,
)
STORE_SECONDS = Histogram(
    "baohuang_store_seconds",
    "Live table store latency by operation and outcome (ok, conflict, missing, unavailable).",
    ["operation", "outcome"],
    buckets=ENGINE_BUCKETS,
)


STORE_OVERLOADED = Counter(
    "baohuang_store_overloaded_total",
    "Table operations refused with 503 OVERLOADED: no Redis connection came free in time "
    "(load on this process, not a Redis outage), by operation.",
    ["operation"],
)
for _operation in OPERATIONS:  # a zero series from the start: dashboards and alerts see rate 0
    STORE_OVERLOADED.labels(_operation)

RATE_LIMITED = Counter(
    "baohuang_rate_limited_total",
    "Requests refused with 429 RATE_LIMITED, by limit (tables: BAOHUANG_RATE_LIMIT, stateless: "
    "BAOHUANG_RATE_LIMIT_STATELESS, auth_failures: BAOHUANG_RATE_LIMIT_AUTH_FAILURES).",
    ["limit"],
)
RATE_LIMIT_FALLBACKS = Counter(
    "baohuang_rate_limit_fallback_total",
    "Rate-limit decisions counted in this process because Redis failed (each replica then has "
    "the whole budget), by limit.",
    ["limit"],
)

REDIS_REPLICAS_UNCONFIRMED = Gauge(
    "baohuang_redis_replicas_unconfirmed",
    "Replicas a failover could promote that REDIS_WAIT_REPLICAS does not wait for: the replicas "
    "Redis reports less REDIS_WAIT_REPLICAS, at least 0. Above 0, a failover of a primary that is "
    "still up can lose moves answered 200 (docs/deploy.md). No series until they were counted.",
    ["mode"],
    multiprocess_mode="livemax",  # every worker counts the same replicas: one value a pod
)

_store_children: dict[tuple[str, str], Any] = {}


def observe_store(operation: str, outcome: str, seconds: float) -> None:
    """The store's ``observe`` hook (two calls per table move: bound children, no lookup)."""
    child = _store_children.get((operation, outcome))
    if child is None:
        child = _store_children[(operation, outcome)] = STORE_SECONDS.labels(operation, outcome)
    child.observe(seconds)
    if outcome == "overloaded":
        STORE_OVERLOADED.labels(operation).inc()


STREAM_FOLLOWERS = Gauge(
    "baohuang_stream_followers",
    "Table streams (SSE and NDJSON) this process is serving now.",
    multiprocess_mode="livesum",  # several workers: the pod's, summed over its live workers
)


STREAMS_OPEN = Gauge(
    "baohuang_streams_open",
    "Table streams open in this process, by caller kind (platform, seat, spectator).",
    ["caller"],
    multiprocess_mode="livesum",
)
STREAMS_REFUSED = Counter(
    "baohuang_streams_refused_total",
    "Table streams refused before they started, by limit (credential, table, address: 429 "
    "TOO_MANY_STREAMS; process: 503 OVERLOADED, the connection reserve reached).",
    ["limit"],
)


# Each kind and limit is charted from 0, not from its first stream or refusal.
for _kind in ("platform", "seat", "spectator"):
    STREAMS_OPEN.labels(_kind)
for _limit in ("credential", "table", "address", "process"):
    STREAMS_REFUSED.labels(_limit)


def observe_streams(kind: str, count: int) -> None:
    """How many streams callers of ``kind`` hold open in this process now."""
    STREAMS_OPEN.labels(kind).set(count)


def count_stream_refusal(limit: str) -> None:
    STREAMS_REFUSED.labels(limit).inc()


SUGGESTIONS_REFUSED = Counter(
    "baohuang_suggestions_refused_total",
    "Search-level bot suggestions refused with 429 TOO_MANY_SUGGESTIONS: their caller had "
    "BAOHUANG_SUGGEST_PER_CALLER in flight.",
)


TIMEOUTS = Counter(
    "baohuang_timeouts_total",
    "Turns whose clock ran out and that 托管 played (T-11), applied by this process.",
)


WEBHOOK_DELIVERIES = Counter(
    "baohuang_webhook_deliveries_total",
    "Webhook deliveries by outcome: ok (2xx), refused (another status), failed (no answer).",
    ["outcome"],
)
WEBHOOK_LAG = Histogram(
    "baohuang_webhook_delivery_lag_seconds",
    "Seconds from an event's commit to its successful webhook delivery.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600),
)


for _outcome in ("ok", "refused", "failed"):  # exported from the start, for dashboards
    WEBHOOK_DELIVERIES.labels(_outcome)


def observe_delivery(outcome: str, lag: float | None) -> None:
    """The webhook dispatcher's hook."""
    WEBHOOK_DELIVERIES.labels(outcome).inc()
    if lag is not None:
        WEBHOOK_LAG.observe(max(lag, 0.0))


def count_timeout() -> None:
    """The table service's hook: one timeout applied."""
    TIMEOUTS.inc()


def observe_followers(count: int) -> None:
    """The table feed's hook: how many streams follow tables in this process."""
    STREAM_FOLLOWERS.set(count)


_TABLE_MOVE_TIME = ENGINE_SECONDS["table_move"]


def observe_table_move(code: str | None, seconds: float) -> None:
    """The table service's hook: one judged table move (its verdict and its engine time)."""
    _TABLE_MOVE_TIME.observe(seconds)
    count_verdict("table_move", code)


_verdict_children: dict[tuple[str, str | None], Any] = {}


def count_verdict(operation: str, code: str | None, amount: int = 1) -> None:
    """One verdict of ``operation``; label children are bound once (codes are a fixed set)."""
    child = _verdict_children.get((operation, code))
    if child is None:
        child = _verdict_children[(operation, code)] = _verdicts.labels(operation, code or "OK")
    child.inc(amount)


def count_verdicts(operation: str, codes: Iterable[str | None]) -> None:
    """Count many verdicts with one increment per distinct code (batches hold 10,000)."""
    for code, amount in Tally(codes).items():
        count_verdict(operation, code, amount)


WORKER_REQUESTS = Gauge(
    "baohuang_worker_requests",
    "HTTP requests this worker has answered since it started, updated every second (with "
    "several workers one series per live worker, labelled pid: how evenly they share the load).",
    multiprocess_mode="liveall",
)
WORKER_SECONDS: Final = 1.0
"""How often a worker publishes its request count (:func:`publish_requests`)."""

_MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None
_LIVE_FILE = re.compile(r"^gauge_live[a-z]*_(\d+)\.db$")


def _registry() -> CollectorRegistry:
    """What ``/metrics`` shows: this process's registry, or with several workers all of theirs."""
    if _MULTIPROC_DIR is None:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=_MULTIPROC_DIR)  # type: ignore[no-untyped-call]
    return registry


_EXPOSED = _registry()


def _forget_dead_workers(directory: str) -> None:
    """The live gauges of workers that are gone (killed, crashed, restarted) no longer count.
    Their counters and histograms stay: what they counted happened."""
    for entry in Path(directory).iterdir():
        match = _LIVE_FILE.match(entry.name)
        if match is None:
            continue
        pid = int(match.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
        except PermissionError:  # alive, someone else's: not a worker of ours, left alone
            pass


def exposition() -> tuple[bytes, str]:
    if _MULTIPROC_DIR is not None:
        _forget_dead_workers(_MULTIPROC_DIR)
    return generate_latest(_EXPOSED), CONTENT_TYPE_LATEST


def publish_requests(metrics: HttpMetrics) -> None:
    """This worker's request count into :data:`WORKER_REQUESTS` (the lifespan, every second)."""
    WORKER_REQUESTS.set(metrics.answered)


_KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
Bound = tuple[Any, Any]


class HttpMetrics:
    """ASGI wrapper: counts and times every HTTP request by route template and status, gives it
    a request id (``X-Request-ID`` in, ``X-Request-ID`` out, kept in the scope for problem
    documents) and, with ``access``, writes its access line.

    It wraps Litestar's own handler (inside the app, after routing fills ``path_template``), so
    unrouted requests are counted as ``route="unmatched"`` without exploding label cardinality.
    """

    def __init__(self, app: Callable[..., Any], access: AccessLog | None = None) -> None:
        self.app = app
        self.access = access if access is not None and access.records else None
        self.writer = access.writer if access is not None else None
        self._bound: dict[tuple[str, str, int], Bound] = {}
        self.answered = 0

    def _children(self, method: str, route: str, status: int) -> Bound:
        key = (method, route, status)
        bound = self._bound.get(key)
        if bound is None:
            labels = (method, route, str(status))
            bound = (_http_requests.labels(*labels), _http_seconds.labels(*labels))
            self._bound[key] = bound
        return bound

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = perf_counter()
        status = 500
        request_id = scope[REQUEST_ID_SCOPE_KEY] = request_id_from(scope["headers"])
        id_header = (REQUEST_ID_HEADER, request_id.encode("ascii"))

        async def send_and_note(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), id_header]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            elapsed = perf_counter() - start
            method = scope["method"] if scope["method"] in _KNOWN_METHODS else "OTHER"
            route = scope.get("path_template") or "unmatched"
            counter, histogram = self._children(method, route, status)
            counter.inc()
            histogram.observe(elapsed)
            self.answered += 1
            writer = self.writer
            if writer is not None:  # the service's own log writer: two C calls, no frame
                if writer.backlog() < MAX_QUEUED:
                    writer.enqueue(
                        AccessLine(
                            time(),
                            "INFO",
                            ACCESS_LOGGER,
                            "request",
                            method,
                            route,
                            status,
                            int(elapsed * 1_000_000) / 1000,  # ms to the µs
                            request_id,
                        )
                    )
                else:
                    writer.dropped += 1
            elif self.access is not None:
                self.access(method, route, status, elapsed, request_id)
