"""RFC 9457 problem documents for input the service cannot judge (API.md "Verdicts").

Every 4xx and 5xx leaves the service as ``application/problem+json`` with ``type``, ``title``,
``status``, ``detail``, ``instance`` (``urn:request:<request id>``, the ``X-Request-ID`` of the
answer) and ``errors: [{code, rule, path, message}]``. Illegal moves and plays are never problems:
they are 200 verdicts with a reason.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from ..engine.cards import CardError
from ..engine.play import MoveRefused
from ..engine.rulesets import UnknownRuleset
from ..engine.validation import InvalidInput
from ..store import StoreOverloaded, StoreUnavailable
from ..tables import Forbidden, TableNotFound, Unauthorized, VersionConflict
from .access import REQUEST_ID_SCOPE_KEY

log = logging.getLogger("baohuang.http")

PROBLEM_MEDIA_TYPE = "application/problem+json"


class ProblemItem(msgspec.Struct, frozen=True):
    """One offending field: a stable ``code``, the RULES.md ``rule`` (null when the contract
    itself, not a game rule, is broken), a JSONPath ``path`` into the request, a ``message``."""

    code: str
    rule: str | None
    path: str
    message: str


class ProblemDocument(msgspec.Struct, frozen=True, omit_defaults=True):
    """The body of every error response (RFC 9457)."""

    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None  # urn:request:<id>: this answer's X-Request-ID, for support
    errors: list[ProblemItem] = []
    current_version: int | None = None  # 409 on a table move: the version to retry against


TITLES = {
    400: "Malformed request",
    401: "Authentication required",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Version conflict",
    413: "Request body too large",
    422: "Input the referee cannot judge",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}


class Problem(ProblemDetailsException):
    """Raise anywhere in a controller to answer with a problem document."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        path: str = "$",
        rule: str | None = None,
        headers: dict[str, str] | None = None,
        current_version: int | None = None,
        title: str | None = None,
    ) -> None:
        document = ProblemDocument(
            type=f"urn:baohuang:problem:{code.lower().replace('_', '-')}",
            title=title or TITLES.get(status, "Error"),
            status=status,
            detail=f"{path}: {message}" if path != "$" else message,
            errors=[ProblemItem(code=code, rule=rule, path=path, message=message)],
            current_version=current_version,
        )
        super().__init__(
            detail=document.detail,
            status_code=status,
            headers=headers,
            extra=msgspec.to_builtins(document),
            type_=document.type,
            title=document.title,
        )
        self.document = document

    def to_response(self, request: Request[Any, Any, Any]) -> Response[Any]:
        document = self.document
        request_id = request.scope.get(REQUEST_ID_SCOPE_KEY)
        if request_id is not None:
            document = msgspec.structs.replace(document, instance=f"urn:request:{request_id}")
        return Response(
            msgspec.json.encode(document),
            status_code=self.status_code,
            media_type=PROBLEM_MEDIA_TYPE,
            headers=self.headers,
        )


def card_problem(error: CardError, path: str) -> Problem:
    """A :class:`CardError` (D-3, D-4, D-5) as a 422 naming the card's path when it has one."""
    where = f"{path}[{error.index}]" if error.index is not None else path
    return Problem(422, error.code, error.message, path=where, rule=error.rule)


def invalid_input_problem(error: InvalidInput) -> Problem:
    """A snapshot or move the engine cannot judge (``INVALID_SNAPSHOT``, ``UNKNOWN_CARD``, …)."""
    return Problem(422, error.code, error.message, path=error.path, rule=error.rule)


RETRY_AFTER_SECONDS = "1"


def unavailable_problem() -> Problem:
    """Fail closed: the live tables' store is unreachable; never judge against stale state."""
    return Problem(
        503,
        "STORE_UNAVAILABLE",
        "the live table store is unreachable; re-read the table before retrying a write, whose "
        "outcome is unknown (stateless routes still answer)",
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    )


def overloaded_problem() -> Problem:
    """Too much table work in flight in this process: wait and retry (nothing was written)."""
    return Problem(
        503,
        "OVERLOADED",
        "this replica has more table requests in flight than it serves; retry after the "
        "Retry-After delay (the request was not applied)",
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    )


def rate_limited_problem(headers: dict[str, str]) -> Problem:
    """This caller spent its request budget (``BAOHUANG_RATE_LIMIT``): wait ``Retry-After``."""
    return Problem(
        429,
        "RATE_LIMITED",
        "too many requests for this credential (or address); retry after the Retry-After delay "
        "(the request was not applied)",
        headers=headers,
    )


ILLEGAL_MOVE_TITLE = "Illegal move"


def illegal_move_problem(refused: MoveRefused) -> Problem:
    """A table move the rules refuse: a verdict about the game (422, titled as such), not input
    the referee cannot judge; nothing changed."""
    reason = refused.reason
    return Problem(
        422, reason.code, reason.message, path="$.move", rule=reason.rule, title=ILLEGAL_MOVE_TITLE
    )


def unauthorized_problem(message: str) -> Problem:
    return Problem(
        401,
        "UNAUTHORIZED",
        message,
        path="$.headers.authorization",
        headers={"WWW-Authenticate": 'Bearer realm="baohuang-tables"'},
    )


def forbidden_problem(message: str, path: str = "$") -> Problem:
    return Problem(403, "FORBIDDEN", message, path=path)


def not_found_problem(table_id: str) -> Problem:
    return Problem(404, "TABLE_NOT_FOUND", f"there is no table '{table_id}'", path="$.id")


def conflict_problem(conflict: VersionConflict) -> Problem:
    return Problem(
        409,
        "VERSION_CONFLICT",
        conflict.message,
        path="$.version",
        current_version=conflict.current_version,
    )


def ruleset_problem(error: UnknownRuleset, path: str = "$.ruleset") -> Problem:
    return Problem(422, "UNKNOWN_RULESET", str(error), path=path, rule="R")


_AT_PATH = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)


def validation_problem(error: msgspec.ValidationError | msgspec.DecodeError) -> Problem:
    """msgspec's ``"Expected `int`, got `str` - at `$.pairs[0]`"`` as a 400 naming the field."""
    match = _AT_PATH.match(str(error))
    message = match.group("message") if match else str(error)
    path = (match.group("path") if match else None) or "$"
    if isinstance(error, msgspec.ValidationError):
        return Problem(400, "INVALID_FIELD", message, path=path)
    return Problem(400, "INVALID_JSON", f"the body is not valid JSON: {message}", path=path)


def _http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    code = {
        404: "NOT_FOUND",
        405: "METHOD_NOT_ALLOWED",
        413: "BODY_TOO_LARGE",
    }.get(status, f"HTTP_{status}")
    message = exc.detail or TITLES.get(status, "Error")
    if status == 400 and isinstance(exc.extra, list) and exc.extra:
        # Litestar's ValidationException for path/query parameters: name the parameter.
        first = exc.extra[0] if isinstance(exc.extra[0], dict) else {}
        source = str(getattr(first.get("source"), "value", first.get("source") or "path"))
        where = f"$.{source}.{first.get('key', '')}".rstrip(".")
        return Problem(
            400, "INVALID_FIELD", str(first.get("message", message)), path=where
        ).to_response(request)
    if status == 413:
        message = "the request body is over the 1 MiB limit"
    return Problem(status, code, message, headers=exc.headers).to_response(request)


def _internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return Problem(500, "INTERNAL_ERROR", "the referee failed; the error is logged").to_response(
        request
    )


def _as_problem(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    if isinstance(exc, (msgspec.ValidationError, msgspec.DecodeError)):
        return validation_problem(exc).to_response(request)
    if isinstance(exc, UnknownRuleset):
        return ruleset_problem(exc).to_response(request)
    if isinstance(exc, CardError):
        return card_problem(exc, "$").to_response(request)
    if isinstance(exc, InvalidInput):
        return invalid_input_problem(exc).to_response(request)
    if isinstance(exc, StoreUnavailable):
        return unavailable_problem().to_response(request)
    return _internal_error(request, exc)


def _table_problem(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """The table service's refusals, each mapped to its status once."""
    problem: Problem
    if isinstance(exc, MoveRefused):
        problem = illegal_move_problem(exc)
    elif isinstance(exc, VersionConflict):
        problem = conflict_problem(exc)
    elif isinstance(exc, TableNotFound):
        problem = not_found_problem(exc.table_id)
    elif isinstance(exc, Forbidden):
        problem = forbidden_problem(str(exc), exc.path)
    elif isinstance(exc, Unauthorized):
        problem = unauthorized_problem(str(exc))
    elif isinstance(exc, StoreOverloaded):
        problem = overloaded_problem()
    else:  # pragma: no cover - registered for the types above only
        return _internal_error(request, exc)
    return problem.to_response(request)


EXCEPTION_HANDLERS: dict[int | type[Exception], Any] = {
    HTTPException: _http_exception,
    msgspec.ValidationError: _as_problem,
    msgspec.DecodeError: _as_problem,
    UnknownRuleset: _as_problem,
    CardError: _as_problem,
    InvalidInput: _as_problem,
    StoreUnavailable: _as_problem,
    MoveRefused: _table_problem,
    VersionConflict: _table_problem,
    TableNotFound: _table_problem,
    Forbidden: _table_problem,
    Unauthorized: _table_problem,
    StoreOverloaded: _table_problem,
    Exception: _as_problem,
}


def problem_details_plugin() -> ProblemDetailsPlugin:
    """Litestar's RFC 9457 plugin; :class:`Problem` renders its own strict document."""
    return ProblemDetailsPlugin(ProblemDetailsConfig())
