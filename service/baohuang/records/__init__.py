"""Deal records: one deal at a table as a portable document, and its verifier.

A record (:mod:`.document`) is made from the events a table logged for a deal (:mod:`.build`),
cut to its caller by the table's views, exported by ``GET /v1/tables/{id}/deals/{deal}``, and
checked by :func:`verify` — the same function as ``baohuang verify RECORD`` — with nothing but
this package: no service, no store. Pure functions over the engine, like the bots beside it.
"""

from __future__ import annotations

from .build import Standing, build_record
from .document import (
    FORMAT,
    VERSION,
    Act,
    CommittedDealing,
    Dealing,
    DealRecord,
    FullRecord,
    GivenDealing,
    LeftAct,
    MoveAct,
    PublicRecord,
    SeatRecord,
    SeededDealing,
    Tally,
    Tribute,
    TrusteeAct,
    decode_record,
    encode_record,
    record_schema,
)
from .verify import Failure, Verdict, verify

__all__ = [
    "FORMAT",
    "VERSION",
    "Act",
    "CommittedDealing",
    "DealRecord",
    "Dealing",
    "Failure",
    "FullRecord",
    "GivenDealing",
    "LeftAct",
    "MoveAct",
    "PublicRecord",
    "SeatRecord",
    "SeededDealing",
    "Standing",
    "Tally",
    "Tribute",
    "TrusteeAct",
    "Verdict",
    "build_record",
    "decode_record",
    "encode_record",
    "record_schema",
    "verify",
]
