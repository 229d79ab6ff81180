"""Slow clients against a real ``baohuang serve`` (docs/deploy.md "Slow clients").

The service is started with 256 file descriptors, headers and bodies due within 2 s. The test
opens 400 connections that send half a request line's headers and stop, and 20 that send their
headers and part of a body and stop: more connections than the process has descriptors. While
they hang, ``/healthz`` and a real request must still be answered at once; the slow body
connections get a 408 after their 2 s, and every slow connection is closed by the service.
Loopback only; every socket has a timeout and the service is stopped at the end, so the test stops
by itself (about 10 s).
"""

from __future__ import annotations

import os
import resource
import selectors
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICE_FDS = 256
SLOW_HEADERS = 400
SLOW_BODIES = 20
TIMEOUT = 2  # BAOHUANG_HEADER_TIMEOUT_SECONDS and BAOHUANG_BODY_TIMEOUT_SECONDS


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _limit_fds() -> None:  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_NOFILE, (SERVICE_FDS, SERVICE_FDS))


def _get(base: str, path: str, timeout: float) -> tuple[int, bytes]:
    with urllib.request.urlopen(f"{base}{path}", timeout=timeout) as response:
        return response.status, response.read()


def _post(base: str, path: str, body: bytes, timeout: float) -> tuple[int, bytes]:
    request = urllib.request.Request(
        f"{base}{path}", data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.status, response.read()


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = SLOW_HEADERS + SLOW_BODIES + 200
    if soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            pytest.skip(f"the test needs {needed} file descriptors; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "BAOHUANG_API_KEYS"}}
    env.update(
        BAOHUANG_HEADER_TIMEOUT_SECONDS=str(TIMEOUT),
        BAOHUANG_BODY_TIMEOUT_SECONDS=str(TIMEOUT),
        BAOHUANG_TOKEN_SECRET="slow-clients-test",
        NO_PROXY="127.0.0.1",
        no_proxy="127.0.0.1",
    )
    log = tmp_path_factory.mktemp("slow") / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "baohuang.cli", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=_limit_fds,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"baohuang serve exited: {log.read_text()[-3000:]}")
            try:
                if _get(base, "/healthz", 1)[0] == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield base, log
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _open(port: int, first: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(first)
    return sock


def _wait_closed(socks: list[socket.socket], within: float) -> dict[socket.socket, bytes]:
    """What each socket received until the service closed it (or ``within`` ran out)."""
    received = {sock: b"" for sock in socks}
    open_ = set(socks)
    selector = selectors.DefaultSelector()
    for sock in socks:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + within
    while open_ and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.2):
            ready = key.fileobj
            assert isinstance(ready, socket.socket)
            sock = ready
            try:
                chunk = sock.recv(65536)
            except ConnectionError:
                chunk = b""
            if chunk:
                received[sock] += chunk
            else:
                selector.unregister(sock)
                open_.discard(sock)
    selector.close()
    assert not open_, f"{len(open_)} slow connections were still open after {within}s"
    return received


@pytest.mark.slow
def test_slow_clients_cannot_starve_the_service(service: tuple[str, Path]) -> None:
    base, log = service
    port = int(base.rsplit(":", 1)[1])
    slow: list[socket.socket] = []
    try:
        started = time.monotonic()
        for _ in range(SLOW_HEADERS):
            slow.append(_open(port, b"POST /v1/combos/compare HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
        bodies = [
            _open(
                port,
                b"POST /v1/combos/compare HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                b'{"previou',
            )
            for _ in range(SLOW_BODIES)
        ]
        opened = time.monotonic() - started
        # More connections hang than the service has descriptors; it answers at once all the same.
        for _ in range(5):
            t0 = time.monotonic()
            assert _get(base, "/healthz", 2) == (200, b'{"status":"ok"}')
            status, body = _post(
                base, "/v1/combos/compare", b'{"previous": ["7S"], "candidate": ["8S"]}', 2
            )
            assert status == 200 and b'"beats":true' in body
            assert time.monotonic() - t0 < 1.0
        # The slow bodies get a 408 once their time is up; every slow connection is closed.
        answers = _wait_closed(bodies, within=TIMEOUT + 3)
        timed_out = [a for a in answers.values() if a.startswith(b"HTTP/1.1 408")]
        assert len(timed_out) >= SLOW_BODIES // 2, list(answers.values())[:3]
        assert all(b"REQUEST_TIMEOUT" in a for a in timed_out)
        _wait_closed(slow, within=TIMEOUT + 3)
        assert time.monotonic() - started < opened + 2 * TIMEOUT + 6
        assert _get(base, "/healthz", 2)[0] == 200
    finally:
        for sock in slow + bodies if "bodies" in locals() else slow:
            sock.close()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert "256 open files, 192 connections" in text, text[-3000:]
