"""Which replicas claim webhook deliveries: only those that may send them.

Every replica's dispatcher claims whichever table's deliveries fall due, so replicas must agree
on where a delivery may go. ``BAOHUANG_WEBHOOK_ALLOW_PRIVATE`` is set per replica; were it set
differently, a replica with it off would claim the deliveries of a table whose URL only the
others may reach, refuse them, and back the receiver off (a second, then two, …) for nothing,
while the replicas that could send waited their turn.

So the dispatchers tell each other their setting through the store (:meth:`TableStore.present`,
renewed on every poll, forgotten :data:`PRESENCE_SECONDS` after a replica's last): a replica with
it on claims as always; a replica with it off claims only while no replica with it on is up. What
one with it off may send, one with it on may send too, so no delivery waits for a replica that
never comes. Each replica logs its setting when it starts delivering, and a warning whenever
replicas with the other setting share its store (and again when the settings agree).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Final

from ..store import TableStore

__all__ = ["PRESENCE_SECONDS", "SETTING", "Senders"]

log = logging.getLogger("baohuang.tables")

SETTING: Final = "BAOHUANG_WEBHOOK_ALLOW_PRIVATE"
PRESENCE_SECONDS: Final = 10.0
"""How long a replica counts as up after its dispatcher last polled (it polls every 0.2 s): long
enough that a replica stalled a few seconds (a busy loop, a slow Redis) is not taken for gone
and its deliveries claimed by replicas that would refuse them; short beside the retries a
receiver gets anyway (an hour and more) when the replica really went away."""
_GROUPS: Final = {True: "webhook-senders:private", False: "webhook-senders:public"}


class Senders:
    """One dispatcher's view of the replicas delivering webhooks, by their setting."""

    def __init__(
        self, store: TableStore, *, allow_private: bool, clock: Callable[[], float]
    ) -> None:
        self._store = store
        self._now = clock
        self.allow_private = allow_private
        self._replica = secrets.token_hex(8)
        self._others: int | None = None  # replicas with the other setting, when last counted

    async def may_claim(self) -> bool:
        """Announce this replica, and whether it may claim deliveries now."""
        now = self._now()
        mine, theirs = _GROUPS[self.allow_private], _GROUPS[not self.allow_private]
        await self._store.present(mine, self._replica, now, PRESENCE_SECONDS)
        others = await self._store.present(theirs, None, now, PRESENCE_SECONDS)
        if self._others is None:
            self._starting()
        if bool(others) != bool(self._others):
            self._changed(others)
        self._others = others
        return self.allow_private or others == 0

    def _setting(self) -> str:
        return f"{SETTING}={'true' if self.allow_private else 'false'}"

    def _starting(self) -> None:
        if self.allow_private:
            claims = "it claims webhook deliveries"
        else:
            claims = (
                f"it claims webhook deliveries while no replica with {SETTING}=true shares its "
                "store, and leaves them to such replicas otherwise"
            )
        log.info("webhooks: %s on this replica: %s", self._setting(), claims)

    def _changed(self, others: int) -> None:
        if not others:
            if self._others:
                log.warning("webhooks: the replicas sharing this store agree on %s", SETTING)
            return
        if self.allow_private:
            who = f"they leave webhook deliveries to the replicas with {SETTING}=true"
        else:
            who = "this replica leaves webhook deliveries to them"
        log.warning(
            "webhooks: %s on this replica, but %d replica(s) sharing its store have the other "
            "setting: %s (set the same value on every replica)",
            self._setting(),
            others,
            who,
        )
