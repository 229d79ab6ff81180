"""The app as ``baohuang serve`` runs it, built the same way in every worker from the environment.

uvicorn's workers are processes that each import the app factory and the protocol class by their
dotted paths (:data:`.workers.SERVE_APP`, :data:`.workers.PROTOCOL`): nothing built in the parent is
handed down but the listening sockets. So each worker reads the settings, lifts its own open
files limit, sets its connection bounds (:func:`.bounds.configure`) and builds its app; every
limit a worker keeps in memory is that worker's own (docs/deploy.md "Workers").
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from typing import Final

import msgspec
from litestar import Litestar
from uvicorn.config import STARTUP_FAILURE

from .app import create_app
from .bounds import Limits, configure, connection_cap, raise_open_files_limit
from .collector import tune_collector
from .probes import PROBE_CONNECTIONS, ProbeGate
from .settings import Settings
from .workers import PARENT

PARENT_POLL_SECONDS: Final = 0.5


def serve_app() -> Litestar:
    """The service of one worker: the environment's settings under this process's bounds. A
    worker that cannot build it exits with uvicorn's ``STARTUP_FAILURE``, so that the
    supervisor stops rather than starting it again and again."""
    try:
        return _serve_app()
    except Exception:
        logging.getLogger("uvicorn.error").exception("the service could not be built")
        raise SystemExit(STARTUP_FAILURE) from None


def _serve_app() -> Litestar:
    settings = Settings.from_env()
    open_files = raise_open_files_limit()
    max_connections = connection_cap(settings.max_connections, open_files)
    # The cap in force, so that the streams' share of it (http/stream_slots.py) is of this one.
    settings = msgspec.structs.replace(settings, max_connections=max_connections)
    configure(
        Limits(
            settings.header_timeout_seconds,
            max_connections,
            settings.probe_port,
            PROBE_CONNECTIONS,
        )
    )
    app = create_app(settings)
    worker = f"worker {os.getpid()}: " if settings.workers > 1 else ""
    app.state.startup_notes = [
        f"{worker}bounds: {open_files} open files, {max_connections} connections, "
        f"{settings.max_in_flight} requests in flight, headers within "
        f"{settings.header_timeout_seconds:g}s, bodies within {settings.body_timeout_seconds:g}s, "
        f"keep-alive {settings.keep_alive_seconds}s, backlog {settings.backlog}, "
        f"{app.state.stream_slots.limits.per_process} streams at most"
    ]
    if settings.probe_port is not None:
        app.asgi_handler = ProbeGate(app.asgi_handler, settings.probe_port)
    parent = os.environ.get(PARENT)
    if settings.workers > 1 and parent is not None:
        _follow_parent(int(parent))
    # Last, once the app is built: what start-up made is frozen (http/collector.py).
    frozen = tune_collector(settings.gc_thresholds)
    app.state.startup_notes.append(
        f"{worker}collector: thresholds {','.join(map(str, settings.gc_thresholds))}, "
        f"{frozen} objects of the start-up frozen"
    )
    return app


def _follow_parent(parent: int) -> None:
    """A worker whose parent is gone (killed, not stopped) stops as if told to: no orphan keeps
    serving the port, its clock or its webhooks."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        logging.getLogger("uvicorn.error").warning("the parent process is gone: stopping")
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="baohuang-parent", daemon=True).start()
