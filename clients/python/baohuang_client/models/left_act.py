from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="LeftAct")



@_attrs_define
class LeftAct:
    """ S-9: ``seat`` left the table, charged ``penalty`` (0 or negative).

        Attributes:
            act (Literal['left']):
            penalty (int):
            seat (int): T-1: seats 0–4 in the order of play
            at (float | Unset): Seconds since the deal started (`started`). Default: `0.0`.
     """

    act: Literal['left']
    penalty: int
    seat: int
    at: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        act = self.act

        penalty = self.penalty

        seat = self.seat

        at = self.at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "act": act,
            "penalty": penalty,
            "seat": seat,
        })
        if at is not UNSET:
            field_dict["at"] = at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        act = cast(Literal['left'] , d.pop("act"))
        if act != 'left':
            raise ValueError(f"act must match const 'left', got '{act}'")

        penalty = d.pop("penalty")

        seat = d.pop("seat")

        at = d.pop("at", UNSET)

        left_act = cls(
            act=act,
            penalty=penalty,
            seat=seat,
            at=at,
        )


        left_act.additional_properties = d
        return left_act

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
