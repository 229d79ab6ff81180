"""What the generated OpenAPI document cannot know by itself.

Request bodies are decoded by our strict decoders from the raw body (see :mod:`.wire`), so
Litestar never sees a ``data`` parameter to document; each route names its body type in
``opt["body"]`` and :func:`document_request_bodies` adds it, with msgspec's JSON Schema, to the
document Litestar builds. Error responses are declared with the problem document actually sent
(Litestar's default error schema is ``{status_code, detail, extra}``, litestar issue #4523).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin  # no public import path in Litestar 2
from litestar.openapi.datastructures import ResponseSpec
from litestar.routes import HTTPRoute

from .problems import PROBLEM_MEDIA_TYPE, TITLES, ProblemDocument
from .wire import BodyDecoder


def body(decoder: BodyDecoder[Any]) -> dict[str, Any]:
    """A route's ``opt``: the type its body decodes to, for the OpenAPI document."""
    return {"body": decoder.type}


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """Responses for the given error statuses, each an RFC 9457 problem document."""
    return {
        status: ResponseSpec(
            data_container=ProblemDocument,
            media_type=PROBLEM_MEDIA_TYPE,
            description=TITLES.get(status, "Error"),
            generate_examples=False,
        )
        for status in statuses
    }


_REF = "#/components/schemas/{name}"


def document_request_bodies(app: Litestar) -> dict[str, Any]:
    """Add every ``opt["body"]`` request body to the app's OpenAPI document, in place (idempotent).

    Litestar caches the document dict it serves, so the change is what ``/schema`` serves.
    """
    plugin = app.plugins.get(OpenAPIPlugin)
    document = plugin.provide_openapi_schema()  # the dict Litestar caches and serves
    bodies: dict[tuple[str, str], type[Any]] = {}
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            body_type = handler.opt.get("body")
            if body_type is None:
                continue
            for method in handler.http_methods:
                bodies[(route.path_format, str(method).lower())] = body_type
    types = sorted(set(bodies.values()), key=lambda t: t.__name__)
    schemas, components = msgspec.json.schema_components(types, ref_template=_REF)
    by_type = dict(zip(types, schemas, strict=True))
    known = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in components.items():
        known.setdefault(name, schema)
    for (path, verb), body_type in bodies.items():
        operation = document["paths"][path][verb]
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": by_type[body_type]}},
        }
    return document
