from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Clock")



@_attrs_define
class Clock:
    """ Turn clocks (T-11): how long the seat to act has, in play and before play.

        Attributes:
            before_play_seconds (int):
            turn_seconds (int):
     """

    before_play_seconds: int
    turn_seconds: int





    def to_dict(self) -> dict[str, Any]:
        before_play_seconds = self.before_play_seconds

        turn_seconds = self.turn_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "before_play_seconds": before_play_seconds,
            "turn_seconds": turn_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        before_play_seconds = d.pop("before_play_seconds")

        turn_seconds = d.pop("turn_seconds")

        clock = cls(
            before_play_seconds=before_play_seconds,
            turn_seconds=turn_seconds,
        )

        return clock

