"""Every wire type of the HTTP API, each defined once: request bodies and answers.

Engine types travel as they are and are imported from :mod:`baohuang.engine` (a snapshot, a
move, a reason, a score, a tribute, a seat's view); the types here wrap them into the bodies of
the routes. A request body derives from :class:`Body` (strict, frozen), an answer from
:class:`Answer`. The live tables' bodies and answers are the table service's
(:mod:`baohuang.tables`) and its controller's.
"""

from .base import Answer, Body, Cards, RulesetChoice
from .combos import (
    BatchItem,
    BatchRequest,
    BatchResult,
    ClassifyRequest,
    ClassifyResult,
    ComboOut,
    CompareRequest,
    CompareResult,
    CoverItem,
    KnownCodesBatch,
    KnownPair,
    Pair,
    ResolveRequest,
    ResolveResult,
    ResolveStep,
    cover_items,
)
from .deal import DealRequest, NewDeal, TributeRequest
from .moves import (
    AutoResult,
    LegalResult,
    ReplayOut,
    ReplayRequest,
    ScoresRequest,
    SnapshotRequest,
    ValidateRequest,
    ValidateResult,
)
from .operations import Health, Index
from .problems import ProblemDocument, ProblemItem

__all__ = [
    "Answer",
    "AutoResult",
    "BatchItem",
    "BatchRequest",
    "BatchResult",
    "Body",
    "Cards",
    "ClassifyRequest",
    "ClassifyResult",
    "ComboOut",
    "CompareRequest",
    "CompareResult",
    "CoverItem",
    "DealRequest",
    "Health",
    "Index",
    "KnownCodesBatch",
    "KnownPair",
    "LegalResult",
    "NewDeal",
    "Pair",
    "ProblemDocument",
    "ProblemItem",
    "ReplayOut",
    "ReplayRequest",
    "ResolveRequest",
    "ResolveResult",
    "ResolveStep",
    "RulesetChoice",
    "ScoresRequest",
    "SnapshotRequest",
    "TributeRequest",
    "ValidateRequest",
    "ValidateResult",
    "cover_items",
]
