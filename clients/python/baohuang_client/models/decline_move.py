from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="DeclineMove")



@_attrs_define
class DeclineMove:
    """ Crown: hand it on (让庄/让位, 贴2 where the ruleset has it). Guard phase: no grab, no
    明独 (lianzhong-simple), no 明保 nor 造反.

        Attributes:
            action (Literal['decline']):
            seat (int): T-1: seats 0–4 in the order of play
     """

    action: Literal['decline']
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
        action = cast(Literal['decline'] , d.pop("action"))
        if action != 'decline':
            raise ValueError(f"action must match const 'decline', got '{action}'")

        seat = d.pop("seat")

        decline_move = cls(
            action=action,
            seat=seat,
        )

        return decline_move

