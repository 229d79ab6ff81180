"""Examples of committed dealing and of deal records, made by the code that makes them: a table
whose first deal the service deals committed, a seat adding its entropy, and the record of a
short deal the platform gave, played to its end (a platform's record, and a seat's)."""

from __future__ import annotations

from typing import Any, Final

import msgspec

from ...engine import Event, Move, PassMove, PlayMove, Snapshot, auto_move
from ...records import Standing, build_record, encode_record
from ...tables import Caller, flow
from ...tables.deal_records import DealSummary, KeptDeals
from ...tables.views import cut_record, cut_table
from .positions import INSTANCE, TABLE_ID, Examples, one

_NOW: Final = 1764480093.5
_SECRET: Final = "5f1d9c0b7a3e4d2c8b6a1f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100"
ENTROPY: Final = "9f3c0a5e77d1b2c4"
SEAT: Final = 1


def _logged(events: list[Event], first_seq: int, version: int) -> list[Any]:
    return [
        {**msgspec.to_builtins(event), "seq": first_seq + n, "version": version}
        for n, event in enumerate(events)
    ]


# -- committed dealing: PUT with a deal, then seat 1's entropy -------------------------------

COMMITTED_DEAL: Final = {"ruleset": "classic", "dealer": 0, "entropy_seconds": 15}
_committed, _opened = flow.open_committed("classic", 0, 15, None, _NOW, secret=_SECRET)
_added, _entropy = flow.add_entropy(_committed, SEAT, ENTROPY, _NOW + 2.5)

COMMITTED_CREATED: Final = {
    "id": TABLE_ID,
    "instance": INSTANCE,
    "version": 1,
    "snapshot": msgspec.to_builtins(_committed.snapshot),
    "table": msgspec.to_builtins(_committed.table),
}
"""``PUT`` with a committed ``deal``: phase ``deal``, no cards, the commitment for everyone."""

ENTROPY_ADDED: Final = {
    "version": 2,
    "instance": INSTANCE,
    "audience": "seat",
    "view": msgspec.to_builtins(cut_table(_added.snapshot, Caller("seat", SEAT, INSTANCE))),
    "table": msgspec.to_builtins(_added.table),
    "events": _logged(_entropy, 2, 2),
}

# -- a deal record: a short deal the platform gave, played to its end ------------------------

_SHORT: Final = msgspec.convert(
    {
        "ruleset": "classic",
        "mode": "team",
        "emperor": 0,
        "guard": 3,
        "hands": [
            ["BJ*", "7S", "7H", "9D"],
            ["8S", "8H", "KD"],
            ["9S", "QH"],
            ["TS", "TH"],
            ["JS"],
        ],
        "turn": 0,
    },
    Snapshot,
)
_ACTS: Final[list[tuple[float, Move]]] = [
    (4.0, PlayMove(0, ["7S", "7H"])),
    (9.5, PlayMove(1, ["8S", "8H"])),
    (12.0, PassMove(2)),
    (15.0, PlayMove(3, ["TS", "TH"])),
]


def _short_deal() -> tuple[list[Event], list[int]]:
    """The short deal's events as its table logs them, each at its time, and the table's totals
    after it."""
    record, events = flow.open_table(_SHORT, None, _NOW)
    log = [msgspec.structs.replace(event, at=_NOW) for event in events]
    acts = [*_ACTS]
    while not record.snapshot.over:  # the moves shown, then 托管's answers to the end
        after, move = acts.pop(0) if acts else (20.0, auto_move(record.snapshot))
        record, made = flow.play(record, move, _NOW + after)
        log += [msgspec.structs.replace(event, at=_NOW + after) for event in made]
    return log, record.table.totals


_EVENTS, _TOTALS = _short_deal()
_STANDING: Final = Standing(
    table=TABLE_ID,
    instance=INSTANCE,
    deal=1,
    ruleset="classic",
    totals=_TOTALS,
    penalties=[0] * 5,
    left=[],
)
RECORD: Final = build_record(_EVENTS, _STANDING)


def _as_sent(record: Any) -> Any:
    return msgspec.json.decode(encode_record(record))


RECORD_EXAMPLES: Final[Examples] = {
    "platform": {
        "summary": "A platform's record: every hand (a snapshot the platform gave, played out)",
        "value": _as_sent(RECORD),
    },
    "seat": {
        "summary": "Seat 3's record of the same deal: its own hand only",
        "value": _as_sent(cut_record(RECORD, Caller("seat", 3, INSTANCE))),
    },
}

KEPT_DEALS: Final = one(
    "One deal so far, over",
    msgspec.to_builtins(
        KeptDeals(
            instance=INSTANCE,
            deals=[
                DealSummary(
                    deal=1,
                    method="snapshot",
                    started=RECORD.started,
                    ended=RECORD.ended,
                    result=RECORD.result,
                )
            ],
        )
    ),
)
