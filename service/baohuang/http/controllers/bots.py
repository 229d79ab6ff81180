"""``/v1/bots/suggest``: the move a bot level plays for one seat, from its view only (docs/clients.md "Bots").

Stateless: the body carries the seat's view and the deal's public events, never a snapshot, so
the answer cannot depend on anything the seat may not see. The search level thinks in a worker
process, so the event loop keeps serving other requests meanwhile: one of the suggestions' own,
a few per caller at a time (:mod:`..suggestions`), never the bot seats'. Every answer waits
out its level's floor, so its timing says nothing of the hand.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, post

from ...bots import DEFAULT_BUDGET_MS, Act, BotInput
from ...bots.record import ACT_KINDS
from ..bodies import BodyDecoder
from ..docs import body, problems
from ..problems import Problem
from ..ratelimit import verified_caller
from ..schemas.bots import HistoryEvent, SuggestRequest, SuggestResult
from ..suggestions import Suggestions, refuse_over_cap

SUGGEST = BodyDecoder(SuggestRequest)


def _acts(history: list[HistoryEvent]) -> list[Act]:
    """The public acts of the record; an act without its seat is bad input naming it."""
    acts: list[Act] = []
    for index, event in enumerate(history):
        if event.type not in ACT_KINDS:
            continue
        if event.seat is None:
            raise Problem(
                422,
                "INVALID_HISTORY",
                f"a '{event.type}' event names its seat",
                path=f"$.history[{index}].seat",
            )
        acts.append(
            Act(type=event.type, seat=event.seat, cards=list(event.cards or []), lead=event.lead)  # type: ignore[arg-type]
        )
    return acts


class BotsController(Controller):
    path = "/v1/bots"
    tags = ["bots"]

    @post(
        "/suggest",
        status_code=200,
        operation_id="suggestMove",
        summary="Suggest a move for one seat from its view",
        opt=body(SUGGEST),
        responses=problems(400, 413, 422),
        middleware=[refuse_over_cap],  # a caller over its cap is refused before the body is read
    )
    async def suggest(self, request: Request[Any, Any, Any]) -> SuggestResult:
        """The move a bot level plays for the view's seat, judged from the seat's view and the
        deal's public events only: always one of the legal moves. 422 ``NOT_TO_ACT`` when the
        view's seat is not the one to act or the deal is over (:mod:`..problems`); 429
        ``TOO_MANY_SUGGESTIONS`` when the caller (a platform key, else its address) already has
        ``BAOHUANG_SUGGEST_PER_CALLER`` search-level suggestions in flight."""
        query = await SUGGEST.read(request)
        bot = BotInput(view=query.view, history=_acts(query.history))
        budget = float(query.budget_ms) if query.budget_ms is not None else DEFAULT_BUDGET_MS
        suggestions: Suggestions = request.app.state.suggestions
        caller = verified_caller(request.scope, request.app.state.authority.verifies)
        move = await suggestions.think(caller, bot, query.level, budget, query.seed)
        return SuggestResult(move=move, level=query.level)
