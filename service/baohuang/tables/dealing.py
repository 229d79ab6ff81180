"""Committed dealing at a live table (docs/dealing.md): what a platform asks for, and a seat
adding its entropy.

The deal itself — the commitment, the window for entropy, dealing when it closes, the seed
revealed at the end — is the table's rules, in :mod:`.flow`. A seat's entropy is its own
guarantee that nobody chose its cards, so only its own token adds it (a platform key may do
anything else at a table, but not this: entropy it added for a seat would take that seat's
place). Adding needs no version: what the other seats did changes nothing about it, so a write
lost to a racing one is simply tried again on the table as it now is, and a retry after a lost
answer (the same entropy) changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Final

import msgspec

from ..engine import ENTROPY_PATTERN, RulesetField, Seat
from ..store import TableStore
from . import flow
from .callers import Caller, Forbidden
from .errors import TableNotFound, VersionConflict
from .record import TableRecord, decode_record
from .writes import WriteRequest, Writes

if TYPE_CHECKING:
    from .answers import MoveAnswer
    from .views import View

ATTEMPTS: Final = 8
"""How often adding entropy tries again after a write that another won."""

EntropySeconds = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=600,
        description="How long the seats may add entropy before the cards are dealt; the deal is "
        "dealt sooner once every seat that can add has (0: at once, from the service's seed "
        f"alone). Default {flow.DEFAULT_ENTROPY_SECONDS}.",
    ),
]
Entropy = Annotated[
    str,
    msgspec.Meta(
        pattern=ENTROPY_PATTERN,
        description="1 to 64 bytes of the seat's own choosing, as lowercase hex digits (e.g. "
        "from a browser's crypto.getRandomValues)",
        examples=["9f3c0a5e77d1b2c4"],
    ),
]


class CommittedDeal(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A table's first deal, dealt by the service from a seed it commits to before any card is
    dealt (docs/dealing.md): the ``ruleset``, the ``dealer`` (G-4) and the window for the
    seats' entropy."""

    ruleset: RulesetField = "classic"
    dealer: Seat = 0
    entropy_seconds: EntropySeconds = flow.DEFAULT_ENTROPY_SECONDS


async def add_entropy(
    store: TableStore,
    writes: Writes,
    now: Callable[[], float],
    table_id: str,
    caller: Caller,
    seat: int,
    entropy: str,
) -> MoveAnswer[View]:
    """``seat`` adds ``entropy`` to the committed deal that waits for it (:func:`flow.add_entropy`),
    through the one write path, on the table as it stands (the caller's role checked before:
    :func:`own_seat`)."""

    def change(record: TableRecord) -> flow.Change:
        return flow.add_entropy(record, seat, entropy, now())

    version = 0
    for _ in range(ATTEMPTS):
        stored = await store.get(table_id)
        if stored is None:
            raise TableNotFound(table_id)
        version, read = stored.version, (stored, decode_record(stored.snapshot))
        request = WriteRequest(table_id, caller, version, change, stored.instance, read=read)
        try:
            return await writes.write(request)
        except VersionConflict:
            continue  # another write landed first: add to the table as it now is
    raise VersionConflict(version, version, raced=True)


def own_seat(caller: Caller, seat: int) -> None:
    """Only the seat's own token adds its entropy (the module docstring)."""
    if caller.kind != "seat":
        raise Forbidden("only the seat's own token adds its entropy", "$.path.seat")
    caller.require_seat(seat, "$.path.seat")
