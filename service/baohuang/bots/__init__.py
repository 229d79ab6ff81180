"""Bots that play 保皇 from what one seat may know (docs/clients.md, "Bots").

A bot's only input is a :class:`BotInput`: the seat's view (:class:`~baohuang.engine.SeatView`)
and the deal's public record (:class:`Act`: who played what, who passed, yielded, declared 接风,
who won each trick). It never receives a snapshot, so it cannot read another seat's hand or a
hidden guard: that is true by construction, and the import contract in pyproject.toml keeps this
package on the engine's public face only.

Two levels (:data:`LEVELS`): ``heuristic`` (:mod:`.heuristic`, role-aware rules, a few hundred
microseconds; before play, thresholds in :mod:`.before_play`) and ``search`` (:mod:`.search`,
information-set Monte Carlo tree search over worlds consistent with the public record, played
out by the heuristic, within a time budget; before play, every option weighed by play-outs in
:mod:`.weighing`). docs/bots.md describes both.
"""

from .levels import DEFAULT_BUDGET_MS, LEVELS, Level, NotToAct, suggest
from .record import Act, ActKind, BotInput, acts_of

__all__ = [
    "DEFAULT_BUDGET_MS",
    "LEVELS",
    "Act",
    "ActKind",
    "BotInput",
    "Level",
    "NotToAct",
    "acts_of",
    "suggest",
]
