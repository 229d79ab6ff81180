"""The OpenAPI document says what the service does.

Every operation has a summary, a description, schemas and examples; every error response is the
problem document actually sent (never Litestar's ``{status_code, detail, extra}``, litestar issue
#4523); every request example, sent to the service, gets a documented status and a response that
matches its schema and holds what the response example shows.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.http import examples
from baohuang.http.app import create_app
from baohuang.http.settings import Settings

from .openapi_paths import operations, walk

jsonschema_rs = pytest.importorskip("jsonschema_rs")  # installed with schemathesis (test extra)

PROBLEM_REF = {"$ref": "#/components/schemas/ProblemDocument"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:  # type: ignore[type-arg]
    with TestClient(create_app(Settings(token_secret="contract-tests"))) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def document(client: TestClient) -> dict[str, Any]:  # type: ignore[type-arg]
    served: dict[str, Any] = client.get("/schema/openapi.json").json()
    return served


def validator(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    root = {**schema, "components": document["components"]}
    return jsonschema_rs.Draft202012Validator(root)


def test_litestar_default_error_schema_appears_nowhere(document: dict[str, Any]) -> None:
    problems = validator(document, PROBLEM_REF)  # built once: every example is checked by it
    for node in walk(document):
        if isinstance(node, dict) and isinstance(node.get("properties"), dict):
            assert not {"status_code", "extra"} <= node["properties"].keys(), node
        if isinstance(node, str):
            assert node != "Validation Exception"
    for path, verb, operation in operations(document):
        for status, response in operation["responses"].items():
            if int(status) >= 400:
                assert list(response["content"]) == ["application/problem+json"], (path, verb)
                media = response["content"]["application/problem+json"]
                assert media["schema"] == PROBLEM_REF, (path, verb, status)
                assert media["examples"], (path, verb, status)
                for example in media["examples"].values():
                    problem = example["value"]
                    assert problem["status"] == int(status)
                    problems.validate(problem)


def test_every_operation_is_described_with_schemas_and_examples(document: dict[str, Any]) -> None:
    seen = 0
    for path, verb, operation in operations(document):
        seen += 1
        where = f"{verb.upper()} {path}"
        assert operation.get("summary") and operation.get("description"), where
        assert "500" in operation["responses"], where
        if verb in {"post", "put"}:
            media = operation["requestBody"]["content"]["application/json"]
            assert media["schema"], where
            assert media["examples"], where
        successes = {s: r for s, r in operation["responses"].items() if int(s) < 400}
        assert successes, where
        for status, response in successes.items():
            if status == "204":
                assert "content" not in response, where
                continue
            if status.startswith("3"):  # a redirect: no body, a Location
                assert "content" not in response and "Location" in response["headers"], where
                continue
            media = response["content"]["application/json"]
            assert media["schema"], where
            if path != "/v1/rulesets" and path != "/v1/rulesets/{name}":  # the registry itself
                assert media.get("examples"), f"{where} {status}"
            check = validator(document, media["schema"])
            for example in media.get("examples", {}).values():
                check.validate(example["value"])
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path":
                assert parameter.get("examples"), (where, parameter["name"])
    assert seen >= 18
    # Every example key names a documented operation (no stale examples).
    documented = {(path, verb) for path, verb, _ in operations(document)}
    assert set(examples.REQUESTS) <= documented
    assert {(path, verb) for path, verb, _ in examples.RESPONSES} <= documented


def test_every_reference_resolves(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for node in walk(document):
        if isinstance(node, dict) and "$ref" in node:
            name = node["$ref"].removeprefix("#/components/schemas/")
            assert name in schemas, node["$ref"]


def holds(actual: Any, example: Any, where: str = "$") -> None:
    """``actual`` holds everything ``example`` shows (fields added later are tolerated)."""
    if isinstance(example, dict):
        assert isinstance(actual, dict), where
        for key, value in example.items():
            assert key in actual, f"{where}.{key}"
            holds(actual[key], value, f"{where}.{key}")
    elif isinstance(example, list):
        assert isinstance(actual, list) and len(actual) == len(example), where
        for index, (a, e) in enumerate(zip(actual, example, strict=True)):
            holds(a, e, f"{where}[{index}]")
    else:
        assert actual == example, f"{where}: {actual!r} != {example!r}"


STATELESS = [key for key in examples.REQUESTS if not key[0].startswith("/v1/tables/")]


@pytest.mark.parametrize(("path", "verb"), STATELESS, ids=[f"{v} {p}" for p, v in STATELESS])
def test_request_examples_are_real_requests(
    client: TestClient,  # type: ignore[type-arg]
    document: dict[str, Any],
    path: str,
    verb: str,
) -> None:
    operation = document["paths"][path][verb]
    for name, example in examples.REQUESTS[(path, verb)].items():
        response = client.request(verb.upper(), path, json=example["value"])
        assert response.status_code == 200, (name, response.text)
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        validator(document, schema).validate(response.json())
        shown = examples.RESPONSES[(path, verb, 200)]
        expected = shown.get(name, shown.get("example"))
        assert expected is not None, (path, verb, name)
        holds(response.json(), expected["value"])


def test_table_examples_are_real_requests(
    client: TestClient,  # type: ignore[type-arg]
    document: dict[str, Any],
) -> None:
    """Each documented table answer is what its caller really gets (the tokens and instance
    are the table's own)."""
    table = f"/v1/tables/{examples.TABLE_ID}"
    seat = examples.PATH_PARAMETERS["seat"]
    client.delete(table)
    tokens: dict[str, str] = {}
    steps = [
        ("put", "/v1/tables/{table_id}", table, 201, None, "example"),
        ("put", "/v1/tables/{table_id}", table, 200, None, "example"),
        ("get", "/v1/tables/{table_id}", table, 200, None, "platform"),
        ("get", "/v1/tables/{table_id}", table, 200, "seat-1", "seat"),
        ("get", "/v1/tables/{table_id}", table, 200, "spectator", "spectator"),
        (
            "get",
            "/v1/tables/{table_id}/seats/{seat}",
            f"{table}/seats/{seat}",
            200,
            None,
            "example",
        ),
        (
            "get",
            "/v1/tables/{table_id}/legal-moves",
            f"{table}/legal-moves",
            200,
            "seat-3",
            "example",
        ),
        ("post", "/v1/tables/{table_id}/clock", f"{table}/clock", 200, None, "example"),
        ("post", "/v1/tables/{table_id}/clock", f"{table}/clock", 200, None, "stop"),
        (
            "post",
            "/v1/tables/{table_id}/moves/check",
            f"{table}/moves/check",
            200,
            "seat-3",
            "legal",
        ),
        ("post", "/v1/tables/{table_id}/moves", f"{table}/moves", 200, "seat-3", "seat"),
        ("delete", "/v1/tables/{table_id}", table, 204, None, None),
    ]
    logged = 0
    for verb, template, url, status, who, shown_as in steps:
        operation = document["paths"][template][verb]
        body = examples.REQUESTS.get((template, verb))
        value = copy.deepcopy(body["example"]["value"]) if body else None
        if shown_as == "stop":  # the clock stopped again: the move examples have none
            response = client.post(url, json=body["stop"]["value"] if body else None)
            assert response.status_code == 200 and response.json()["table"]["clock"] is None
            logged += 2  # its event and the clock example's: later examples count without them
            continue
        if template.endswith(("/moves", "/moves/check")):
            assert value is not None
            value["version"] = 4  # after two PUTs, the clock started and stopped
        headers = {"Authorization": f"Bearer {tokens[who]}"} if who else {}
        response = client.request(verb.upper(), url, json=value, headers=headers)
        assert response.status_code == status, (verb, url, response.text)
        if status == 204:
            continue
        media = operation["responses"][str(status)]["content"]["application/json"]
        actual = response.json()
        validator(document, media["schema"]).validate(actual)
        shown = copy.deepcopy(media["examples"][shown_as]["value"])
        if "seat_tokens" in shown:
            assert len(actual["seat_tokens"]) == len(shown.pop("seat_tokens")) == 5
            tokens.update({f"seat-{n}": t for n, t in enumerate(actual["seat_tokens"])})
            tokens["spectator"] = actual["spectator_token"]
            shown.pop("spectator_token")
        shown.pop("version", None)  # the example counts from its own history
        for event in shown.get("events", []):
            event.pop("version", None)
            if "seq" in event:
                event["seq"] += logged
        shown.pop("instance", None)  # every PUT makes a new one
        if template.endswith("/clock"):  # the deadline runs from the request, not the example's
            assert actual["table"]["deadline"] > 0 and actual["events"][0]["deadline"] > 0
            shown["table"].pop("deadline")
            shown["events"][0].pop("deadline")
        holds(actual, shown)


@pytest.mark.parametrize(
    ("path", "marker"),
    [
        ("/schema", "/schema/assets/swagger-ui-bundle.js"),  # Swagger UI, the package's copy
        ("/schema/swagger", "/schema/assets/swagger-ui-bundle.js"),
    ],
)
def test_api_reference_pages_render(
    client: TestClient,  # type: ignore[type-arg]
    path: str,
    marker: str,
) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "<title>baohuang-rules</title>" in response.text
    assert marker in response.text
