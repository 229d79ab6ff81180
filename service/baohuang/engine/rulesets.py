"""The ruleset registry (docs/rules.md, section R).

A ruleset is a base (one of four published rule texts) plus the options ``kaopai``, ``bie6``,
``deck`` and ``grab``; options a request leaves out take the base's values. ``kaopai``, ``bie6``
and ``deck`` may be set on any base: a platform may run house rules, and each is a
self-contained rule (K, B-1, D-1). ``grab`` opens or closes the grab of the bases that have one:
classic's 抢庄 (G-5, open by default) and lianzhong's 抢独 (G-7, a room option, closed by
default). Tribute has no grab (G-6): ``grab: true`` on it is refused as an unknown ruleset, since
a player asking for it would otherwise get a game that silently differs from the one asked for
*(reading)*; ``grab: false`` there changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

from .cards import CARD_SETS, CardSet, Deck
from .errors import InvalidInput

UNKNOWN_RULESET: Final = "UNKNOWN_RULESET"

SEATS: Final = 5
"""Five players in every ruleset, seats 0–4 in the order of play (T-1)."""

BaseName = Literal["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]
KAOPAI_DOC: Final = "K: 烤牌, more jokers on a joker than one-for-one"
BIE6_DOC: Final = "B-1: 憋6, sixes only in a player's final play"
DECK_DOC: Final = "D-1: full (216 cards) or short (168, no 3, 4 or 5)"
GRAB_DOC: Final = (
    "Grabbing the crown: classic's 抢庄 (G-5, on by default) and lianzhong's 抢独 (G-7, a room "
    "option, off by default); tribute has no grab (G-6), so true is refused there"
)
Scoring = Literal["S-2", "S-3", "S-4"]
GuardChoice = Literal["call-any", "call-no-joker-no-two", "call", "sword"]


class Ruleset(msgspec.Struct, frozen=True, gc=False):
    """A resolved ruleset: every option fixed."""

    base: BaseName
    kaopai: Annotated[bool, msgspec.Meta(description=KAOPAI_DOC)]
    bie6: Annotated[bool, msgspec.Meta(description=BIE6_DOC)]
    deck: Annotated[Deck, msgspec.Meta(description=DECK_DOC)]
    yield_allowed: bool  # T-6 让牌
    scoring: Scoring
    tribute: bool  # P
    guard_by: GuardChoice  # G-2, G-3
    grab: Annotated[bool, msgspec.Meta(description=GRAB_DOC)]  # G-5 抢庄, G-7 抢独

    @property
    def cards(self) -> CardSet:
        """The deck's cards; ``SJ*`` exists only where the guard holds the sword (D-4, G-3)."""
        return CARD_SETS[(self.deck, self.guard_by == "sword")]

    @property
    def name(self) -> str:
        """The base name when every option is the base's, else ``base+option,...``."""
        base = BASES[self.base]
        changed = [
            f"{field}={getattr(self, field)}".lower()
            for field in ("kaopai", "bie6", "deck", "grab")
            if getattr(self, field) != getattr(base, field)
        ]
        return self.base if not changed else f"{self.base}+{','.join(changed)}"


BASES: Final[dict[str, Ruleset]] = {
    "classic": Ruleset(
        base="classic",
        kaopai=False,
        bie6=False,
        deck="full",
        yield_allowed=True,
        scoring="S-2",
        tribute=False,
        guard_by="call-any",
        grab=True,
    ),
    "tribute": Ruleset(
        base="tribute",
        kaopai=False,
        bie6=False,
        deck="full",
        yield_allowed=False,
        scoring="S-3",
        tribute=True,
        guard_by="call-no-joker-no-two",
        grab=False,
    ),
    "lianzhong-classic": Ruleset(
        base="lianzhong-classic",
        kaopai=False,
        bie6=False,
        deck="short",
        yield_allowed=False,
        scoring="S-4",
        tribute=False,
        guard_by="call",
        grab=False,
    ),
    "lianzhong-simple": Ruleset(
        base="lianzhong-simple",
        kaopai=False,
        bie6=False,
        deck="short",
        yield_allowed=False,
        scoring="S-4",
        tribute=False,
        guard_by="sword",
        grab=False,
    ),
}
DEFAULT_RULESET: Final = BASES["classic"]

CROWN_RULES: Final = {
    "classic": "G-5",
    "tribute": "G-6",
    "lianzhong-classic": "G-7",
    "lianzhong-simple": "G-7",
}


def crown_rule(ruleset: Ruleset) -> str:
    """The rule that governs the crown, and grabbing it, in ``ruleset``: G-5 (classic), G-6
    (tribute) or G-7 (lianzhong-*). Refusals and checks about the crown cite it."""
    return CROWN_RULES[ruleset.base]


# docs/clients.md: /v1/kaopai/resolve defaults to a ruleset where kaopai is on.
KAOPAI_DEFAULT_RULESET: Final = msgspec.structs.replace(BASES["lianzhong-classic"], kaopai=True)


_resolved: dict[tuple[str, bool | None, bool | None, str | None, bool | None], Ruleset] = {}


def resolve_ruleset(
    base: str,
    kaopai: bool | None = None,
    bie6: bool | None = None,
    deck: Deck | None = None,
    grab: bool | None = None,
) -> Ruleset:
    """The ruleset ``base`` with the given options; ``None`` keeps the base's value (R).

    An unknown base (R), or ``grab`` on tribute (G-6), is ``UNKNOWN_RULESET`` bad input, at the
    option (``.grab``) where one is to blame.
    """
    key = (base, kaopai, bie6, deck, grab)
    found = _resolved.get(key)
    if found is not None:
        return found
    default = BASES.get(base)
    if default is None:
        raise InvalidInput(
            UNKNOWN_RULESET, "R", f"unknown ruleset '{base}': one of {', '.join(BASES)} (R)"
        )
    if grab and default.tribute:
        raise InvalidInput(
            UNKNOWN_RULESET,
            "G-6",
            "tribute has no grab (G-6): there is no ruleset tribute with grab; leave grab out",
            ".grab",
        )
    ruleset = msgspec.structs.replace(
        default,
        kaopai=default.kaopai if kaopai is None else kaopai,
        bie6=default.bie6 if bie6 is None else bie6,
        deck=default.deck if deck is None else deck,
        grab=default.grab if grab is None else grab,
    )
    if len(_resolved) < 256:  # the key space is small and finite; the bound is belt and braces
        _resolved[key] = ruleset
    return ruleset


class RulesetSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ruleset named as an object on the wire: a base and the options it overrides (R)."""

    base: BaseName
    kaopai: Annotated[bool | None, msgspec.Meta(description=KAOPAI_DOC)] = None
    bie6: Annotated[bool | None, msgspec.Meta(description=BIE6_DOC)] = None
    deck: Annotated[Deck | None, msgspec.Meta(description=DECK_DOC)] = None
    grab: Annotated[bool | None, msgspec.Meta(description=GRAB_DOC)] = None


RulesetField = str | RulesetSpec
"""A request's ``ruleset``: a base name, or a :class:`RulesetSpec` (docs/clients.md)."""


def ruleset_of(ruleset: RulesetField) -> Ruleset:
    """Resolve a request's ``ruleset`` field; bad input at ``.ruleset`` (or ``.ruleset.grab``)
    when it names no ruleset (:func:`resolve_ruleset`)."""
    try:
        if isinstance(ruleset, str):
            return resolve_ruleset(ruleset)
        return resolve_ruleset(
            ruleset.base, ruleset.kaopai, ruleset.bie6, ruleset.deck, ruleset.grab
        )
    except InvalidInput as error:
        raise error.within(".ruleset") from None
