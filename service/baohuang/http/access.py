"""Request ids and the access log: one line per request on the ``baohuang.access`` logger.

A line holds the method, the route *template* (``/v1/tables/{table_id:str}/moves``, never the
path a client sent; ``unmatched`` when no route matched), the status, the duration in ms and the
request id: never a header value other than the id, a token, a key, a body or a hand.

The request id is the client's ``X-Request-ID`` when it is 1–128 characters a URI path segment
may hold unescaped (letters, digits and ``-._~!$&'()*+,;=:@/``; so it is safe in a log line, a
header and a URN), else a new uuid4 in hex. It goes back in the ``X-Request-ID`` response header
and in every problem document as ``instance`` (``urn:request:<id>``). Both are done by
:class:`.metrics.HttpMetrics`, the one wrapper every request already passes through.
"""

from __future__ import annotations

import logging
import os
import string
from collections.abc import Iterable
from typing import Final

from ..logs import LineWriter

__all__ = [
    "ACCESS_LOGGER",
    "MAX_REQUEST_ID_LENGTH",
    "REQUEST_ID_HEADER",
    "REQUEST_ID_SCOPE_KEY",
    "AccessLog",
    "milliseconds",
    "new_request_id",
    "request_id_from",
]

ACCESS_LOGGER: Final = "baohuang.access"
REQUEST_ID_HEADER: Final = b"x-request-id"
REQUEST_ID_SCOPE_KEY: Final = "baohuang.request_id"
"""Where the request's id lives in the ASGI scope (read by :meth:`.problems.Problem.to_response`)."""
MAX_REQUEST_ID_LENGTH: Final = 128

_ID_BYTES: Final = (string.ascii_letters + string.digits + "-._~!$&'()*+,;=:@/").encode()


def new_request_id() -> str:
    """A random (version 4) UUID as 32 hex digits, as ``uuid.uuid4().hex`` but 4× cheaper."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    return raw.hex()


def request_id_from(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The client's ``X-Request-ID`` if acceptable (module docstring), else a new id."""
    for name, value in headers:
        if name == REQUEST_ID_HEADER:
            if 0 < len(value) <= MAX_REQUEST_ID_LENGTH and not value.translate(None, _ID_BYTES):
                return value.decode("ascii")
            break
    return new_request_id()


class AccessLog:
    """Writes one access line per request (see the module docstring).

    With the service's own log writer (``writer``), :class:`.metrics.HttpMetrics` queues an
    :class:`~baohuang.logs.AccessLine` for it directly (the writer's thread encodes it); this
    object only says whether to (:attr:`writer`). Otherwise each line is a ``LogRecord`` on
    ``baohuang.access`` with the fields as attributes (``method``, ``route``, ``status``,
    ``duration_ms``, ``request_id``), for whatever handlers the application configured.
    """

    def __init__(self, writer: LineWriter | None) -> None:
        self._logger = logging.getLogger(ACCESS_LOGGER)
        # The level is set once, before the app is built (LOG_LEVEL): read it once here.
        self.writer = writer if self._logger.isEnabledFor(logging.INFO) else None
        self.records = writer is None

    def __call__(
        self, method: str, route: str, status: int, seconds: float, request_id: str
    ) -> None:
        """The line as a ``LogRecord`` (when the service does not write its own lines)."""
        logger = self._logger
        if not self.records or not logger.isEnabledFor(logging.INFO):
            return
        duration_ms = milliseconds(seconds)
        record = logger.makeRecord(
            logger.name,
            logging.INFO,
            "",
            0,
            "%s %s %d %.3fms request_id=%s",
            (method, route, status, duration_ms, request_id),
            None,
            extra={
                "method": method,
                "route": route,
                "status": status,
                "duration_ms": duration_ms,
                "request_id": request_id,
            },
        )
        logger.handle(record)


def milliseconds(seconds: float) -> float:
    """Milliseconds to the microsecond (``round(x, 3)`` costs five times as much)."""
    return int(seconds * 1_000_000) / 1000
