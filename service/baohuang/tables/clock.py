"""The table clock's duties (T-11): apply the timeouts that fall due, through the table
service's one write path, from whichever replica is up.

Two indexes in the store, shared by every replica with their leases: ``deadlines``, the clocks
and bot seats, and ``playouts``, the deals that 托管 plays out over several writes
(:func:`flow.playing_out`: one write plays at most :data:`flow.PLAYOUT_MOVES` moves and leaves
the table due again). A table is in the one its record calls for (:func:`.scheduling.deadline_index`). The
clock task applies every due timeout first, each poll, as one tick always did; a second task
goes on with the play-outs, :data:`PLAYOUT_CONCURRENCY` at a time, so that a wave of them
(2,000 tables whose last seats time out together) never delays a fresh timeout behind it, and
takes about that many requests' share of the event loop from other tables' moves."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from ..bots.thinkers import Thinkers
from ..engine import Move
from ..store import Index, StoredTable, StoreOverloaded, StoreUnavailable, TableStore
from . import flow
from .answers import MoveAnswer
from .callers import PLATFORM
from .errors import TableNotFound, VersionConflict
from .record import TableRecord, decode_record
from .scheduling import deadline_index
from .views import View
from .writes import WriteRequest

log = logging.getLogger("baohuang.tables")

CLOCK_POLL_SECONDS: Final = 0.2
"""How often a process looks for deadlines that passed: a timeout lands within this (and a
store round trip) of its deadline."""
CLOCK_LEASE_SECONDS: Final = 5.0
"""A replica that claimed a timeout and died leaves it to another after this long."""
CLOCK_BATCH: Final = 50
"""Timeouts claimed and applied side by side at a time. Each holds a Redis connection for a
moment in each of its round trips; a batch well under the pool (64) leaves connections for the
moves, and a full batch is followed by the next at once (:meth:`TableClock.tick`)."""
CLOCK_ROUNDS: Final = 100
"""At most this many batches in one tick, so that a tick ends even if the index were refilled
with due tables as fast as it is drained."""
PLAYOUT_CONCURRENCY: Final = 2
"""Play-outs the play-out task goes on with side by side, each one write of up to
:data:`flow.PLAYOUT_MOVES` moves; then the next at once while any is due. Like that many
requests, they get that share of a busy event loop and all of an idle one."""


BOT_SEAT_SEARCHES: Final = 2
"""Bot seats' searches thinking at once in one process (each in a worker process of its own)."""

Write = Callable[[WriteRequest], Awaitable[MoveAnswer[View]]]
"""The table service's one write path (:meth:`.writes.Writes.write`)."""


class TableClock:
    """Applies the timeouts that fall due, through ``write``: ``store`` holds the indexes,
    ``now`` is the time (seconds since the epoch), ``on_timeout`` counts a seat's time running
    out (metrics)."""

    def __init__(
        self,
        store: TableStore,
        now: Callable[[], float],
        write: Write,
        on_timeout: Callable[[], None] | None = None,
        thinkers: Thinkers | None = None,
        searches: int = BOT_SEAT_SEARCHES,
    ) -> None:
        self.store = store
        self.now = now
        self.write = write
        self.on_timeout = on_timeout
        self.thinkers = thinkers if thinkers is not None else Thinkers(searches, paced=False)
        """Where bot seats think; one of the service's own unless it was given one."""
        self.gate = asyncio.Semaphore(searches)
        """The bot seats' searches thinking at once, in workers no suggestion may take."""
        self._thinking: set[str] = set()
        self._background: set[asyncio.Task[bool]] = set()

    async def time_out(self, table_id: str, claimed: tuple[Index, float] | None = None) -> bool:
        """Apply the table's timeout if its deadline passed (the clock task's work), or go on
        with its play-out: whether a write was made. A write racing it simply wins; the deadline
        is then looked at again. ``claimed``: the index the table was claimed from and the score
        of the claim (``now + lease``), so that the claim is given up where the table has moved
        to the other index."""
        index: Index = "deadlines" if claimed is None else claimed[0]
        stored = await self.store.get(table_id)
        if stored is None:
            await self.store.schedule(table_id, None, index=index)
            return False
        record = decode_record(stored.snapshot)
        belongs = deadline_index(record)
        if claimed is not None and belongs != index:
            # A write moved the table to the other index since (a play-out began or ended the
            # other way): it is handled there, and this claim is given up.
            if record.table.deadline is not None:
                await self.store.schedule(
                    table_id, record.table.deadline, earlier_only=True, index=belongs
                )
            await self.store.release(table_id, claimed[1], index=index)
            return False
        turn = flow.bot_due(record, self.now())
        if turn is None:
            return await self._commit(table_id, stored, record, None, claimed)
        # Think first, then write: the bot thinks (a search in a worker process, paced to its
        # level's floor) on the record as read, outside any write; the write is the usual
        # compare-and-set on that version, and a table that moved on meanwhile refuses it, is
        # due again, and is thought about again.
        if table_id in self._thinking:
            return False  # this process is already thinking for it (its wake-up and a tick)
        self._thinking.add(table_id)
        thought = self._think_and_commit(table_id, stored, record, turn, claimed)
        if claimed is None or not self.thinkers.paced:
            return await thought
        # From the clock's batch: the bot thinks for its floor on its own (under the claim's
        # lease), so the batch — other tables' timeouts — never waits a search's second.
        task = asyncio.get_running_loop().create_task(thought)
        self._background.add(task)
        task.add_done_callback(self._thought)
        return False

    def _thought(self, task: asyncio.Task[bool]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a bot move was left to the clock: %s", task.exception())

    async def _think_and_commit(
        self,
        table_id: str,
        stored: StoredTable,
        record: TableRecord,
        turn: flow.BotTurn,
        claimed: tuple[Index, float] | None,
    ) -> bool:
        try:
            move = await self.thinkers.think(
                turn.bot, turn.level, budget_ms=None, seed=turn.seed, gate=self.gate
            )
        finally:
            self._thinking.discard(table_id)
        return await self._commit(table_id, stored, record, move, claimed)

    async def _commit(
        self,
        table_id: str,
        stored: StoredTable,
        record: TableRecord,
        bot: Move | None,
        claimed: tuple[Index, float] | None,
    ) -> bool:
        """The timeout (or the bot's move ``bot``) judged on the record as read, written with
        a compare-and-set on its version: whether a write was made."""
        index: Index = "deadlines" if claimed is None else claimed[0]
        belongs = deadline_index(record)
        acting = None if record.snapshot.over else record.table.seats[record.snapshot.turn]
        judged = flow.time_out(record, self.now(), bot)
        if judged is None:
            # not due (yet): the index said so too early, or the clock was stopped
            await self.store.schedule(table_id, record.table.deadline, index=belongs)
            return False
        # Judged once: given the table as read, the write path judges the change on that same
        # state (this version of this instance) or finds it changed and refuses, so the
        # timeout judged here is the one to commit. Judging is most of a timeout's cost when
        # 托管 then plays the rest of the deal.
        try:
            await self.write(
                WriteRequest(
                    table_id,
                    PLATFORM,
                    stored.version,
                    lambda _: judged,
                    instance=stored.instance,
                    read=(stored, record),
                )
            )
        except (VersionConflict, TableNotFound):
            return False
        if claimed is not None and deadline_index(judged[0]) != index:
            # the write put the table in the other index: the claim here is over
            await self.store.release(table_id, claimed[1], index=index)
        # a bot's turn is no timeout, nor a play-out going on
        timed_out = acting is not None and acting.bot is None and not acting.trustee
        if self.on_timeout is not None and timed_out:
            self.on_timeout()
        return True

    async def stop(self) -> None:
        """Cancel the bot moves still thinking (their claims lapse; another replica, or this
        one started again, makes them)."""
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)

    async def run_clock(self, poll_seconds: float = CLOCK_POLL_SECONDS) -> None:
        """Apply timeouts as they fall due, for as long as the process runs, and (a task of its
        own) go on with the play-outs."""
        playouts = asyncio.create_task(self._run_playouts(poll_seconds))
        try:
            while True:
                try:
                    await self._apply_due("deadlines", CLOCK_BATCH, CLOCK_ROUNDS, drain=False)
                except (StoreUnavailable, StoreOverloaded) as exc:
                    log.warning("clock: %s (trying again)", exc)
                except Exception:  # never let the clock die
                    log.exception("clock: applying timeouts failed")
                await asyncio.sleep(poll_seconds)
        finally:
            playouts.cancel()
            await asyncio.gather(playouts, return_exceptions=True)

    async def _run_playouts(self, poll_seconds: float) -> None:
        """Go on with the play-outs that are due, a few at a time, as long as any is; else look
        again after ``poll_seconds``."""
        while True:
            try:
                found = await self._apply_due(
                    "playouts", PLAYOUT_CONCURRENCY, 1, drain=False, counted=False
                )
            except (StoreUnavailable, StoreOverloaded) as exc:
                log.warning("clock: %s (trying again)", exc)
                found = 0
            except Exception:  # never let the clock die
                log.exception("clock: going on with play-outs failed")
                found = 0
            await asyncio.sleep(0 if found else poll_seconds)

    async def tick(self, limit: int = CLOCK_BATCH) -> int:
        """Apply every timeout due now: batches of up to ``limit`` tables side by side (each is
        its own compare-and-set), one batch after another while they come full, so a backlog
        is drained at the rate the process can apply it rather than ``limit`` per poll; then
        every play-out due, until none is (a test moving time by hand sees a deal played out
        in one tick). How many writes were made.

        A table whose timeout fails (the store is down or overloaded) stays claimed and is
        taken again when its lease ends; the first such error is raised once the batch is
        done, and the tick stops there (the store is in trouble: no use claiming more)."""
        applied = await self._apply_due("deadlines", limit, CLOCK_ROUNDS, drain=False)
        return applied + await self._apply_due("playouts", limit, CLOCK_ROUNDS, drain=True)

    async def _apply_due(
        self,
        index: Index,
        limit: int,
        rounds: int,
        *,
        drain: bool,
        counted: bool = True,
    ) -> int:
        """Up to ``rounds`` batches of ``limit`` due tables of ``index``, one after another
        while they come full (``drain``: while any comes): how many writes were made
        (``counted``), or how many tables were claimed."""
        applied = 0
        for _ in range(rounds):
            now = self.now()
            due = await self.store.due(now, limit, CLOCK_LEASE_SECONDS, index=index)
            claim = (index, now + CLOCK_LEASE_SECONDS)
            # Every table's outcome is waited for, so none is left running unobserved.
            outcomes = await asyncio.gather(
                *(self.time_out(table_id, claim) for table_id in due), return_exceptions=True
            )
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome
            applied += sum(1 for outcome in outcomes if outcome is True) if counted else len(due)
            if not due or (len(due) < limit and not drain):
                break
        return applied
