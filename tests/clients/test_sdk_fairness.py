"""The TypeScript SDK's check of a committed deal (clients/typescript/src/fairness.ts) against the
published test vectors, docs/dealing-vectors.json — the same the engine's tests check
(tests/engine/test_committed_dealing.py): ``npm test`` in clients/typescript, compiled by
``tsc --strict`` and run by ``node --test``. Without Node or its install, a loud skip; a failure
under CI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from node_tools import ROOT, TYPESCRIPT, node_tool, run

pytestmark = pytest.mark.slow  # tsc takes seconds


def test_the_typescript_sdk_deals_every_published_committed_vector(tmp_path: Path) -> None:
    source = (TYPESCRIPT / "src" / "fairness.ts").read_text()
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.S)
    assert not re.search(r"\bas\s+(?!const\b)\S", code), "a cast (`as`) in fairness.ts"
    tsc = node_tool("tsc")
    run([tsc, "-p", "tsconfig.test.json", "--outDir", tmp_path])
    vectors = ROOT / "docs" / "dealing-vectors.json"
    out = run(
        ["node", "--test", tmp_path / "test" / "fairness.test.js"],
        env={"PATH": str(Path(tsc).parent) + ":/usr/bin:/bin", "DEALING_VECTORS": str(vectors)},
    )
    assert re.search(r"^# pass (\d+)$", out, re.M) and "# fail 0" in out, out
    assert int(re.search(r"^# pass (\d+)$", out, re.M).group(1)) >= 7  # type: ignore[union-attr]
