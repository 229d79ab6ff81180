"""The OpenAPI document reads well to a client generated from it with default options.

Names a client developer writes (operationIds set on every handler, schema names without
framework residue), no one-member enums, optional fields that stay optional in
openapi-typescript, the events page typed as JSON, and table routes callable without a
credential on a development service (openapi-python-client's plain ``Client``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar.handlers import HTTPRouteHandler
from litestar.routes import HTTPRoute
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.examples import SNAPSHOT
from baohuang.http.settings import Settings

from .openapi_paths import operations, walk

CAMEL = re.compile(r"^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)*$")


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app(Settings(token_secret="client-tests"))


@pytest.fixture(scope="module")
def document(app: Any) -> dict[str, Any]:
    with TestClient(app) as client:
        served: dict[str, Any] = client.get("/schema/openapi.json").json()
    return served


def test_every_documented_handler_names_its_operation(app: Any) -> None:
    """A route added without ``operation_id=`` gets Litestar's ``V1TablesTableIdMovesPostMove``
    and a generated ``v1_tables_table_id_moves_post_move`` function: refuse it here."""
    unnamed = []
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            assert isinstance(handler, HTTPRouteHandler)
            if handler.resolve_include_in_schema() and not isinstance(handler.operation_id, str):
                verbs = "/".join(sorted(str(method) for method in handler.http_methods))
                unnamed.append(f"{verbs} {route.path_format} ({handler.handler_name})")
    assert not unnamed, (
        "give every documented route an explicit camelCase operation_id= in its decorator "
        "(e.g. @get('/legal-moves', operation_id='listTableLegalMoves')), then regenerate "
        "openapi/openapi.json and the SDKs with clients/generate: " + "; ".join(unnamed)
    )


# HTTP methods that are no verb of the game or of a table: an operationId says what it does.
HTTP_ONLY_VERBS = re.compile(r"^(post|put|patch|head|options)(?=[A-Z]|$)")


def test_operation_ids_are_short_unique_camel_case_verb_noun(document: dict[str, Any]) -> None:
    """One verb style for every operation: the verb says what it does (``makeTableMove``,
    ``leaveSeat``, ``listTableEvents``), not the HTTP method it is sent with (``postTableMove``,
    ``putTable``), so generated functions read as a hand-written client's."""
    ids: list[str] = [operation.get("operationId", "") for _, _, operation in operations(document)]
    assert all(CAMEL.match(one) for one in ids), ids
    assert len(set(ids)) == len(ids), ids
    assert all(len(one) <= 24 for one in ids), ids
    assert not [one for one in ids if HTTP_ONLY_VERBS.match(one)], ids
    named = {
        (path, verb): operation["operationId"] for path, verb, operation in operations(document)
    }
    assert named[("/v1/combos/compare", "post")] == "compareCombos"
    assert named[("/v1/tables/{table_id}", "put")] == "createTable"
    assert named[("/v1/tables/{table_id}/moves", "post")] == "makeTableMove"
    assert named[("/v1/tables/{table_id}/events", "get")] == "listTableEvents"
    assert named[("/v1/tables/{table_id}/legal-moves", "get")] == "listTableLegalMoves"
    assert named[("/v1/moves/legal", "post")] == "listLegalMoves"
    assert named[("/v1/tables/{table_id}/seats/{seat}/leave", "post")] == "leaveSeat"
    assert named[("/v1/tables/{table_id}/seats/{seat}/trustee", "post")] == "setSeatTrustee"
    assert named[("/v1/tables/{table_id}/seats/{seat}/bot", "post")] == "setSeatBot"
    assert named[("/healthz", "get")] == "getHealth"


def test_schema_names_are_ones_a_client_developer_writes(document: dict[str, Any]) -> None:
    names = set(document["components"]["schemas"])
    odd = {name for name in names if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", name)}
    assert not odd, odd  # no MoveAnswer_SeatView_, no trailing underscores
    assert {"Table", "TableMoveAnswer", "SeatView", "PublicView", "EventsPage"} <= names
    assert not {name for name in names if name.startswith(("TableRead", "MoveAnswer"))}
    for name, schema in document["components"]["schemas"].items():
        assert schema.get("title", name) == name, name


def test_no_one_member_enums(document: dict[str, Any]) -> None:
    for node in walk(document):
        if isinstance(node, dict) and isinstance(node.get("enum"), list):
            assert len(node["enum"]) > 1, node
    played = document["components"]["schemas"]["PlayedEvent"]["properties"]["type"]
    assert played == {"const": "played", "type": "string"}


def test_an_enum_used_by_several_schemas_is_one_component(document: dict[str, Any]) -> None:
    """Else openapi-python-client writes SnapshotMode, SeatViewMode, PublicViewMode, …"""
    inline: dict[tuple[str, ...], set[str]] = {}
    for name, schema in document["components"]["schemas"].items():
        for prop in schema.get("properties", {}).values():
            for alternative in [prop, *prop.get("anyOf", [])]:
                if len(alternative.get("enum", ())) > 1:
                    inline.setdefault(tuple(alternative["enum"]), set()).add(name)
    assert all(len(users) == 1 for users in inline.values()), inline
    schemas = document["components"]["schemas"]
    assert schemas["SeatView"]["properties"]["mode"] == {"$ref": "#/components/schemas/Mode"}
    assert schemas["Mode"]["enum"] == ["grab", "solo_hidden", "solo_open", "team"]


def test_optional_fields_carry_no_default(document: dict[str, Any]) -> None:
    """openapi-typescript makes a component property with a ``default`` required."""
    for name, schema in document["components"]["schemas"].items():
        required = set(schema.get("required", ()))
        for field, prop in schema.get("properties", {}).items():
            if field not in required:
                assert "default" not in prop, f"{name}.{field}"
    schemas = document["components"]["schemas"]
    assert "instance" not in schemas["PostMove"].get("required", [])
    assert not {"clock", "webhook"} & set(schemas["PutTable"].get("required", []))
    assert "current_version" not in schemas["ProblemDocument"].get("required", [])


def test_unions_of_tagged_types_have_discriminators(document: dict[str, Any]) -> None:
    events = document["components"]["schemas"]["EventsPage"]["properties"]["events"]["items"]
    assert events["discriminator"]["propertyName"] == "type"
    assert events["discriminator"]["mapping"]["played"] == "#/components/schemas/LoggedPlayedEvent"
    move = document["components"]["schemas"]["PostMove"]["properties"]["move"]
    assert move["discriminator"]["propertyName"] == "action"
    refs = {one["$ref"] for one in move["anyOf"]}
    assert refs == set(move["discriminator"]["mapping"].values())


# The per-caller answers: union → {audience: (variant, the view it carries)}.
CALLER_UNIONS = {
    "Table": {
        "platform": ("PlatformTable", "Snapshot"),
        "seat": ("SeatTable", "SeatView"),
        "spectator": ("SpectatorTable", "PublicView"),
    },
    "TableMoveAnswer": {
        "platform": ("PlatformMoveAnswer", "Snapshot"),
        "seat": ("SeatMoveAnswer", "SeatView"),
        "spectator": ("SpectatorMoveAnswer", "PublicView"),
    },
}
REF = "#/components/schemas/"


def test_the_view_union_is_discriminated_by_audience(document: dict[str, Any]) -> None:
    """A table read or a move answer is one of three variants, told apart by ``audience``: the
    generated Python client then decodes each into its class, TypeScript narrows ``view`` on
    ``switch (table.audience)``; without it a client guesses from fields (``"hands" in view``)."""
    schemas = document["components"]["schemas"]
    for union, variants in CALLER_UNIONS.items():
        schema = schemas[union]
        mapping = {audience: REF + variant for audience, (variant, _) in variants.items()}
        assert schema["discriminator"] == {"propertyName": "audience", "mapping": mapping}
        assert schema["oneOf"] == [{"$ref": ref} for ref in mapping.values()]
        for audience, (variant, view) in variants.items():
            properties = schemas[variant]["properties"]
            assert properties["audience"]["const"] == audience, variant
            assert properties["audience"]["type"] == "string", variant
            assert {"audience", "view"} <= set(schemas[variant]["required"]), variant
            assert properties["view"] == {"$ref": REF + view}, variant
    # Every route that answers per caller answers the union, by name.
    answered = {
        (path, verb): operation["responses"]["200"]["content"]["application/json"]["schema"]
        for path, verb, operation in operations(document)
        if "application/json" in operation["responses"].get("200", {}).get("content", {})
    }
    assert answered[("/v1/tables/{table_id}", "get")] == {"$ref": REF + "Table"}
    for path in ["moves", "deals", "seats/{seat}/trustee", "seats/{seat}/leave"]:
        route = (f"/v1/tables/{{table_id}}/{path}", "post")
        assert answered[route] == {"$ref": REF + "TableMoveAnswer"}, route
    # The views themselves are untouched: a Snapshot decodes without a tag (stateless routes).
    for view in ("Snapshot", "SeatView", "PublicView"):
        assert "audience" not in schemas[view]["properties"], view


def test_the_events_page_is_json_only(document: dict[str, Any]) -> None:
    """Generated clients type a body as the union of its media types: the streams are said in
    words, so ``page.data.events`` compiles."""
    ok = document["paths"]["/v1/tables/{table_id}/events"]["get"]["responses"]["200"]
    assert list(ok["content"]) == ["application/json"]
    assert ok["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/EventsPage"
    }
    assert "text/event-stream" in ok["description"] and "Last-Event-ID" in ok["description"]


def test_table_routes_work_without_a_credential_in_development(document: dict[str, Any]) -> None:
    """openapi-python-client asks for an AuthenticatedClient wherever an operation lists
    security; the table routes leave it to the document's ``[{}, {bearer: []}]``."""
    assert document["security"] == [{}, {"bearer": []}]
    assert document["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    for path, verb, operation in operations(document):
        if path.startswith("/v1/tables/"):
            assert "security" not in operation, (verb, path)
        else:
            assert operation["security"] == [], (verb, path)


def test_the_etag_is_documented_where_it_is_sent(app: Any, document: dict[str, Any]) -> None:
    """Every success answer the document says carries ``ETag`` does, naming the table's
    instance and version as a ``GET`` does; and a ``PUT`` that creates the table is one."""
    documented = [
        (path, verb, status)
        for path, verb, operation in operations(document)
        for status, response in operation["responses"].items()
        if "ETag" in response.get("headers", {})
    ]
    assert {(path, verb) for path, verb, _ in documented} == {
        ("/v1/tables/{table_id}", "put"),
        ("/v1/tables/{table_id}", "get"),
        ("/v1/tables/{table_id}/legal-moves", "get"),
        ("/v1/tables/{table_id}/seats/{seat}", "get"),
    }
    with TestClient(app) as client:
        created = client.put("/v1/tables/etag", json={"snapshot": SNAPSHOT})
        assert created.status_code == 201
        tag = f'"{created.json()["instance"]}.1"'
        for path, verb, status in documented:
            url = path.replace("{table_id}", "etag").replace("{seat}", "3")
            payload = {"snapshot": SNAPSHOT} if verb == "put" else None
            answer = client.request(verb.upper(), url, json=payload)
            assert str(answer.status_code) in {status, "200"}, (path, verb, answer.text)
            if verb == "put":
                tag = f'"{answer.json()["instance"]}.{answer.json()["version"]}"'
            assert answer.headers["etag"] == tag, (path, verb)


def test_a_logged_events_seq_id_and_version_are_never_optional(document: dict[str, Any]) -> None:
    """A page of the log (and the streams, whose SDK items parse as it) holds ``Logged…``
    events: the event and :data:`LogEntry`, whose ``seq``, ``version``, ``at`` and ``id`` are
    required and never null; the events of the stateless routes carry none of them."""
    schemas = document["components"]["schemas"]
    entry = schemas["LogEntry"]
    assert set(entry["required"]) == {"seq", "version", "at", "id"}
    assert entry["properties"]["id"]["type"] == "string"
    items = schemas["EventsPage"]["properties"]["events"]["items"]
    for tag, ref in items["discriminator"]["mapping"].items():
        logged = schemas[ref.removeprefix(REF)]
        event = logged["allOf"][0]["$ref"].removeprefix(REF)
        assert logged["allOf"] == [{"$ref": REF + event}, {"$ref": REF + "LogEntry"}], tag
        assert schemas[event]["properties"]["type"]["const"] == tag
        for field in ("seq", "version", "at", "id"):  # absent, never null, where optional
            assert "anyOf" not in schemas[event]["properties"][field], (event, field)
    assert {one["$ref"] for one in items["anyOf"]} == set(
        items["discriminator"]["mapping"].values()
    )
