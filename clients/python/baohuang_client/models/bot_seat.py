from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.level import Level






T = TypeVar("T", bound="BotSeat")



@_attrs_define
class BotSeat:
    """ A seat the platform gives to a bot (docs/clients.md "Bots").

        Attributes:
            level (Level):
            seat (int): T-1: seats 0–4 in the order of play
     """

    level: Level
    seat: int





    def to_dict(self) -> dict[str, Any]:
        level = self.level.value

        seat = self.seat


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "level": level,
            "seat": seat,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        level = Level(d.pop("level"))




        seat = d.pop("seat")

        bot_seat = cls(
            level=level,
            seat=seat,
        )

        return bot_seat

