from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.deck import Deck
from ..models.ruleset_base import RulesetBase
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RulesetSpec")



@_attrs_define
class RulesetSpec:
    """ A ruleset named as an object on the wire: a base and the options it overrides (R).

        Attributes:
            base (RulesetBase):
            bie6 (bool | None | Unset): B-1: 憋6, sixes only in a player's final play
            deck (Deck | None | Unset): D-1: full (216 cards) or short (168, no 3, 4 or 5)
            grab (bool | None | Unset): Grabbing the crown: classic's 抢庄 (G-5, on by default) and lianzhong's 抢独 (G-7, a
                room option, off by default); tribute has no grab (G-6), so true is refused there
            kaopai (bool | None | Unset): K: 烤牌, more jokers on a joker than one-for-one
     """

    base: RulesetBase
    bie6: bool | None | Unset = UNSET
    deck: Deck | None | Unset = UNSET
    grab: bool | None | Unset = UNSET
    kaopai: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        base = self.base.value

        bie6: bool | None | Unset
        if isinstance(self.bie6, Unset):
            bie6 = UNSET
        else:
            bie6 = self.bie6

        deck: None | str | Unset
        if isinstance(self.deck, Unset):
            deck = UNSET
        elif isinstance(self.deck, Deck):
            deck = self.deck.value
        else:
            deck = self.deck

        grab: bool | None | Unset
        if isinstance(self.grab, Unset):
            grab = UNSET
        else:
            grab = self.grab

        kaopai: bool | None | Unset
        if isinstance(self.kaopai, Unset):
            kaopai = UNSET
        else:
            kaopai = self.kaopai


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "base": base,
        })
        if bie6 is not UNSET:
            field_dict["bie6"] = bie6
        if deck is not UNSET:
            field_dict["deck"] = deck
        if grab is not UNSET:
            field_dict["grab"] = grab
        if kaopai is not UNSET:
            field_dict["kaopai"] = kaopai

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base = RulesetBase(d.pop("base"))




        def _parse_bie6(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        bie6 = _parse_bie6(d.pop("bie6", UNSET))


        def _parse_deck(data: object) -> Deck | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deck_type_0 = Deck(data)



                return deck_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Deck | None | Unset, data)

        deck = _parse_deck(d.pop("deck", UNSET))


        def _parse_grab(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        grab = _parse_grab(d.pop("grab", UNSET))


        def _parse_kaopai(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        kaopai = _parse_kaopai(d.pop("kaopai", UNSET))


        ruleset_spec = cls(
            base=base,
            bie6=bie6,
            deck=deck,
            grab=grab,
            kaopai=kaopai,
        )

        return ruleset_spec

