"""The Node tools of clients/typescript (tsc, openapi-typescript, spectral), installed by
``npm ci`` there (.ci/run does it). Without Node or that install a test skips loudly, and under
``CI=true`` it fails, as for a missing Redis (:mod:`redis_server`)."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path
from typing import NoReturn

import pytest

from redis_server import in_ci

ROOT = Path(__file__).resolve().parent.parent
TYPESCRIPT = ROOT / "clients" / "typescript"


def node_unavailable(reason: str) -> NoReturn:
    message = f"NO NODE TOOLS: {reason}"
    if in_ci():
        pytest.fail(f"{message} (CI=true: missing Node tools are a failure, not a skip)")
    pytest.skip(f"{message} (install Node 20 and run `npm ci` in clients/typescript)")


def _npm_ci_done() -> None:
    """Wait for an ``npm ci`` still installing: .ci/run runs it beside pip's install, holding an
    exclusive lock on package-lock.json until it is done (no wait when nothing holds it)."""
    with (TYPESCRIPT / "package-lock.json").open("rb") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)


def node_tool(name: str) -> Path:
    """``clients/typescript/node_modules/.bin/<name>``, or a loud skip (a failure under CI)."""
    if shutil.which("node") is None:
        node_unavailable("`node` is not on PATH")
    _npm_ci_done()
    tool = TYPESCRIPT / "node_modules" / ".bin" / name
    if not tool.exists():
        node_unavailable(f"{tool.relative_to(ROOT)} is missing")
    return tool


def run(
    command: list[str | Path],
    cwd: Path = TYPESCRIPT,
    timeout: float = 120,
    env: dict[str, str] | None = None,
) -> str:
    """Run ``command``; its output, or a failure that shows it."""
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, (
        f"{command} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    )
    return done.stdout
