"""Table streams on the wire: Server-Sent Events for browsers, NDJSON for backends.

Both carry the same items (:data:`baohuang.tables.StreamItem`): the caller's view first
(``snapshot``), then each event as it commits (SSE ``id:`` its ``id``, ``<seq>.<token>``),
heartbeats, a ``reset`` with the view as it now is whenever a failover rolled the log back past
what the stream had sent (SSE ``id:`` its ``last_event_id``, so that a reconnect resumes from
there), and ``closed`` at the end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Final

import msgspec
from litestar import Request
from litestar.response import ServerSentEvent, Stream
from litestar.response.base import ASGIResponse
from litestar.response.sse import ServerSentEventMessage

from ..tables import Closed, Heartbeat, Opening, Reset, StreamItem

SSE: Final = "text/event-stream"
NDJSON: Final = "application/x-ndjson"
STREAM_MEDIA_TYPES: Final = (SSE, NDJSON)
_HEADERS: Final = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
_encode = msgspec.json.Encoder().encode


async def _sse(items: AsyncIterator[StreamItem]) -> AsyncIterator[ServerSentEventMessage]:
    async for item in items:
        if isinstance(item, Heartbeat):
            yield ServerSentEventMessage(data=None, comment="heartbeat")
        elif isinstance(item, Opening):
            yield ServerSentEventMessage(data=_encode(item.table).decode(), event="snapshot")
        elif isinstance(item, Reset):
            yield ServerSentEventMessage(
                data=_encode(item.table).decode(), event="reset", id=item.table.last_event_id
            )
        elif isinstance(item, Closed):
            yield ServerSentEventMessage(data=_encode(item).decode(), event="closed")
        else:
            yield ServerSentEventMessage(
                data=_encode(item).decode(),
                event=str(type(item).__struct_config__.tag),
                id=item.id if item.id is not None else item.seq,
            )


async def _ndjson(items: AsyncIterator[StreamItem]) -> AsyncIterator[bytes]:
    async for item in items:
        if isinstance(item, Heartbeat):
            yield b'{"type":"heartbeat"}\n'
        elif isinstance(item, Opening):
            yield b'{"type":"snapshot",' + _encode(item.table)[1:] + b"\n"
        elif isinstance(item, Reset):
            yield b'{"type":"reset",' + _encode(item.table)[1:] + b"\n"
        elif isinstance(item, Closed):
            yield b'{"type":"closed",' + _encode(item)[1:] + b"\n"
        else:
            yield _encode(item) + b"\n"


def stream_response(
    items: AsyncIterator[StreamItem], media_type: str, request: Request[Any, Any, Any]
) -> ASGIResponse:
    """The stream of ``items`` in ``media_type`` (one of :data:`STREAM_MEDIA_TYPES`), as a bare
    ASGI response: Litestar would otherwise give it the route's JSON media type."""
    response: Stream
    if media_type == SSE:
        response = ServerSentEvent(_sse(items), headers=_HEADERS)
    else:
        response = Stream(_ndjson(items), media_type=NDJSON, headers=_HEADERS)
    return response.to_asgi_response(None, request, media_type=media_type)
