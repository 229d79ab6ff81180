"""The replies of the Redis table store's scripts (:mod:`.redis_scripts`), named and decoded
once, into what every store answers (:mod:`.base`). A script replies with a Lua array; each
``NamedTuple`` here names its places in the order the script returns them."""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

from .base import (
    CasConflict,
    CasMissing,
    CasOk,
    CasRemembered,
    CasResult,
    EventPage,
    LoggedEvent,
    StoredTable,
)
from .layout import LogField

_LOG_VERSION, _LOG_DATA, _LOG_TOKEN = (field.value.encode() for field in LogField)


class CasStatus(IntEnum):
    """The first place of ``CAS_LUA``'s reply: what became of the compare-and-set."""

    MISSING = 0
    """``{0}``: no such table."""
    WRITTEN = 1
    """``{1, version, last seq}``: written (or found written by this very token: a retry)."""
    CONFLICT = -1
    """``{-1, current version}``: another version, instance or last write."""
    REMEMBERED = 2
    """``{2, record}``: the idempotency key already names a record; nothing written."""


def cas_result(reply: list[Any], token: str) -> CasResult:
    """``CAS_LUA``'s reply, for the write whose token is ``token``."""
    status = CasStatus(int(reply[0]))
    if status is CasStatus.WRITTEN:
        return CasOk(int(reply[1]), token, int(reply[2]))
    if status is CasStatus.CONFLICT:
        return CasConflict(int(reply[1]))
    if status is CasStatus.REMEMBERED:
        return CasRemembered(as_bytes(reply[1]))
    return CasMissing()


def cas_wrote(reply: list[Any]) -> bool:
    """Whether ``CAS_LUA`` wrote (so that ``WAIT`` must vouch for it): a conflict, a missing
    table or a remembered answer wrote nothing."""
    return CasStatus(int(reply[0])) is CasStatus.WRITTEN


def always(reply: Any) -> bool:
    """A script that always writes."""
    return True


def record_kept(reply: Any) -> bool:
    """The remember script kept a record (it may have written it), or the replay script found
    one (and touched the table's hash)."""
    return reply is not None


class GetReply(NamedTuple):
    """``GET_LUA``'s reply (``{}`` when there is no table)."""

    version: bytes
    snapshot: bytes
    instance: bytes
    last_seq: bytes
    last_token: bytes
    remembered: bytes | None


def stored_table(reply: list[Any]) -> StoredTable | None:
    if not reply:
        return None
    got = GetReply(*reply)
    return StoredTable(
        int(got.version),
        as_bytes(got.snapshot),
        as_str(got.instance),
        int(got.last_seq),
        as_bytes(got.remembered) if got.remembered is not None else None,
        last_token=as_str(got.last_token),
    )


class EventsReply(NamedTuple):
    """``EVENTS_LUA``'s reply (``{}`` when there is no table)."""

    instance: bytes
    version: bytes
    last_seq: bytes
    last_token: bytes
    entries: list[Any]
    """Stream entries: ``[entry id, [field, value, …]]``, fields of :class:`.layout.LogField`."""
    anchor: bytes | None
    """The token of the event at ``after`` ('' without one), ``None`` (Lua false) when the log
    holds no such seq."""
    snapshot: bytes | None
    trimmed: int
    recorded: bytes
    deals: list[bytes] | None


def event_page(reply: list[Any]) -> EventPage | None:
    if not reply:
        return None
    got = EventsReply(*reply)
    events = []
    for entry_id, fields in got.entries:
        values = dict(zip(fields[::2], fields[1::2], strict=True))
        seq = int(as_str(entry_id).partition("-")[0])
        token = as_str(values.get(_LOG_TOKEN))
        events.append(
            LoggedEvent(seq, int(values[_LOG_VERSION]), as_bytes(values[_LOG_DATA]), token)
        )
    return EventPage(
        as_str(got.instance),
        int(got.version),
        int(got.last_seq),
        events,
        last_token=as_str(got.last_token),
        anchor=None if got.anchor is None else as_str(got.anchor),
        snapshot=as_bytes(got.snapshot) if got.snapshot else None,
        trimmed=int(got.trimmed),
        recorded=int(got.recorded),
        deals=None if got.deals is None else [as_bytes(deal) for deal in got.deals],
    )


def as_bytes(value: bytes | str) -> bytes:
    """Snapshots come back as bytes unless someone built the client with decode_responses."""
    return value if isinstance(value, bytes) else value.encode()


def as_str(value: bytes | str | None) -> str:
    """An instance as text ('' for a table written before instances existed)."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
