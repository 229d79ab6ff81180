"""Idempotent moves (docs/clients.md "Idempotency"): an answer remembered under the client's key.

A retry with the same ``Idempotency-Key`` and the same request gets the original answer — a
committed move's version and events, or the same refusal — even after the table moved on; the
same key with another request is refused. The record is written in the same atomic write as the
move it answers (or, for a refusal, on its own), and lives as long as the table instance, or until
the table has kept ``BAOHUANG_IDEMPOTENCY_KEYS`` newer ones.

A key belongs to the credential that sent it (:func:`owned`): another caller's same key is
another key, so one seat can neither spend nor block another's. A replay of a committed move is
answered only from where its write lives: the store reads the record again where it proves it
holds it, and answers once it is as durable as a fresh write (:meth:`~baohuang.store.TableStore.
replay`); its events must be in the log (or in a finished deal's record). A remembered refusal
changed nothing, so it needs no replica.
"""

from __future__ import annotations

import hashlib

import msgspec

from ..engine import Event, Move, Reason
from .callers import Caller

IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x7e]+$"
"""Printable ASCII without spaces."""
IDEMPOTENCY_KEY_MAX = 255


class IdempotencyKeyReused(Exception):
    """The key was used before with another request (422 ``IDEMPOTENCY_KEY_REUSED``)."""


class Remembered(msgspec.Struct, frozen=True, omit_defaults=True):
    """What is kept under a key: the request's fingerprint, and the committed move's version and
    events (whole: each answer is cut for its caller) or the refusal's reason."""

    fingerprint: str
    instance: str
    version: int | None = None
    events: list[Event] = []
    reason: Reason | None = None


_encode = msgspec.json.Encoder().encode
decode_remembered = msgspec.json.Decoder(Remembered).decode


def owned(caller: Caller, key: str) -> str:
    """The key as the store keeps it: its caller's credential, a space (keys have none), the
    key."""
    return f"{caller.credential} {key}"


def fingerprint(move: Move, version: int, instance: str | None) -> str:
    """The request, as far as the answer depends on it (body bytes may differ in spacing)."""
    return hashlib.sha256(_encode((move, version, instance))).hexdigest()[:32]


def committed(print_: str, instance: str, version: int, events: list[Event]) -> bytes:
    return _encode(Remembered(print_, instance, version=version, events=events))


def refused(print_: str, instance: str, reason: Reason) -> bytes:
    return _encode(Remembered(print_, instance, reason=reason))
