"""How long a client may take, and how many may wait at once (docs/deploy.md "Slow clients").

A client that opens a connection and sends its request slowly, or not at all, costs the service a
file descriptor and some memory for as long as it likes, unless something bounds it. uvicorn bounds
only the idle time between two requests on one connection (its keep-alive timeout). This module
adds the rest, at the two places that can see it:

* :class:`BoundedHttpToolsProtocol` (and :class:`BoundedH11Protocol`), uvicorn's HTTP protocol
  with two more rules, under the limits :func:`configure` sets in each process. A request's headers
  must be complete within ``header_timeout`` seconds of the connection opening (or of the first
  byte of a later request on a kept-alive connection), else the connection is closed (with a 408
  when part of a request had come). And at most ``max_connections`` connections are open: one more
  closes the oldest connection that is waiting on its client (for headers, for the rest of a body,
  or idle between requests), and is itself closed only when every connection is busy being
  answered. So a flood of slow connections can neither exhaust the file descriptors nor keep a
  new request, a probe's among them, from being read. The connections of the probe port
  (``BAOHUANG_PROBE_PORT``) are counted apart, with a cap of their own: nothing the service's
  clients do can take them. The classes are importable by their dotted path, so that every
  worker of ``baohuang serve --workers N`` builds the same one (docs/deploy.md "Workers").
* :class:`RequestBounds`, an ASGI wrapper for the requests that carry a body (``POST``, ``PUT``,
  ``PATCH``). The body must arrive within ``body_timeout`` seconds of the request reaching the
  app, else 408 ``REQUEST_TIMEOUT`` (the wait is interrupted by a sweep that runs a few times a
  second, so a request costs no timer of its own). And at most ``max_in_flight`` of them are
  handled at once; one more is 503 ``OVERLOADED`` with ``Retry-After``. ``GET`` requests, the
  probes and ``/metrics`` among them, are not limited.

:func:`raise_open_files_limit` lifts the soft ``RLIMIT_NOFILE`` to the hard limit at start-up,
and :func:`connection_cap` keeps ``max_connections`` below it.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import OrderedDict
from typing import Any, NamedTuple

import msgspec
from litestar.exceptions import HTTPException
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .problems import RETRY_AFTER_SECONDS, Problem

log = logging.getLogger("baohuang.http")

# File descriptors kept for everything but client connections: the listening socket, Redis,
# logging, imports. A cap above ``soft limit - RESERVED_FDS`` is lowered to it.
RESERVED_FDS = 128


def raise_open_files_limit() -> int:
    """Lift the soft ``RLIMIT_NOFILE`` to the hard limit (a container often starts at 1,024 of a
    far larger hard limit); the soft limit in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20) if soft != resource.RLIM_INFINITY else soft
    if soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as error:  # pragma: no cover - a platform refusal
            log.warning("could not raise the open files limit from %d to %d: %s", soft, hard, error)
    return soft


def connection_cap(wanted: int, open_files: int) -> int:
    """``wanted`` connections at most, and never more than the file descriptors allow."""
    spare = open_files - RESERVED_FDS if open_files > 4 * RESERVED_FDS else open_files * 3 // 4
    return max(1, min(wanted, spare))


# --------------------------------------------------------------------------------------------
# Connections (uvicorn protocol)

_TIMED_OUT = msgspec.json.encode(
    Problem(
        408,
        "REQUEST_TIMEOUT",
        "the request's headers did not arrive in time; the connection is closed",
    ).document
)
_HEADER_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: application/problem+json\r\n"
    b"content-length: " + str(len(_TIMED_OUT)).encode() + b"\r\n"
    b"connection: close\r\n\r\n" + _TIMED_OUT
)


class Limits(NamedTuple):
    """The connection bounds of one process (:func:`configure`)."""

    header_timeout: float
    max_connections: int
    probe_port: int | None = None
    probe_connections: int = 64


class _Pool:
    """The connections of one listener (the service's port or the probe port) and its cap."""

    __slots__ = ("cap", "members", "waiting")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.members: set[Any] = set()
        # Connections waiting on their client for headers (or idle between requests), oldest first.
        self.waiting: OrderedDict[Any, None] = OrderedDict()


class _Bounds:
    """The process's limits and its two pools (set by :func:`configure`)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.service = _Pool(limits.max_connections)
        self.probes = _Pool(limits.probe_connections)


_bounds = _Bounds(Limits(10.0, 2048))


def configure(limits: Limits) -> None:
    """The bounds of the connections this process opens from now on (once, at start-up, in each
    worker; the settings decide them, so every worker has the same)."""
    global _bounds
    _bounds = _Bounds(limits)


def limits() -> Limits:
    """The bounds in force in this process."""
    return _bounds.limits


class _BoundedConnection:
    """Mixed into a uvicorn HTTP protocol class (:class:`BoundedHttpToolsProtocol`,
    :class:`BoundedH11Protocol`).

    It relies on what uvicorn's h11 and httptools protocols share: ``connection_made``,
    ``data_received``, ``connection_lost``, ``on_response_complete``, ``self.cycle`` (a new one
    per request, made once its headers are complete, with ``more_body`` and
    ``response_started``), ``self.transport`` and ``self.loop``; and on httptools'
    ``self.pipeline``.
    """

    cycle: Any
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop

    _pool: _Pool
    _header_timeout: float
    _header_timer: asyncio.TimerHandle | None
    _awaiting_headers: bool
    _partial: bool

    @property
    def waiting(self) -> OrderedDict[Any, None]:
        """The connections of this one's listener that wait on their clients, oldest first."""
        return self._pool.waiting

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        bounds = _bounds
        self._header_timeout = bounds.limits.header_timeout
        self._header_timer = None
        self._awaiting_headers = True
        self._partial = False
        probe_port = bounds.limits.probe_port
        sockname = transport.get_extra_info("sockname")
        on_probe_port = (
            probe_port is not None and isinstance(sockname, tuple) and sockname[1] == probe_port
        )
        pool = self._pool = bounds.probes if on_probe_port else bounds.service
        pool.members.add(self)
        if len(pool.members) > pool.cap and not self._evict():
            self._awaiting_headers = False
            transport.close()  # every other connection is busy: this one cannot be served now
            return
        pool.waiting[self] = None
        self._header_timer = self.loop.call_later(self._header_timeout, self._headers_timed_out)

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)  # type: ignore[misc]
        if self.cycle is not cycle:  # the headers of a request are complete
            self._headers_done()
        elif self._awaiting_headers and not self.transport.is_closing():
            self._partial = True
            if self._header_timer is None:  # the first bytes of a later request
                waiting = self._pool.waiting
                waiting.pop(self, None)
                waiting[self] = None
                self._header_timer = self.loop.call_later(
                    self._header_timeout, self._headers_timed_out
                )

    def on_response_complete(self) -> None:
        pipelined = bool(getattr(self, "pipeline", None))  # httptools queues pipelined requests
        super().on_response_complete()  # type: ignore[misc]
        if not pipelined and not self.transport.is_closing():
            self._awaiting_headers = True  # idle until the next request: uvicorn's keep-alive
            self._partial = False
            waiting = self._pool.waiting
            waiting.pop(self, None)
            waiting[self] = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._pool.waiting.pop(self, None)
        self._pool.members.discard(self)
        super().connection_lost(exc)  # type: ignore[misc]

    def _headers_done(self) -> None:
        self._awaiting_headers = False
        self._partial = False
        self._stop_header_timer()
        self._pool.waiting.pop(self, None)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_timed_out(self) -> None:
        self._header_timer = None
        if not self._awaiting_headers or self.transport.is_closing():
            return
        if self._partial:
            self.transport.write(_HEADER_TIMEOUT_RESPONSE)
        self._close()

    def _close(self) -> None:
        self._awaiting_headers = False
        self._stop_header_timer()
        self._pool.waiting.pop(self, None)
        self.transport.close()

    def _evict(self) -> bool:
        """Close the connection of this listener that has waited longest on its client;
        ``False`` if none does."""
        for victim in self._pool.waiting:
            if victim is not self:
                victim._close()
                return True
        # No connection waits for headers: the oldest one still sending a body, if any.
        for victim in self._pool.members:
            cycle = getattr(victim, "cycle", None)
            if (
                victim is not self
                and cycle is not None
                and cycle.more_body
                and not cycle.response_started
                and not victim.transport.is_closing()
            ):
                victim.transport.close()
                return True
        return False


class BoundedHttpToolsProtocol(_BoundedConnection, HttpToolsProtocol):
    """uvicorn's httptools protocol under the process's bounds: what ``baohuang serve`` runs."""


class BoundedH11Protocol(_BoundedConnection, H11Protocol):
    """uvicorn's h11 protocol under the same bounds (for a platform without httptools)."""


# --------------------------------------------------------------------------------------------
# Requests (ASGI)


class BodyTimeout(HTTPException):
    """The body did not arrive in time (408; :class:`RequestBounds`)."""

    status_code = 408


_OVERLOADED = Problem(
    503,
    "OVERLOADED",
    "this process is handling as many requests as it takes at once; retry shortly",
    headers={"Retry-After": RETRY_AFTER_SECONDS},
)


class _Deadlines:
    """The requests now waiting for body bytes, and a sweep that interrupts the late ones.

    Time is counted in sweeps (``tick``), so that a request reads an integer rather than the
    clock; a deadline is therefore met to within one ``interval``.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.interval = min(1.0, max(0.05, timeout / 10))
        self.ticks = max(1, round(timeout / self.interval))
        self.tick = 0
        self.waiting: dict[asyncio.Task[Any], int] = {}
        self.expired: set[asyncio.Task[Any]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        loop.call_later(self.interval, self._sweep, loop)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.loop is not loop or loop.is_closed():
            return
        self.tick += 1
        for task, deadline in list(self.waiting.items()):
            if deadline <= self.tick and task not in self.expired:
                self.expired.add(task)
                task.cancel()
        loop.call_later(self.interval, self._sweep, loop)


class _BoundedReceive:
    """``receive`` with a deadline until the last body message (then plain: it may wait for
    ``http.disconnect`` as long as the response lasts)."""

    __slots__ = ("deadline", "deadlines", "done", "receive")

    def __init__(self, receive: Any, deadlines: _Deadlines) -> None:
        self.receive = receive
        self.deadline = deadlines.tick + deadlines.ticks + 1  # the sweep in progress is partial
        self.deadlines = deadlines
        self.done = False

    async def __call__(self) -> Any:
        if self.done:
            return await self.receive()
        task = asyncio.current_task()
        assert task is not None
        deadlines = self.deadlines
        deadlines.waiting[task] = self.deadline
        try:
            message = await self.receive()
        except asyncio.CancelledError:
            if task not in deadlines.expired:
                raise
            deadlines.expired.discard(task)
            if task.uncancel() > 0:  # cancelled for another reason as well
                raise
            self.done = True
            raise BodyTimeout(
                detail=f"the request body did not arrive within {deadlines.timeout:g} seconds",
                headers={"Connection": "close"},
            ) from None
        finally:
            deadlines.waiting.pop(task, None)
        if message["type"] != "http.request" or not message.get("more_body", False):
            self.done = True
        return message


_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})  # the methods whose routes read a body


class RequestBounds:
    """ASGI wrapper: the body deadline and the in-flight limit (see the module docstring).

    Both apply to the requests that carry a body (``POST``, ``PUT``, ``PATCH``): they are the ones
    a client can stall by sending slowly, and the ones that make the referee work. ``GET``
    requests, the probes and ``/metrics`` among them, pass straight through.
    """

    def __init__(self, app: Any, body_timeout: float, max_in_flight: int) -> None:
        self.app = app
        self.max_in_flight = max_in_flight
        self.in_flight = 0
        self.deadlines = _Deadlines(body_timeout)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] not in _WITH_BODY:
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.max_in_flight:
            start, body = _OVERLOADED.asgi_messages(scope)
            await send(start)
            await send(body)
            return
        deadlines = self.deadlines
        loop = asyncio.get_running_loop()
        if deadlines.loop is not loop:
            deadlines.start(loop)
        self.in_flight += 1
        try:
            await self.app(scope, _BoundedReceive(receive, deadlines), send)
        finally:
            self.in_flight -= 1
