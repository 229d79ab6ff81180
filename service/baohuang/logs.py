"""The service's own log output: JSON or text lines on stdout, written by one background thread.

``configure_logging`` runs once per app (idempotent). When nobody configured Python logging
(no handler on the root logger nor on ``baohuang``, e.g. under ``baohuang serve``), it installs
one handler on the ``baohuang`` logger that formats each record and hands the line to a
:class:`LineWriter`: the event loop never waits for a write to stdout. Access lines
(:mod:`.http.access`) skip the ``LogRecord`` machinery altogether in that case: the request hands
the writer an :class:`AccessLine`, which the writer's thread encodes with the rest of its batch.

When logging *is* configured by someone else (an embedding application, pytest), nothing is
installed: ``baohuang.*`` records, access lines included, go to the handlers already there.
"""

from __future__ import annotations

import atexit
import logging
import sys
import threading
import time
from queue import SimpleQueue
from typing import IO, Any, Final, Literal, cast

import msgspec

__all__ = [
    "LOG_FORMATS",
    "AccessLine",
    "LineWriter",
    "LogFormat",
    "configure_logging",
    "installed_writer",
]

LogFormat = Literal["json", "text"]
LOG_FORMATS: Final = ("json", "text")

MAX_QUEUED: Final = 100_000
"""Lines waiting for the writer at most; beyond that lines are dropped (and the drop is said)."""
BATCH: Final = 4096
"""Lines joined into one write at most."""
LINGER_SECONDS: Final = 0.1
"""After the first line of a batch, how long the writer lets more gather before it writes: one
wake-up and one ``write`` per batch, not per line (woken per line, the thread's wake-ups and GIL
hand-offs cost a quarter of /healthz throughput; bench/RESULTS.md)."""

_encode = msgspec.json.Encoder().encode
_encode_lines = msgspec.json.Encoder().encode_lines


class AccessLine(msgspec.Struct, frozen=True, gc=False):
    """One request, as the access line's JSON object (fields in this order). ``time`` is Unix
    seconds, as in every JSON line of the service. Built where the request ends and encoded by
    the writer thread, a whole batch in one call."""

    time: float
    level: str
    logger: str
    message: str
    method: str
    route: str
    status: int
    duration_ms: float
    request_id: str


def _iso(at: float) -> str:
    """UTC ISO 8601 with milliseconds, for text lines."""
    milliseconds = int(at * 1000)
    second = milliseconds // 1000
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return f"{stamp}.{milliseconds - second * 1000:03d}Z"


def _access_text(line: AccessLine) -> str:
    return (
        f"{_iso(line.time)} INFO baohuang.access {line.method} {line.route} {line.status} "
        f"{line.duration_ms:.3f}ms request_id={line.request_id}"
    )


Item = str | AccessLine


class LineWriter:
    """A daemon thread writing lines to ``stream``; :meth:`put` never blocks on I/O.

    Items are finished lines (``str``) or :class:`AccessLine` objects, encoded here. The writer
    sleeps until a line comes, lets more gather for :data:`LINGER_SECONDS`, then writes them, up
    to :data:`BATCH` lines per ``write``. When :data:`MAX_QUEUED` lines are waiting (stdout
    stalled), new ones are dropped and the writer says how many once it catches up.
    """

    def __init__(self, stream: IO[str], log_format: LogFormat = "json") -> None:
        self.stream = stream
        self.log_format = log_format
        self._queue: SimpleQueue[Item | threading.Event | None] = SimpleQueue()
        self.enqueue = self._queue.put
        """Queue an item, no checks: for the hot path, which checks :attr:`backlog` itself."""
        self.backlog = self._queue.qsize
        """Items waiting (compare with :data:`MAX_QUEUED`; count a drop in :attr:`dropped`)."""
        self.dropped = 0
        self._hurry = threading.Event()  # flush and close: write now, do not linger
        self._thread = threading.Thread(target=self._run, name="baohuang-log-writer", daemon=True)
        self._thread.start()

    def put(self, item: Item) -> None:
        if self.backlog() >= MAX_QUEUED:
            self.dropped += 1  # a lost update under a race only miscounts a warning
            return
        self.enqueue(item)

    def _render(self, items: list[Item]) -> str:
        """The lines of ``items``, each ending in a newline. A batch of JSON access lines is
        encoded in one call (~0.3 µs a line here; formatting each line in Python took 1.5–3)."""
        if self.log_format == "text":
            return "".join(
                (item if isinstance(item, str) else _access_text(item)) + "\n" for item in items
            )
        if not any(isinstance(item, str) for item in items):
            return _encode_lines(items).decode()
        return "".join(
            item + "\n" if isinstance(item, str) else _encode_lines((item,)).decode()
            for item in items
        )

    def _run(self) -> None:
        queue = self._queue
        take = queue.get_nowait
        while True:
            batch = [queue.get()]
            if self._hurry.wait(LINGER_SECONDS):
                self._hurry.clear()
            # Only this thread takes from the queue: what qsize counts is there.
            batch += [take() for _ in range(min(queue.qsize(), BATCH))]
            kinds = set(map(type, batch))
            if kinds == {AccessLine} and self.log_format == "json":  # the usual batch: all in C
                text = _encode_lines(batch).decode()
            else:
                items = [i for i in batch if isinstance(i, (str, AccessLine))]
                text = self._render(items) if items else ""
            if self.dropped:
                dropped, self.dropped = self.dropped, 0
                text += _warning_line(self.log_format, dropped) + "\n"
            if text:
                try:
                    self.stream.write(text)
                    self.stream.flush()
                except (OSError, ValueError):  # stdout closed or gone: nothing left to tell
                    pass
            if threading.Event in kinds:
                for marker in batch:
                    if isinstance(marker, threading.Event):
                        marker.set()
            if type(None) in kinds:
                return

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait (at most ``timeout``) until everything queued so far is written."""
        written = threading.Event()
        self._queue.put(written)
        self._hurry.set()
        return written.wait(timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Write what is queued, then stop the thread (bounded by ``timeout``)."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._hurry.set()
            self._thread.join(timeout)


def _warning_line(log_format: LogFormat, dropped: int) -> str:
    message = f"{dropped} log lines dropped: stdout did not keep up"
    now = time.time()
    if log_format == "json":
        document = {"time": now, "level": "WARNING", "logger": "baohuang", "message": message}
        return _encode(document).decode()
    return f"{_iso(now)} WARNING baohuang {message}"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (Unix seconds), level, logger, message (and exception,
    fields given with ``extra``)."""

    _standard = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        document: dict[str, Any] = {
            "time": record.created,
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
    def format(self, record: logging.LogRecord) -> str:
        line = f"{_iso(record.created)} {record.levelname} {record.name} "
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
