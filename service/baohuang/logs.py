"""The service's own log output: JSON or text lines on stdout, written by one background thread.

``configure_logging`` runs once per app (idempotent). When nobody configured Python logging
(no handler on the root logger nor on ``baohuang``, e.g. under ``baohuang serve``), it installs
one handler on the ``baohuang`` logger that formats each record and hands the line to a
:class:`LineWriter`: the event loop never waits for a write to stdout. Access lines
(:mod:`.http.access`) skip the ``LogRecord`` machinery altogether in that case and hand the
writer a tuple, formatted in its thread.

When logging *is* configured by someone else (an embedding application, pytest), nothing is
installed: ``baohuang.*`` records, access lines included, go to the handlers already there.
"""

from __future__ import annotations

import atexit
import logging
import sys
import threading
import time
from queue import Empty, SimpleQueue
from typing import IO, Any, Final, Literal, cast

import msgspec

__all__ = [
    "LOG_FORMATS",
    "AccessFields",
    "LineWriter",
    "LogFormat",
    "configure_logging",
    "installed_writer",
]

LogFormat = Literal["json", "text"]
LOG_FORMATS: Final = ("json", "text")

AccessFields = tuple[float, str, str, int, float, str]
"""``(unix time, method, route template, status, seconds, request id)`` of one request."""

MAX_QUEUED: Final = 100_000
"""Lines waiting for the writer at most; beyond that lines are dropped (and the drop is said)."""
BATCH: Final = 512
"""Lines joined into one write."""

_encode = msgspec.json.Encoder().encode


class _Clock:
    """UTC ISO 8601 timestamps with milliseconds; the seconds part is formatted once a second."""

    def __init__(self) -> None:
        self._second = -1
        self._prefix = ""

    def __call__(self, at: float) -> str:
        second = int(at)
        if second != self._second:
            self._second = second
            self._prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return f"{self._prefix}.{int((at - second) * 1000):03d}Z"


def _access_json(clock: _Clock, fields: AccessFields) -> str:
    at, method, route, status, seconds, request_id = fields
    return _encode(
        {
            "time": clock(at),
            "level": "INFO",
            "logger": "baohuang.access",
            "message": "request",
            "method": method,
            "route": route,
            "status": status,
            "duration_ms": round(seconds * 1000, 3),
            "request_id": request_id,
        }
    ).decode()


def _access_text(clock: _Clock, fields: AccessFields) -> str:
    at, method, route, status, seconds, request_id = fields
    return (
        f"{clock(at)} INFO baohuang.access {method} {route} {status} "
        f"{seconds * 1000:.3f}ms request_id={request_id}"
    )


class LineWriter:
    """A daemon thread writing lines to ``stream``; :meth:`put` never blocks on I/O.

    Items are finished lines (``str``) or access tuples (:data:`AccessFields`), formatted here.
    Up to :data:`BATCH` lines go out in one ``write``. When :data:`MAX_QUEUED` lines are waiting
    (stdout stalled), new ones are dropped and the writer says how many once it catches up.
    """

    def __init__(self, stream: IO[str], log_format: LogFormat = "json") -> None:
        self.stream = stream
        self.log_format = log_format
        self._queue: SimpleQueue[str | AccessFields | threading.Event | None] = SimpleQueue()
        self._dropped = 0
        self._clock = _Clock()
        self._thread = threading.Thread(target=self._run, name="baohuang-log-writer", daemon=True)
        self._thread.start()

    def put(self, item: str | AccessFields) -> None:
        if self._queue.qsize() >= MAX_QUEUED:
            self._dropped += 1  # a lost update under a race only miscounts a warning
            return
        self._queue.put(item)

    def _render(self, item: str | AccessFields) -> str:
        if isinstance(item, str):
            return item
        if self.log_format == "json":
            return _access_json(self._clock, item)
        return _access_text(self._clock, item)

    def _run(self) -> None:
        queue = self._queue
        while True:
            item = queue.get()
            batch = [item]
            while len(batch) < BATCH:
                try:
                    batch.append(queue.get_nowait())
                except Empty:
                    break
            lines = [self._render(i) for i in batch if isinstance(i, (str, tuple))]
            if self._dropped:
                dropped, self._dropped = self._dropped, 0
                lines.append(_warning_line(self.log_format, dropped))
            if lines:
                try:
                    self.stream.write("\n".join(lines) + "\n")
                    self.stream.flush()
                except (OSError, ValueError):  # stdout closed or gone: nothing left to tell
                    pass
            for marker in batch:
                if isinstance(marker, threading.Event):
                    marker.set()
            if None in batch:
                return

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait (at most ``timeout``) until everything queued so far is written."""
        written = threading.Event()
        self._queue.put(written)
        return written.wait(timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Write what is queued, then stop the thread (bounded by ``timeout``)."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)


def _warning_line(log_format: LogFormat, dropped: int) -> str:
    message = f"{dropped} log lines dropped: stdout did not keep up"
    stamp = _Clock()(time.time())
    if log_format == "json":
        document = {
            "time": stamp,
            "level": "WARNING",
            "logger": "baohuang",
            "message": message,
        }
        return _encode(document).decode()
    return f"{stamp} WARNING baohuang {message}"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message (and exception, fields given
    with ``extra``)."""

    _clock = _Clock()
    _standard = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        document: dict[str, Any] = {
            "time": self._clock(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in self._standard and not key.startswith("_"):
                document[key] = value
        if record.exc_info:
            document["exception"] = self.formatException(record.exc_info)
        return _encode(document).decode()


class TextFormatter(logging.Formatter):
    _clock = _Clock()

    def format(self, record: logging.LogRecord) -> str:
        line = f"{self._clock(record.created)} {record.levelname} {record.name} "
        line += record.getMessage()
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class _WriterHandler(logging.Handler):
    """Formats a record where it is logged (its arguments as they are now) and queues the line."""

    def __init__(self, writer: LineWriter, formatter: logging.Formatter) -> None:
        super().__init__()
        self.writer = writer
        self.setFormatter(formatter)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.writer.put(self.format(record))
        except Exception:
            self.handleError(record)


_installed: _WriterHandler | None = None
_install_lock = threading.Lock()


def _formatter(log_format: LogFormat) -> logging.Formatter:
    return JsonFormatter() if log_format == "json" else TextFormatter()


def configure_logging(
    level: str,
    log_format: str,
    *,
    stream: IO[str] | None = None,
    force: bool = False,
) -> LineWriter | None:
    """Set the ``baohuang`` level and, unless logging is configured elsewhere, install the
    writer (see the module docstring). Returns the writer in use, or ``None`` when records go to
    handlers someone else installed. ``force`` installs the writer regardless (tests, bench)."""
    global _installed
    if log_format not in LOG_FORMATS:
        raise ValueError(f"LOG_FORMAT={log_format!r}: expected json or text")
    fmt = cast(LogFormat, log_format)
    service = logging.getLogger("baohuang")
    service.setLevel(level)
    with _install_lock:
        if _installed is not None and _installed in service.handlers:
            if stream is not None and stream is not _installed.writer.stream:
                _uninstall(service)
            else:
                _installed.writer.log_format = fmt
                _installed.setFormatter(_formatter(fmt))
                return _installed.writer
        elif not force and (logging.getLogger().handlers or service.handlers):
            return None
        writer = LineWriter(stream if stream is not None else sys.stdout, fmt)
        _installed = _WriterHandler(writer, _formatter(fmt))
        service.addHandler(_installed)
        return writer


def _uninstall(service: logging.Logger) -> None:
    global _installed
    if _installed is not None:
        service.removeHandler(_installed)
        _installed.writer.close()
        _installed = None


def installed_writer() -> LineWriter | None:
    """The writer :func:`configure_logging` installed, if it did."""
    return _installed.writer if _installed is not None else None


def reset_logging() -> None:
    """Remove the installed writer (flushing it); for tests."""
    with _install_lock:
        _uninstall(logging.getLogger("baohuang"))


def _close_at_exit() -> None:
    if _installed is not None:
        _installed.writer.close()


atexit.register(_close_at_exit)
