"""One table as the in-memory store (:mod:`.memory`) keeps it: the twin of its five Redis keys."""

from __future__ import annotations

from .base import HookBackoff, LoggedEvent


class TableEntry:
    """One table instance: mutable so a write updates in place. Its attributes are the fields of
    the table's record on Redis, by the same names (:class:`.layout.Field`), plus the log, the
    remembered answers and the finished deals' records (the table's other keys there)."""

    __slots__ = (
        "backoff", "deals", "events", "expires_at", "hooked", "instance", "last_write", "recorded",
        "remembered", "snapshot", "trimmed", "trimmed_token", "version",
    )  # fmt: skip

    def __init__(self, version: int, snapshot: bytes, expires_at: float) -> None:
        self.version = version
        self.snapshot = snapshot
        self.expires_at = expires_at
        self.last_write = ""
        self.instance = ""
        self.events: list[LoggedEvent] = []
        self.remembered: dict[str, bytes] = {}
        self.hooked = 0  # the last seq the table's webhook delivered
        self.backoff = HookBackoff()  # its retry schedule
        self.deals: list[bytes] = []  # the finished deals' records, oldest first
        self.recorded = 0  # the last seq of the finished deals
        self.trimmed = 0  # the last seq gone from the log: ``events`` starts after it
        self.trimmed_token = ""  # ... and the token of the event that had it

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else self.trimmed

    @property
    def last_token(self) -> str:
        return self.events[-1].token if self.events else self.trimmed_token

    def trim(self, upto: int) -> None:
        """The twin of the scripts' ``trim``: the events up to ``upto`` leave the log."""
        if upto <= self.trimmed:
            return
        gone = upto - self.trimmed  # seqs are consecutive: the first ``gone`` events
        self.trimmed_token = self.events[gone - 1].token
        del self.events[:gone]
        self.trimmed = upto
