"""Who may touch a live table: platform keys and per-seat tokens (issue: live tables, item 5).

* Platform keys (``BAOHUANG_API_KEYS``): full access to every ``/v1/tables`` route.
* Seat tokens: returned when a table is created, one per seat, an HMAC-SHA256 of the table id and
  the seat under ``BAOHUANG_TOKEN_SECRET``. A seat token reads only its own seat view and posts
  moves only for its own seat (403 otherwise).
* Without platform keys the routes are open (the start-up log warns), but a presented token is
  still checked: a seat token restricts, an unknown token is 401 — a client that sends
  credentials wants them honoured, not ignored.

Secrets are compared in constant time and never logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from typing import Final, Literal

import msgspec

from .problems import Problem

log = logging.getLogger("baohuang.http")

SEATS: Final = range(5)


class Caller(msgspec.Struct, frozen=True):
    """The authenticated caller of a table route: a platform, a seat, or anyone (open mode)."""

    kind: Literal["platform", "seat", "anyone"]
    seat: int | None = None


PLATFORM: Final = Caller("platform")
ANYONE: Final = Caller("anyone")


class TableAuth:
    """Checks ``Authorization`` headers against platform keys and seat tokens."""

    def __init__(self, api_keys: tuple[str, ...], token_secret: str | None) -> None:
        self._keys = tuple(key.encode() for key in api_keys)
        self._ephemeral_secret = token_secret is None
        self._secret = (token_secret or secrets.token_urlsafe(32)).encode()

    def warn_if_weak(self) -> None:
        """Say at start-up what an operator must know: open routes, per-process tokens."""
        if self._ephemeral_secret:
            log.warning(
                "BAOHUANG_TOKEN_SECRET is not set: seat tokens are valid in this process only; "
                "set the same secret on every replica"
            )
        if not self._keys:
            log.warning(
                "BAOHUANG_API_KEYS is not set: /v1/tables routes are open to anyone who can reach "
                "the service; seat tokens still restrict when they are used"
            )

    @property
    def open(self) -> bool:
        return not self._keys

    def seat_token(self, table_id: str, seat: int) -> str:
        digest = hmac.new(
            self._secret, f"baohuang-seat\x00{table_id}\x00{seat}".encode(), hashlib.sha256
        ).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def seat_tokens(self, table_id: str) -> list[str]:
        return [self.seat_token(table_id, seat) for seat in SEATS]

    def caller(self, authorization: str | None, table_id: str) -> Caller:
        """Who is calling; raises a 401 problem for missing (when keys are set) or bad credentials."""
        if not authorization:
            if self.open:
                return ANYONE
            raise _unauthorized("this route needs 'Authorization: Bearer <platform key>'")
        scheme, _, credential = authorization.partition(" ")
        if scheme.lower() != "bearer" or not credential.strip():
            raise _unauthorized("the Authorization header must be 'Bearer <key or seat token>'")
        presented = credential.strip().encode()
        platform = False
        for key in self._keys:  # no early exit: the time taken does not say which key matched
            platform |= hmac.compare_digest(presented, key)
        if platform:
            return PLATFORM
        seat_found: int | None = None
        for seat in SEATS:
            if hmac.compare_digest(presented, self.seat_token(table_id, seat).encode()):
                seat_found = seat
        if seat_found is not None:
            return Caller("seat", seat_found)
        raise _unauthorized("the credential is neither a platform key nor this table's seat token")


def _unauthorized(message: str) -> Problem:
    return Problem(
        401,
        "UNAUTHORIZED",
        message,
        path="$.headers.authorization",
        headers={"WWW-Authenticate": 'Bearer realm="baohuang-tables"'},
    )


def forbidden(message: str, path: str) -> Problem:
    return Problem(403, "FORBIDDEN", message, path=path)


def require_platform(caller: Caller) -> None:
    """Routes that manage a whole table (create, read all hands, delete) are not for seats."""
    if caller.kind == "seat":
        raise forbidden("a seat token may only read its own seat view and move for its seat", "$")


def require_seat(caller: Caller, seat: int, path: str) -> None:
    """A seat token acts and looks for its own seat only."""
    if caller.kind == "seat" and caller.seat != seat:
        raise forbidden(f"this seat token belongs to seat {caller.seat}, not seat {seat}", path)
