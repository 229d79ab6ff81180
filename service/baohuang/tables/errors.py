"""What the table service refuses besides an illegal move (which is the engine's ``MoveRefused``).

The HTTP layer maps each to its status once: not found → 404, conflict → 409.
"""

from __future__ import annotations


class TableNotFound(LookupError):
    """There is no table under the id (never created, deleted or expired)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"there is no table '{table_id}'")
        self.table_id = table_id


class VersionConflict(Exception):
    """The client's version (or instance) is not the table's current one; it must re-read."""

    def __init__(
        self, current_version: int, seen: int, *, replaced: bool = False, raced: bool = False
    ) -> None:
        if raced:
            message = (
                f"other writes kept landing first (the table is now at version "
                f"{current_version}): try again"
            )
        elif replaced:
            message = (
                f"the table was created again since the client read it (now at version "
                f"{current_version}): re-read it and decide again"
            )
        else:
            message = f"the table is at version {current_version}, not {seen}: re-read it and decide again"
        super().__init__(message)
        self.current_version = current_version
        self.message = message


class WebhooksOff(Exception):
    """A table asked for a webhook from a service that has no secret to sign deliveries with."""


class WebhookUrlRefused(ValueError):
    """A webhook URL the service does not send to (:mod:`.webhook_targets`): the reason."""
