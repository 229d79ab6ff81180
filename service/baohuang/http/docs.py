"""What the generated OpenAPI document cannot know by itself.

Request bodies are decoded by our strict decoders from the raw body (see :mod:`.bodies`), so
Litestar never sees a ``data`` parameter to document; each route names its body type in
``opt["body"]`` and :func:`document_request_bodies` adds it to the document Litestar builds.
It then rewrites the document so that it says what the service actually sends:

* every request and response body schema is msgspec's JSON Schema of the type that is decoded or
  encoded (Litestar's own rendering of msgspec Structs loses constraints);
* every error response is the RFC 9457 problem document actually sent, as
  ``application/problem+json`` — including the 400 Litestar adds on its own for path parameters,
  whose default schema in Litestar 2 is ``{status_code, detail, extra}`` — and every
  operation documents the 500 problem any handler can end in, and every operation with a body
  the 415 for a ``Content-Type`` that is not JSON, the 408 for a body that comes too slowly and
  the 503 ``OVERLOADED`` (:mod:`.bounds`);
* examples (:mod:`.examples`), a summary and a description (the handler's docstring) per
  operation, and the bearer credentials of ``/v1/tables``.
"""

from __future__ import annotations

import inspect
import re
from typing import Any, get_args, get_origin

import msgspec
from litestar import Litestar, Response
from litestar.openapi.datastructures import ResponseSpec
from litestar.routes import HTTPRoute

from ..engine import MoveRefused, Reason
from . import examples
from .bodies import BodyDecoder
from .generated_clients import BEARER, shape_for_generators
from .problems import (
    PROBLEM_MEDIA_TYPE,
    TITLES,
    Problem,
    forbidden_problem,
    illegal_move_problem,
    overloaded_problem,
    rate_limited_problem,
    seat_problem,
    unauthorized_problem,
    unavailable_problem,
)
from .schemas import ProblemDocument
from .stream_slots import CREDENTIAL, too_many_streams_problem
from .suggestions import too_many_suggestions_problem


def body(decoder: BodyDecoder[Any], returns: type[Any] | None = None) -> dict[str, Any]:
    """A route's ``opt``: the type its body decodes to and, for a route that answers with
    :func:`.bodies.json_response`, the type it encodes — for the OpenAPI document. A route whose
    answer depends on the caller sets ``opt["returns"]`` to a tuple of types (``oneOf``)."""
    opt: dict[str, Any] = {"body": decoder.type}
    if returns is not None:
        opt["returns"] = returns
    return opt


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


def created(data: type[Any], description: str = "Created") -> dict[int, ResponseSpec]:
    """A 201 response with body ``data``, for a handler that answers 200 or 201."""
    return {
        201: ResponseSpec(data_container=data, description=description, generate_examples=False)
    }


_REF = "#/components/schemas/{name}"
_SUCCESS_DESCRIPTION = {200: "OK", 201: "Created", 204: "No content"}
_PROBLEM = {"$ref": _REF.format(name=ProblemDocument.__name__)}  # its one name


def _example(problem: Problem) -> dict[str, Any]:
    return {
        "summary": problem.document.errors[0].code,
        "value": msgspec.to_builtins(problem.document),
    }


def _problem_examples() -> dict[int, dict[str, Any]]:
    """One real problem document per status (built by the code that sends them)."""
    return {
        400: _example(Problem(400, "INVALID_FIELD", "Expected `array`, got `str`", path="$.cards")),
        401: _example(
            unauthorized_problem("this route needs 'Authorization: Bearer <platform key>'")
        ),
        403: _example(
            forbidden_problem("only a platform key may create, replace or delete a table")
        ),
        404: _example(Problem(404, "NOT_FOUND", "Not Found")),
        408: _example(
            Problem(
                408,
                "REQUEST_TIMEOUT",
                "the request body did not arrive within 30 seconds",
                headers={"Connection": "close"},
            )
        ),
        405: _example(Problem(405, "METHOD_NOT_ALLOWED", "Method Not Allowed")),
        409: _example(
            Problem(
                409,
                "VERSION_CONFLICT",
                "the table is at version 3, not 2: re-read it and decide again",
                path="$.version",
                current_version=3,
            )
        ),
        413: _example(Problem(413, "BODY_TOO_LARGE", "the request body is over the 1 MiB limit")),
        415: _example(
            Problem(
                415,
                "UNSUPPORTED_MEDIA_TYPE",
                "the body must be JSON in UTF-8, sent as 'Content-Type: application/json', not "
                "'application/x-www-form-urlencoded' (curl: --json, or -H 'Content-Type: "
                "application/json')",
                path="$.headers.content-type",
            )
        ),
        422: _example(
            Problem(
                422,
                "UNKNOWN_CARD",
                "'1H' is not a card code: rank 3456789TJQKA2 (or 10) then suit SHCD, "
                "or SJ, BJ, BJ*, SJ* (D-3)",
                path="$.cards[0]",
                rule="D-3",
            )
        ),
        429: _example(rate_limited_problem({})),
        500: _example(Problem(500, "INTERNAL_ERROR", "the referee failed; the error is logged")),
        503: _example(
            Problem(
                503,
                "OVERLOADED",
                "this process is handling as many requests as it takes at once; retry shortly",
                headers={"Retry-After": "1"},
            )
        ),
    }


def _table_422_examples(path: str) -> Any:
    """A table route's 422s: an illegal move where the route makes one, a seat that is not 0–4
    where the route names a seat (T-1)."""
    illegal = _example(
        illegal_move_problem(
            MoveRefused(
                Reason("NOT_HIGHER", "N-2", "must be higher than the play it beats (大过上家)")
            )
        )
    )
    if path.endswith("/legal-moves"):
        return _example(seat_problem(7, "$.query.seat"))
    if path.endswith(("/seats/{seat}", "/token")):
        return _example(seat_problem(9, "$.path.seat"))
    if "/seats/{seat}/" in path:
        return [illegal, _example(seat_problem(9, "$.path.seat"))]
    return illegal


def _route_problem_examples(path: str) -> dict[int, Any]:
    """Where a route's problems differ from the generic ones."""
    if path.startswith("/v1/tables/"):
        streams: dict[int, Any] = {}
        if path.endswith("/events"):  # a stream past its limits (http/stream_slots.py)
            streams[429] = [
                _example(rate_limited_problem({})),
                _example(too_many_streams_problem(CREDENTIAL, 32)),
            ]
        return {
            401: [
                _example(
                    unauthorized_problem(
                        "the credential is neither a platform key nor a token of this table"
                    )
                ),
                _example(
                    unauthorized_problem(
                        "this token was revoked: the platform issued a new token for its seat 2",
                        "TOKEN_REVOKED",
                    )
                ),
            ],
            **streams,
            404: _example(
                Problem(
                    404,
                    "TABLE_NOT_FOUND",
                    f"there is no table '{examples.TABLE_ID}'",
                    path="$.path.table_id",
                )
            ),
            422: _table_422_examples(path),
            503: [_example(unavailable_problem()), _example(overloaded_problem())],
        }
    if path == "/readyz":
        return {503: _example(unavailable_problem())}
    if path.startswith("/v1/rulesets/"):
        return {
            404: _example(
                Problem(
                    404,
                    "UNKNOWN_RULESET",
                    "unknown ruleset 'clasic': one of classic, tribute, lianzhong-classic, "
                    "lianzhong-simple",
                    path="$.path.name",
                    rule="R",
                )
            )
        }
    if path == "/v1/bots/suggest":
        return {
            422: [
                _example(
                    Problem(
                        422,
                        "NOT_TO_ACT",
                        "seat 2 is not to act: seat 3 is (T-1)",
                        path="$.view.turn",
                        rule="T-1",
                    )
                ),
                _example(
                    Problem(
                        422,
                        "INVALID_VIEW",
                        "counts[3] is 11 but the hand holds 12 cards",
                        path="$.view.counts[3]",
                    )
                ),
            ],
            # a caller's suggestions in flight (http/suggestions.py), or its rate limit
            429: [
                _example(rate_limited_problem({})),
                _example(too_many_suggestions_problem(2)),
            ],
        }
    if path.startswith("/v1/moves/") or path == "/v1/scores":
        return {
            422: _example(
                Problem(
                    422,
                    "INVALID_SNAPSHOT",
                    "seat 2 has finished but holds cards",
                    path="$.snapshot.hands[2]",
                    rule="T-8",
                )
            )
        }
    return {}


_HEADERS = {
    302: {
        "Location": {
            "description": "Where the answer is",
            "schema": {"type": "string", "examples": ["/schema"]},
        }
    },
    401: {
        "WWW-Authenticate": {
            "description": "The scheme to authenticate with",
            "schema": {"type": "string", "examples": ['Bearer realm="baohuang-tables"']},
        }
    },
    429: {
        "Retry-After": {
            "description": "Seconds until one more request is allowed",
            "schema": {"type": "string", "examples": ["1"]},
        },
        **{
            name: {"description": description, "schema": {"type": "string", "examples": [example]}}
            for name, description, example in (
                (
                    "RateLimit-Limit",
                    "Requests per window (draft-ietf-httpapi-ratelimit-headers-06)",
                    "600",
                ),
                ("RateLimit-Remaining", "Requests that may be sent now", "0"),
                ("RateLimit-Reset", "Seconds until the whole budget is back", "60"),
                ("RateLimit-Policy", "The limit and its window in seconds", "600;w=60"),
            )
        },
    },
    503: {
        "Retry-After": {
            "description": "Seconds to wait before retrying",
            "schema": {"type": "string", "examples": ["1"]},
        }
    },
}


# The table routes whose success answers name the table's instance and version (a GET's).
_ETAG = {
    "ETag": {
        "description": 'The table\'s instance and version, `"<instance>.<version>"`',
        "schema": {"type": "string", "examples": ['"9f3c2a1b7d4e6f80.3"']},
    }
}
ETAG_ROUTES = frozenset(
    {
        ("/v1/tables/{table_id}", "put"),
        ("/v1/tables/{table_id}", "get"),
        ("/v1/tables/{table_id}/legal-moves", "get"),
        ("/v1/tables/{table_id}/seats/{seat}", "get"),
    }
)


def _response_type(annotation: Any) -> Any:
    """``Response[T]`` → ``T``; anything else as it is (``None`` for an empty body)."""
    if annotation is type(None) or annotation is None:
        return None
    origin = get_origin(annotation)
    if origin is not None and isinstance(origin, type) and issubclass(origin, Response):
        args = get_args(annotation)
        return args[0] if args else None
    if isinstance(annotation, type) and issubclass(annotation, Response):
        return None
    return annotation


def _summary_and_description(fn: Any) -> tuple[str | None, str | None]:
    doc = inspect.getdoc(fn)
    if not doc:
        return None, None
    text = re.sub(r"``([^`]*)``", r"`\1`", doc)
    first = " ".join(text.split("\n\n", 1)[0].split())
    sentence = re.match(r"^(.*?[.?!])(?:\s|$)", first)
    summary = (sentence.group(1) if sentence else first).rstrip(".")
    description = "\n\n".join(" ".join(paragraph.split()) for paragraph in text.split("\n\n"))
    return summary, description


def _served_document(app: Litestar) -> dict[str, Any]:
    """The OpenAPI document as the dict Litestar caches and serves at ``/schema``.

    Litestar 2 offers no public way to change the served document: the plugin that serves it,
    ``OpenAPIPlugin``, lives in the private ``litestar._openapi`` package. It is found here by
    name through the public plugin registry, and its ``provide_openapi_schema()`` (the cached
    dict) is the one private call of this module. Should a Litestar upgrade move it, this
    function is what to change (``tests/http/test_operations_api.py`` notices).
    """
    plugin: Any = app.plugins.get("OpenAPIPlugin")
    document: dict[str, Any] = plugin.provide_openapi_schema()
    return document


_COMPLETED: dict[tuple[tuple[str, str], ...], dict[str, Any]] = {}
"""The completed document of each set of routes this process has made an app with. It depends
on the routes alone (the OpenAPI config is the same for every app), and completing it costs
more than the rest of ``create_app`` together: a second app with the same routes (a worker's
restart, every test's own app) serves the same dict."""


def _routes(app: Litestar) -> tuple[tuple[str, str], ...]:
    return tuple(
        sorted(
            (route.path_format, str(method))
            for route in app.routes
            if isinstance(route, HTTPRoute)
            for method in route.methods
        )
    )


def document_request_bodies(app: Litestar) -> dict[str, Any]:
    """Complete the app's OpenAPI document in place (idempotent); see the module docstring.

    Litestar caches the document dict it serves, so the change is what ``/schema`` serves. An
    app whose routes were documented before in this process is given that document (the
    plugin's cache, ``_openapi_schema``: the other private name this module uses).
    """
    routes = _routes(app)
    completed = _COMPLETED.get(routes)
    if completed is not None:
        plugin: Any = app.plugins.get("OpenAPIPlugin")
        plugin._openapi_schema = completed
        return completed
    document = _served_document(app)
    paths: dict[str, Any] = document.get("paths", {})

    # (path, verb) → (handler, request body type, {status: response body type})
    operations: dict[tuple[str, str], tuple[Any, Any, dict[int, Any]]] = {}
    for route in app.routes:
        if not isinstance(route, HTTPRoute) or route.path_format not in paths:
            continue
        for handler in route.route_handlers:
            for method in handler.http_methods:
                verb = str(method).lower()
                if verb not in paths[route.path_format]:
                    continue
                success: dict[int, Any] = {}
                returned = handler.opt.get("returns") or _response_type(
                    handler.parsed_fn_signature.return_type.annotation
                )
                success[handler.status_code] = returned
                for status, spec in (handler.responses or {}).items():
                    if status < 400 and spec.data_container is not None:
                        success[status] = spec.data_container
                operations[(route.path_format, verb)] = (handler, handler.opt.get("body"), success)

    types: set[Any] = {ProblemDocument}
    for _, body_type, success in operations.values():
        if body_type is not None:
            types.add(body_type)
        for returned_type in success.values():
            if isinstance(returned_type, tuple):
                types.update(returned_type)
            elif returned_type is not None:
                types.add(returned_type)
    ordered = sorted(types, key=repr)
    schemas, components = msgspec.json.schema_components(ordered, ref_template=_REF)
    by_type = dict(zip(ordered, schemas, strict=True))
    document.setdefault("components", {})["schemas"] = dict(sorted(components.items()))
    document["components"]["securitySchemes"] = {
        BEARER: {
            "type": "http",
            "scheme": "bearer",
            "description": "A platform key (BAOHUANG_API_KEYS) or a seat token from PUT "
            "/v1/tables/{table_id}. Without platform keys configured the routes are open, but a "
            "credential that is sent is still checked.",
        }
    }

    generic_problems = _problem_examples()
    for (path, verb), (handler, body_type, success) in operations.items():
        operation = paths[path][verb]
        summary, description = _summary_and_description(handler.fn)
        if summary and (not operation.get("summary") or operation["summary"] == _camel(handler)):
            operation["summary"] = summary
        if description and not operation.get("description"):
            operation["description"] = description
        if body_type is not None:
            media: dict[str, Any] = {"schema": by_type[body_type]}
            if (path, verb) in examples.REQUESTS:
                media["examples"] = examples.REQUESTS[(path, verb)]
            required = not handler.opt.get("body_optional", False)  # an empty body is {}
            operation["requestBody"] = {
                "required": required,
                "content": {"application/json": media},
            }
        for parameter in operation.get("parameters", []):
            if parameter.get("in") == "path" and parameter["name"] in examples.PATH_PARAMETERS:
                parameter["examples"] = {
                    "example": {"value": examples.PATH_PARAMETERS[parameter["name"]]}
                }
        responses = operation.setdefault("responses", {})
        for status, returned in success.items():
            response: dict[str, Any] = {
                "description": _SUCCESS_DESCRIPTION.get(status, "Success"),
            }
            if returned is not None:
                if isinstance(returned, tuple):
                    media = {"schema": {"oneOf": [by_type[one] for one in returned]}}
                else:
                    media = {"schema": by_type[returned]}
                if (path, verb, status) in examples.RESPONSES:
                    media["examples"] = examples.RESPONSES[(path, verb, status)]
                response["content"] = {"application/json": media}
            responses[str(status)] = response
        if handler.opt.get("streams"):
            # The streams are described in words, not as more media types of the 200: a
            # generated client types a response's body as the union of its media types, and a
            # page typed `EventsPage | string` cannot be read without a cast.
            responses["200"]["description"] = _STREAMS_DESCRIPTION
        responses.setdefault("500", {})
        if body_type is not None:
            responses.setdefault("415", {})  # bodies.require_json_content_type
            responses.setdefault("408", {})  # bounds.RequestBounds: the body came too slowly
            responses.setdefault("503", {})  # bounds.RequestBounds: OVERLOADED
        if path.startswith("/v1/"):
            responses.setdefault("429", {})  # when BAOHUANG_RATE_LIMIT(_STATELESS) is set
        route_problems = _route_problem_examples(path)
        for key in list(responses):
            status = int(key)
            if status < 400:
                if status in _HEADERS:
                    responses[key]["headers"] = _HEADERS[status]
                elif status in (200, 201) and (path, verb) in ETAG_ROUTES:
                    responses[key]["headers"] = _ETAG
                continue
            example = route_problems.get(status) or generic_problems.get(status)
            media = {"schema": _PROBLEM}
            if isinstance(example, list):  # several problems share the status
                media["examples"] = {one["summary"]: one for one in example}
            elif example is not None:
                media["examples"] = {"problem": example}
            responses[key] = {
                "description": TITLES.get(status, "Error"),
                "content": {PROBLEM_MEDIA_TYPE: media},
            }
            if status in _HEADERS:
                responses[key]["headers"] = _HEADERS[status]
        operation["responses"] = dict(sorted(responses.items()))
    shape_for_generators(document)
    _COMPLETED[routes] = document  # complete: a failure above leaves nothing half done
    return document


_STREAMS_DESCRIPTION = """\
The page of events, as JSON (with `last_event_id`, and `reset: true` when the log no longer holds \
the event named by `after`: re-read the table, then poll after its `last_event_id`). The same URL \
streams instead when asked to by `Accept`:

* `Accept: text/event-stream`, Server-Sent Events: first `event: snapshot` (data: the caller's \
`Table`, with `last_seq` and `last_event_id`), then one SSE event per logged event the caller may \
see (`event:` its `type`, `id:` its id `<seq>.<token>`, data: the event with `seq`, `version` and \
`id`), a `: heartbeat` comment every 15 s when quiet, `event: reset` (`id:` its `last_event_id`, \
data: the caller's table read as it now is) when a failover rolled the log back past what the \
stream sent, and `event: closed` (data: `{"reason": "deleted" | "replaced"}`) before the stream \
ends. Reconnect with `Last-Event-ID` (or `after`) to resume with no gap and no duplicate, or with \
a `reset` first when the log no longer holds that event.
* `Accept: application/x-ndjson`: the same, one JSON object per line: `{"type": "snapshot", \
…the Table's fields}`, each event, `{"type": "heartbeat"}`, `{"type": "reset", …the Table's \
fields}` and `{"type": "closed", "reason"}`.

The SDKs in clients/ read both (`follow` in each) with resume.
"""


def _camel(handler: Any) -> str:
    """Litestar's default summary: the handler's name in CamelCase."""
    return "".join(part.title() for part in handler.fn.__name__.split("_"))
