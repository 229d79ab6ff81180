from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="EntropyEvent")



@_attrs_define
class EntropyEvent:
    """ ``seat`` added ``entropy`` (hex) to the committed deal being dealt (docs/dealing.md).

        Attributes:
            entropy (str):
            seat (int):
            type_ (Literal['entropy']):
            at (float | Unset):
            id (str | Unset):
            seq (int | Unset):
            version (int | Unset):
     """

    entropy: str
    seat: int
    type_: Literal['entropy']
    at: float | Unset = UNSET
    id: str | Unset = UNSET
    seq: int | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        entropy = self.entropy

        seat = self.seat

        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "entropy": entropy,
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
        entropy = d.pop("entropy")

        seat = d.pop("seat")

        type_ = cast(Literal['entropy'] , d.pop("type"))
        if type_ != 'entropy':
            raise ValueError(f"type must match const 'entropy', got '{type_}'")

        at = d.pop("at", UNSET)

        id = d.pop("id", UNSET)

        seq = d.pop("seq", UNSET)

        version = d.pop("version", UNSET)

        entropy_event = cls(
            entropy=entropy,
            seat=seat,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
        )


        entropy_event.additional_properties = d
        return entropy_event

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
