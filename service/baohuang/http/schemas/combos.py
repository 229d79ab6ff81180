"""Bodies of the stateless combo routes: ``/v1/combos/*`` and ``/v1/kaopai/resolve`` (C, N, K)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec
from msgspec import Meta

from ...engine import (
    CODES,
    KAOPAI_DEFAULT_RULESET,
    NO_RANK,
    RANK_SYMBOLS,
    Combo,
    CoverEntry,
    Reason,
    RulesetField,
    RulesetSpec,
)
from .base import Answer, Body, Cards, RulesetChoice


class ClassifyRequest(Body):
    cards: Cards
    ruleset: RulesetChoice = "classic"


class ComboOut(Answer):
    """A combo's shape (C-1) and its cards, canonical, high to low."""

    rank: str | None
    count: int
    small: int
    big: int
    size: int
    cards: list[str]

    @classmethod
    def of(cls, combo: Combo) -> ComboOut:
        return cls(
            rank=None if combo.rank == NO_RANK else RANK_SYMBOLS[combo.rank],
            count=combo.count,
            small=combo.small,
            big=combo.big,
            size=combo.size,
            cards=combo.codes(),
        )


class ClassifyResult(Answer, omit_defaults=True):
    valid: bool
    combo: ComboOut | None = None
    reason: Reason | None = None


class CompareRequest(Body):
    previous: Cards
    candidate: Cards
    ruleset: RulesetChoice = "classic"


class CoverItem(Answer):
    """K-6: the cards of the candidate (``by``) that cover one card of ``previous``."""

    card: str
    by: list[str]


def cover_items(cover: list[CoverEntry] | None) -> list[CoverItem] | None:
    if cover is None:
        return None
    return [CoverItem(CODES[card], [CODES[c] for c in group]) for card, group in cover]


class CompareResult(Answer):
    beats: bool
    reason: Reason | None
    cover: list[CoverItem] | None


class Pair(Body):
    previous: Cards
    candidate: Cards


class BatchRequest(Body):
    pairs: Annotated[list[Pair], Meta(min_length=1, max_length=10_000)]
    ruleset: RulesetChoice = "classic"


# The codes any deck knows (D-3, D-4), "10" spellings included: a batch whose codes are all among
# them decodes each code to one shared string (fewer allocations, hashes computed once).
_KNOWN_CODES = (*CODES.values(), *("10" + suit for suit in "SHCD"))
if TYPE_CHECKING:
    KnownCode = str
else:
    KnownCode = Literal[_KNOWN_CODES]


class KnownPair(Body):
    previous: Annotated[list[KnownCode], Meta(max_length=216)]
    candidate: Annotated[list[KnownCode], Meta(max_length=216)]


class KnownCodesBatch(Body):
    """:class:`BatchRequest` for bodies whose every code is some deck's: what the batch route
    tries first. A body it refuses is decoded as a :class:`BatchRequest`, whose answer (a
    decoded request or an error) is the route's; so the two accept the same bodies."""

    pairs: Annotated[list[KnownPair], Meta(min_length=1, max_length=10_000)]
    ruleset: RulesetChoice = "classic"


class BatchItem(Answer):
    beats: bool
    code: str | None


class BatchResult(Answer):
    results: list[BatchItem]

    @classmethod
    def of(cls, codes: list[str | None]) -> BatchResult:
        """One item per verdict code, in order; items are shared (a batch holds 10,000)."""
        items: dict[str | None, BatchItem] = {}
        results = []
        for code in codes:
            item = items.get(code)
            if item is None:
                item = items[code] = BatchItem(code is None, code)
            results.append(item)
        return cls(results)


def _kaopai_default() -> RulesetField:
    return RulesetSpec(base=KAOPAI_DEFAULT_RULESET.base, kaopai=True)


class ResolveRequest(Body):
    plays: Annotated[list[Cards], Meta(min_length=1, max_length=64)]
    ruleset: RulesetChoice = msgspec.field(default_factory=_kaopai_default)


class ResolveStep(Answer):
    index: int
    beats: bool
    reason: Reason | None
    cover: list[CoverItem] | None


class ResolveResult(Answer):
    valid: bool
    winner: int
    steps: list[ResolveStep]
