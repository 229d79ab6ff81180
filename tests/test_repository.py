"""The repository keeps its promises: README commands match CI, lint and types are clean."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", text)[:2]


def test_readme_opens_with_install_serve_and_test_commands() -> None:
    serve, test = _readme_commands()
    assert "pip install" in serve and "baohuang serve" in serve
    assert "pytest" in test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    _, test = _readme_commands()
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [_tool("ruff"), "check", "service", "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = subprocess.run(
        [_tool("ruff"), "format", "--check", "service", "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # ~25 s of CPU without a cache (a fresh clone): CI, and pre-commit's hook
def test_mypy_strict_is_clean() -> None:
    result = subprocess.run(
        [_tool("mypy"), "--no-error-summary"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
