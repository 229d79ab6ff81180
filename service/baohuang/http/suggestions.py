"""Room for the search level's thinking, kept apart from the bot seats' (docs/deploy.md "Bot
suggestions").

``POST /v1/bots/suggest`` at the search level thinks for up to its budget on a worker thread. On
anyio's default limiter those threads would be the very ones the table clock uses to play bot
seats' search moves (tables/clock.py), so one caller sending suggestions as fast as it liked
could queue every bot seat of the process behind its own. Suggestions therefore think on a
limiter of their own (``BAOHUANG_SUGGEST_THREADS`` threads), which leaves the default one to the
bot seats, and each caller (a platform key, else the client address) has at most
``BAOHUANG_SUGGEST_PER_CALLER`` suggestions in flight, waiting or thinking: one more is 429
``TOO_MANY_SUGGESTIONS`` with ``Retry-After``, so that one caller cannot take every thread
from the others either. Both are per process (per worker).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, TypeVar

import anyio
import anyio.to_thread

from .metrics import SUGGESTIONS_REFUSED
from .problems import Problem

SUGGEST_RETRY_AFTER_SECONDS: Final = "1"
T = TypeVar("T")


def too_many_suggestions_problem(allowed: int) -> Problem:
    return Problem(
        429,
        "TOO_MANY_SUGGESTIONS",
        f"this credential (or address) already has {allowed} suggestions in flight, the most it "
        "may; retry after the Retry-After delay",
        headers={"Retry-After": SUGGEST_RETRY_AFTER_SECONDS},
    )


class Suggestions:
    """The suggestion threads of one process and each caller's suggestions in flight."""

    def __init__(self, threads: int, per_caller: int) -> None:
        self.limiter = anyio.CapacityLimiter(threads)  # made in the running loop (the lifespan)
        self.per_caller = per_caller
        self._in_flight: Counter[bytes] = Counter()

    @contextmanager
    def slot(self, caller: bytes) -> Iterator[None]:
        """One suggestion of ``caller`` in flight, or 429 when it has as many as it may."""
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

    async def think(self, caller: bytes, work: Callable[[], T]) -> T:
        """``work`` on a suggestion thread, as one of ``caller``'s suggestions."""
        with self.slot(caller):
            return await anyio.to_thread.run_sync(work, limiter=self.limiter)
