"""Seat and spectator tokens changing hands (docs/clients.md "Tokens"): a rotation is a write
like a move. The record's generation for the seat (or the spectators) grows by one in a
compare-and-set, so every earlier token of it is refused from the next request on, on every
replica, and open streams of it close at the ``token_rotated`` event the write logs."""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from ..engine import TokenRotatedEvent
from ..store import TableStore
from . import flow
from .answers import RotatedToken
from .callers import SPECTATORS, Authority, Caller
from .errors import TableNotFound, VersionConflict
from .record import TableRecord, decode_record
from .writes import WriteRequest, Writes

ROTATE_ATTEMPTS: Final = 8
"""How often a token rotation retries a compare-and-set lost to a racing write."""


class Tokens:
    """Token rotations, through the write loop."""

    def __init__(self, store: TableStore, writes: Writes, authority: Authority) -> None:
        self.store = store
        self.writes = writes
        self.authority = authority

    async def rotate(
        self, table_id: str, caller: Caller, seat: int | None, seen: int | None = None
    ) -> RotatedToken:
        """A new token for ``seat`` (``None``: the spectators). With ``seen`` (the version the
        platform saw) it is one compare-and-set at that version, else it retries a few times
        against racing writes, each at the version it reads."""
        role = SPECTATORS if seat is None else seat
        generation = 0

        def rotated(record: TableRecord) -> flow.Change:
            nonlocal generation
            generations = list(record.token_generations)
            generations[role] += 1
            generation = generations[role]
            rotation = TokenRotatedEvent(seat=seat, generation=generation)
            return replace(record, token_generations=generations), [rotation]

        version = 0
        for _ in range(ROTATE_ATTEMPTS):
            stored = await self.store.get(table_id)
            if stored is None:
                raise TableNotFound(table_id)
            version = stored.version if seen is None else seen
            read = (stored, decode_record(stored.snapshot))
            try:
                answer = await self.writes.write(
                    WriteRequest(table_id, caller, version, rotated, read=read)
                )
            except VersionConflict:
                if seen is not None:
                    raise
                continue
            token = self.authority.token(table_id, answer.instance, seat, generation)
            return RotatedToken(seat, token, generation, answer.version, answer.instance)
        raise VersionConflict(version, version, raced=True)  # other writes kept winning
