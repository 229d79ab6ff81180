"""The OpenAPI document as clients generated from it with default options read it.

Client developers run openapi-python-client and openapi-typescript (+ openapi-fetch) with their
defaults (clients/ holds both, generated from openapi/openapi.json). What each generator does
with a construct decides the types a program gets, so :func:`shape_for_generators` rewrites the
few constructs that Litestar or msgspec emit in a form those defaults misread. Each rewrite
changes how the wire is described, never the wire:

* **Names.** msgspec names a generic Struct's specialisation after its parameters
  (``TableRead_SeatView_``); :data:`SCHEMA_NAMES` gives the names a client developer writes. The
  three per-caller answers of a table read or a move are one schema whose ``view`` is the
  caller's view (the three views share no field that tells them apart on the wire, so that
  union has no discriminator; the event and move unions do, on ``type`` and ``action``).
* **Shared enums.** msgspec writes a ``Literal`` inline wherever it is used, so the generated
  Python client had ``SnapshotMode``, ``SeatViewMode``, ``PublicViewMode``… for one ``mode``.
  An enum used by two schemas under one property name is one component (:data:`ENUM_NAMES`),
  and so is an enum that may be null (``ScoreResultWinner``, not ``ScoreResultWinnerType0``).
* **One-member enums** (``{"enum": ["played"]}``, the tag of every event and move): a ``const``
  string, which openapi-typescript renders as the literal ``"played"`` and openapi-python-client
  as a ``Literal``, instead of an enum type per tag.
* **Defaults on optional fields.** openapi-typescript's default ``defaultNonNullable`` makes a
  property with a ``default`` *required* in component schemas, so ``PostMove.instance``
  (``default: null``) had to be sent as ``instance: null`` and ``ProblemDocument.current_version``
  was claimed on every problem. A property that is not required loses its ``default``; a
  default that is not null is kept in words in its description.
* **Security.** openapi-python-client asks for an ``AuthenticatedClient`` on every operation
  with a non-empty ``security`` list, even when ``{}`` (no credential) is one of its
  alternatives, as it is for a development service without platform keys. So the table routes'
  requirement ``[{}, {bearer: []}]`` is said once at the document's top level, which the
  generator leaves to the caller (a plain ``Client`` or an ``AuthenticatedClient``), and every
  stateless route says ``security: []``: no credential is ever looked at there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

BEARER = "bearer"
TABLE_SECURITY: list[dict[str, list[str]]] = [{}, {BEARER: []}]

# msgspec's name → the name in the document. One table answer per route, whatever the caller.
SCHEMA_NAMES = {
    "TableRead_Snapshot_": "Table",
    "MoveAnswer_Snapshot_": "TableMoveAnswer",
}
# The caller-specific twins folded into the names above: their `view` joins the one schema's.
_FOLDED = {
    "TableRead_SeatView_": "TableRead_Snapshot_",
    "TableRead_PublicView_": "TableRead_Snapshot_",
    "MoveAnswer_SeatView_": "MoveAnswer_Snapshot_",
    "MoveAnswer_PublicView_": "MoveAnswer_Snapshot_",
}
# A shared enum's component is its property's name in CamelCase, unless named here.
ENUM_NAMES = {"base": "RulesetBase"}
_REF = "#/components/schemas/"
_VIEW_DESCRIPTION = (
    "The caller's view: the whole `Snapshot` for a platform key, the `SeatView` of a seat "
    "token's seat, the `PublicView` for a spectator token"
)


def shape_for_generators(document: dict[str, Any]) -> None:
    """Rewrite ``document`` in place (idempotent); see the module docstring."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    _fold_caller_views(schemas)
    _share_enums(schemas)
    _rename(document, schemas)
    for node in _walk(document["components"]):
        if isinstance(node, dict):
            _enum_to_const(node)
            _optional_without_default(node)
    for path, item in document["paths"].items():
        for operation in item.values():
            if isinstance(operation, dict) and "responses" in operation:
                _one_answer_per_route(operation)
                if is_table_route(path):
                    operation.pop("security", None)  # the document's, TABLE_SECURITY
                else:
                    operation["security"] = []
    document["security"] = TABLE_SECURITY


def is_table_route(path: str) -> bool:
    """A route that looks at credentials: the live tables'."""
    return path.startswith("/v1/tables/")


def _fold_caller_views(schemas: dict[str, Any]) -> None:
    for twin, into in _FOLDED.items():
        if twin not in schemas or into not in schemas:
            continue
        twin_view = schemas.pop(twin)["properties"]["view"]
        view = schemas[into]["properties"]["view"]
        if "oneOf" not in view:
            view = schemas[into]["properties"]["view"] = {
                "oneOf": [view],
                "description": _VIEW_DESCRIPTION,
            }
        view["oneOf"].append(twin_view)


def _rename(document: dict[str, Any], schemas: dict[str, Any]) -> None:
    refs = {_REF + old: _REF + new for old, new in SCHEMA_NAMES.items()}
    refs.update({_REF + twin: _REF + SCHEMA_NAMES[into] for twin, into in _FOLDED.items()})
    for old, new in SCHEMA_NAMES.items():
        if old in schemas:
            schemas[new] = schemas.pop(old)
            schemas[new]["title"] = new
    for node in _walk(document):
        if isinstance(node, dict) and node.get("$ref") in refs:
            node["$ref"] = refs[node["$ref"]]
    document["components"]["schemas"] = dict(sorted(schemas.items()))


def _share_enums(schemas: dict[str, Any]) -> None:
    """Inline string enums met under one property name in two or more schemas, with the same
    members everywhere, become one component each; so does an enum that may be null (else
    openapi-python-client names it ``ScoreResultWinnerType0``), named after its schema."""
    uses: dict[str, list[tuple[str, dict[str, Any], bool]]] = {}
    for owner, schema in list(schemas.items()):
        for name, prop in schema.get("properties", {}).items():
            for alternative in [prop, *prop.get("anyOf", [])]:
                enum = alternative.get("enum")
                if (
                    isinstance(enum, list)
                    and len(enum) > 1
                    and all(isinstance(e, str) for e in enum)
                ):
                    uses.setdefault(name, []).append((owner, alternative, alternative is not prop))
    for name, found in uses.items():
        camel = ENUM_NAMES.get(name, "".join(part.title() for part in name.split("_")))
        if len(found) > 1 and len({tuple(one["enum"]) for _, one, _ in found}) == 1:
            groups = [(camel, [one for _, one, _ in found])]
        else:  # not shared: only the nullable ones, each its own
            groups = [(owner + camel, [one]) for owner, one, nullable in found if nullable]
        for component, alternatives in groups:
            if component in schemas:
                continue
            enum = alternatives[0]["enum"]
            schemas[component] = {"type": "string", "enum": enum, "title": component}
            for one in alternatives:
                del one["enum"]
                one["$ref"] = _REF + component


def _one_answer_per_route(operation: dict[str, Any]) -> None:
    """A ``oneOf`` of the same schema (the folded per-caller answers) is that schema."""
    for response in operation["responses"].values():
        for media in response.get("content", {}).values():
            alternatives = media.get("schema", {}).get("oneOf")
            if alternatives:
                unique = {json.dumps(one, sort_keys=True) for one in alternatives}
                if len(unique) == 1:
                    media["schema"] = alternatives[0]


def _enum_to_const(node: dict[str, Any]) -> None:
    enum = node.get("enum")
    if isinstance(enum, list) and len(enum) == 1 and isinstance(enum[0], str):
        del node["enum"]
        node["const"] = enum[0]
        node.setdefault("type", "string")


def _optional_without_default(schema: dict[str, Any]) -> None:
    properties = schema.get("properties")
    if not isinstance(properties, dict) or schema.get("type") != "object":
        return
    required = set(schema.get("required", ()))
    for name, prop in properties.items():
        if name in required or not isinstance(prop, dict) or "default" not in prop:
            continue
        default = prop.pop("default")
        if default is not None:
            said = f"Default: `{json.dumps(default, ensure_ascii=False)}`."
            description = prop.get("description")
            prop["description"] = f"{description.rstrip('.')}. {said}" if description else said


def _walk(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for value in list(node.values()):
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)
