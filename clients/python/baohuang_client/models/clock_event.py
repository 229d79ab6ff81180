from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="ClockEvent")



@_attrs_define
class ClockEvent:
    """ ``seat`` is to act by ``deadline`` (seconds since the Unix epoch); both null when nobody's
    clock runs (no clock, the deal is over, or the seat to act is in 托管).

        Attributes:
            deadline (float | None):
            seat (int | None):
            type_ (Literal['clock']):
            at (float | Unset):
            id (str | Unset):
            seq (int | Unset):
            version (int | Unset):
     """

    deadline: float | None
    seat: int | None
    type_: Literal['clock']
    at: float | Unset = UNSET
    id: str | Unset = UNSET
    seq: int | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        deadline: float | None
        deadline = self.deadline

        seat: int | None
        seat = self.seat

        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deadline": deadline,
            "seat": seat,
            "type": type_,
        })
        if at is not UNSET:
            field_dict["at"] = at
        if id is not UNSET:
            field_dict["id"] = id
        if seq is not UNSET:
            field_dict["seq"] = seq
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_deadline(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        deadline = _parse_deadline(d.pop("deadline"))


        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))


        type_ = cast(Literal['clock'] , d.pop("type"))
        if type_ != 'clock':
            raise ValueError(f"type must match const 'clock', got '{type_}'")

        at = d.pop("at", UNSET)

        id = d.pop("id", UNSET)

        seq = d.pop("seq", UNSET)

        version = d.pop("version", UNSET)

        clock_event = cls(
            deadline=deadline,
            seat=seat,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
        )


        clock_event.additional_properties = d
        return clock_event

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
