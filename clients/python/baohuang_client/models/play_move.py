from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="PlayMove")



@_attrs_define
class PlayMove:
    """ 
        Attributes:
            action (Literal['play']):
            cards (list[str]):
            seat (int): T-1: seats 0–4 in the order of play
     """

    action: Literal['play']
    cards: list[str]
    seat: int





    def to_dict(self) -> dict[str, Any]:
        action = self.action

        cards = self.cards



        seat = self.seat


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "action": action,
            "cards": cards,
            "seat": seat,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = cast(Literal['play'] , d.pop("action"))
        if action != 'play':
            raise ValueError(f"action must match const 'play', got '{action}'")

        cards = cast(list[str], d.pop("cards"))


        seat = d.pop("seat")

        play_move = cls(
            action=action,
            cards=cards,
            seat=seat,
        )

        return play_move

