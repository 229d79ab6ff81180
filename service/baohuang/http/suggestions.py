"""Room for the search level's thinking, kept apart from the bot seats' (docs/deploy.md "Bot
suggestions", docs/bots-service.md).

``POST /v1/bots/suggest`` at the search level thinks for its budget in one of the service's bot
worker processes (:class:`~baohuang.bots.thinkers.Thinkers`), never on the event loop's
interpreter. Suggestions have ``BAOHUANG_SUGGEST_THREADS`` of those processes (the bot seats
have their own, :data:`~baohuang.tables.clock.BOT_SEAT_SEARCHES`), and each caller (a
platform key, else the client address) has at most ``BAOHUANG_SUGGEST_PER_CALLER`` searches
in flight, waiting or thinking (a search cut short at its deadline still holds its worker until
it is through): one more is 429 ``TOO_MANY_SUGGESTIONS`` with ``Retry-After``, so that one
caller cannot take every worker from the others either. Both are per process (per ``baohuang serve`` worker).

Every answer waits out its level's floor (:func:`~baohuang.bots.levels.floor_ms`), so how soon
it comes says nothing of the hand.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from ..bots import BotInput, Level
from ..bots.thinkers import Thinkers
from ..engine import Move
from .metrics import SUGGESTIONS_REFUSED
from .problems import Problem

SUGGEST_RETRY_AFTER_SECONDS: Final = "1"


def too_many_suggestions_problem(allowed: int) -> Problem:
    return Problem(
        429,
        "TOO_MANY_SUGGESTIONS",
        f"this credential (or address) already has {allowed} suggestions in flight, the most it "
        "may; retry after the Retry-After delay",
        headers={"Retry-After": SUGGEST_RETRY_AFTER_SECONDS},
    )


class Suggestions:
    """The suggestions' share of the bot workers and each caller's searches in flight."""

    def __init__(self, thinkers: Thinkers, searches: int, per_caller: int) -> None:
        self.thinkers = thinkers
        self.gate = asyncio.Semaphore(searches)
        self.per_caller = per_caller
        self._in_flight: Counter[bytes] = Counter()

    def in_flight(self, caller: bytes) -> int:
        """``caller``'s searches in flight now."""
        return self._in_flight[caller]

    @contextmanager
    def slot(self, caller: bytes) -> Iterator[None]:
        """One search of ``caller`` in flight until it is answered, or 429 when it has as
        many as it may."""
        if self._in_flight[caller] >= self.per_caller:
            SUGGESTIONS_REFUSED.inc()
            raise too_many_suggestions_problem(self.per_caller)
        self._in_flight[caller] += 1
        try:
            yield
        finally:
            self._in_flight[caller] -= 1
            if self._in_flight[caller] <= 0:
                del self._in_flight[caller]  # nothing kept per caller once it is done

    async def think(
        self, caller: bytes, bot: BotInput, level: Level, budget_ms: float, seed: int
    ) -> Move:
        """The move ``level`` plays for ``bot``, paced to the level's floor; a search is one
        of ``caller``'s in flight until answered, and holds one of the suggestions' workers
        until that worker is through with it."""
        if level == "heuristic":
            return await self.thinkers.think(bot, level, budget_ms=budget_ms, seed=seed)
        with self.slot(caller):
            return await self.thinkers.think(
                bot, level, budget_ms=budget_ms, seed=seed, gate=self.gate
            )
