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

A caller over its cap may keep asking hundreds of times a second. Its refusal is decided on
the route, before the handler (:func:`refuse_over_cap`): by the caller's key and the body's
``level`` alone, before the rest of the body is decoded or checked, and answered with a
document encoded once, so that a flood of refusals costs the event loop little.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

import msgspec
from litestar.types import ASGIApp, Receive, Scope, Send

from ..bots import BotInput, Level
from ..bots.thinkers import Thinkers
from ..engine import Move
from .metrics import SUGGESTIONS_REFUSED
from .problems import Problem
from .ratelimit import verified_caller
from .settings import MAX_BODY_BYTES

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

    def at_cap(self, caller: bytes) -> bool:
        """Whether ``caller`` has as many searches in flight as it may: the one rule that both
        :meth:`slot` and the route's early refusal (:func:`refuse_over_cap`) apply."""
        return self._in_flight[caller] >= self.per_caller

    @contextmanager
    def slot(self, caller: bytes) -> Iterator[None]:
        """One search of ``caller`` in flight until it is answered, or 429 when it has as
        many as it may."""
        if self.at_cap(caller):
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


class _Asked(msgspec.Struct):
    """What :func:`refuse_over_cap` reads of a suggestion's body: its level, nothing else (the
    other fields are skipped, not decoded)."""

    level: str = "heuristic"


_ASKED = msgspec.json.Decoder(_Asked)


def _asks_for_search(body: bytes) -> bool:
    """Whether ``body`` asks for a search. A body this cannot read is left to the handler,
    which says what is wrong with it."""
    try:
        return _ASKED.decode(body).level == "search"
    except (msgspec.DecodeError, RecursionError):
        return False


def refuse_over_cap(app: ASGIApp) -> ASGIApp:
    """The suggest route's middleware: a search asked for by a caller that already has its
    cap in flight is refused here, before the handler decodes and checks the body. Anything
    else goes on to the handler, body and all (which still takes the caller's slot itself,
    :meth:`Suggestions.slot`: this is only the cheap way to say no)."""

    async def refuse(scope: Scope, receive: Receive, send: Send) -> None:
        state = scope["app"].state
        suggestions: Suggestions = state.suggestions
        caller = verified_caller(scope, state.authority.verifies)
        if not suggestions.at_cap(caller):
            await app(scope, receive, send)
            return
        received: list[Any] = []
        size = 0
        while True:  # the body, as far as a body may go; the handler refuses anything longer
            message: Any = await receive()
            received.append(message)
            size += len(message.get("body", b""))
            if message["type"] != "http.request" or size > MAX_BODY_BYTES:
                break
            if not message.get("more_body", False):
                body = b"".join(part.get("body", b"") for part in received)
                if _asks_for_search(body):
                    SUGGESTIONS_REFUSED.inc()
                    for answer in too_many_suggestions_problem(
                        suggestions.per_caller
                    ).asgi_messages(scope):
                        await send(answer)
                    return
                break

        async def replay() -> Any:
            return received.pop(0) if received else await receive()

        await app(scope, replay, send)

    return refuse
