"""What every route with a JSON body does with a body it cannot take (docs/clients.md).

The routes are discovered from the app itself, so a route added later is covered without a change
here. One route is added for these tests only: it takes its body through Litestar's own decoding
(a ``data`` parameter), the path a future route may use instead of :class:`.bodies.BodyDecoder`.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from litestar import Litestar, post
from litestar.params import JSONBody
from litestar.routes import HTTPRoute
from litestar.testing import TestClient

from baohuang.http import examples
from baohuang.http.app import create_app
from baohuang.http.examples.positions import PLAY_JACKS
from baohuang.http.settings import Settings

from .problem_checks import assert_problem

Client = Any
BODY_METHODS = {"POST", "PUT", "PATCH"}
DEPTH = 1000


@post("/test-only/litestar-data", status_code=200, include_in_schema=False)
async def litestar_data(data: JSONBody[dict[str, Any]]) -> dict[str, Any]:
    """A route whose body Litestar decodes (``data``), not a :class:`.bodies.BodyDecoder`."""
    return {"keys": sorted(data)}


def _app() -> Litestar:
    app = create_app(Settings())
    app.register(litestar_data)
    return app


@pytest.fixture(scope="module")
def app_client() -> Iterator[TestClient]:  # type: ignore[type-arg]
    with TestClient(_app()) as test_client:
        # The table the tables routes name, so that no route stops at 404 before its body.
        test_client.put(f"/v1/tables/{examples.TABLE_ID}", json={"snapshot": examples.SNAPSHOT})
        yield test_client


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def logged() -> Iterator[list[logging.LogRecord]]:
    """Every record that reaches the root logger meanwhile (Litestar's logging configuration
    replaces the root's handlers at start-up, pytest's capture among them)."""
    handler = _Records()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


def assert_one_line_at_most(records: list[logging.LogRecord]) -> None:
    """Beside the request's own access line: at most one line, and no traceback."""
    mine = [r for r in records if not r.name.startswith(("httpx", "baohuang.access"))]
    assert len(mine) <= 1, [r.getMessage()[:200] for r in mine]
    for record in mine:
        assert record.exc_info is None and "\n" not in record.getMessage()


def _concrete(path: str) -> str:
    """A route template with its parameters filled in (a table id, seat 0, a name)."""

    def value(match: re.Match[str]) -> str:
        name, kind = match.group(1), match.group(2)
        if kind == "int":
            return "0"
        return examples.TABLE_ID if "table" in name else "classic"

    return re.sub(r"\{(\w+):(\w+)\}", value, path)


def json_routes() -> list[tuple[str, str, Any]]:
    """(method, path, body type or None) for every route that takes a request body."""
    found = []
    for route in _app().routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            for method in sorted(set(handler.http_methods) & BODY_METHODS):
                found.append((method, _concrete(route.path), handler.opt.get("body")))
    return sorted(found, key=lambda item: (item[1], item[0]))


ROUTES = json_routes()
ROUTE_IDS = [f"{method} {path}" for method, path, _ in ROUTES]


def test_the_discovery_finds_every_json_route() -> None:
    paths = {(method, path) for method, path, _ in ROUTES}
    table = f"/v1/tables/{examples.TABLE_ID}"
    for expected in [
        ("POST", "/v1/combos/classify"),
        ("POST", "/v1/combos/compare-batch"),
        ("POST", "/v1/moves/validate"),
        ("POST", "/v1/moves/replay"),
        ("POST", "/v1/scores"),
        ("POST", "/v1/deal"),
        ("PUT", table),
        ("POST", f"{table}/moves"),
        ("POST", "/test-only/litestar-data"),
    ]:
        assert expected in paths


def _deep_array(depth: int = DEPTH) -> bytes:
    return b"[" * depth + b"]" * depth


def _deep_object(depth: int = DEPTH) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def deep_bodies(body_type: Any) -> list[bytes]:
    """Bodies nested ``DEPTH`` levels deep: whole, and under each field of the route's body, as
    the field's value, inside an object there (where a tagged union such as a move looks for its
    tag) and inside a list of objects (``moves``)."""
    bodies = [_deep_array(), _deep_object()]
    names = ["move", "snapshot"]
    if isinstance(body_type, type) and issubclass(body_type, msgspec.Struct):
        names = [field.encode_name for field in msgspec.structs.fields(body_type)]
    for name in names:
        key = f'{{"{name}":'.encode()
        for deep in (_deep_array(), _deep_object()):
            bodies.append(key + deep + b"}")
            bodies.append(key + b'{"x":' + deep + b',"action":"pass","seat":0}}')
            bodies.append(key + b'[{"x":' + deep + b',"action":"pass","seat":0}]}')
    return bodies


@pytest.mark.parametrize(("method", "path", "body_type"), ROUTES, ids=ROUTE_IDS)
def test_deeply_nested_json_is_400_invalid_json_and_logs_nothing(
    app_client: Client, method: str, path: str, body_type: Any
) -> None:
    for body in deep_bodies(body_type):
        with logged() as records:
            response = app_client.request(
                method, path, content=body, headers={"content-type": "application/json"}
            )
        assert_problem(response, 400, "INVALID_JSON", "$")
        assert "nested more than 64 levels" in response.json()["detail"]
        assert_one_line_at_most(records)


@pytest.mark.parametrize(("method", "path", "body_type"), ROUTES, ids=ROUTE_IDS)
def test_json_nested_64_levels_is_judged_as_usual(
    app_client: Client, method: str, path: str, body_type: Any
) -> None:
    """The limit is 64 levels: at 64 the body is read, and answered as any wrong body is."""
    body = b'{"x":' + _deep_array(63) + b"}"
    response = app_client.request(
        method, path, content=body, headers={"content-type": "application/json"}
    )
    if response.status_code >= 400:
        assert response.json()["errors"][0]["code"] != "INVALID_JSON", response.text


def test_malformed_json_is_400_invalid_json_on_litestars_decoding_too(app_client: Client) -> None:
    for path in ("/test-only/litestar-data", "/v1/combos/classify"):
        response = app_client.post(
            path, content=b'{"cards": [', headers={"content-type": "application/json"}
        )
        assert_problem(response, 400, "INVALID_JSON", "$")


def test_recursion_error_in_a_handler_is_a_500_logged_on_one_line() -> None:
    def down(n: int) -> int:
        return down(n + 1) + 1

    @post("/test-only/recurse", status_code=200, include_in_schema=False)
    async def recurse() -> int:
        return down(0)

    app = create_app(Settings())
    app.register(recurse)
    with TestClient(app) as test_client, logged() as records:
        response = test_client.post("/test-only/recurse")
    assert_problem(response, 500, "INTERNAL_ERROR")
    assert_one_line_at_most(records)
    (record,) = [r for r in records if r.name.startswith("baohuang.http")]
    assert "RecursionError" in record.getMessage()
    assert "test_request_bodies.py" in record.getMessage()


@pytest.mark.parametrize(("method", "path", "body_type"), ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",  # curl -d without a content type of its own
        "application/xml",
        "multipart/form-data; boundary=x",
        "application/json; charset=iso-8859-1",  # docs/clients.md: bodies are UTF-8
        "application/jsonx",
    ],
)
def test_a_body_that_is_not_json_is_415(
    app_client: Client, method: str, path: str, body_type: Any, content_type: str
) -> None:
    response = app_client.request(
        method, path, content=b"{}", headers={"content-type": content_type}
    )
    document = assert_problem(response, 415, "UNSUPPORTED_MEDIA_TYPE", "$.headers.content-type")
    assert "application/json" in document["detail"]


@pytest.mark.parametrize(("method", "path", "body_type"), ROUTES, ids=ROUTE_IDS)
@pytest.mark.parametrize(
    "content_type",
    [
        None,  # curl --data-binary, and clients that send none
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON; Charset=UTF-8",
        "application/problem+json",
        "application/vnd.baohuang.v1+json",
    ],
)
def test_json_media_types_and_none_are_read(
    app_client: Client, method: str, path: str, body_type: Any, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    response = app_client.request(method, path, content=b"{}", headers=headers)
    assert response.status_code != 415, response.text
    body = b'{"previous": ["7S"], "candidate": ["8S"]}'
    response = app_client.post("/v1/combos/compare", content=body, headers=headers)
    assert response.status_code == 200 and response.json()["beats"] is True


def test_openapi_documents_the_415_of_every_operation_with_a_body(app_client: Client) -> None:
    document = app_client.get("/schema/openapi.json").json()
    with_body = [
        (path, verb, operation)
        for path, item in document["paths"].items()
        for verb, operation in item.items()
        if "requestBody" in operation
    ]
    assert len(with_body) >= 13
    for path, verb, operation in with_body:
        response = operation["responses"].get("415")
        assert response is not None, (path, verb)
        assert "application/problem+json" in response["content"]


# ---------------------------------------------------------------------------------------------
# A key named twice in one object: refused, never read as its last value


@functools.cache
def _templates() -> dict[str, str]:
    """Each route's concrete path → its template, from one app (not one app a test)."""
    return {
        _concrete(route.path): re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)
        for route in reversed(_app().routes)  # the first route of a path wins, as it did
        if isinstance(route, HTTPRoute)
    }


def _template(path: str) -> str:
    """``/v1/tables/table-1/seats/0/bot`` → the examples' ``/v1/tables/{table_id}/seats/{seat}/bot``."""
    template = _templates().get(path)
    assert template is not None, path
    return template


def _example_body(method: str, path: str) -> dict[str, Any]:
    if path == "/test-only/litestar-data":
        return {"version": 1}
    found = examples.REQUESTS[(_template(path), method.lower())]
    body: dict[str, Any] = next(iter(found.values()))["value"]
    return body


def _twice(body: dict[str, Any], key: str, again: Any) -> bytes:
    """``body`` as JSON text with ``key`` named a second time, last, holding ``again``."""
    text = msgspec.json.encode(body)
    return text[:-1] + b"," + msgspec.json.encode(key) + b":" + msgspec.json.encode(again) + b"}"


@pytest.mark.parametrize(("method", "path", "body_type"), ROUTES, ids=ROUTE_IDS)
def test_a_key_named_twice_is_400_duplicate_key_naming_it(
    app_client: Client, method: str, path: str, body_type: Any
) -> None:
    """Every JSON route: a body that decodes (the last value would win) but names its first
    key twice is refused naming that key, and nothing is done (the table is where it was)."""
    body = _example_body(method, path)
    key, value = next(iter(body.items()))
    table = app_client.get(f"/v1/tables/{examples.TABLE_ID}").json()
    with logged() as records:
        response = app_client.request(method, path, content=_twice(body, key, value), headers=JSON)
    document = assert_problem(response, 400, "DUPLICATE_KEY", f"$.{key}")
    assert f'"{key}" is named twice' in document["errors"][0]["message"]
    assert_one_line_at_most(records)
    assert app_client.get(f"/v1/tables/{examples.TABLE_ID}").json() == table


def test_a_move_naming_its_version_twice_is_not_applied_at_either() -> None:
    """``{"version": 2, "version": 1}`` against a table at version 1: read as its last value it
    would be applied; refused, the table stays at version 1 with no new event."""
    with TestClient(create_app(Settings())) as client:
        table = f"/v1/tables/{examples.TABLE_ID}"
        client.put(table, json={"snapshot": examples.SNAPSHOT})
        before = client.get(f"{table}/events").json()
        move = msgspec.json.encode(PLAY_JACKS)
        body = b'{"move": ' + move + b', "version": 2, "version": 1}'
        response = client.post(f"{table}/moves", content=body, headers=JSON)
        assert_problem(response, 400, "DUPLICATE_KEY", "$.version")
        assert client.get(table).json()["version"] == 1
        assert client.get(f"{table}/events").json() == before
        body = b'{"move": ' + move + b', "version": 1}'
        assert client.post(f"{table}/moves", content=body, headers=JSON).status_code == 200


JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        # nested in a move, with whitespace around the colon
        (
            "/v1/moves/validate",
            b'{"snapshot": SNAPSHOT, "move": {"seat": 3, "action": "pass", "seat" : 2}}',
            "$.move.seat",
        ),
        # deep in a 10,000-pair batch's tenth pair (the batch counts its members its own way)
        ("/v1/combos/compare-batch", b"BATCH", "$.pairs[9].previous"),
        # a key that needs quoting, and the same key spelled with an escape
        ("/test-only/litestar-data", b'{"a b": 1, "a\\u0020b": 2}', "$"),
        # the ruleset object of a batch
        (
            "/v1/combos/compare-batch",
            b'{"ruleset": {"base": "classic", "base": "tribute"},'
            b' "pairs": [{"previous": ["7S"], "candidate": ["8S"]}]}',
            "$.ruleset.base",
        ),
    ],
)
def test_a_duplicate_key_is_named_where_it_is(
    app_client: Client, path: str, body: bytes, where: str
) -> None:
    if body == b"BATCH":
        pairs = [b'{"previous": ["7S"], "candidate": ["8S"]}'] * 10_000
        pairs[9] = b'{"previous": ["7S"], "candidate": ["8S"], "previous": ["9S"]}'
        body = b'{"pairs": [' + b",".join(pairs) + b"]}"
    body = body.replace(b"SNAPSHOT", msgspec.json.encode(examples.SNAPSHOT))
    assert_problem(app_client.post(path, content=body, headers=JSON), 400, "DUPLICATE_KEY", where)


@pytest.mark.parametrize(
    "body",
    [
        b'{"cards": ["9S", "9H"], "ruleset": {"base": "classic", "kaopai": false}}',
        b'{"cards": ["9S"], "ruleset": {"base": "classic", "bie6": false, "kaopai": false}}',
        # the same name in different objects, and names inside strings, are no duplicates
        b'{"cards": ["9S"], "ruleset": {"base": "classic", "deck": "full"}}',
    ],
)
def test_distinct_keys_are_read_as_before(app_client: Client, body: bytes) -> None:
    response = app_client.post("/v1/combos/classify", content=body, headers=JSON)
    assert response.status_code == 200, response.text


def test_keys_in_strings_escapes_and_whitespace_are_counted_exactly() -> None:
    """The cheap count that spares the exact reading: keys in strings and escaped quotes and
    backslashes are not members; a member is counted once however it is spaced."""
    from baohuang.http.bodies import duplicate_key, keys_in

    assert keys_in(b'{"a":"\\":","b\\\\":{"c" :\n1},"d":["e:","\\\\\\":"]}') == 4
    assert duplicate_key(b'{"a":{"b":1},"c":[{"d":1,"d":2}],"a":3}') == ("$.c[0].d", "d")
    assert duplicate_key(b'{"a":{"b":1},"c":[{"d":1}],"e":"\\"e\\":"}') is None
