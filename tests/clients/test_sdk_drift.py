"""The committed SDKs are what the pinned generators write from openapi/openapi.json today.

Each is generated again into a temporary directory with clients/generate's settings and
compared file by file; when they differ, ``clients/generate`` rewrites them. (The document
itself is held to the service by tests/http/test_operations_api.py.)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from node_tools import ROOT, TYPESCRIPT, node_tool, run
from redis_server import in_ci

DOCUMENT = ROOT / "openapi" / "openapi.json"
PYTHON_CLIENT = ROOT / "clients" / "python" / "baohuang_client"
FIX = "the committed SDK drifted from openapi/openapi.json: run clients/generate and commit it"


def files(tree: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(tree)): path.read_bytes()
        for path in sorted(tree.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def generator() -> Path:
    found = Path(sys.executable).parent / "openapi-python-client"
    if not found.exists():
        which = shutil.which("openapi-python-client")
        if which is None:
            message = "NO openapi-python-client (pip install -e '.[test]')"
            if in_ci():
                pytest.fail(f"{message} (CI=true: a failure, not a skip)")
            pytest.skip(message)
        found = Path(which)
    return found


def test_the_python_client_is_what_the_generator_writes(tmp_path: Path) -> None:
    out = tmp_path / "baohuang_client"
    command = [generator(), "generate", "--path", DOCUMENT, "--meta", "none"]
    command += ["--config", ROOT / "clients" / "python" / "config.yaml", "--output-path", out]
    done = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and "Warning" not in done.stdout, done.stdout + done.stderr
    fresh, committed = files(out), files(PYTHON_CLIENT)
    assert sorted(fresh) == sorted(committed), FIX
    changed = [name for name in fresh if fresh[name] != committed[name]]
    assert not changed, f"{FIX}: {changed}"


def test_the_typescript_types_are_what_the_generator_writes(tmp_path: Path) -> None:
    out = tmp_path / "schema.d.ts"
    run([node_tool("openapi-typescript"), DOCUMENT, "-o", out])
    committed = (TYPESCRIPT / "src" / "schema.d.ts").read_text()
    assert out.read_text() == committed, FIX
