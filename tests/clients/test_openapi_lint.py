"""openapi/openapi.json passes Spectral's ``spectral:oas`` ruleset, every rule an error, and
the rules a generated SDK needs (openapi/.spectral.yaml): camelCase operationIds in one
verb-noun style, a summary and error responses on every operation, every error a problem
document. Offline: Spectral comes from clients/typescript's lockfile."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from node_tools import ROOT, TYPESCRIPT, node_tool

RULESET = ROOT / "openapi" / ".spectral.yaml"
DOCUMENT = ROOT / "openapi" / "openapi.json"


def options(document: Path) -> list[str]:
    return ["--ruleset", str(RULESET), str(document)]


def lint(document: Path) -> set[tuple[str, str]]:
    """The (rule, path) of every result Spectral reports, at any severity."""
    done = subprocess.run(
        [
            node_tool("spectral"),
            "lint",
            "--format=json",
            "--fail-severity=hint",
            *options(document),
        ],
        cwd=TYPESCRIPT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    if done.returncode == 0:  # "No results …", as text
        return set()
    results = json.loads(done.stdout)
    assert results, done.stdout
    return {(result["code"], ".".join(map(str, result["path"]))) for result in results}


# Spectral (a Node process, ~10 s of CPU) lints in CI; the quick loop keeps the same names in
# tests/http/test_openapi_for_clients.py (operationIds, schema names, problem responses).
@pytest.mark.slow
def test_the_document_passes_spectral_oas_and_the_sdk_rules() -> None:
    assert lint(DOCUMENT) == set()


@pytest.mark.slow  # Spectral takes its seconds to start
def test_the_lint_fails_a_document_that_breaks_its_rules(tmp_path: Path) -> None:
    """The lint can fail: each rule the SDKs lean on, broken once in one document."""
    document = json.loads(DOCUMENT.read_text())
    compare = document["paths"]["/v1/combos/compare"]["post"]
    compare["operationId"] = "V1CombosCompareCompare"
    document["paths"]["/v1/tables/{table_id}"]["put"]["operationId"] = "putTable"
    del document["paths"]["/v1/combos/classify"]["post"]["summary"]
    problem = document["paths"]["/v1/deal"]["post"]["responses"]["422"]["content"]
    problem["application/problem+json"]["schema"] = {"type": "object"}
    document["components"]["schemas"]["Unused"] = {"type": "object"}
    broken = tmp_path / "openapi.json"
    broken.write_text(json.dumps(document))
    found = lint(broken)
    for rule, where in [
        ("operation-id-camel-case", "paths./v1/combos/compare.post.operationId"),
        ("operation-id-verb-noun", "paths./v1/tables/{table_id}.put.operationId"),
        ("operation-summary", "paths./v1/combos/classify.post"),
        ("error-responses-are-problem-documents", "paths./v1/deal.post.responses.422.content"),
        ("oas3-unused-component", "components.schemas.Unused"),
    ]:
        assert any(code == rule and path.startswith(where) for code, path in found), (rule, found)
