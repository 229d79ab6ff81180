"""Live tables: the algorithms between the HTTP routes and the store.

Who is calling (:mod:`.callers`), what they may see (:mod:`.views`, the one place that cuts a
table for a caller), and the table service (:mod:`.service`) that reads, judges and writes
tables with compare-and-set. It knows neither Litestar nor Prometheus; it imports the engine and
the store, and nothing imports it but ``http``.
"""

from __future__ import annotations

from .answers import (
    Closed,
    CreatedTable,
    EventCut,
    Events,
    EventsPage,
    Heartbeat,
    MoveAnswer,
    MoveCheck,
    Opening,
    Reset,
    RotatedToken,
    StreamItem,
    TableLegalMoves,
    TableRead,
)
from .callers import Authority, Caller, Forbidden, TokenRevoked, Unauthorized
from .errors import TableNotFound, VersionConflict
from .idempotency import IdempotencyKeyReused
from .service import TableService

__all__ = [
    "Authority",
    "Caller",
    "Closed",
    "CreatedTable",
    "EventCut",
    "Events",
    "EventsPage",
    "Forbidden",
    "Heartbeat",
    "IdempotencyKeyReused",
    "MoveAnswer",
    "MoveCheck",
    "Opening",
    "Reset",
    "RotatedToken",
    "StreamItem",
    "TableLegalMoves",
    "TableNotFound",
    "TableRead",
    "TableService",
    "TokenRevoked",
    "Unauthorized",
    "VersionConflict",
]
