"""The OpenAPI document as clients generated from it with default options read it.

Client developers run openapi-python-client and openapi-typescript (+ openapi-fetch) with their
defaults (clients/ holds both, generated from openapi/openapi.json). What each generator does
with a construct decides the types a program gets, so :func:`shape_for_generators` rewrites the
few constructs that Litestar or msgspec emit in a form those defaults misread. Each rewrite
changes how the wire is described, never the wire:

* **Names.** msgspec names a generic Struct's specialisation after its parameters
  (``TableRead_SeatView_``); :data:`SCHEMA_NAMES` gives the names a client developer writes.
* **The per-caller answers.** A table read and a move answer come in three kinds, one per
  caller: its ``view`` is a platform's ``Snapshot``, a seat's ``SeatView`` or a spectator's
  ``PublicView``, and its ``audience`` says which. Each kind is a variant of its own
  (``PlatformTable``, ``SeatTable``, ``SpectatorTable``; ``PlatformMoveAnswer``…) whose
  ``audience`` is a ``const``, and the route's answer (``Table``, ``TableMoveAnswer``) is the
  ``oneOf`` of the three with ``discriminator: {propertyName: audience, mapping}``:
  openapi-python-client then decodes each answer into its variant's class by the mapping, and
  openapi-typescript's union narrows on ``switch (table.audience)``. The tag is on the answer,
  not in the views: ``Snapshot`` is also the input of the stateless routes and of ``PUT``, and
  decodes as it always did. The event and move unions have theirs on ``type`` and ``action``.
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

AUDIENCE = "audience"
# The answers that come in one variant per caller: the union's name → {audience: (msgspec's
# name of the specialisation, the variant's name)}, in the order of the routes' `returns`.
CALLER_UNIONS: dict[str, dict[str, tuple[str, str]]] = {
    "Table": {
        "platform": ("TableRead_Snapshot_", "PlatformTable"),
        "seat": ("TableRead_SeatView_", "SeatTable"),
        "spectator": ("TableRead_PublicView_", "SpectatorTable"),
    },
    "TableMoveAnswer": {
        "platform": ("MoveAnswer_Snapshot_", "PlatformMoveAnswer"),
        "seat": ("MoveAnswer_SeatView_", "SeatMoveAnswer"),
        "spectator": ("MoveAnswer_PublicView_", "SpectatorMoveAnswer"),
    },
}
# msgspec's name → the name in the document.
SCHEMA_NAMES = {
    specialisation: variant
    for variants in CALLER_UNIONS.values()
    for specialisation, variant in variants.values()
}
_UNION_DESCRIPTIONS = {
    "Table": "A table as its caller may see it: `audience` says which view `view` is",
    "TableMoveAnswer": "A committed move, cut to its caller: `audience` says which view `view` is",
}
_AUDIENCE_DESCRIPTIONS = {
    "platform": "A platform's answer: `view` is the whole `Snapshot`",
    "seat": "A seat token's answer: `view` is its seat's `SeatView`",
    "spectator": "A spectator token's answer: `view` is the `PublicView`",
}
# A shared enum's component is its property's name in CamelCase, unless named here.
ENUM_NAMES = {
    "base": "RulesetBase",
    "method": "DealingMethod",
    "by": "MoveBy",
    "cause": "TrusteeCause",
}
_REF = "#/components/schemas/"


def shape_for_generators(document: dict[str, Any]) -> None:
    """Rewrite ``document`` in place (idempotent); see the module docstring."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    _split_caller_answers(schemas)
    _log_entries(schemas)
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


def _split_caller_answers(schemas: dict[str, Any]) -> None:
    """Each per-caller answer a variant with a ``const`` audience; their union, discriminated."""
    for union, variants in CALLER_UNIONS.items():
        if union in schemas:
            continue
        mapping: dict[str, str] = {}
        for audience, (specialisation, _) in variants.items():
            if specialisation not in schemas:
                break
            schemas[specialisation]["properties"][AUDIENCE] = {
                "type": "string",
                "const": audience,
                "description": _AUDIENCE_DESCRIPTIONS[audience],
            }
            mapping[audience] = _REF + specialisation  # renamed with the rest by _rename
        else:
            schemas[union] = {
                "title": union,
                "description": _UNION_DESCRIPTIONS[union],
                "oneOf": [{"$ref": ref} for ref in mapping.values()],
                "discriminator": {"propertyName": AUDIENCE, "mapping": mapping},
            }


LOG_ENTRY = "LogEntry"
_LOG_FIELDS = {
    "seq": ({"type": "integer"}, "1, 2, 3 … per table instance"),
    "version": ({"type": "integer"}, "The table version the event's write produced"),
    "at": ({"type": "number"}, "When the table logged it (seconds since the Unix epoch)"),
    "id": (
        {"type": "string"},
        "`<seq>.<token>`: the seq and the token of the write that logged it (the stream's "
        "`id:`, `Last-Event-ID` and `after`)",
    ),
}


def _log_entries(schemas: dict[str, Any]) -> None:
    """The events of a page of the log each a ``Logged…`` variant: the event with ``seq``,
    ``version``, ``at`` and ``id`` required (:data:`LOG_ENTRY`), which the log always gives."""
    page = schemas.get("EventsPage", {}).get("properties", {}).get("events", {}).get("items")
    if page is None or LOG_ENTRY in schemas:
        return
    schemas[LOG_ENTRY] = {
        "title": LOG_ENTRY,
        "description": "What the log adds to every event it holds",
        "type": "object",
        "properties": {
            name: {**kind, "description": description}
            for name, (kind, description) in _LOG_FIELDS.items()
        },
        "required": list(_LOG_FIELDS),
    }
    logged: dict[str, str] = {}
    for one in page["anyOf"]:
        event = one["$ref"].removeprefix(_REF)
        for field, (kind, _) in _LOG_FIELDS.items():  # omitted when unset, never null
            prop = schemas[event]["properties"].get(field)
            if prop is not None and "anyOf" in prop:
                schemas[event]["properties"][field] = {
                    **{key: value for key, value in prop.items() if key != "anyOf"},
                    **kind,
                }
        name = f"Logged{event}"
        schemas[name] = {
            "title": name,
            "allOf": [{"$ref": _REF + event}, {"$ref": _REF + LOG_ENTRY}],
        }
        logged[one["$ref"]] = _REF + name
        one["$ref"] = _REF + name
    mapping = page["discriminator"]["mapping"]
    page["discriminator"]["mapping"] = {tag: logged[ref] for tag, ref in mapping.items()}


def _rename(document: dict[str, Any], schemas: dict[str, Any]) -> None:
    refs = {_REF + old: _REF + new for old, new in SCHEMA_NAMES.items()}
    for old, new in SCHEMA_NAMES.items():
        if old in schemas:
            schemas[new] = schemas.pop(old)
            schemas[new]["title"] = new
    for node in _walk(document):
        if isinstance(node, dict) and node.get("$ref") in refs:
            node["$ref"] = refs[node["$ref"]]
        if isinstance(node, dict) and isinstance(node.get("mapping"), dict):
            node["mapping"] = {tag: refs.get(ref, ref) for tag, ref in node["mapping"].items()}
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
    """A route's ``oneOf`` of the per-caller variants is their union, by its name."""
    unions = {
        frozenset(_REF + variant for _, variant in variants.values()): union
        for union, variants in CALLER_UNIONS.items()
    }
    for response in operation["responses"].values():
        for media in response.get("content", {}).values():
            alternatives = media.get("schema", {}).get("oneOf")
            if alternatives:
                refs = frozenset(one.get("$ref") for one in alternatives)
                if refs in unions:
                    media["schema"] = {"$ref": _REF + unions[refs]}


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
