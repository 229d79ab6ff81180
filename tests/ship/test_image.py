"""The image, built from the Dockerfile and run as Kubernetes runs it (thorough profile).

Built with podman on a stand-in base (tests/ship/podman_image.py), then run against a Redis:
read-only root filesystem, every capability dropped, no new privileges, as the image's own user.
It must answer its health checks (the probe and the Dockerfile's HEALTHCHECK), keep a live table
in that Redis, and stop cleanly on SIGTERM.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as redis_py

from docs_run import blocks, differences, run_document
from live_server import free_port
from redis_server import RedisServer, in_ci
from table_support import SMALL_BODY

from .podman_image import ROOT, build, environment, missing_tools, podman

BIN = Path(sys.executable).parent

pytestmark = pytest.mark.slow

UID = "10001"


@pytest.fixture(scope="module")
def podman_env() -> Iterator[dict[str, str]]:
    missing = missing_tools()
    if missing:
        message = f"NO PODMAN: {', '.join(missing)} missing (apt-get install podman runc slirp4netns debootstrap)"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    work = Path(tempfile.mkdtemp(prefix="baohuang-podman-"))
    try:
        yield environment(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def image(podman_env: dict[str, str]) -> str:
    notes: list[str] = []
    started = time.monotonic()
    built = build(podman_env, notes)
    print(f"image {built}: {'; '.join(notes)}; {time.monotonic() - started:.0f} s in all")
    return built


def _call(url: str, body: Any = None, method: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _wait_healthy(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if _call(f"{url}/healthz")[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url}/healthz did not answer within {seconds} s")
        time.sleep(0.2)


def test_the_image_serves_a_live_table_locked_down_and_stops_on_sigterm(
    image: str, podman_env: dict[str, str], redis_server: RedisServer
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    name = f"baohuang-test-{port}"
    # The image's own command (0.0.0.0:8000) behind a published port; slirp4netns lets the
    # container reach this machine's loopback, where the test's Redis listens, as 10.0.2.2.
    redis_url = re.sub(r"//(127\.0\.0\.1|localhost)([:/])", r"//10.0.2.2\2", redis_server.url)
    podman(
        podman_env, "run", "-d", "--name", name,
        "--network", "slirp4netns:allow_host_loopback=true", "-p", f"127.0.0.1:{port}:8000",
        "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL",
        "--security-opt", "no-new-privileges",
        "-e", f"REDIS_URL={redis_url}", "-e", "BAOHUANG_TOKEN_SECRET=image-test-secret",
        image,
    )  # fmt: skip
    try:
        _wait_healthy(url)
        assert _call(f"{url}/readyz") == (200, {"status": "ok"})  # it reaches the Redis
        # The Dockerfile's own HEALTHCHECK command, run in the container (exit 0: healthy).
        podman(podman_env, "healthcheck", "run", name)

        status, verdict = _call(
            f"{url}/v1/combos/compare",
            {
                "previous": ["SJ", "SJ", "9S", "9H", "9C"],
                "candidate": ["BJ", "BJ", "JS", "JH", "JC"],
            },
        )
        assert (status, verdict["beats"]) == (200, True)

        table = f"image-{port}"
        status, created = _call(f"{url}/v1/tables/{table}", {"snapshot": SMALL_BODY}, "PUT")
        assert status == 201, created
        move = {"move": {"seat": 0, "action": "play", "cards": ["7S", "7H"]}, "version": 1}
        status, moved = _call(f"{url}/v1/tables/{table}/moves", move)
        assert status == 200, moved
        assert moved["version"] == 2
        assert [event["type"] for event in moved["events"]] == ["move", "played"]
        # The table lives in that Redis, not in the container.
        client = redis_py.Redis.from_url(redis_server.url)
        try:
            assert any(table.encode() in key for key in client.scan_iter(match=f"*{table}*"))
        finally:
            client.close()

        assert podman(podman_env, "exec", name, "id", "-u").strip() == UID
        user = podman(podman_env, "inspect", "--format", "{{.Config.User}}", name).strip()
        assert user.split(":")[0] == UID
        written = podman(
            podman_env, "exec", name, "python", "-c",
            "import pathlib\ntry:\n pathlib.Path('/opt/venv/probe').write_text('x')\n"
            " print('written')\nexcept OSError as e:\n print(e.errno)",
        ).strip()  # fmt: skip
        assert written == "30", f"the root filesystem is writable ({written})"  # EROFS

        started = time.monotonic()
        podman(podman_env, "kill", "--signal", "TERM", name)
        podman(podman_env, "wait", name, timeout=20)
        assert time.monotonic() - started < 10
        # uvicorn shuts down, then re-raises SIGTERM; tini reports it as 128 + 15 (a SIGKILL
        # after a timeout would be 137).
        code = podman(podman_env, "inspect", "--format", "{{.State.ExitCode}}", name).strip()
        assert code == "143", code
        logs = subprocess.run(
            ["podman", "logs", name], env=podman_env, capture_output=True, text=True, check=True
        )
        assert "Application shutdown complete" in logs.stdout + logs.stderr  # uvicorn's stderr
    finally:
        podman(podman_env, "rm", "-f", name, check=False)


@pytest.mark.parametrize("document", ["README.md", "docs/deploy.md"])
def test_the_documents_image_examples_work_as_written(
    image: str, podman_env: dict[str, str], document: str
) -> None:
    """README's and docs/deploy.md's `docker build` and `docker run` blocks, as written (``docker``
    is podman; the build's layers are the ones the fixture just built, so no network is needed
    inside the document's network namespace)."""
    path = ROOT / document
    image_blocks = [block for block in blocks(path) if block.image]
    assert image_blocks, f"{document} has no block marked <!-- run by tests/ship/test_image.py -->"
    before = set(podman(podman_env, "ps", "-aq").split())
    try:
        outcomes = [o for o in run_document(path, BIN, image=True, env=podman_env) if o.ran]
    finally:  # a block that failed half-way leaves its container (`--name referee`) behind
        for leftover in set(podman(podman_env, "ps", "-aq").split()) - before:
            podman(podman_env, "rm", "-f", leftover, check=False)
    assert [o.block for o in outcomes] == image_blocks
    for outcome in outcomes:
        where = f"{document}:{outcome.block.line}"
        assert outcome.status == 0, f"{where} failed:\n{outcome.output}"
        assert differences(outcome.block, outcome.output) == [], f"{where}:\n{outcome.output}"
