"""Who is calling a table route, and what each kind of caller may do.

* A **platform** key (``BAOHUANG_API_KEYS``) sees and does everything. Without platform keys the
  service is in open (development) mode and a request without credentials counts as a platform;
  the start-up log warns.
* A **seat** token acts for its seat only and sees only that seat's view.
* A **spectator** token sees the public view and cannot act.

Seat and spectator tokens are returned by ``PUT`` and belong to one table *instance*: a token is
``<instance>.<HMAC-SHA256 of table id, instance and role>`` under ``BAOHUANG_TOKEN_SECRET``, so
after a delete and a new ``PUT`` on the same id the old tokens no longer match (the service
compares the token's instance with the table's). Secrets are compared in constant time and never
logged.

A seat that changes hands gets a new token (:meth:`Authority.token`): its *generation* ``g`` ≥ 1
rides in the token, ``<instance>.<g>.<HMAC of table id, instance, role and g>``, and the table's
record keeps the generation now valid for each role (``TableRecord.tokens``). So checking a
token stays stateless — the HMAC says who it is, and the service compares its generation with
the record's wherever it reads the record anyway; an earlier generation is 401
``TOKEN_REVOKED``. PUT's tokens are generation 0 and keep their two-part form.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from typing import Final, Literal

import msgspec

from ..engine import Seat

log = logging.getLogger("baohuang.tables")

SEATS: Final = range(5)
"""T-1: the five seats."""


class Unauthorized(Exception):
    """No usable credential: missing where keys are configured, unknown, or of an earlier
    instance of the table (401)."""

    code = "UNAUTHORIZED"


class TokenRevoked(Unauthorized):
    """A token of this table instance whose seat (or the spectators) was given a new token since
    (401 ``TOKEN_REVOKED``)."""

    code = "TOKEN_REVOKED"


class Forbidden(Exception):
    """A valid credential that may not do this (403); ``path`` names the offending field."""

    def __init__(self, message: str, path: str = "$") -> None:
        super().__init__(message)
        self.path = path


class Caller(msgspec.Struct, frozen=True):
    """The authenticated caller of a table route. ``instance`` is the table instance a token
    belongs to (``None`` for a platform, which is not tied to one)."""

    kind: Literal["platform", "seat", "spectator"]
    seat: int | None = None
    instance: str | None = None
    generation: int = 0
    """Which of the role's tokens this is (0: the one ``PUT`` issued; see the module docstring)."""
    key_id: str | None = None
    """For a platform: which of ``BAOHUANG_API_KEYS`` it presented (a digest, never the key),
    so that what belongs to a credential — its idempotency keys — is told apart per key."""

    @property
    def credential(self) -> str:
        """Who this is, as far as what it owns goes: ``platform[:<key id>]``,
        ``seat:<s>[:<generation>]`` or ``spectator[:<generation>]`` (within one table instance:
        seat and spectator tokens are per instance; a seat that changed hands is a new owner,
        so its new holder neither replays nor is blocked by the old holder's keys)."""
        generation = f":{self.generation}" if self.generation else ""
        if self.kind == "seat":
            return f"seat:{self.seat}{generation}"
        if self.kind == "platform" and self.key_id is not None:
            return f"platform:{self.key_id}"
        return f"{self.kind}{generation}"

    @property
    def role(self) -> int | None:
        """The index of the caller's token generation in ``TableRecord.tokens``: its seat, or
        :data:`SPECTATORS` (``None`` for a platform, which has no token)."""
        if self.kind == "platform":
            return None
        return self.seat if self.kind == "seat" else SPECTATORS

    def require_platform(self, what: str = "create, replace or delete a table") -> None:
        """Creating, replacing and deleting a table, and issuing its tokens, are the
        platform's."""
        if self.kind != "platform":
            raise Forbidden(f"only a platform key may {what}")

    def require_current(self, generations: list[int]) -> None:
        """A token is refused once its seat (or the spectators) got a newer one: ``generations``
        are the table record's ``token_generations``."""
        role = self.role
        if role is not None and generations[role] != self.generation:
            raise TokenRevoked(
                "this token was revoked: the platform issued a new token for its "
                + ("spectators" if role == SPECTATORS else f"seat {role}")
            )

    def require_seat(self, seat: int, path: str) -> None:
        """A seat token acts, and reads a seat view, for its own seat only; a spectator for none."""
        if self.kind == "spectator":
            raise Forbidden("a spectator token may only read the public view", path)
        if self.kind == "seat" and self.seat != seat:
            raise Forbidden(f"this seat token belongs to seat {self.seat}, not seat {seat}", path)


PLATFORM: Final = Caller("platform")
_SPECTATOR_ROLE: Final = "spectator"
SPECTATORS: Final = 5
"""The spectators' place in ``TableRecord.tokens``, after the five seats'."""
MAX_GENERATION: Final = 10**9
"""A bound on the generation a token may name (a token with more digits is no token)."""


class Authority:
    """Issues seat and spectator tokens and tells who presents a credential."""

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
                "the service; seat and spectator tokens still restrict when they are used"
            )

    @property
    def open(self) -> bool:
        return not self._keys

    def _token(self, table_id: str, instance: str, role: str, generation: int = 0) -> str:
        message = f"baohuang-table\x00{table_id}\x00{instance}\x00{role}"
        if generation:  # generation 0 signs what tokens signed before there were generations
            message += f"\x00{generation}"
        digest = hmac.new(self._secret, message.encode(), hashlib.sha256).digest()
        mac = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        return f"{instance}.{generation}.{mac}" if generation else f"{instance}.{mac}"

    def seat_tokens(self, table_id: str, instance: str) -> list[str]:
        return [self._token(table_id, instance, f"seat-{seat}") for seat in SEATS]

    def spectator_token(self, table_id: str, instance: str) -> str:
        return self._token(table_id, instance, _SPECTATOR_ROLE)

    def token(self, table_id: str, instance: str, seat: int | None, generation: int) -> str:
        """The token of ``seat`` (``None``: the spectators') of that ``generation``."""
        role = _SPECTATOR_ROLE if seat is None else f"seat-{seat}"
        return self._token(table_id, instance, role, generation)

    def identify(self, credential: str | None, table_id: str) -> Caller:
        """Who presents ``credential`` (the bearer token, ``None`` when none was sent).

        Raises :class:`Unauthorized` for a missing credential where keys are configured, and for
        one that is neither a platform key nor a token of this table id. Whether a token belongs
        to the table's *current* instance is the service's to check (it holds the table).
        """
        if credential is None:
            if self.open:
                return PLATFORM
            raise Unauthorized("this route needs 'Authorization: Bearer <platform key>'")
        presented = credential.encode()
        matched = self._matched_key(presented)
        if matched is not None:
            return Caller("platform", key_id=hashlib.sha256(matched).hexdigest()[:16])
        parts = credential.split(".")
        generation = _generation(parts)
        if generation is not None:
            instance = parts[0]
            roles: list[tuple[str, Caller]] = [
                (f"seat-{seat}", Caller("seat", seat, instance, generation)) for seat in SEATS
            ]
            roles.append((_SPECTATOR_ROLE, Caller("spectator", None, instance, generation)))
            found: Caller | None = None
            for role, caller in roles:  # every role is compared: constant time per credential
                token = self._token(table_id, instance, role, generation)
                if hmac.compare_digest(presented, token.encode()):
                    found = caller
            if found is not None:
                return found
        raise Unauthorized("the credential is neither a platform key nor a token of this table")

    def _matched_key(self, presented: bytes) -> bytes | None:
        matched: bytes | None = None
        for key in self._keys:  # no early exit: the time taken does not say which key matched
            if hmac.compare_digest(presented, key):
                matched = key
        return matched

    def _is_key(self, presented: bytes) -> bool:
        return self._matched_key(presented) is not None

    def verifies(self, credential: str, table_id: str | None) -> bool:
        """Whether ``credential`` is a platform key, or a token of ``table_id`` (of any of its
        instances) whose signature checks: a credential someone was given, which may have a
        rate-limit budget of its own (``None``: no table, a platform key only)."""
        if table_id is None:
            return self._is_key(credential.encode())
        try:
            self.identify(credential, table_id)
        except Unauthorized:
            return False
        return True


def _generation(parts: list[str]) -> int | None:
    """The generation a token's dot-separated parts name (``None``: not a token's shape)."""
    if len(parts) == 2:
        return 0
    if len(parts) == 3 and parts[1].isascii() and parts[1].isdigit() and parts[1][0] != "0":
        generation = int(parts[1]) if len(parts[1]) < 10 else MAX_GENERATION
        return generation if generation < MAX_GENERATION else None
    return None


def seat_of(caller: Caller) -> Seat | None:
    """The seat whose view ``caller`` gets (``None``: the whole table or the public view)."""
    return caller.seat if caller.kind == "seat" else None
