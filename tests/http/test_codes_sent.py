"""Every registered code, sent (docs/errors.md is generated from the registry; this checks the
registry against what the service really answers): for each code of
service/baohuang/http/catalogue.py a recipe makes the request(s) that produce it, and the answer
must be the registry's — a status it documents for the code, and

* a problem: the one problem shape (tests/http/problem_checks.py) with the code in
  ``errors[0].code`` and ``type`` its page;
* a refusal: a 200 verdict whose ``reason`` (``failed.reason`` of a replay) has the code, or a
  422 problem carrying it (a live table's "Illegal move" with the same ``reason``);
* a void reason: a 200 whose ``void`` has the code.

A registered code without a recipe fails :func:`test_every_registered_code_has_a_recipe`: a new
code comes with the request that sends it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.catalogue import BY_CODE, CODES, Code
from baohuang.http.problems import ILLEGAL_MOVE_TITLE

from .code_recipes import TIGHT, Answer, Recipe, Senders
from .problem_checks import assert_problem
from .recipes_requests import RECIPES as REQUESTS
from .recipes_tables import RECIPES as TABLES
from .recipes_verdicts import RECIPES as VERDICTS


def _merged(*tables: dict[str, Recipe]) -> dict[str, Recipe]:
    merged: dict[str, Recipe] = {}
    for recipes in tables:
        twice = set(merged) & set(recipes)
        assert not twice, f"two recipes send {sorted(twice)}"
        merged.update(recipes)
    return merged


RECIPES = _merged(REQUESTS, TABLES, VERDICTS)
VERDICT_FLAGS = ("legal", "valid", "beats")


@pytest.fixture(scope="module")
def tight() -> Litestar:
    return create_app(TIGHT)


def test_every_registered_code_has_a_recipe() -> None:
    missing = sorted(set(BY_CODE) - set(RECIPES))
    assert not missing, (
        "registered codes no test sends (add a recipe to tests/http/recipes_*.py): "
        + ", ".join(missing)
    )
    unknown = sorted(set(RECIPES) - set(BY_CODE))
    assert not unknown, f"recipes for codes that are not registered: {', '.join(unknown)}"


def _voids(document: Any) -> Iterator[dict[str, Any]]:
    """Every ``void`` reason in an answer (a score's, or the scores of a table's results)."""
    if isinstance(document, dict):
        for key, value in document.items():
            if key == "void" and isinstance(value, dict):
                yield value
            else:
                yield from _voids(value)
    elif isinstance(document, list):
        for item in document:
            yield from _voids(item)


def _verdict_reason(document: dict[str, Any]) -> Any:
    """The reason of a "no": a verdict's, or the failed move's of a replay."""
    if document.get("failed"):
        return document["failed"]["reason"]
    return document.get("reason")


def check(entry: Code, answer: Answer) -> None:
    """``answer`` is what the registry says ``entry`` comes with."""
    status = answer.status_code
    assert status in entry.statuses, (
        f"{entry.code} came with {status}; the registry documents {entry.statuses}: {answer.text}"
    )
    if entry.kind == "problem" or status >= 400:
        document = assert_problem(answer, status, entry.code)
        # A live table's refusal is an "Illegal move" carrying the verdict's reason; a refusal
        # code in input the referee cannot judge (a compare's ``previous``) carries none.
        table_only = entry.kind == "refusal" and 200 not in entry.statuses
        if table_only or "reason" in document or document["title"] == ILLEGAL_MOVE_TITLE:
            assert document["title"] == ILLEGAL_MOVE_TITLE, document
            assert document["reason"]["code"] == entry.code, document
        return
    document = answer.json()
    if entry.kind == "refusal":
        reason = _verdict_reason(document)
        assert isinstance(reason, dict) and reason.get("code") == entry.code, document
        assert {"code", "rule", "message"} <= reason.keys(), reason
        flags = [document[flag] for flag in VERDICT_FLAGS if flag in document]
        assert flags == [False], document
    else:
        assert entry.code in [void.get("code") for void in _voids(document)], document


@pytest.mark.parametrize("entry", CODES, ids=lambda entry: entry.code)
def test_the_service_sends_each_code_as_the_registry_documents_it(
    entry: Code, client: TestClient[Any], tight: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    recipe = RECIPES.get(entry.code)
    if recipe is None:
        pytest.fail(f"no recipe sends {entry.code} (test_every_registered_code_has_a_recipe)")
    sent = recipe(Senders(client, tight, monkeypatch))
    answers = [sent] if isinstance(sent, Answer) else list(sent)
    assert answers, f"the recipe for {entry.code} sent nothing"
    for answer in answers:
        check(entry, answer)
