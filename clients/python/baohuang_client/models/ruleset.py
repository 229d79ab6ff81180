from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.deck import Deck
from ..models.ruleset_base import RulesetBase
from ..models.ruleset_guard_by import RulesetGuardBy
from ..models.ruleset_scoring import RulesetScoring






T = TypeVar("T", bound="Ruleset")



@_attrs_define
class Ruleset:
    """ A resolved ruleset: every option fixed.

        Attributes:
            base (RulesetBase):
            bie6 (bool): B-1: 憋6, sixes only in a player's final play
            deck (Deck):
            grab (bool): Grabbing the crown: classic's 抢庄 (G-5, on by default) and lianzhong's 抢独 (G-7, a room option, off
                by default); tribute has no grab (G-6), so true is refused there
            guard_by (RulesetGuardBy):
            kaopai (bool): K: 烤牌, more jokers on a joker than one-for-one
            scoring (RulesetScoring):
            tribute (bool):
            yield_allowed (bool):
     """

    base: RulesetBase
    bie6: bool
    deck: Deck
    grab: bool
    guard_by: RulesetGuardBy
    kaopai: bool
    scoring: RulesetScoring
    tribute: bool
    yield_allowed: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        base = self.base.value

        bie6 = self.bie6

        deck = self.deck.value

        grab = self.grab

        guard_by = self.guard_by.value

        kaopai = self.kaopai

        scoring = self.scoring.value

        tribute = self.tribute

        yield_allowed = self.yield_allowed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "base": base,
            "bie6": bie6,
            "deck": deck,
            "grab": grab,
            "guard_by": guard_by,
            "kaopai": kaopai,
            "scoring": scoring,
            "tribute": tribute,
            "yield_allowed": yield_allowed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base = RulesetBase(d.pop("base"))




        bie6 = d.pop("bie6")

        deck = Deck(d.pop("deck"))




        grab = d.pop("grab")

        guard_by = RulesetGuardBy(d.pop("guard_by"))




        kaopai = d.pop("kaopai")

        scoring = RulesetScoring(d.pop("scoring"))




        tribute = d.pop("tribute")

        yield_allowed = d.pop("yield_allowed")

        ruleset = cls(
            base=base,
            bie6=bie6,
            deck=deck,
            grab=grab,
            guard_by=guard_by,
            kaopai=kaopai,
            scoring=scoring,
            tribute=tribute,
            yield_allowed=yield_allowed,
        )


        ruleset.additional_properties = d
        return ruleset

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
