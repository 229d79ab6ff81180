"""RFC 9457 problem documents for input the service cannot judge (docs/clients.md).

Every 4xx and 5xx leaves the service as ``application/problem+json`` with ``type``, ``title``,
``status``, ``detail``, ``instance`` (``urn:request:<request id>``, the ``X-Request-ID`` of the
answer) and ``errors: [{code, rule, path, message}]``. ``type`` is ``/problems/<code>``, a page of
this service (:mod:`.catalogue`, where every code is registered). Illegal moves and plays are
200 verdicts with a reason on the stateless routes; a live table refuses a move with a 422 that
carries the same ``reason``.

``path`` is one JSONPath style for every part of a request: body fields from the root
(``$.move.cards[1]``), then ``$.path.<parameter>``, ``$.query.<parameter>`` and
``$.headers.<lower-case header name>``.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)
from litestar.types import HTTPResponseBodyEvent, HTTPResponseStartEvent

from ..bots import NotToAct
from ..engine import InvalidInput, MoveRefused, Reason
from ..store import StoreOutcomeUnknown, StoreOverloaded, StoreUnavailable
from ..tables import (
    Forbidden,
    IdempotencyKeyReused,
    TableNotFound,
    Unauthorized,
    VersionConflict,
)
from ..tables.deal_records import DealNotKept
from ..tables.errors import WebhooksOff, WebhookUrlRefused
from .access import REQUEST_ID_SCOPE_KEY
from .catalogue import problem_type
from .schemas import ProblemDocument, ProblemItem

log = logging.getLogger("baohuang.http")

PROBLEM_MEDIA_TYPE = "application/problem+json"


TITLES = {
    400: "Malformed request",
    401: "Authentication required",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    408: "Request timeout",
    409: "Version conflict",
    413: "Request body too large",
    415: "Unsupported media type",
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
        reason: Reason | None = None,
    ) -> None:
        document = ProblemDocument(
            type=problem_type(code),
            title=title or TITLES.get(status, "Error"),
            status=status,
            detail=f"{path}: {message}" if path != "$" else message,
            errors=[ProblemItem(code=code, rule=rule, path=path, message=message)],
            current_version=current_version,
            reason=reason,
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
        return Response(
            msgspec.json.encode(self._for(request.scope)),
            status_code=self.status_code,
            media_type=PROBLEM_MEDIA_TYPE,
            headers=self.headers,
        )

    def asgi_messages(self, scope: Any) -> tuple[HTTPResponseStartEvent, HTTPResponseBodyEvent]:
        """The response as the two ASGI messages to send, for a refusal made below the
        handlers (a bound, an early cap), where no ``Response`` is built: the same document,
        status and headers."""
        body = msgspec.json.encode(self._for(scope))
        headers = [
            (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
            (b"content-length", str(len(body)).encode()),
            *(
                (name.lower().encode(), value.encode())
                for name, value in (self.headers or {}).items()
            ),
        ]
        start: HTTPResponseStartEvent = {
            "type": "http.response.start",
            "status": self.status_code,
            "headers": headers,
        }
        return start, {"type": "http.response.body", "body": body, "more_body": False}

    def _for(self, scope: Any) -> ProblemDocument:
        """The document, its ``instance`` naming the request's id as every problem's does."""
        request_id = scope.get(REQUEST_ID_SCOPE_KEY)
        if request_id is None:
            return self.document
        return msgspec.structs.replace(self.document, instance=f"urn:request:{request_id}")


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


def outcome_unknown_problem() -> Problem:
    """A write ran but too few replicas confirmed it in time: it may yet be rolled back by a
    failover, so it is not a success; the client re-reads the table to learn what stands."""
    return Problem(
        503,
        "OUTCOME_UNKNOWN",
        "the write was not confirmed by enough Redis replicas in time: it may or may not stand; "
        "re-read the table (GET) before deciding what to send next",
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


def rate_limited_problem(headers: dict[str, str], *, failed_auth: bool = False) -> Problem:
    """This caller spent its request budget (``BAOHUANG_RATE_LIMIT``), or its address its budget
    of failed authentications (``BAOHUANG_RATE_LIMIT_AUTH_FAILURES``): wait ``Retry-After``."""
    if failed_auth:
        message = (
            "too many requests with a missing or unknown credential from this address; retry "
            "after the Retry-After delay with a platform key or a token of this table"
        )
    else:
        message = (
            "too many requests for this credential (or address); retry after the Retry-After "
            "delay (the request was not applied)"
        )
    return Problem(429, "RATE_LIMITED", message, headers=headers)


ILLEGAL_MOVE_TITLE = "Illegal move"


def illegal_move_problem(refused: MoveRefused) -> Problem:
    """A table move the rules refuse: a verdict about the game (422, titled as such), not input
    the referee cannot judge; nothing changed. It carries the verdict's ``reason`` as a 200
    verdict of ``/v1/moves/validate`` would (docs/clients.md), beside the ``errors`` every
    problem has, so one client code path reads both."""
    reason = refused.reason
    return Problem(
        422,
        reason.code,
        reason.message,
        path="$.move",
        rule=reason.rule,
        title=ILLEGAL_MOVE_TITLE,
        reason=reason,
    )


def unauthorized_problem(message: str, code: str = "UNAUTHORIZED") -> Problem:
    return Problem(
        401,
        code,
        message,
        path="$.headers.authorization",
        headers={"WWW-Authenticate": 'Bearer realm="baohuang-tables"'},
    )


def forbidden_problem(message: str, path: str = "$") -> Problem:
    return Problem(403, "FORBIDDEN", message, path=path)


def not_found_problem(table_id: str) -> Problem:
    return Problem(
        404, "TABLE_NOT_FOUND", f"there is no table '{table_id}'", path="$.path.table_id"
    )


def conflict_problem(conflict: VersionConflict) -> Problem:
    return Problem(
        409,
        "VERSION_CONFLICT",
        conflict.message,
        path="$.version",
        current_version=conflict.current_version,
    )


_AT_PATH = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
# msgspec quotes a pattern with repr(): `'^[\\x21-\\x7e]+$'` for the pattern ^[\x21-\x7e]+$,
# which JSON would escape once more. A client reads the pattern as it is written.
_QUOTED_PATTERN = re.compile(r"regex (?P<quoted>'(?:[^'\\]|\\.)*')")


def plain_message(message: str) -> str:
    """A msgspec message with its quoted regex as the pattern is written (one backslash)."""

    def unquote(match: re.Match[str]) -> str:
        try:
            return f"regex '{ast.literal_eval(match.group('quoted'))}'"
        except (ValueError, SyntaxError):  # not a Python literal after all: leave it be
            return match.group(0)

    return _QUOTED_PATTERN.sub(unquote, message)


# Litestar's names for where a parameter is, as the one path style says them.
_SOURCES = {"header": "headers", "cookie": "cookies", "path": "path", "query": "query"}


def validation_problem(error: msgspec.ValidationError | msgspec.DecodeError) -> Problem:
    """msgspec's ``"Expected `int`, got `str` - at `$.pairs[0]`"`` as a 400 naming the field."""
    match = _AT_PATH.match(str(error))
    message = plain_message(match.group("message") if match else str(error))
    path = (match.group("path") if match else None) or "$"
    if isinstance(error, msgspec.ValidationError):
        return Problem(400, "INVALID_FIELD", message, path=path)
    return Problem(400, "INVALID_JSON", f"the body is not valid JSON: {message}", path=path)


_OUT_OF_RANGE = re.compile(r"^Expected `int` [<>]=? -?\d+$")


def out_of_range(message: str) -> bool:
    """Whether msgspec's ``message`` refuses an integer for its bounds (not for its type)."""
    return _OUT_OF_RANGE.match(message) is not None


def seat_problem(value: object, path: str) -> Problem:
    """A seat that is not 0–4 (T-1): right in type, naming no seat (:mod:`.field_rules`)."""
    return Problem(
        422,
        "INVALID_SEAT",
        f"{json.dumps(value)} is not a seat: seats are 0–4, in the order of play (T-1)",
        path=path,
        rule="T-1",
    )


def mode_problem(value: object, modes: tuple[str, ...], path: str) -> Problem:
    """A mode that is none of G-1's (:mod:`.field_rules`)."""
    shown = json.dumps(value, ensure_ascii=False)
    return Problem(
        422,
        "INVALID_MODE",
        f"{shown} is not a mode: one of {', '.join(modes)} (G-1)",
        path=path,
        rule="G-1",
    )


def _http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    code = {
        404: "NOT_FOUND",
        405: "METHOD_NOT_ALLOWED",
        408: "REQUEST_TIMEOUT",
        413: "BODY_TOO_LARGE",
        415: "UNSUPPORTED_MEDIA_TYPE",
    }.get(status, "HTTP_ERROR")
    message = exc.detail or TITLES.get(status, "Error")
    if status == 400 and isinstance(exc.extra, list) and exc.extra:
        # Litestar's ValidationException for path/query parameters: name the parameter.
        first = exc.extra[0] if isinstance(exc.extra[0], dict) else {}
        source = str(getattr(first.get("source"), "value", first.get("source") or "path"))
        key = str(first.get("key", ""))
        if source == "header":  # the parameter's Python name: idempotency_key → idempotency-key
            key = key.replace("_", "-").lower()
        where = f"$.{_SOURCES.get(source, source)}.{key}".rstrip(".")
        text = plain_message(str(first.get("message", message)))
        if key == "seat" and out_of_range(text):  # a seat in the path or the query (T-1)
            given = str(request.path_params.get("seat", request.query_params.get("seat")))
            seat: object = int(given) if given.lstrip("-").isdigit() else given
            return seat_problem(seat, where).to_response(request)
        return Problem(400, "INVALID_FIELD", text, path=where).to_response(request)
    if status == 413:
        message = "the request body is over the 1 MiB limit"
    return Problem(status, code, message, headers=exc.headers).to_response(request)


def _innermost(exc: BaseException) -> str:
    """Where ``exc`` was raised: ``file:line in function`` of its innermost Python frame."""
    tb = exc.__traceback__
    if tb is None:
        return "an unknown place"
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return f"{code.co_filename}:{tb.tb_lineno} in {code.co_name}"


def _internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    if isinstance(exc, RecursionError):
        # Its traceback repeats one frame about a thousand times: one line says all of it.
        log.error(
            "unhandled RecursionError on %s %s, raised at %s",
            request.method,
            request.url.path,
            _innermost(exc),
        )
    else:
        log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return Problem(500, "INTERNAL_ERROR", "the referee failed; the error is logged").to_response(
        request
    )


def not_to_act_problem(refusal: NotToAct) -> Problem:
    """A suggestion asked for a seat that does not act now (T-1) or a deal that is over (T-9)."""
    return Problem(422, "NOT_TO_ACT", refusal.message, path="$.view.turn", rule="T-1")


def bad_input_problem(error: InvalidInput) -> Problem:
    """Input the engine cannot judge (422): its path is relative to the engine call's arguments,
    which the request body carries under the same names, so the body's root goes in front."""
    return Problem(422, error.code, error.message, path=error.at("$"), rule=error.rule)


def idempotency_key_problem(error: IdempotencyKeyReused) -> Problem:
    return Problem(422, "IDEMPOTENCY_KEY_REUSED", str(error), path="$.headers.idempotency-key")


E = TypeVar("E", bound=Exception)


def _answer(
    problem: Callable[[E], Problem],
) -> Callable[[Request[Any, Any, Any], E], Response[Any]]:
    """An exception handler answering with the problem document ``problem`` makes of the error."""

    def handle(request: Request[Any, Any, Any], exc: E) -> Response[Any]:
        return problem(exc).to_response(request)

    return handle


# Every error that leaves a handler becomes its problem document here, once: Litestar picks the
# handler of the exception's nearest class.
EXCEPTION_HANDLERS: dict[int | type[Exception], Any] = {
    HTTPException: _http_exception,
    msgspec.ValidationError: _answer(validation_problem),
    msgspec.DecodeError: _answer(validation_problem),
    InvalidInput: _answer(bad_input_problem),
    MoveRefused: _answer(illegal_move_problem),
    NotToAct: _answer(not_to_act_problem),
    VersionConflict: _answer(conflict_problem),
    TableNotFound: _answer(lambda exc: not_found_problem(exc.table_id)),
    DealNotKept: _answer(lambda exc: Problem(404, "DEAL_NOT_KEPT", str(exc), path="$.path.deal")),
    Forbidden: _answer(lambda exc: forbidden_problem(str(exc), exc.path)),
    Unauthorized: _answer(lambda exc: unauthorized_problem(str(exc), exc.code)),
    StoreUnavailable: _answer(lambda _: unavailable_problem()),
    StoreOutcomeUnknown: _answer(lambda _: outcome_unknown_problem()),
    StoreOverloaded: _answer(lambda _: overloaded_problem()),
    IdempotencyKeyReused: _answer(idempotency_key_problem),
    WebhooksOff: _answer(lambda exc: Problem(422, "WEBHOOKS_OFF", str(exc), path="$.webhook")),
    WebhookUrlRefused: _answer(
        lambda exc: Problem(422, "WEBHOOK_URL_REFUSED", str(exc), path="$.webhook.url")
    ),
    Exception: _internal_error,
}


def problem_details_plugin() -> ProblemDetailsPlugin:
    """Litestar's RFC 9457 plugin; :class:`Problem` renders its own strict document."""
    return ProblemDetailsPlugin(ProblemDetailsConfig())
