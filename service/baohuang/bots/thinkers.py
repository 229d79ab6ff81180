"""Where bots think: searches in worker processes, every answer paced to its level's floor
(docs/bots-service.md).

A search thinks for up to its budget. On a thread of the serving process it would share the
interpreter with the event loop, so a flood of searches slowed every other request; here it
runs in a worker process (a ``forkserver`` pool, started on the first search and stopped with
the service), at the lowest CPU priority (``SCHED_IDLE``: they run only on a core nothing else
wants), so that the event loop is always served first. The parent keeps what is cheap: the
legal moves and the heuristic's choice (:func:`.levels.first_thoughts`), which also refuse bad
input at once.

Timing tells nothing: every answer waits out its level's floor (:func:`.levels.floor_ms`),
measured from when it was asked, so a forced move, a single candidate or a pass comes back when
a move that needed thought does. A search is answered by its deadline (the floor) whatever
happens: one still queued or still thinking then is answered with the heuristic's choice.

Bounds: the pool has one process per seat of thought; each caller passes a ``gate`` (an
:class:`asyncio.Semaphore`) that bounds how many of its kind think at once (suggestions, bot
seats), and a slot is held until the worker is done with the search, not merely until the
answer, so a search cut short still counts while its process finishes it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Final, NamedTuple

import msgspec

from ..engine import Move
from .levels import Level, first_thoughts, floor_ms, suggest
from .record import BotInput

NICENESS: Final = 10
"""Where ``SCHED_IDLE`` is not to be had (not Linux): how much lower than the event loop the
workers run (the kernel then gives the loop about ten times their share of a core)."""
WORK_SHARE: Final = 0.85
"""The part of the time left that the worker's search is given: the rest is for the answer's
way back and for a play-out that overruns the search's clock."""
MIN_WORK_MS: Final = 1.0
WATCH_SECONDS: Final = 1.0
"""How often a worker looks whether the serving process is still there."""

log = logging.getLogger("baohuang.bots")

_BOT_INPUT = msgspec.json.Decoder(BotInput)
_MOVE = msgspec.json.Decoder(Move)

Now = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class Stages(NamedTuple):
    """When each stage of one answer ended, in seconds after it was asked (on the pacing's
    clock): for a benchmark to say where a late answer's time went."""

    level: Level
    floor: float
    thought: float
    """The legal moves and the heuristic's choice known (in the serving process)."""
    submitted: float | None
    """The search handed to a worker (``None``: no search, or no worker in time)."""
    searched: float | None
    """The worker's move back (``None``: none by the floor, the heuristic's move answered)."""
    answered: float
    """The pacing over: the answer goes out."""


Observe = Callable[[Stages], None]


def _call_all(callbacks: list[Callable[[], None]]) -> None:
    for callback in callbacks:
        callback()


def _call_soon(loop: asyncio.AbstractEventLoop, callbacks: list[Callable[[], None]]) -> None:
    """From the pool's thread, once a worker is through: ``callbacks`` on the loop (a loop
    already closed, at shutdown, has nobody left to give them back to)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_call_all, callbacks)


def _outlive_no_service(service: int) -> None:
    """A worker's watch on the serving process: a worker waiting for work never learns that
    the service was killed outright (its siblings hold the queue's other end open), so it
    leaves once the service is gone."""
    while True:
        time.sleep(WATCH_SECONDS)
        try:
            os.kill(service, 0)
        except ProcessLookupError:
            os._exit(0)


def _prepare_worker(service: int) -> None:
    """In each worker as it starts: below the event loop, deaf to the terminal's Ctrl-C (the
    service stops its workers itself, after its requests), and gone with the service."""
    threading.Thread(target=_outlive_no_service, args=(service,), daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        # Only when no other process wants the CPU: a flood of searches then never slows the
        # event loop (measured: bench/RESULTS.md section 25). On a host busy with anything
        # else a search gets little time, and its answer is the heuristic's move, on time.
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(NICENESS)


def _search(body: bytes, budget_ms: float, seed: int) -> bytes:
    """In a worker: the search level's move for the bot input ``body`` (JSON both ways, so
    that nothing but plain bytes crosses the process boundary)."""
    bot = _BOT_INPUT.decode(body)
    return msgspec.json.encode(suggest(bot, "search", budget_ms=budget_ms, seed=seed))


class Thinkers:
    """The worker processes of one serving process, and the pacing of every bot answer.

    ``processes``: the pool's size (the gates of its users add up to it). ``now`` and
    ``sleep`` are the clock the pacing uses (a test injects its own); ``paced``: whether
    answers wait out their floor at all (the table tests that drive time by hand turn it
    off); ``observe``: given each answer's :class:`Stages` (a benchmark's probe).
    """

    def __init__(
        self,
        processes: int,
        *,
        now: Now = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        paced: bool = True,
        observe: Observe | None = None,
    ) -> None:
        if processes <= 0:
            raise ValueError("a pool needs at least one process")
        self.processes = processes
        self.now = now
        self.sleep = sleep
        self.paced = paced
        self.observe = observe
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[concurrent.futures.ProcessPoolExecutor] | None = None
        self._stopped = False

    def start(self) -> None:
        """Start the workers in the background (a pool's first processes take a few hundred
        milliseconds to start, which no request should wait for): a search asked for before
        they are up waits for them within its deadline, else the heuristic answers."""
        if self._starting is None and not self._stopped:
            self._starting = asyncio.get_running_loop().create_task(asyncio.to_thread(self._open))

    def _open(self) -> concurrent.futures.ProcessPoolExecutor:
        """The pool with every process started (in a thread: starting them blocks)."""
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["baohuang.bots"])
        pool = concurrent.futures.ProcessPoolExecutor(
            self.processes,
            mp_context=context,
            initializer=_prepare_worker,
            initargs=(os.getpid(),),
        )
        started = [pool.submit(os.getpid) for _ in range(self.processes)]
        concurrent.futures.wait(started)
        self._pool = pool
        return pool

    async def _executor(self, deadline: float) -> concurrent.futures.ProcessPoolExecutor | None:
        """The pool once started, or ``None`` if it is not by ``deadline``."""
        if self._stopped:
            return None
        self.start()
        assert self._starting is not None
        try:
            return await asyncio.wait_for(asyncio.shield(self._starting), self._left(deadline))
        except TimeoutError:
            return None

    def pids(self) -> list[int]:
        """The worker processes running now (none before the first search)."""
        if self._pool is None:
            return []
        processes = getattr(self._pool, "_processes", None) or {}
        return [pid for pid, process in processes.items() if process.is_alive()]

    async def stop(self) -> None:
        """Stop every worker: searches not begun are dropped, ones thinking finish (within
        their budget) and the processes exit."""
        self._stopped = True
        if self._starting is not None:
            await asyncio.gather(self._starting, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    async def think(
        self,
        bot: BotInput,
        level: Level,
        *,
        budget_ms: float | None,
        seed: int,
        gate: asyncio.Semaphore | None = None,
    ) -> Move:
        """The move ``level`` plays for ``bot``, answered no sooner than the level's floor
        after the call and, for a search, by then. Bad input and a seat not to act raise at
        once (:func:`.levels.first_thoughts`). ``gate``: the slots of the caller's kind of
        search, one held until the worker is through with it."""
        started = self.now()
        floor = floor_ms(level, budget_ms) / 1000
        deadline = started + floor
        moves, chosen = first_thoughts(bot, seed)
        thought = self.now()
        move = chosen
        marks: list[float] = []  # when the search reached a worker, when its move came back
        if level == "search" and len(moves) > 1:
            move = await self._searched(bot, seed, deadline, chosen, gate, marks)
        if self.paced:
            wait = deadline - self.now()
            if wait > 0:
                await self.sleep(wait)
        if self.observe is not None:
            after = [mark - started for mark in marks]
            self.observe(
                Stages(
                    level,
                    floor,
                    thought - started,
                    after[0] if after else None,
                    after[1] if len(after) > 1 else None,
                    self.now() - started,
                )
            )
        return move

    async def _searched(
        self,
        bot: BotInput,
        seed: int,
        deadline: float,
        chosen: Move,
        gate: asyncio.Semaphore | None,
        marks: list[float],
    ) -> Move:
        """The search's move from a worker by ``deadline``, else ``chosen``. The gate's slot
        is given back once no worker is busy with the search: at once if it never reached
        one, else when the worker is through (a search cut short still holds its process).
        ``marks`` gets when the search reached a worker and when its move came back."""
        held: list[Callable[[], None]] = []
        work: concurrent.futures.Future[bytes] | None = None
        try:
            if gate is not None:
                try:
                    await asyncio.wait_for(gate.acquire(), self._left(deadline))
                except TimeoutError:
                    return chosen  # no worker free in time: the heuristic's move answers
                held.append(gate.release)
            pool = await self._executor(deadline)
            work_ms = self._left(deadline) * 1000 * WORK_SHARE
            if pool is None or work_ms < MIN_WORK_MS:
                return chosen
            work = pool.submit(_search, msgspec.json.encode(bot), work_ms, seed)
            marks.append(self.now())
        finally:
            if work is None:
                _call_all(held)  # it never reached a worker: given back at once
        loop = asyncio.get_running_loop()  # from here on the worker's end gives them back
        work.add_done_callback(lambda _: _call_soon(loop, held))
        try:
            answer = await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(work)), self._left(deadline)
            )
        except TimeoutError:
            work.cancel()  # dropped if no worker has begun it; else it finishes on its own
            return chosen
        except Exception as error:  # a worker that died: the heuristic's move, and say so
            log.warning("a search failed in its worker (%r): the heuristic answers", error)
            return chosen
        marks.append(self.now())
        return _MOVE.decode(answer)

    def _left(self, deadline: float) -> float:
        return max(0.0, deadline - self.now())
