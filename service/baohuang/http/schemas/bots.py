"""Bodies of ``/v1/bots/suggest``: a seat's view and the public record in, a legal move out."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec
from msgspec import Meta

from ...bots import Level
from ...engine import CardCode, Move, Seat, SeatView
from .base import Answer, Body

MAX_BUDGET_MS: Final = 2000
"""The longest a search may think for one suggestion: a request holds a worker this long."""


class HistoryEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the table's log as the seat received it. Only ``played``, ``passed``,
    ``yielded``, ``jiefeng`` and ``trick_won`` are read; other events (and fields such as ``seq``
    or ``at``) are accepted and left out, so a client may send its log as it is."""

    type: Annotated[str, Meta(max_length=32, examples=["played"])]
    seat: Seat | None = None
    cards: Annotated[list[CardCode], Meta(max_length=24)] | None = None
    lead: Seat | None = None


class SuggestRequest(Body):
    """``view``: the seat's view (what ``GET /v1/tables/{id}`` shows a seat token); ``history``: the deal's events, oldest first (may be empty);
    ``level``: ``heuristic`` (fast) or ``search``; ``budget_ms``: the search's time (default
    1000, at most 2000); ``seed``: which hands the search imagines for the others."""

    view: SeatView
    history: Annotated[list[HistoryEvent], Meta(max_length=4000)] = msgspec.field(
        default_factory=list
    )
    level: Level = "heuristic"
    budget_ms: Annotated[int, Meta(ge=1, le=MAX_BUDGET_MS)] | None = None
    seed: Annotated[int, Meta(ge=0, le=2**32 - 1)] = 0


class SuggestResult(Answer):
    """The move the level plays for the view's seat: always legal in every deal the view may be."""

    move: Move
    level: Level
