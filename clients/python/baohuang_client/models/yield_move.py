from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="YieldMove")



@_attrs_define
class YieldMove:
    """ 
        Attributes:
            action (Literal['yield']):
            seat (int): T-1: seats 0–4 in the order of play
     """

    action: Literal['yield']
    seat: int





    def to_dict(self) -> dict[str, Any]:
        action = self.action

        seat = self.seat


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "action": action,
            "seat": seat,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = cast(Literal['yield'] , d.pop("action"))
        if action != 'yield':
            raise ValueError(f"action must match const 'yield', got '{action}'")

        seat = d.pop("seat")

        yield_move = cls(
            action=action,
            seat=seat,
        )

        return yield_move

