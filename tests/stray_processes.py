"""No server the suite starts outlives it: a mark on every child, and a check at the end.

At the start of a run (the controller, before any xdist worker exists) :func:`mark_this_run`
puts a fresh ``BAOHUANG_TEST_RUN`` into the environment. Every process the suite starts inherits
it — xdist's workers, ``baohuang serve`` and its uvicorn workers, ``redis-server``,
``redis-sentinel``, the documents' shell examples and what they start — however it was started
(``subprocess``, asyncio, a shell); ``redis-server``, which overwrites its environment with its
process title, has the mark in the name of its directory instead. At the end :func:`strays` reads ``/proc`` for servers that
carry this run's mark: the machine's own Redis and other people's processes never carry it,
so they are never named nor touched. A stray is killed, and the run fails saying which.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Final

MARK: Final = "BAOHUANG_TEST_RUN"
SERVERS: Final = ("baohuang.cli serve", "baohuang serve", "redis-server", "redis-sentinel")
"""What a stray is: a process whose command line holds one of these."""
GRACE_SECONDS: Final = 10.0
"""How long a server stopped by a finalizer (SIGTERM, not waited for) may take to go: only a
process that ignores its stop for this long is a stray."""


@dataclass(frozen=True)
class Stray:
    pid: int
    command: str


def mark_this_run() -> str:
    """A mark of this run's own, inherited by every process it starts."""
    mark = uuid.uuid4().hex
    os.environ[MARK] = mark
    return mark


def run_mark() -> str:
    """This run's mark (empty outside a run): :mod:`redis_server` puts it in the name of each
    server's directory, its working directory."""
    return os.environ.get(MARK, "")


def _marked(pid: int, mark: str) -> bool:
    """``pid`` carries ``mark``: in its environment, or in its working directory's name (Redis
    overwrites its environment with its process title)."""
    try:
        if f"{MARK}={mark}".encode() in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
            return True
        return mark in os.readlink(f"/proc/{pid}/cwd")
    except OSError:  # gone, or another user's
        return False


def _command(pid: int) -> str | None:
    """The command line of a live process (``None``: gone or a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat.rpartition(") ")[2].split()[0] in ("Z", "X"):
            return None
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return None


def strays(mark: str) -> list[Stray]:
    """The live servers that carry ``mark``, oldest pid first."""
    found = []
    proc = Path("/proc")
    if not proc.is_dir():  # not Linux: nothing to check this way
        return []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        pid = int(entry.name)
        command = _command(pid)
        if command and any(name in command for name in SERVERS) and _marked(pid, mark):
            found.append(Stray(pid, command))
    return sorted(found, key=lambda stray: stray.pid)


def strays_after_grace(mark: str, grace: float = GRACE_SECONDS) -> list[Stray]:
    """:func:`strays`, once those found have had ``grace`` seconds to finish going."""
    deadline = time.monotonic() + grace
    found = strays(mark)
    while found and time.monotonic() < deadline:
        time.sleep(0.1)
        found = strays(mark)
    return found


def kill(found: list[Stray]) -> None:
    for stray in found:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(stray.pid, signal.SIGKILL)
