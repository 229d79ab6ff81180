"""The page's logic in node (tests/play_js/*.test.mjs): state.js (the handler per event type,
the folded log, the replay by step and by trick, the live region's lines), words.js (what the
page says of what happened), hand.js (the hand's layout) and the labels. Quick: no browser.
Without node, a loud skip; under CI=true a failure."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from redis_server import in_ci

TESTS = Path(__file__).resolve().parent


def test_the_page_logic_in_node() -> None:
    node = shutil.which("node")
    if node is None:
        message = "NO NODE: tests/play_js/ need node (18 or later)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    run = subprocess.run(
        [node, "--test", *sorted(str(path) for path in TESTS.glob("*.test.mjs"))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
