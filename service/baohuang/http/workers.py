"""``baohuang serve --workers N``: N uvicorn worker processes behind one port (docs/deploy.md
"Workers").

The parent binds the service's port (and the probe port) once and hands the sockets to N
workers, uvicorn's multiprocess supervisor, which restarts a worker that dies or hangs; the
kernel spreads new connections over the workers. The parent builds no app and opens no store.

What the workers share, and what each keeps for itself:

* **Tables** are in Redis, the one record of truth: a worker judges every write against the
  stored version (a compare-and-set), so a move committed by one worker is seen by the next
  move on any other. The recent-writes memory that saves a read is per worker and can only save
  a round trip, never decide a write (tables/writes.py). The in-memory store cannot be shared
  between processes, so more than one worker needs ``REDIS_URL`` (:func:`refusal`).
* **Metrics**: every worker writes its counters, histograms and gauges to files in a directory
  of this parent's own (``PROMETHEUS_MULTIPROC_DIR``, made at start and removed at exit), and
  ``/metrics`` from any worker adds them all up (:mod:`.metrics`).
* **Per worker**, as per replica: connections, requests in flight and stream slots (each
  process guards its own file descriptors and its own event loop), the Redis pools, the feed's
  one subscription, the clock and webhook tasks (each claims due tables under the store's
  leases, so no timeout or delivery is applied twice), and the rate limits' fallback when Redis
  fails. The rate limits themselves are counted in Redis, one budget for every worker.
* **Seat tokens** are signed with ``BAOHUANG_TOKEN_SECRET``; unset, the parent makes one secret
  for all its workers (:func:`share_token_secret`), else a token one worker made would be refused
  by the others.
* **Shutdown**: SIGTERM or SIGINT to the parent stops every worker gracefully (each closes its
  listeners, finishes its requests within ``timeout_graceful_shutdown``, then closes its store);
  a worker still running :data:`KILL_AFTER_SECONDS` later is killed. A parent killed outright
  (SIGKILL) cannot remove its metrics directory: it stays in ``/tmp`` (in the chart an
  ``emptyDir``, gone with the pod), and its workers stop by themselves (:mod:`.serving`).
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import socket
import tempfile
import time
from typing import Final

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.supervisors.multiprocess import Multiprocess

from .settings import Settings

log = logging.getLogger("uvicorn.error")

SERVE_APP: Final = "baohuang.http.serving:serve_app"
"""The app factory every worker imports (:func:`.serving.serve_app`)."""
PROTOCOL: Final = "baohuang.http.bounds:BoundedHttpToolsProtocol"
"""The HTTP protocol every worker imports (:class:`.bounds.BoundedHttpToolsProtocol`). Both are
import strings, so that this parent imports neither the app nor Litestar."""
PARENT: Final = "BAOHUANG_WORKERS_PARENT"
"""The pid of the ``baohuang serve`` that started a worker (:mod:`.serving` follows it)."""
MULTIPROC_DIR: Final = "PROMETHEUS_MULTIPROC_DIR"
TOKEN_SECRET: Final = "BAOHUANG_TOKEN_SECRET"
KILL_AFTER_SECONDS: Final = 5.0
"""How long past its graceful shutdown a worker may take to stop before it is killed."""


def refusal(settings: Settings, workers: int) -> str | None:
    """Why ``workers`` cannot serve with these settings, or ``None``."""
    if workers > 1 and settings.redis_config() is None:
        return (
            f"--workers {workers} needs REDIS_URL: the in-memory store lives in one process, so "
            "workers would not share tables (run one worker without Redis, or set REDIS_URL)"
        )
    return None


def share_token_secret(settings: Settings) -> None:
    """Without ``BAOHUANG_TOKEN_SECRET`` each process would sign seat tokens with a secret of its
    own, and a token made by one worker would be refused by the others: the workers are given one
    secret, made here (so tokens hold in this pod, until it restarts)."""
    if settings.token_secret is None:
        os.environ[TOKEN_SECRET] = secrets.token_hex(32)
        log.warning(
            "%s is not set: the workers share a secret made at start-up, so seat tokens are "
            "valid in this pod only, until it restarts; set the same secret on every replica",
            TOKEN_SECRET,
        )


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for the workers to listen on (as uvicorn binds its own)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


class Workers(Multiprocess):
    """uvicorn's supervisor, with a bound on how long stopping may take."""

    def join_all(self) -> None:
        grace = self.config.timeout_graceful_shutdown or 0
        deadline = time.monotonic() + grace + KILL_AFTER_SECONDS
        for process in self.processes:
            process.process.join(max(0.0, deadline - time.monotonic()))
            if process.process.is_alive():
                log.warning("worker [%s] did not stop in time: killed", process.pid)
                process.kill()
                process.process.join()


def run_workers(config: Config, sockets: list[socket.socket], settings: Settings) -> int:
    """Serve ``config`` (an import string and ``workers`` > 1) on ``sockets`` until SIGTERM or
    SIGINT: 0, or 3 when a worker could not start (uvicorn's ``STARTUP_FAILURE``)."""
    share_token_secret(settings)
    os.environ[PARENT] = str(os.getpid())  # a worker that outlives this process stops (serving)
    directory = tempfile.mkdtemp(prefix="baohuang-metrics-")
    os.environ[MULTIPROC_DIR] = directory  # the workers are spawned with this environment
    try:
        supervisor = Workers(config, sockets)
        supervisor.run()
    finally:
        os.environ.pop(MULTIPROC_DIR, None)
        shutil.rmtree(directory, ignore_errors=True)
    failed = any(process.exitcode == STARTUP_FAILURE for process in supervisor.processes)
    return STARTUP_FAILURE if failed else 0
