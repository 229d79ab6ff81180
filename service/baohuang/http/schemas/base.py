"""What every wire type shares: the Struct options of a request body and of an answer, and the
annotated field types more than one body uses.

Engine types travel as they are (a :class:`~baohuang.engine.Snapshot`, a move, a
:class:`~baohuang.engine.Reason`, a :class:`~baohuang.engine.ScoreResult`): they are imported
from :mod:`baohuang.engine`, never copied here.
"""

from __future__ import annotations

from typing import Annotated, dataclass_transform

import msgspec
from msgspec import Meta

from ...engine import CardCode, RulesetField

__all__ = ["Answer", "Body", "Cards", "RulesetChoice"]


# dataclass_transform(frozen_default=True) tells type checkers that subclasses are frozen too,
# as msgspec makes them: the options are inherited, so no subclass repeats them.
@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
class Body(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A request body: decoded strictly (see :mod:`..bodies`), unknown fields refused."""


@dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
class Answer(msgspec.Struct, frozen=True):
    """An answer's body."""


Cards = Annotated[list[CardCode], Meta(max_length=216, examples=[["SJ", "9S", "9H", "9C"]])]
RulesetChoice = Annotated[
    RulesetField,
    Meta(
        description="A ruleset name, or {base, kaopai?, bie6?, deck?, grab?} (docs/rules.md R)",
        examples=["classic", {"base": "lianzhong-classic", "kaopai": True}],
    ),
]
