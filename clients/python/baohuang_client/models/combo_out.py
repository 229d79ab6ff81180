from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ComboOut")



@_attrs_define
class ComboOut:
    """ A combo's shape (C-1) and its cards, canonical, high to low.

        Attributes:
            big (int):
            cards (list[str]):
            count (int):
            rank (None | str):
            size (int):
            small (int):
     """

    big: int
    cards: list[str]
    count: int
    rank: None | str
    size: int
    small: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        big = self.big

        cards = self.cards



        count = self.count

        rank: None | str
        rank = self.rank

        size = self.size

        small = self.small


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "big": big,
            "cards": cards,
            "count": count,
            "rank": rank,
            "size": size,
            "small": small,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        big = d.pop("big")

        cards = cast(list[str], d.pop("cards"))


        count = d.pop("count")

        def _parse_rank(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rank = _parse_rank(d.pop("rank"))


        size = d.pop("size")

        small = d.pop("small")

        combo_out = cls(
            big=big,
            cards=cards,
            count=count,
            rank=rank,
            size=size,
            small=small,
        )


        combo_out.additional_properties = d
        return combo_out

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
