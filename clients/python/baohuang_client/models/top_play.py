from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TopPlay")



@_attrs_define
class TopPlay:
    """ The play on top of the trick and the seat that made it (possibly finished: a 底牌, T-7).

        Attributes:
            cards (list[str]):
            seat (int): T-1: seats 0–4 in the order of play
     """

    cards: list[str]
    seat: int





    def to_dict(self) -> dict[str, Any]:
        cards = self.cards



        seat = self.seat


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "cards": cards,
            "seat": seat,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cards = cast(list[str], d.pop("cards"))


        seat = d.pop("seat")

        top_play = cls(
            cards=cards,
            seat=seat,
        )

        return top_play

