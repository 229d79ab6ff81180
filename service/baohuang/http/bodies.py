"""Reading request bodies and writing answers, the service's way (docs/clients.md, "Conventions").

Bodies are decoded by strict decoders (:class:`BodyDecoder`, one per route, over the types of
:mod:`.schemas`), never by Litestar's injection, which converts with ``strict=False`` (``"7"``
would pass as ``7``). Unknown fields are refused, and so is a key named twice in one object
(:func:`refuse_duplicate_keys`); a body must be JSON in UTF-8, at most 1 MiB and nested at most
64 levels deep. The hot routes answer with a pre-encoded :class:`JSONBody`.
"""

from __future__ import annotations

import gc
import json
import re
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import accumulate
from typing import Any, Generic, TypeVar

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, SerializationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge

from .field_rules import field_rule_problem
from .problems import Problem, validation_problem
from .settings import MAX_BODY_BYTES

T = TypeVar("T")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector off for one synchronous burst of allocation.

    A 10,000-pair batch allocates some 30,000 containers that live until the answer is sent;
    with the collector on, its generation scans cost about a quarter of the batch's server time
    (bench/RESULTS.md). Nothing awaits inside, so no other request runs while it is paused, and
    whatever was allocated is collected as usual afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


MAX_JSON_DEPTH = 64  # arrays and objects; the deepest request the API defines nests 6
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 and -1 as signed bytes


def nested_too_deep(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text ``body`` nests arrays and objects more than ``limit`` levels deep.

    Brackets inside strings do not count. A body with no more than ``limit`` brackets in all
    cannot nest deeper, which is the answer for nearly every body at the cost of two counts;
    otherwise the brackets outside strings are summed as +1/-1 in C (about 30 ms a MiB, less than
    a valid 10,000-pair batch costs). Meant for well-formed JSON: in a malformed text an
    unterminated string may leave its brackets counted.
    """
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    steps = array("b", _STRING.sub(b"", body).translate(_STEPS, _NOT_BRACKETS))
    return bool(steps) and max(accumulate(steps)) > limit


def too_deep_problem() -> Problem:
    """A body nested deeper than :data:`MAX_JSON_DEPTH`: not JSON this service reads (400)."""
    return Problem(
        400,
        "INVALID_JSON",
        f"the body is JSON nested more than {MAX_JSON_DEPTH} levels deep (arrays and objects); "
        "no request of this API nests that deep",
    )


_WHITESPACE = b" \t\n\r"
_generic = msgspec.json.Decoder()
_encode_generic = msgspec.json.Encoder().encode


def keys_in(text: bytes) -> int:
    """How many object members the valid JSON ``text`` holds, a key named twice counted twice.

    Every ``"`` inside a string is escaped, so once escaped backslashes (``\\\\``) are gone and
    whitespace too, a member is a ``":`` that is not a ``\\":``: counted in C, about 1 ms a MiB
    (each step only where the text has what it removes).
    """
    if b" " in text or b"\n" in text or b"\t" in text or b"\r" in text:  # memchr, each
        text = text.translate(None, _WHITESPACE)
    if b"\\" not in text:
        return text.count(b'":')
    text = text.replace(b"\\\\", b"")
    return text.count(b'":') - text.count(b'\\":')


def distinct_keys(text: bytes) -> int:
    """How many object members ``text`` holds once each object keeps one member per key (as
    every decoder here reads it: the last value wins)."""
    return keys_in(_encode_generic(_generic.decode(text)))


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Members(list[tuple[str, Any]]):
    """An object's members in order, duplicates kept (json's ``object_pairs_hook``)."""


def _member_path(path: str, key: str) -> str:
    """The member's path in the one path style (:mod:`.problems`); a key that is no plain name
    (no body of this API has one) is named by the message, and the path stops at its object."""
    return f"{path}.{key}" if _NAME.fullmatch(key) else path


def _first_duplicate(value: Any, path: str) -> tuple[str, str] | None:
    """The first key, in the text's order, named a second time in its object: (path, key)."""
    if isinstance(value, _Members):
        seen: set[str] = set()
        for key, member in value:
            if key in seen:
                return _member_path(path, key), key
            seen.add(key)
            found = _first_duplicate(member, _member_path(path, key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _first_duplicate(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def duplicate_key(text: bytes) -> tuple[str, str] | None:
    """Where the JSON ``text`` first names a key twice in one object, ``(path, key)``, else
    ``None``. Exact but slow (Python's own parser, keeping every member): only for a body whose
    counts already differ."""
    try:
        return _first_duplicate(json.loads(text, object_pairs_hook=_Members), "$")
    except (ValueError, RecursionError):
        return None


def duplicate_key_problem(path: str, key: str) -> Problem:
    return Problem(
        400,
        "DUPLICATE_KEY",
        f"the key {json.dumps(key, ensure_ascii=False)} is named twice in one object: name each "
        "key once (a JSON object with a repeated name means different things to different "
        "readers, RFC 8259)",
        path=path,
    )


def refuse_duplicate_keys(body: bytes, distinct: int | None = None) -> None:
    """A 400 ``DUPLICATE_KEY`` naming the first key ``body`` (valid JSON) names twice in one
    object, where the decoders would silently keep the last value (``{"version": 1, "version":
    2}``). ``distinct``: how many members ``body`` holds without duplicates, where the caller
    knows it more cheaply than decoding the body once more (:func:`distinct_keys`)."""
    try:
        if keys_in(body) == (distinct_keys(body) if distinct is None else distinct):
            return
    except msgspec.MsgspecError:  # not read the way the route's decoder read it: read exactly
        pass
    found = duplicate_key(body)
    if found is not None:
        raise duplicate_key_problem(*found)


class BodyDecoder(Generic[T]):
    """A reused strict decoder for one request type (its ``type`` documents the route).

    A body nested more than :data:`MAX_JSON_DEPTH` levels is a 400 ``INVALID_JSON`` wherever the
    nesting is. The typed decoder refuses a wrong type at its first level, so such a body reaches
    msgspec's recursion limit only where msgspec skips a value (looking for a tagged union's tag):
    that ``RecursionError`` is caught here. The depth is measured only once decoding has failed;
    a body that decodes is as deep as its type, far less than the limit.
    """

    def __init__(self, type_: type[T]) -> None:
        self.type = type_
        self._decoder = msgspec.json.Decoder(type_)

    def decode(self, body: bytes) -> T:
        """The request ``body`` decoded; a key named twice in one object is refused once the
        rest of the body decoded (:func:`refuse_duplicate_keys`)."""
        try:
            decoded = self._decoder.decode(body)
        except RecursionError:
            raise too_deep_problem() from None
        except msgspec.ValidationError as error:
            if nested_too_deep(body):
                raise too_deep_problem() from None
            problem = validation_problem(error)
            refused = problem.document.errors[0]
            ruled = field_rule_problem(self.type, body, refused.path, refused.message)
            raise (ruled or problem) from None
        refuse_duplicate_keys(body)
        return decoded

    async def read(self, request: Request[Any, Any, Any]) -> T:
        return self.decode(await read_body(request))


class JSONRequest(Request[Any, Any, Any]):
    """The app's request class: Litestar's own JSON decoding (a ``data`` parameter,
    ``request.json()``) under the rules of :func:`read_body` and :class:`BodyDecoder`: a JSON
    ``Content-Type`` (or none) and at most :data:`MAX_JSON_DEPTH` levels.

    Litestar decodes to Python objects first, at any depth msgspec reaches, so the depth is
    checked before decoding here.
    """

    async def json(self) -> Any:
        require_json_content_type(self.scope)
        if nested_too_deep(await self.body()):
            raise too_deep_problem()
        try:
            decoded = await super().json()
        except RecursionError:
            raise too_deep_problem() from None
        except SerializationException as error:  # malformed JSON, as BodyDecoder says it
            raise Problem(400, "INVALID_JSON", f"the body is not valid JSON: {error}") from None
        refuse_duplicate_keys(await self.body())
        return decoded


_UTF8 = frozenset({b"utf-8", b"utf8"})


def require_json_content_type(scope: Any) -> None:
    """Refuse (415) a body whose ``Content-Type`` says it is not JSON in UTF-8 (docs/clients.md).

    Accepted: no ``Content-Type`` at all (``curl --data-binary``, scripts), ``application/json``
    and any ``application/*+json``, without a charset or with UTF-8. Anything else, such as
    ``application/x-www-form-urlencoded`` (what ``curl -d`` sends unless told otherwise) is a 415.
    """
    value = None
    for name, header in scope["headers"]:  # a plain loop: this runs on every hot request
        if name == b"content-type":
            value = header
            break
    if value is None:
        return
    media_type, *parameters = value.lower().split(b";")
    media_type = media_type.strip()
    if media_type == b"application/json" or (
        media_type.startswith(b"application/") and media_type.endswith(b"+json")
    ):
        for parameter in parameters:
            key, _, charset = parameter.partition(b"=")
            if key.strip() == b"charset" and charset.strip().strip(b'"') not in _UTF8:
                break
        else:
            return
    shown = value.decode("latin-1")[:100]
    raise Problem(
        415,
        "UNSUPPORTED_MEDIA_TYPE",
        f"the body must be JSON in UTF-8, sent as 'Content-Type: application/json', not "
        f"'{shown}' (curl: --json, or -H 'Content-Type: application/json')",
        path="$.headers.content-type",
    )


async def read_body(request: Request[Any, Any, Any]) -> bytes:
    """The raw request body, read straight from the ASGI channel, at most 1 MiB (else 413).

    Litestar's ``request.body()`` streams through several layers (about a third of a small POST's
    time in the app, bench/RESULTS.md); the routes read their body exactly once, so the plain
    receive loop is all they need. A ``Content-Type`` other than JSON is refused first (415).
    """
    require_json_content_type(request.scope)
    receive = request.receive
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # http.disconnect: the client went away
            raise ClientDisconnected
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise RequestEntityTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


_encode_json = msgspec.json.Encoder().encode


class JSONBody:
    """A JSON response as a bare ASGI app: one start message, one body message.

    The hot routes return it instead of a Struct: Litestar passes an ASGI app through untouched,
    which skips its response pipeline (headers objects, encoder lookup; about 15 µs a request
    here, bench/RESULTS.md). Such a route names the type it encodes in ``opt["returns"]`` for
    the OpenAPI document (see :func:`.docs.body`).
    """

    __slots__ = ("body",)

    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(self.body)).encode("latin-1")),
                ],
            }
        )
        await send({"type": "http.response.body", "body": self.body})


def json_response(value: Any) -> JSONBody:
    """``value`` encoded once by msgspec, as a 200 :class:`JSONBody`."""
    return JSONBody(_encode_json(value))


class ClientDisconnected(ClientException):
    """The client closed the connection before sending its whole body."""

    status_code = 400
