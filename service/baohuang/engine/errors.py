"""Bad input: what the engine cannot judge, as opposed to a verdict about the game.

Every function of the engine that reads input raises :class:`InvalidInput`, and only it, for
input it cannot judge: a card code that does not exist (D-3), more copies than four decks hold
(D-5), an unknown ruleset (R), a ``previous`` play that is no combo (C-1), a snapshot that
contradicts itself, roles or a finishing order that no deal has. An illegal move, or a play that
does not beat, is never bad input: it is a verdict, a :class:`~baohuang.engine.reasons.Reason`.

``path`` says where the input is bad, as a JSONPath without its root, relative to the arguments
of the call: the engine's public functions name each argument as its parameter is named
(``.snapshot.hands[2][5]``, ``.move.cards``, ``.pairs[3].previous[0]``, ``.ruleset.grab``); a
helper that reads one value gives the path within it (``[5]``) and its caller puts the rest in
front (:meth:`InvalidInput.within`). Whoever holds the whole document puts its root in front:
the HTTP layer, whose request bodies carry the arguments under the same names, answers with
``error.at("$")``.
"""

from __future__ import annotations

__all__ = ["INVALID_SNAPSHOT", "InvalidInput", "invalid_snapshot"]

INVALID_SNAPSHOT = "INVALID_SNAPSHOT"


class InvalidInput(ValueError):
    """Input the engine cannot judge: a stable ``code``, the ``rule`` it breaks (``None`` where
    the input breaks the contract rather than a rule of the game), a ``message``, and ``path``,
    where it is (see the module docstring)."""

    def __init__(self, code: str, rule: str | None, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message
        self.path = path

    def within(self, prefix: str) -> InvalidInput:
        """The same error seen from one level up, where the bad value sits at ``prefix``."""
        return InvalidInput(self.code, self.rule, self.message, prefix + self.path)

    def at(self, root: str) -> str:
        """The path in a document whose root is ``root`` (``"$"``: ``$.snapshot.hands[2]``)."""
        return root + self.path

    def __repr__(self) -> str:
        return f"InvalidInput({self.code!r}, {self.rule!r}, {self.message!r}, {self.path!r})"


def invalid_snapshot(path: str, message: str, rule: str | None = None) -> InvalidInput:
    """``INVALID_SNAPSHOT``: a snapshot that contradicts itself, at ``path``."""
    return InvalidInput(INVALID_SNAPSHOT, rule, message, path)
