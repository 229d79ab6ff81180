"""Table streams on the wire: Server-Sent Events for browsers, NDJSON for backends.

Both carry the same items (:data:`baohuang.tables.StreamItem`): the caller's view first
(``snapshot``), then each event as it commits (SSE ``id:`` its ``id``, ``<seq>.<token>``),
heartbeats, a ``reset`` with the view as it now is whenever a failover rolled the log back past
what the stream had sent (SSE ``id:`` its ``last_event_id``, so that a reconnect resumes from
there), and ``closed`` at the end.

An event's bytes are encoded once per process for each kind of caller and each of the two
encodings (:class:`baohuang.tables.EventCut`), and every follower of that kind sends those
bytes; the events one wake-up brings a stream go out in one chunk. The SSE frames are written
here as Litestar's ``ServerSentEventMessage`` writes them (``id``, ``event``, one ``data``
line — msgspec's JSON has no line break — CRLF line ends).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Final

import msgspec
from litestar import Request
from litestar.response import Stream
from litestar.response.base import ASGIResponse

from ..engine import Event
from ..tables import Closed, Events, Heartbeat, Opening, Reset, StreamItem

SSE: Final = "text/event-stream"
NDJSON: Final = "application/x-ndjson"
STREAM_MEDIA_TYPES: Final = (SSE, NDJSON)
_HEADERS: Final = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
_SSE_HEADERS: Final = {**_HEADERS, "Connection": "keep-alive"}  # as Litestar's SSE response
_encode = msgspec.json.Encoder().encode
_HEARTBEAT_SSE: Final = b": heartbeat\r\n\r\n"
_HEARTBEAT_NDJSON: Final = b'{"type":"heartbeat"}\n'


def _frame(event: str, data: bytes, event_id: str | None = None) -> bytes:
    head = b"" if event_id is None else b"id: " + event_id.encode() + b"\r\n"
    return head + b"event: " + event.encode() + b"\r\ndata: " + data + b"\r\n\r\n"


def sse_event(event: Event) -> bytes:
    """An event's SSE frame: ``id`` its id, ``event`` its type, ``data`` its JSON."""
    tag = str(type(event).__struct_config__.tag)
    return _frame(tag, _encode(event), event.id if event.id is not None else str(event.seq))


def ndjson_event(event: Event) -> bytes:
    """An event's NDJSON line."""
    return _encode(event) + b"\n"


def _joined(item: Events, encode: Any) -> bytes:
    cuts = item.cuts
    if len(cuts) == 1:
        return cuts[0].wire(encode)
    return b"".join([cut.wire(encode) for cut in cuts])


async def _sse(items: AsyncIterator[StreamItem]) -> AsyncIterator[bytes]:
    async for item in items:
        if isinstance(item, Events):
            yield _joined(item, sse_event)
        elif isinstance(item, Heartbeat):
            yield _HEARTBEAT_SSE
        elif isinstance(item, Opening):
            yield _frame("snapshot", _encode(item.table))
        elif isinstance(item, Reset):
            yield _frame("reset", _encode(item.table), item.table.last_event_id)
        elif isinstance(item, Closed):
            yield _frame("closed", _encode(item))


async def _ndjson(items: AsyncIterator[StreamItem]) -> AsyncIterator[bytes]:
    async for item in items:
        if isinstance(item, Events):
            yield _joined(item, ndjson_event)
        elif isinstance(item, Heartbeat):
            yield _HEARTBEAT_NDJSON
        elif isinstance(item, Opening):
            yield b'{"type":"snapshot",' + _encode(item.table)[1:] + b"\n"
        elif isinstance(item, Reset):
            yield b'{"type":"reset",' + _encode(item.table)[1:] + b"\n"
        elif isinstance(item, Closed):
            yield b'{"type":"closed",' + _encode(item)[1:] + b"\n"


def stream_response(
    items: AsyncIterator[StreamItem], media_type: str, request: Request[Any, Any, Any]
) -> ASGIResponse:
    """The stream of ``items`` in ``media_type`` (one of :data:`STREAM_MEDIA_TYPES`), as a bare
    ASGI response: Litestar would otherwise give it the route's JSON media type."""
    if media_type == SSE:
        response = Stream(_sse(items), media_type=SSE, headers=_SSE_HEADERS)
    else:
        response = Stream(_ndjson(items), media_type=NDJSON, headers=_HEADERS)
    return response.to_asgi_response(None, request, media_type=media_type)
