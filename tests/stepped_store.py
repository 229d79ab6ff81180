"""A store seam for tests: a :class:`~baohuang.store.TableStore` that passes every call to the
store it wraps and lets a test act between any two of them — stop there and switch the primary,
lose the call's answer, roll the data back. Nothing in the service can reach it: it lives here,
and a test hands it to a :class:`~baohuang.tables.TableService` itself.

Only the calls made inside :meth:`SteppedStore.stepping` are numbered and offered to the test's
``step``; the calls of background tasks started before (a feed, a follower, a clock) pass
through untouched, so that a request's calls are numbered the same on every run.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, cast

from baohuang.store import TableStore

PASSED_THROUGH: Final = frozenset({"changes", "close", "ping"})
"""Store methods that are no step of a request: the feed's subscription and the store's life."""


@dataclass(frozen=True)
class Call:
    """One store call of the stepped request: its number (0, 1, … from the start of
    :meth:`SteppedStore.stepping`), the store method, its first argument (a table id mostly)."""

    n: int
    operation: str
    table_id: Any

    def __str__(self) -> str:
        return f"{self.n}:{self.operation}"


Proceed = Callable[[], Awaitable[Any]]
Step = Callable[[Call, Proceed], Awaitable[Any]]
"""``step(call, proceed)``: what a stepped call does. ``await proceed()`` makes the call; a step
may act before or after it, raise instead of returning its answer, or not make it at all."""


async def passing(call: Call, proceed: Proceed) -> Any:
    """The step that changes nothing."""
    return await proceed()


_stepping: contextvars.ContextVar[tuple[SteppedStore, Step] | None] = contextvars.ContextVar(
    "stepping", default=None
)


class SteppedStore:
    """Every method of ``inner``; within :meth:`stepping`, each call a step of the test."""

    def __init__(self, inner: TableStore) -> None:
        self.inner = inner
        self.calls: list[Call] = []
        """The calls made within the last :meth:`stepping`, in order."""

    @property
    def store(self) -> TableStore:
        """This seam as the service takes it (it has every method of a store)."""
        return cast(TableStore, self)

    @contextlib.contextmanager
    def stepping(self, step: Step = passing) -> Iterator[list[Call]]:
        """Number the calls made from here (in this task, and tasks it starts) and hand each to
        ``step``; yields the list they are recorded in."""
        self.calls = []
        token = _stepping.set((self, step))
        try:
            yield self.calls
        finally:
            _stepping.reset(token)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if name.startswith("_") or name in PASSED_THROUGH or not callable(method):
            return method

        async def stepped(*args: Any, **kwargs: Any) -> Any:
            current = _stepping.get()
            if current is None or current[0] is not self:
                return await method(*args, **kwargs)
            step = current[1]
            call = Call(len(self.calls), name, args[0] if args else None)
            self.calls.append(call)
            return await step(call, lambda: method(*args, **kwargs))

        return stepped

    def changes(self) -> AsyncIterator[str]:
        return self.inner.changes()

    def __repr__(self) -> str:
        return f"SteppedStore({self.inner!r})"
