"""Bad input: what the engine cannot judge, as opposed to a verdict about the game."""

from __future__ import annotations

__all__ = ["INVALID_SNAPSHOT", "InvalidInput", "invalid_snapshot"]

INVALID_SNAPSHOT = "INVALID_SNAPSHOT"


class InvalidInput(ValueError):
    """Input the engine cannot judge. Fields match a problem document's ``errors`` item."""

    def __init__(self, code: str, rule: str | None, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.code = code
        self.rule = rule
        self.path = path
        self.message = message


def invalid_snapshot(path: str, message: str, rule: str | None = None) -> InvalidInput:
    """``INVALID_SNAPSHOT``: a snapshot that contradicts itself, at ``path``."""
    return InvalidInput(INVALID_SNAPSHOT, rule, path, message)
