"""The layout keeps its shape: the import contracts of pyproject.toml ([tool.importlinter]).

``http`` → ``tables`` → ``bots`` and ``records`` → ``store`` and ``engine``, never upwards; the
bots on the engine's public face only (a bot knows what its seat sees, never a snapshot from the
store), and the deal records too (their verifier needs no store); inside the engine, the dispatch
(``engine/phases.py``) above the two phases, which never import each other, above the shared
rules; and no import cycle between sibling modules anywhere.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept() -> None:
    tool = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert tool, "import-linter is not installed: pip install -e '.[test]'"
    result = subprocess.run(
        [tool, "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
