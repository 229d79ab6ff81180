"""Schemathesis against the real service, from the committed spec.

Starts ``baohuang serve`` on a free loopback port (embedded in-memory store, open tables, no Redis,
no network beyond 127.0.0.1) and runs the schemathesis CLI over every operation of
``openapi/openapi.json``: the spec's own examples, then the coverage phase (boundary and invalid
values for every schema keyword, deterministic), then a fixed number of generated cases per
operation. Checks: no 5xx, and every response conforms to the spec (status code, content type,
documented headers, body schema). Bounded: deterministic generation (``--generation-deterministic``,
no example database), ``MAX_EXAMPLES`` per operation, and a hard ``TIME_BUDGET``; about 40 s on two
cores.

A failure prints schemathesis's report, with a ``curl`` line that reproduces each finding.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

# The CLI runs in a subprocess: only whether it is installed is checked here, without importing
# it (a second of every collecting process, for a test that runs in CI only).
if importlib.util.find_spec("schemathesis") is None:  # pragma: no cover
    if os.environ.get("CI") == "true":
        raise ImportError("schemathesis: CI must fuzz, never skip")
    pytest.skip(
        "schemathesis is a test dependency (pip install -e '.[test]')", allow_module_level=True
    )

from baohuang.http import examples

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi" / "openapi.json"
MAX_EXAMPLES = 50  # generated cases per operation in the fuzzing phase
TIME_BUDGET = 300  # seconds, a hard stop for the whole run (35 operations, a busy machine)
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
    ]
)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_until_up(base: str, server: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"baohuang serve exited with {server.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    raise RuntimeError("baohuang serve did not answer /healthz in time")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "BAOHUANG_API_KEYS", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"}
    }
    env["BAOHUANG_TOKEN_SECRET"] = "fuzz-test-secret"
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "baohuang.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base, server)
        # The table the spec's examples name, so that its GET, seat and move examples find one.
        request = urllib.request.Request(
            f"{base}/v1/tables/{examples.TABLE_ID}",
            data=json.dumps({"snapshot": examples.SNAPSHOT}).encode(),
            headers={"Content-Type": "application/json"},
            method="PUT",
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 201
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        # The service must not have logged an unhandled error, even one that ended in a 4xx.
        text = log.read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in text, text[-5000:]


@pytest.mark.slow
def test_schemathesis_finds_no_server_error_and_no_spec_violation(
    service: str, tmp_path: Path
) -> None:
    command = [
        sys.executable, "-c", "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())",
        "run", str(SPEC),
        "--url", service,
        "--checks", CHECKS,
        "--phases", "examples,coverage,fuzzing",
        "--max-examples", str(MAX_EXAMPLES),
        "--generation-deterministic",
        "--workers", "1",  # CPython 3.11's ast is not thread-safe under hypothesis's lambda repr
        "--request-timeout", "10",
        "--no-color",
        "--report", "junit",
        "--report-dir", str(tmp_path),
    ]  # fmt: skip
    started = time.monotonic()
    try:
        run = subprocess.run(
            command,
            cwd=tmp_path,  # schemathesis writes nothing into the checkout
            capture_output=True,
            text=True,
            timeout=TIME_BUDGET,
            env={
                **os.environ,
                "NO_PROXY": "127.0.0.1,localhost",
                "no_proxy": "127.0.0.1,localhost",
            },
        )
    except subprocess.TimeoutExpired as expired:
        output = expired.stdout if isinstance(expired.stdout, str) else ""
        pytest.fail(f"schemathesis exceeded its {TIME_BUDGET}s budget\n{output[-10000:]}")
    elapsed = time.monotonic() - started
    report = run.stdout + run.stderr
    assert run.returncode == 0, f"schemathesis failed (exit {run.returncode}):\n{report}"
    document = json.loads(SPEC.read_text(encoding="utf-8"))
    operations = sum(
        verb in {"get", "put", "post", "delete", "patch"}
        for item in document["paths"].values()
        for verb in item
    )
    assert f"Tested: {operations}" in report, report  # every operation was exercised
    print(f"schemathesis: {elapsed:.1f}s\n{report[-2500:]}")
