"""Every shell example of README.md and docs/*.md runs as written and prints what is shown.

tests/docs_run.py runs them (its docstring says how blocks are marked and compared); the blocks
that build or run the image are run by tests/ship/test_image.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from docs_run import DOCUMENTS, Block, blocks, differences, run_document, tools_missing
from redis_server import in_ci

BIN = Path(sys.executable).parent


@pytest.fixture(scope="module", autouse=True)
def _tools() -> None:
    missing = tools_missing()
    if missing:
        message = f"NO {', '.join(missing).upper()}: the docs test needs unshare, ip, curl and jq"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def _where(block: Block) -> str:
    return f"{block.document}:{block.line}"


@pytest.mark.parametrize(
    "document",
    [d for d in DOCUMENTS if any(b.not_run is None and not b.image for b in blocks(d))],
    ids=lambda d: d.name,
)
def test_every_example_runs_and_prints_what_the_document_shows(document: Path) -> None:
    failures = []
    for outcome in run_document(document, BIN):
        if not outcome.ran:
            continue
        if outcome.status != 0:
            failures.append(f"{_where(outcome.block)} failed:\n{outcome.output}")
            continue
        wrong = differences(outcome.block, outcome.output)
        if wrong:
            failures.append(
                f"{_where(outcome.block)} printed what the document does not show: "
                + "; ".join(wrong)
                + f"\n--- printed:\n{outcome.output}"
            )
    assert not failures, "\n\n".join(failures)


def test_every_block_not_run_says_why() -> None:
    for document in DOCUMENTS:
        for block in blocks(document):
            if block.not_run is not None:
                assert len(block.not_run.split()) >= 4, f"{_where(block)}: say why it is not run"


def test_the_documents_have_examples_the_suite_runs() -> None:
    runs = {d.name: sum(b.not_run is None for b in blocks(d)) for d in DOCUMENTS}
    assert runs["README.md"] >= 2 and runs["clients.md"] >= 20 and runs["deploy.md"] >= 1, runs


def test_a_wrong_answer_or_a_failing_command_is_caught(tmp_path: Path) -> None:
    document = tmp_path / "example.md"
    document.write_text(
        '```sh\nB=1\necho \'{"a": 1, "b": [1, 2]}\'\n```\n\n```json\n{"a": 2}\n```\n\n'
        '```sh\necho "{\\"a\\": $B, \\"id\\": 7}"\n```\n\n```json\n{"a": 1}\n```\n\n'
        "```sh\necho one; echo 'two words'\n```\n\n```text\ntwo …\none\n```\n\n"
        "<!-- not run: it would fail, and says so -->\n```sh\nfalse\n```\n\n"
        "```sh\nfalse\necho after\n```\n",
        encoding="utf-8",
    )
    wrong_value, right, out_of_order, not_run, failing = run_document(document, BIN)
    assert differences(wrong_value.block, wrong_value.output) == ["$.a: expected 2, got 1"]
    assert right.status == 0 and differences(right.block, right.output) == []  # $B carried over
    assert differences(out_of_order.block, out_of_order.output) != []
    assert not not_run.ran
    assert failing.ran and failing.status is None
