"""Request and response bodies of the stateless combo routes (API.md "Combos", "Rulesets").

Bodies are decoded by the module-level strict decoders below, never by Litestar's injection,
which converts with ``strict=False`` (``"7"`` would pass as ``7``). Unknown fields are refused.
"""

from __future__ import annotations

import gc
import re
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import accumulate
from typing import Annotated, Any, Generic, TypeVar

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, SerializationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from msgspec import Meta

from ..engine import (
    CODES,
    KAOPAI_DEFAULT_RULESET,
    NO_RANK,
    RANK_SYMBOLS,
    Combo,
    CoverEntry,
    Reason,
    RulesetField,
    RulesetSpec,
)
from .problems import Problem
from .settings import MAX_BODY_BYTES

# D-3 card codes, in the OpenAPI document only: the decoder does not enforce it, so that an unknown
# code is a 422 UNKNOWN_CARD naming it (API.md), not a 400 schema error.
CARD_CODE_PATTERN = r"^(?:(?:[3-9TJQKA2]|10)[SHCD]|[SB]J\*?)$"
CardCode = Annotated[
    str,
    Meta(
        max_length=4,
        description="D-3: rank 3456789TJQKA2 (10 accepted for T) then suit SHCD; SJ, BJ, BJ*, SJ*",
        examples=["BJ", "TH"],
        extra_json_schema={"pattern": CARD_CODE_PATTERN},  # documented: unknown codes are 422
    ),
]
Cards = Annotated[list[CardCode], Meta(max_length=216, examples=[["SJ", "9S", "9H", "9C"]])]
Ruleset = Annotated[
    RulesetField,
    Meta(
        description="A ruleset name, or {base, kaopai?, bie6?, deck?, grab?} (RULES.md R)",
        examples=["classic", {"base": "lianzhong-classic", "kaopai": True}],
    ),
]
StrictStruct = {"forbid_unknown_fields": True, "frozen": True}


class ClassifyRequest(msgspec.Struct, **StrictStruct):
    cards: Cards
    ruleset: Ruleset = "classic"


class ComboOut(msgspec.Struct, frozen=True):
    """A combo's shape (C-1) and its cards, canonical, high to low."""

    rank: str | None
    count: int
    small: int
    big: int
    size: int
    cards: list[str]

    @classmethod
    def of(cls, combo: Combo) -> ComboOut:
        return cls(
            rank=None if combo.rank == NO_RANK else RANK_SYMBOLS[combo.rank],
            count=combo.count,
            small=combo.small,
            big=combo.big,
            size=combo.size,
            cards=combo.codes(),
        )


class ClassifyResult(msgspec.Struct, frozen=True, omit_defaults=True):
    valid: bool
    combo: ComboOut | None = None
    reason: Reason | None = None


class CompareRequest(msgspec.Struct, **StrictStruct):
    previous: Cards
    candidate: Cards
    ruleset: Ruleset = "classic"


class CoverItem(msgspec.Struct, frozen=True):
    """K-6: the cards of the candidate (``by``) that cover one card of ``previous``."""

    card: str
    by: list[str]


def cover_items(cover: list[CoverEntry] | None) -> list[CoverItem] | None:
    if cover is None:
        return None
    return [CoverItem(CODES[card], [CODES[c] for c in group]) for card, group in cover]


class CompareResult(msgspec.Struct, frozen=True):
    beats: bool
    reason: Reason | None
    cover: list[CoverItem] | None


class Pair(msgspec.Struct, **StrictStruct):
    previous: Cards
    candidate: Cards


class BatchRequest(msgspec.Struct, **StrictStruct):
    pairs: Annotated[list[Pair], Meta(min_length=1, max_length=10_000)]
    ruleset: Ruleset = "classic"


class BatchItem(msgspec.Struct, frozen=True, array_like=False):
    beats: bool
    code: str | None


class BatchResult(msgspec.Struct, frozen=True):
    results: list[BatchItem]

    @classmethod
    def of(cls, codes: list[str | None]) -> BatchResult:
        """One item per verdict code, in order; items are shared (a batch holds 10,000)."""
        items: dict[str | None, BatchItem] = {}
        results = []
        for code in codes:
            item = items.get(code)
            if item is None:
                item = items[code] = BatchItem(code is None, code)
            results.append(item)
        return cls(results)


def _kaopai_default() -> RulesetField:
    return RulesetSpec(base=KAOPAI_DEFAULT_RULESET.base, kaopai=True)


class ResolveRequest(msgspec.Struct, **StrictStruct):
    plays: Annotated[list[Cards], Meta(min_length=1, max_length=64)]
    ruleset: Ruleset = msgspec.field(default_factory=_kaopai_default)


class ResolveStep(msgspec.Struct, frozen=True):
    index: int
    beats: bool
    reason: Reason | None
    cover: list[CoverItem] | None


class ResolveResult(msgspec.Struct, frozen=True):
    valid: bool
    winner: int
    steps: list[ResolveStep]


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
        try:
            return self._decoder.decode(body)
        except RecursionError:
            raise too_deep_problem() from None
        except msgspec.ValidationError:
            if nested_too_deep(body):
                raise too_deep_problem() from None
            raise

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
            return await super().json()
        except RecursionError:
            raise too_deep_problem() from None
        except SerializationException as error:  # malformed JSON, as BodyDecoder says it
            raise Problem(400, "INVALID_JSON", f"the body is not valid JSON: {error}") from None


_UTF8 = frozenset({b"utf-8", b"utf8"})


def require_json_content_type(scope: Any) -> None:
    """Refuse (415) a body whose ``Content-Type`` says it is not JSON in UTF-8 (API.md).

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


CLASSIFY = BodyDecoder(ClassifyRequest)
COMPARE = BodyDecoder(CompareRequest)
BATCH = BodyDecoder(BatchRequest)
RESOLVE = BodyDecoder(ResolveRequest)
