"""What the generated client (``baohuang_client``) cannot do by itself, written by hand.

* :func:`follow`: a table's Server-Sent Events (or NDJSON) stream, read as typed items, that
  reconnects after a dropped connection and resumes with ``Last-Event-ID`` (or ``after``), so no
  event is lost or seen twice. The OpenAPI document describes the streams in words (a stream is
  not one JSON body), so no generator writes this part.
* :func:`ok`: the answer of a generated ``sync`` call (``Table | ProblemDocument | None``) as
  the answer, or the problem raised as :class:`ProblemError`, so a program reads on typed.
* The TypeScript SDK (clients/typescript/src/live.ts) names the same things alike: its stream
  items are ``opening``, ``reset``, ``logged`` and ``closed``, its ``postMove`` takes
  ``idempotencyKey``, ``attempts`` and ``backoff`` (seconds), and it throws ``ProblemError``.
* :data:`Table`, :data:`TableMoveAnswer`: the document's unions of the per-caller answers
  (``PlatformTable | SeatTable | SpectatorTable``…), which the generator writes inline on each
  route but names nowhere; a stream's table is decoded by its ``audience`` (:data:`TABLES`).
* :func:`post_move`: ``POST /v1/tables/{id}/moves`` with an ``Idempotency-Key``, retried with the
  same key on a 503 (``STORE_UNAVAILABLE``, ``OVERLOADED``) or a dropped connection: the service
  applies the move at most once and a retry gets the original answer.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, overload
from urllib.parse import quote

import httpx

from baohuang_client import AuthenticatedClient, Client
from baohuang_client.api.tables import make_table_move
from baohuang_client.models import (
    EventsPage,
    LoggedAcceptedEvent,
    LoggedCalledEvent,
    LoggedClockEvent,
    LoggedCrownForcedEvent,
    LoggedCrownPassedEvent,
    LoggedDealCommittedEvent,
    LoggedDealOverEvent,
    LoggedDealStartedEvent,
    LoggedDealtEvent,
    LoggedDealVoidEvent,
    LoggedDeclinedEvent,
    LoggedEntropyEvent,
    LoggedFinishedEvent,
    LoggedGrabbedEvent,
    LoggedJiefengEvent,
    LoggedLeftEvent,
    LoggedMoveEvent,
    LoggedPassedEvent,
    LoggedPhaseEvent,
    LoggedPlayedEvent,
    LoggedRebelledEvent,
    LoggedRevealedEvent,
    LoggedSoloDeclaredEvent,
    LoggedTokenRotatedEvent,
    LoggedTrickWonEvent,
    LoggedTrusteeEvent,
    LoggedYieldedEvent,
    PlatformMoveAnswer,
    PlatformTable,
    PostMove,
    ProblemDocument,
    SeatMoveAnswer,
    SeatTable,
    SpectatorMoveAnswer,
    SpectatorTable,
)
from baohuang_client.types import Response

__all__ = [
    "TABLES",
    "Closed",
    "Logged",
    "LoggedEvent",
    "Opening",
    "ProblemError",
    "Reset",
    "Table",
    "TableMoveAnswer",
    "follow",
    "ok",
    "post_move",
]

Table = PlatformTable | SeatTable | SpectatorTable
"""A table read, one class per caller: ``audience`` (and so ``view``) tells them apart."""
TableMoveAnswer = PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer
"""A move answer, one class per caller, as :data:`Table`."""
TABLES: dict[str, type[PlatformTable] | type[SeatTable] | type[SpectatorTable]] = {
    "platform": PlatformTable,
    "seat": SeatTable,
    "spectator": SpectatorTable,
}
"""The document's discriminator mapping for ``Table``: ``audience`` → its class."""

LoggedEvent = (
    LoggedAcceptedEvent
    | LoggedCalledEvent
    | LoggedClockEvent
    | LoggedCrownForcedEvent
    | LoggedCrownPassedEvent
    | LoggedDealCommittedEvent
    | LoggedDealOverEvent
    | LoggedDealStartedEvent
    | LoggedDealtEvent
    | LoggedDealVoidEvent
    | LoggedDeclinedEvent
    | LoggedEntropyEvent
    | LoggedFinishedEvent
    | LoggedGrabbedEvent
    | LoggedJiefengEvent
    | LoggedLeftEvent
    | LoggedMoveEvent
    | LoggedPassedEvent
    | LoggedPhaseEvent
    | LoggedPlayedEvent
    | LoggedRebelledEvent
    | LoggedRevealedEvent
    | LoggedSoloDeclaredEvent
    | LoggedTokenRotatedEvent
    | LoggedTrickWonEvent
    | LoggedTrusteeEvent
    | LoggedYieldedEvent
)
"""One event of the table's log (``Logged…``): the event with its ``seq``, ``version``, ``at``
and ``id``, one class per ``type`` (TypeScript's ``LoggedEvent``)."""

T = TypeVar("T")


@dataclass(frozen=True)
class Opening:
    """A stream's first item: the caller's table (its view) and where its log stands."""

    table: Table


@dataclass(frozen=True)
class Reset:
    """The log was rolled back (a Redis failover) past what the stream had sent: ``table`` is
    the view as it now is; events from here on follow it. Forget what came after it."""

    table: Table


@dataclass(frozen=True)
class Logged:
    """One logged event: its ``seq`` and ``id`` (where a resume starts from), its ``type``, and
    ``event``, the generated model of that type (``LoggedPlayedEvent``, …)."""

    seq: int
    id: str
    type: str
    event: LoggedEvent


@dataclass(frozen=True)
class Closed:
    """The stream's end: the table was ``deleted`` (or expired) or ``replaced``, or this token
    was revoked by a newer one for its seat (``token_revoked``)."""

    reason: str


StreamItem = Opening | Reset | Logged | Closed


def follow(
    client: Client | AuthenticatedClient,
    table_id: str,
    *,
    after: int | str | None = None,
    media: Literal["sse", "ndjson"] = "sse",
    reconnects: int = 5,
    backoff: float = 0.2,
) -> Iterator[StreamItem]:
    """The table's stream as the client's caller may see it, until it is closed.

    Without ``after`` it opens with the caller's view (:class:`Opening`); with it (an event's
    id or ``seq``), it resumes after that event. A dropped connection is reopened (up to
    ``reconnects`` times in a row) after the last item received, as the stream itself names it
    (the SSE ``id:``), so nothing is lost or seen twice.
    """
    position = None if after is None else str(after)
    failures = 0
    path = f"/v1/tables/{quote(table_id, safe='')}/events"
    while True:
        headers = {"Accept": "text/event-stream" if media == "sse" else "application/x-ndjson"}
        params: dict[str, str] = {}
        if position is not None:
            headers["Last-Event-ID"] = position
            params["after"] = position
        try:
            with client.get_httpx_client().stream(
                "GET", path, headers=headers, params=params, timeout=httpx.Timeout(30, read=60)
            ) as response:
                if response.status_code != 200:
                    response.read()
                    raise ProblemError(_problem(response))
                lines = response.iter_lines()
                for item, at in _sse(lines) if media == "sse" else _ndjson(lines):
                    failures = 0
                    position = at or position
                    yield item
                    if isinstance(item, Closed):
                        return
        except httpx.TransportError:
            failures += 1
            if failures > reconnects:
                raise
            time.sleep(backoff * failures)


class ProblemError(Exception):
    """An error answer (an RFC 9457 problem document), raised by :func:`follow` and :func:`ok`
    as TypeScript's ``ProblemError`` is thrown."""

    def __init__(self, problem: ProblemDocument) -> None:
        super().__init__(f"{problem.status} {problem.title}: {problem.detail}")
        self.problem = problem

    @property
    def status(self) -> int:
        return self.problem.status


def _problem(response: httpx.Response) -> ProblemDocument:
    """The problem document of an error answer; one the service did not write (a proxy's page,
    an empty body) becomes one with its status and text."""
    try:
        body = response.json()
        if isinstance(body, dict):
            return ProblemDocument.from_dict(body)
    except (ValueError, KeyError, TypeError):
        pass
    return ProblemDocument(
        type_="about:blank",
        title=response.reason_phrase,
        status=response.status_code,
        detail=response.text,
    )


# The unions overlap only in a bare ProblemDocument or None, which raise rather than return.
@overload
def ok(  # type: ignore[overload-overlap]
    answer: PlatformTable | SeatTable | SpectatorTable | ProblemDocument | None,
) -> Table: ...
@overload
def ok(
    answer: PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument | None,
) -> TableMoveAnswer: ...
@overload
def ok(answer: T | ProblemDocument | None) -> T: ...
def ok(answer: Any) -> Any:
    """``answer`` itself (a per-caller answer as :data:`Table` or :data:`TableMoveAnswer`,
    which ``isinstance(table, SeatTable)`` narrows), unless the call ended in a problem
    document (raised as :class:`ProblemError`) or in a status the document does not list
    (``None``)."""
    if isinstance(answer, ProblemDocument):
        raise ProblemError(answer)
    if answer is None:
        raise ValueError("an answer the OpenAPI document does not describe")
    return answer


Positioned = tuple[StreamItem, str | None]


def _position(kind: str, data: dict[str, Any]) -> str | None:
    """Where an item leaves the stream, for a resume: a table's ``last_event_id`` (else its
    ``last_seq``), an event's ``id`` (else its ``seq``)."""
    tables = kind in ("snapshot", "reset")
    for name in ("last_event_id", "last_seq") if tables else ("id", "seq"):
        if data.get(name) is not None:
            return str(data[name])
    return None


def _item(kind: str, data: dict[str, Any]) -> StreamItem | None:
    if kind in ("snapshot", "reset"):
        table: Table = TABLES[str(data["audience"])].from_dict(data)
        return Opening(table) if kind == "snapshot" else Reset(table)
    if kind == "closed":
        return Closed(str(data["reason"]))
    if kind == "heartbeat":
        return None
    # The generated page parses the event union (on `type`); an event is a one-event page.
    page = EventsPage.from_dict({"instance": "", "version": 0, "last_seq": 0, "events": [data]})
    event = page.events[0]
    return Logged(event.seq, event.id, kind, event)


def _sse(lines: Iterable[str]) -> Iterator[Positioned]:
    kind, data, at = "message", list[str](), None
    for line in lines:
        if line == "":  # a blank line ends a message
            if data:
                parsed = json.loads("\n".join(data))
                item = _item(kind, parsed)
                if item is not None:
                    yield item, at or _position(kind, parsed)
            kind, data, at = "message", [], None
        elif line.startswith(":"):  # a comment: the heartbeat
            continue
        else:
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "event":
                kind = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                at = value


def _ndjson(lines: Iterable[str]) -> Iterator[Positioned]:
    for line in lines:
        if line.strip():
            data = json.loads(line)
            kind = data["type"]
            if kind in {"snapshot", "reset", "closed", "heartbeat"}:
                del data["type"]
            item = _item(kind, data)
            if item is not None:
                yield item, _position(kind, data)


def post_move(
    client: Client | AuthenticatedClient,
    table_id: str,
    body: PostMove,
    *,
    idempotency_key: str | None = None,
    attempts: int = 5,
    backoff: float = 0.2,
) -> Response[ProblemDocument | TableMoveAnswer]:
    """Post ``body`` once, whatever happens on the way: every attempt carries the same
    ``Idempotency-Key``, so a retry after a 503 or a lost answer cannot apply the move twice.
    Any other answer (200, 409, 422, …) is returned as it is."""
    key = idempotency_key or uuid.uuid4().hex
    for attempt in range(1, attempts + 1):
        try:
            answer = make_table_move.sync_detailed(
                table_id, client=client, body=body, idempotency_key=key
            )
        except httpx.TransportError:
            if attempt == attempts:
                raise
            time.sleep(backoff * attempt)
            continue
        if answer.status_code != 503 or attempt == attempts:
            return answer
        retry_after = answer.headers.get("Retry-After", "")
        time.sleep(float(retry_after) if retry_after.isdigit() else backoff * attempt)
    raise AssertionError("unreachable: the last attempt returns or raises")
