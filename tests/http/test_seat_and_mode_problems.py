"""A seat that is not 0–4 and a mode that is none of G-1's, wherever a request gives one: 422
``INVALID_SEAT`` (T-1) and ``INVALID_MODE`` (G-1) naming the field and the rule, as docs/errors.md
lists them; a seat or mode of the wrong JSON type stays 400 ``INVALID_FIELD``.

The places are found in the documented request examples (every route's), by the fields that
hold a seat or a mode, so a route or a field added later is covered without a change here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.http import examples
from baohuang.http.app import create_app
from baohuang.http.catalogue import BY_CODE
from baohuang.http.settings import Settings

from .problem_checks import assert_problem

Client = Any
# Fields that hold one seat, or a list of seats (T-1), in the API's bodies.
SEAT_FIELDS = {"seat", "emperor", "guard", "turn", "dealer", "first", "jiefeng"}
SEAT_LISTS = {"finished", "rebellion", "passed", "yielded", "pending"}
STEP = re.compile(r"\.(\w+)|\[(\d+)\]")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:  # type: ignore[type-arg]
    with TestClient(create_app(Settings())) as test_client:
        yield test_client


def places(value: Any, path: str = "$") -> Iterator[tuple[str, str]]:
    """(path, "seat" or "mode") of every seat and mode in a request body."""
    if isinstance(value, dict):
        for key, member in value.items():
            where = f"{path}.{key}"
            if key in SEAT_FIELDS and isinstance(member, int) and not isinstance(member, bool):
                yield where, "seat"
            elif key in SEAT_LISTS and isinstance(member, list):
                yield from ((f"{where}[{i}]", "seat") for i in range(len(member)))
            elif key == "mode" and isinstance(member, str):
                yield where, "mode"
            else:
                yield from places(member, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, f"{path}[{index}]")


def replaced(value: Any, path: str, new: Any) -> Any:
    """``value`` with the member at ``path`` (``$.a.b[2]``) set to ``new``, copied."""
    steps = [name or int(index) for name, index in STEP.findall(path)]

    def down(node: Any, rest: list[str | int]) -> Any:
        if not rest:
            return new
        step, *after = rest
        if isinstance(step, int):
            return [down(item, after) if i == step else item for i, item in enumerate(node)]
        return {key: down(item, after) if key == step else item for key, item in node.items()}

    return down(value, steps)


def cases() -> list[tuple[str, str, str, str, Any]]:
    """(method, url, path in the body, kind, example body) for every seat and mode."""
    found = []
    for (template, verb), named in sorted(examples.REQUESTS.items()):
        url = template.replace("{table_id}", examples.TABLE_ID).replace("{seat}", "3")
        for example in named.values():
            for where, kind in places(example["value"]):
                found.append((verb.upper(), url, where, kind, example["value"]))
    return found


CASES = cases()


def test_the_examples_hold_seats_and_modes_on_many_routes() -> None:
    routes = {url for _, url, _, _, _ in CASES}
    kinds = {kind for _, _, _, kind, _ in CASES}
    assert kinds == {"seat", "mode"} and len(routes) >= 10, routes
    assert ("$.move.seat", "seat") in {(where, kind) for _, _, where, kind, _ in CASES}


@pytest.mark.parametrize(
    ("method", "url", "where", "kind", "body"),
    CASES,
    ids=[f"{method} {url} {where}" for method, url, where, *_ in CASES],
)
def test_a_seat_or_mode_out_of_its_domain_is_422_naming_field_and_rule(
    client: Client, method: str, url: str, where: str, kind: str, body: Any
) -> None:
    client.put(f"/v1/tables/{examples.TABLE_ID}", json={"snapshot": examples.SNAPSHOT})
    code, rule = ("INVALID_SEAT", "T-1") if kind == "seat" else ("INVALID_MODE", "G-1")
    for wrong in (7, -1) if kind == "seat" else ("duo", "Team"):
        answer = client.request(method, url, json=replaced(body, where, wrong))
        document = assert_problem(answer, 422, code, where)
        error = document["errors"][0]
        assert error["rule"] == rule, error
        assert str(wrong) in error["message"] and f"({rule})" in error["message"], error
        assert 422 in BY_CODE[code].statuses
    # The wrong JSON type is no seat or mode either, but another kind of mistake.
    answer = client.request(method, url, json=replaced(body, where, "3" if kind == "seat" else 3))
    assert_problem(answer, 400, "INVALID_FIELD", where)


@pytest.mark.parametrize(
    ("method", "url", "where"),
    [
        ("GET", "/seats/9", "$.path.seat"),
        ("POST", "/seats/5/trustee", "$.path.seat"),
        ("POST", "/seats/-1/leave", "$.path.seat"),
        ("POST", "/seats/9/token", "$.path.seat"),
        ("GET", "/legal-moves?seat=7", "$.query.seat"),
    ],
)
def test_a_seat_in_the_path_or_the_query_is_422_too(
    client: Client, method: str, url: str, where: str
) -> None:
    table = f"/v1/tables/{examples.TABLE_ID}"
    client.put(table, json={"snapshot": examples.SNAPSHOT})
    payload: dict[str, Any] | None = {"version": 1, "on": True} if "trustee" in url else None
    if url.endswith(("/leave", "/token")):
        payload = {"version": 1}
    answer = client.request(method, table + url, json=payload)
    document = assert_problem(answer, 422, "INVALID_SEAT")
    assert document["errors"][0]["path"] == where
    assert document["errors"][0]["rule"] == "T-1"


def test_every_operation_naming_a_seat_documents_its_422(client: Client) -> None:
    document = client.get("/schema/openapi.json").json()
    for path, item in document["paths"].items():
        for verb, operation in item.items():
            names = {parameter["name"] for parameter in operation.get("parameters", [])}
            if "seat" in names:
                assert "422" in operation["responses"], (verb, path)
