"""The service on a real socket, in this event loop: uvicorn serving ``create_app(settings)``.

Litestar's test clients send one request at a time and buffer whole answers; streams, races and
replica restarts need the real thing. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn

from baohuang.http.app import create_app
from baohuang.http.settings import Settings

START_SECONDS = 60.0
"""How long ``baohuang serve`` may take to accept connections: loose, since a loaded machine
slows its imports and a start that fails kills the process anyway; only a server that never
comes up waits this long."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveServer:
    """One replica: start, stop (its streams are cut), start again on the same port."""

    def __init__(self, settings: Settings, port: int | None = None) -> None:
        self.settings = settings
        self.port = port or free_port()
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def app(self) -> Any:
        """The app serving now (its ``state``: what a test may look into or stand in for)."""
        assert self._server is not None, "not started"
        return self._server.config.app

    async def start(self, timeout: float = 10.0) -> None:
        config = uvicorn.Config(
            create_app(self.settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve())
        async with asyncio.timeout(timeout):
            while not self._server.started:
                if self._task.done():
                    self._task.result()  # raises why it could not start
                await asyncio.sleep(0.02)

    async def stop(self) -> None:
        """Stop serving as a replica going away does: open connections are closed."""
        if self._server is None or self._task is None:
            return
        self._server.should_exit = True
        self._server.force_exit = True
        async with asyncio.timeout(10):
            await self._task
        self._server = self._task = None

    async def __aenter__(self) -> LiveServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


class ProcessServer:
    """A replica in its own process (``baohuang serve``): stopping it kills the process, so its
    connections really drop, as when a pod goes away."""

    def __init__(
        self,
        environment: dict[str, str],
        port: int | None = None,
        log: Path | None = None,
        arguments: tuple[str, ...] = (),
    ) -> None:
        """``log``: a file that gets the process's output (appended), for tests that read what
        the service logged; otherwise it goes nowhere. ``arguments``: more of ``baohuang
        serve``'s (``--workers 2``)."""
        self.environment = environment
        self.arguments = arguments
        self.port = port or free_port()
        self.log = log
        self._process: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, timeout: float = START_SECONDS) -> None:
        """Start it and return once it accepts connections; if it does not within ``timeout``
        or exits, its whole process group is killed before the error is raised."""
        env = {**os.environ, **self.environment}
        with contextlib.ExitStack() as files:  # the child keeps its own copy of the fd
            output: Any = asyncio.subprocess.DEVNULL
            if self.log is not None:
                output = files.enter_context(self.log.open("ab"))
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "baohuang.cli", "serve", "--port", str(self.port),
                *self.arguments, env=env, stdout=output, stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,  # a group of its own: stop() ends its workers too
            )  # fmt: skip
        try:
            async with asyncio.timeout(timeout):
                while True:
                    if self._process.returncode is not None:
                        raise RuntimeError(f"baohuang serve exited with {self._process.returncode}")
                    try:
                        _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                        writer.close()
                        return
                    except OSError:
                        await asyncio.sleep(0.05)
        except BaseException:  # TimeoutError, the exit above, a cancelled test
            await self.stop()
            raise

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    async def terminate(self, timeout: float = 10.0) -> int:
        """Stop it as Kubernetes does (SIGTERM) and wait: its exit status."""
        assert self._process is not None
        self._process.terminate()
        async with asyncio.timeout(timeout):
            return await self._process.wait()  # its group is left to stop(): a test may look at it

    async def stop(self) -> None:
        """Kill it and whatever of its process group is left (its workers), and wait."""
        if self._process is None:
            return
        process, self._process = self._process, None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # its group: the pid it was started with
        async with asyncio.timeout(10):
            await process.wait()

    async def __aenter__(self) -> ProcessServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
