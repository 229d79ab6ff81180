"""What a bot seat is handed when its turn's delay runs out, and nothing more: its seat's view,
its level, a seed that is a function of the view (docs/bots-service.md "Workers"). The clock
hands it to the bot workers before the write (:mod:`.clock`); 托管 by a level plays through
:func:`bot_move` within the write."""

from __future__ import annotations

from typing import NamedTuple

from ..bots import BotInput, Level, suggest
from ..engine import Move, Snapshot, seat_view
from .record import TableRecord


class BotTurn(NamedTuple):
    """What a bot seat to act is handed, and all it is handed: its seat's view (the input),
    its level, and the seed of the worlds a search imagines (a function of the view)."""

    bot: BotInput
    level: Level
    seed: int


def bot_turn(snapshot: Snapshot, level: Level) -> BotTurn:
    """The bot input for the seat to act: built from that seat's view alone."""
    view = seat_view(snapshot, snapshot.turn)
    return BotTurn(BotInput(view=view), level, snapshot.turn + 5 * len(view.finished))


def bot_move(snapshot: Snapshot, level: Level) -> Move:
    """The move ``level`` makes for the seat to act, here and now (托管 by a level, which may
    play several moves in one write, and a table without a bot worker pool)."""
    turn = bot_turn(snapshot, level)
    return suggest(turn.bot, turn.level, seed=turn.seed)


def bot_due(record: TableRecord, now: float) -> BotTurn | None:
    """The bot seat whose turn's delay has run out, as :func:`.flow.time_out` would play it: what
    its bot is handed (the clock has it think before the write, :mod:`.clock`)."""
    deadline = record.table.deadline
    snapshot = record.snapshot
    if deadline is None or deadline > now or snapshot.over or snapshot.phase == "deal":
        return None
    state = record.table.seats[snapshot.turn]
    if state.trustee or state.bot is None:
        return None
    return bot_turn(snapshot, state.bot)
