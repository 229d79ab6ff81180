"""The body of every error response: an RFC 9457 problem document."""

from __future__ import annotations

from ...engine import Reason
from .base import Answer


class ProblemItem(Answer):
    """One offending field: a stable ``code``, the ``rule`` id of docs/rules.md (null when the contract
    itself, not a game rule, is broken), a JSONPath ``path`` into the request, a ``message``."""

    code: str
    rule: str | None
    path: str
    message: str


class ProblemDocument(Answer, omit_defaults=True):
    """The body of every error response (RFC 9457)."""

    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None  # urn:request:<id>: this answer's X-Request-ID, for support
    errors: list[ProblemItem] = []
    current_version: int | None = None  # 409 on a table move: the version to retry against
    # 422 "Illegal move" of a table: the verdict's reason, as /v1/moves/validate gives it.
    reason: Reason | None = None
