"""Find or start a Redis for tests, and kill, pause or restart one we started.

The rules:

* ``REDIS_URL`` set: tests that only need *a* Redis use it.
* Otherwise, when ``redis-server`` is installed (``REDIS_SERVER_BIN``, ``PATH`` or
  ``/usr/bin/redis-server``), start our own on a free port, without persistence, stopped at
  teardown.
* Otherwise skip with a loud reason, except under ``CI=true``, where a missing Redis is a failure:
  a CI run that silently skips the Redis tests proves nothing.

Tests that kill or pause Redis (outage and recovery) always use a server of their own, one per test
session on its own port, never ``REDIS_URL`` nor a shared 127.0.0.1:6379.

The same launcher starts Sentinels (``RedisServer(..., sentinel_monitor=...)``, the
``redis-sentinel`` binary or ``redis-server --sentinel``) and Redis Cluster nodes
(``extra_args=("--cluster-enabled", "yes", ...)``); ``redis_topologies.py`` builds whole
setups (a 3×3 cluster, a primary with replicas and three sentinels) from it, for the tests and
for ``bench/``.

Import it as ``redis_server`` (``tests`` is on ``sys.path``: see ``tests/store/conftest.py``; the
benchmarks put it there too). It is
a plain module with no fixtures, so any conftest can build its own fixtures on top of it.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import NoReturn

import pytest

__all__ = [
    "RedisServer",
    "find_redis_sentinel",
    "find_redis_server",
    "in_ci",
    "redis_unavailable",
    "shared_redis_url",
]


def in_ci() -> bool:
    """``CI=true`` (GitHub Actions, GitLab and most others set it): skips become failures."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def redis_unavailable(reason: str) -> NoReturn:
    """Skip loudly, or fail under CI, when a test cannot get the Redis it needs."""
    message = f"NO REDIS: {reason}"
    if in_ci():
        pytest.fail(f"{message} (CI=true: a missing Redis is a failure, not a skip)")
    pytest.skip(f"{message} (set REDIS_URL or install redis-server; under CI=true this fails)")


def find_redis_server() -> str | None:
    """Path of a ``redis-server`` binary, or ``None`` when there is none."""
    explicit = os.environ.get("REDIS_SERVER_BIN")
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    found = shutil.which("redis-server")
    if found:
        return found
    fallback = "/usr/bin/redis-server"
    return fallback if os.access(fallback, os.X_OK) else None


def find_redis_sentinel() -> list[str] | None:
    """The command that starts a Sentinel: ``redis-sentinel`` (Debian's ``redis-sentinel``
    package, ``REDIS_SENTINEL_BIN``), else ``redis-server`` in sentinel mode; ``None`` when
    neither is installed."""
    explicit = os.environ.get("REDIS_SENTINEL_BIN")
    if explicit:
        return [explicit] if os.access(explicit, os.X_OK) else None
    found = shutil.which("redis-sentinel")
    if found is None and os.access("/usr/bin/redis-sentinel", os.X_OK):
        found = "/usr/bin/redis-sentinel"
    if found:
        return [found]
    server = find_redis_server()
    return [server, "--sentinel"] if server else None


def shared_redis_url() -> str | None:
    """``REDIS_URL`` when the environment gives one (non-empty)."""
    url = os.environ.get("REDIS_URL", "").strip()
    return url or None


def _port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def _free_port(host: str, with_cluster_bus: bool = False) -> int:
    """A free port; for a cluster node also a free bus port at ``port + 10000`` (Redis's rule),
    which an ephemeral port above 55535 could never have."""
    if with_cluster_bus:
        rng = random.Random()
        for _ in range(200):
            port = rng.randrange(20000, 50000)
            if _port_is_free(host, port) and _port_is_free(host, port + 10000):
                return port
        raise RuntimeError("no free port pair for a Redis Cluster node")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        found: int = sock.getsockname()[1]
        return found


def _answers_ping(host: str, port: int, timeout: float = 0.2) -> bool:
    """A raw RESP PING, so this module needs no Redis client (and no event loop)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """A ``redis-server`` child process on its own port, which tests may kill and restart.

    The port stays the same across :meth:`restart`, so clients configured with :attr:`url` find
    the new process: that is what "Redis came back" looks like to the service. Nothing is
    persisted (``--save "" --appendonly no``): a restarted server is empty.

    With ``sentinel_monitor=(name, host, port, quorum)`` the process is a Sentinel watching that
    primary instead (``binary`` is then the command of :func:`find_redis_sentinel`); Sentinel
    needs a config file it may rewrite, which lives in the server's own directory.
    """

    def __init__(
        self,
        binary: str | list[str],
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        extra_args: tuple[str, ...] = (),
        sentinel_monitor: tuple[str, str, int, int] | None = None,
        wrap: tuple[str, ...] = (),
        own_session: bool = False,
    ) -> None:
        """``extra_args`` go to redis-server as they are (e.g. ``--cluster-enabled yes``); for a
        Sentinel they are ``sentinel.conf`` lines (e.g. ``sentinel down-after-milliseconds …``).
        ``wrap`` runs it under another command (the benchmarks pin it to a CPU with
        ``taskset -c 1``); ``own_session`` starts it in a process group of its own, so that the
        CPU it uses can be measured apart (bench/quiet.py)."""
        self.command = [binary] if isinstance(binary, str) else list(binary)
        self.binary = self.command[0]
        self.extra_args = extra_args
        self.sentinel_monitor = sentinel_monitor
        self.wrap = wrap
        self.own_session = own_session
        self.host = host
        cluster = "--cluster-enabled" in extra_args
        self.port = port if port is not None else _free_port(host, with_cluster_bus=cluster)
        # The test run's mark (tests/stray_processes.py) names the directory it runs in: the
        # run's end finds a server it left running by it.
        mark = os.environ.get("BAOHUANG_TEST_RUN")
        self._dir = Path(
            tempfile.mkdtemp(prefix=f"baohuang-redis-{mark}-" if mark else "baohuang-redis-")
        )
        self._log = self._dir / "redis.log"
        self._output = self._dir / "output.log"
        self._ever_started = False
        self._process: subprocess.Popen[bytes] | None = None
        self._paused = False

    @classmethod
    def from_environment(
        cls,
        *,
        extra_args: tuple[str, ...] = (),
        wrap: tuple[str, ...] = (),
        own_session: bool = False,
    ) -> RedisServer:
        """A server from the installed binary; skips (or fails under CI) when there is none."""
        binary = find_redis_server()
        if binary is None:
            redis_unavailable("no redis-server binary (REDIS_SERVER_BIN, PATH, /usr/bin)")
        return cls(binary, extra_args=extra_args, wrap=wrap, own_session=own_session)

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    @property
    def address(self) -> str:
        """``host:port``, as Sentinel and Cluster name their nodes."""
        return f"{self.host}:{self.port}"

    @property
    def pid(self) -> int:
        """The running server's process id (with ``own_session``, also its process group's)."""
        if self._process is None:
            raise RuntimeError("redis-server is not running")
        return self._process.pid

    def _command(self) -> list[str]:
        common = [
            "--port", str(self.port),
            "--bind", self.host,
            "--dir", str(self._dir),
            "--logfile", str(self._log),
            "--daemonize", "no",
        ]  # fmt: skip
        if self.sentinel_monitor is None:
            return [
                *self.wrap, *self.command, *common, "--save", "", "--appendonly", "no",
                *self.extra_args,
            ]  # fmt: skip
        config = self._dir / "sentinel.conf"
        if not config.exists():  # Sentinel rewrites it as it learns: keep it across restarts
            name, host, port, quorum = self.sentinel_monitor
            lines = [f"sentinel monitor {name} {host} {port} {quorum}", *self.extra_args]
            config.write_text("\n".join(lines) + "\n")
        # A config file first, then "--sentinel" for redis-server (redis-sentinel ignores it).
        binary, *mode = self.command
        return [binary, str(config), *(mode or ["--sentinel"]), *common]

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, timeout: float = 10.0) -> None:
        """Start the server (if not running) and return once it answers PING."""
        if self.running:
            return
        command = self._command()
        with self._output.open("ab") as output:  # the child keeps its own copy of the fd
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=self.own_session,
            )
        self._paused = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                self._process = None
                if not self._ever_started and "in use" in self._diagnostics():
                    # Someone took the free port between our probe and the bind: pick another.
                    cluster = "--cluster-enabled" in self.extra_args
                    self.port = _free_port(self.host, with_cluster_bus=cluster)
                    self.start(max(0.0, deadline - time.monotonic()))
                    return
                raise RuntimeError(f"redis-server exited at start-up:\n{self._diagnostics()}")
            if _answers_ping(self.host, self.port):
                self._ever_started = True
                return
            time.sleep(0.02)
        self.kill()
        raise RuntimeError(
            f"redis-server did not answer within {timeout} s:\n{self._diagnostics()}"
        )

    def _diagnostics(self) -> str:
        text = ""
        for path in (self._output, self._log):
            if path.exists():
                text += path.read_text(errors="replace")
        return text[-2000:]

    def _end(self, sig: signal.Signals) -> None:
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            if self._paused:
                process.send_signal(signal.SIGCONT)
            process.send_signal(sig)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._process = None
        self._paused = False

    def stop(self) -> None:
        """Shut down cleanly (SIGTERM)."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Die at once (SIGKILL), as a crashed or OOM-killed Redis would: sockets reset."""
        self._end(signal.SIGKILL)

    def restart(self) -> None:
        """Kill (if running) and start again on the same port: an empty Redis comes back."""
        self.kill()
        self.start()

    def pause(self) -> None:
        """Freeze the process (SIGSTOP): connections stay open but nothing answers (timeouts)."""
        if self._process is None or not self.running:
            raise RuntimeError("redis-server is not running")
        self._process.send_signal(signal.SIGSTOP)
        self._paused = True

    def resume(self) -> None:
        """Undo :meth:`pause`."""
        if self._process is not None and self._paused:
            self._process.send_signal(signal.SIGCONT)
        self._paused = False

    def close(self) -> None:
        """Stop the server and remove its directory."""
        self.kill()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "paused" if self._paused else "running" if self.running else "stopped"
        return f"RedisServer({self.url}, {state})"
