"""One problem shape and its catalogue: every code registered, docs/errors.md generated from the
registry, every ``type`` a page of the service, the table's 422 carrying the verdict's ``reason``.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from baohuang.http.catalogue import BY_CODE, CODES, problem_type
from baohuang.http.catalogue_pages import markdown
from table_support import SMALL_BODY

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "service" / "baohuang"
CODE = re.compile(r"^[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)*$")  # FORBIDDEN, UNKNOWN_CARD
# Where the code is among a call's positional arguments.
CODE_ARGUMENT = {"Problem": 1, "InvalidInput": 0, "Reason": 0}


def _constants(trees: list[ast.Module]) -> dict[str, str]:
    """Module-level ``NAME = "CODE"`` (or ``NAME: Final = "CODE"``) in the package."""
    found: dict[str, str] = {}
    for tree in trees:
        for node in tree.body:
            target, value = None, None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            if (
                isinstance(target, ast.Name)
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                found[target.id] = value.value
    return found


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _class_code(node: ast.ClassDef) -> str | None:
    """The ``code = "CODE"`` a class body assigns, if any."""
    for statement in node.body:
        if (
            isinstance(statement, ast.Assign)
            and [getattr(target, "id", None) for target in statement.targets] == ["code"]
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            return statement.value.value
    return None


def codes_in_source() -> dict[str, str]:
    """Every code the service can send, found in its source: the code argument of each
    ``Problem(…)``, ``InvalidInput(…)`` and ``Reason(…)``, and every code-like string of
    http/problems.py (which maps the framework's errors to codes); each with where it is."""
    return dict(_scan_source())


@functools.cache
def _scan_source() -> dict[str, str]:
    """:func:`codes_in_source`, parsed once per process (four tests read it)."""
    files = sorted(PACKAGE.rglob("*.py"))
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in files]
    constants = _constants(trees)
    found: dict[str, str] = {}
    for path, tree in zip(files, trees, strict=True):
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) in CODE_ARGUMENT:
                index = CODE_ARGUMENT[_called(node) or ""]
                argument: ast.expr | None = node.args[index] if len(node.args) > index else None
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        argument = keyword.value
                value = None
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    value = argument.value
                elif isinstance(argument, ast.Name):
                    value = constants.get(argument.id)
                if value is not None and CODE.match(value):
                    found.setdefault(value, f"{where}:{node.lineno}")
            elif (
                isinstance(node, ast.ClassDef)
                and (value := _class_code(node)) is not None
                and CODE.match(value)
            ):  # an error class that carries its code (``code = "TOKEN_REVOKED"``)
                found.setdefault(value, f"{where}:{node.lineno}")
            elif (
                path.name == "problems.py"
                and path.parent.name == "http"
                and isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CODE.match(node.value)
            ):  # the codes HTTP errors of the framework are mapped to, by status
                found.setdefault(node.value, f"{where}:{node.lineno}")
    return found


NEVER_SENT: dict[str, str] = {
    "INVALID_HANDS": "the body's schema asks for five hands first (400 INVALID_FIELD at $.hands)",
    "INVALID_ENTROPY": "the body's schema checks a seat's entropy first (400 INVALID_FIELD at "
    "$.entropy); the service deals from the entropy it keeps",
    "INVALID_SEED": "the service commits to seeds it makes itself; no request carries one",
}
"""Codes the engine raises for input that never comes in a request: the HTTP layer refuses it
first, or makes it itself. The record verifier reports them (docs/records.md); the service
never answers with them, so they are not registered (tests/http/test_codes_sent.py sends every
registered code)."""


def test_codes_the_service_never_sends_are_in_the_source_and_not_registered() -> None:
    found = codes_in_source()
    for code in NEVER_SENT:
        assert code in found, f"{code} is no longer in the source: drop it from NEVER_SENT"
        assert code not in BY_CODE, f"{code} is registered: drop it from NEVER_SENT"


def test_the_source_scan_finds_codes_of_every_kind() -> None:
    found = codes_in_source()
    # A problem of the HTTP layer, bad input of the engine, a refusal, a table refusal, a void
    # reason, a code behind a constant, and one from the status map.
    for code in (
        "STORE_UNAVAILABLE",
        "UNKNOWN_CARD",
        "NOT_HIGHER",
        "TRUSTEE_LOCKED",
        "ALL_TRUSTEE",
        "INVALID_SNAPSHOT",
        "METHOD_NOT_ALLOWED",
        "TOKEN_REVOKED",
    ):
        assert code in found, code


def test_every_code_the_service_can_send_is_registered() -> None:
    missing = {
        code: where
        for code, where in codes_in_source().items()
        if code not in BY_CODE and code not in NEVER_SENT
    }
    assert not missing, (
        "codes sent but not registered in service/baohuang/http/catalogue.py (add one line to "
        "CODES each, then `baohuang errors > docs/errors.md`): "
        + ", ".join(f"{code} (at {where})" for code, where in sorted(missing.items()))
    )


def test_every_registered_code_is_sent_somewhere() -> None:
    stale = sorted(set(BY_CODE) - set(codes_in_source()))
    assert not stale, f"registered in catalogue.py but sent nowhere: {', '.join(stale)}"


def test_registry_entries_are_unique_and_complete() -> None:
    assert len(BY_CODE) == len(CODES), "a code is registered twice"
    for entry in CODES:
        assert CODE.match(entry.code), entry
        assert entry.statuses and all(100 <= status < 600 for status in entry.statuses), entry
        assert entry.meaning.strip(), entry
        if entry.kind == "problem":
            assert all(status >= 400 for status in entry.statuses), entry


def test_docs_errors_md_is_generated_from_the_registry() -> None:
    committed = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    assert committed == markdown(), (
        "docs/errors.md is stale: run `baohuang errors > docs/errors.md`"
    )
    for entry in CODES:
        assert f"| `{entry.code}` |" in committed


def test_a_problem_type_leads_to_the_page_of_its_code(client: TestClient[Any]) -> None:
    problem = client.post("/v1/combos/classify", json={"cards": ["ZZ"]})
    assert problem.status_code == 422
    document = problem.json()
    assert document["type"] == "/problems/unknown-card"
    page = client.get(document["type"])  # a relative reference, resolved against the request
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "<code>UNKNOWN_CARD</code>" in page.text
    assert BY_CODE["UNKNOWN_CARD"].meaning.split("(")[0].strip() in page.text


def test_every_registered_code_has_a_page_and_the_index_links_them(
    client: TestClient[Any],
) -> None:
    index = client.get("/problems")
    assert index.status_code == 200
    for entry in CODES:
        assert f'href="{problem_type(entry.code)}"' in index.text, entry.code
        page = client.get(problem_type(entry.code))
        assert page.status_code == 200, entry.code
        assert f"<code>{entry.code}</code>" in page.text


def test_an_unknown_code_has_no_page(client: TestClient[Any]) -> None:
    answer = client.get("/problems/no-such-code")
    assert answer.status_code == 404
    assert answer.json()["errors"][0]["path"] == "$.path.code"


def test_every_problem_names_its_registered_code_in_type(client: TestClient[Any]) -> None:
    answers = [
        client.post(
            "/v1/combos/classify", content=b"{", headers={"content-type": "application/json"}
        ),
        client.post("/v1/combos/classify", json={"cards": "7S"}),
        client.get("/v1/rulesets/clasic"),
        client.get("/v1/tables/nope"),
        client.delete("/healthz"),
        client.get("/no/such/route"),
    ]
    for answer in answers:
        document = answer.json()
        code = document["errors"][0]["code"]
        assert code in BY_CODE, document
        assert answer.status_code in BY_CODE[code].statuses, document
        assert document["type"] == problem_type(code), document


def test_a_header_parameter_is_named_in_the_one_path_style_without_doubled_escapes(
    client: TestClient[Any],
) -> None:
    created = client.put("/v1/tables/paths", json={"snapshot": SMALL_BODY})
    assert created.status_code == 201
    answer = client.post(
        "/v1/tables/paths/moves",
        headers={"Idempotency-Key": "two words"},
        json={"move": {"seat": 0, "action": "pass"}, "version": 1},
    )
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert error["path"] == "$.headers.idempotency-key"
    # The pattern as it is written: one backslash in the string, two in the JSON text.
    assert "'^[\\x21-\\x7e]+$'" in error["message"], error
    assert "\\\\\\\\" not in answer.text


def test_path_parameters_are_under_path(client: TestClient[Any]) -> None:
    missing = client.get("/v1/tables/nowhere")
    assert missing.json()["errors"][0]["path"] == "$.path.table_id"
    unknown = client.get("/v1/rulesets/clasic")
    assert unknown.json()["errors"][0]["path"] == "$.path.name"
    client.put("/v1/tables/seatpaths", json={"snapshot": SMALL_BODY})
    token = client.put("/v1/tables/seatpaths", json={"snapshot": SMALL_BODY}).json()["seat_tokens"]
    other = client.post(
        "/v1/tables/seatpaths/seats/2/trustee",
        headers={"authorization": f"Bearer {token[1]}"},
        json={"on": True, "version": 1},
    )
    assert other.status_code == 403
    assert other.json()["errors"][0]["path"] == "$.path.seat"


def test_a_refused_table_move_carries_the_reason_a_verdict_gives(client: TestClient[Any]) -> None:
    move = {"seat": 1, "action": "pass"}  # seat 0 leads: not seat 1's turn
    verdict = client.post("/v1/moves/validate", json={"snapshot": SMALL_BODY, "move": move})
    assert verdict.status_code == 200
    assert verdict.json()["legal"] is False
    client.put("/v1/tables/reasons", json={"snapshot": SMALL_BODY})
    refused = client.post("/v1/tables/reasons/moves", json={"move": move, "version": 1})
    assert refused.status_code == 422
    document = refused.json()
    assert document["title"] == "Illegal move"
    assert document["reason"] == verdict.json()["reason"]
    assert document["errors"][0]["code"] == document["reason"]["code"] == "NOT_YOUR_TURN"
    assert document["type"] == "/problems/not-your-turn"
    # Bad input is no verdict: no reason.
    bad = client.post(
        "/v1/tables/reasons/moves",
        json={"move": {"seat": 0, "action": "play", "cards": ["ZZ"]}, "version": 1},
    )
    assert bad.status_code == 422
    assert "reason" not in bad.json()
