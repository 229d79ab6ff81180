from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="LoggedEntropyEvent")



@_attrs_define
class LoggedEntropyEvent:
    """ 
        Attributes:
            entropy (str):
            seat (int):
            type_ (Literal['entropy']):
            at (float): When the table logged it (seconds since the Unix epoch)
            id (str): `<seq>.<token>`: the seq and the token of the write that logged it (the stream's `id:`, `Last-Event-
                ID` and `after`)
            seq (int): 1, 2, 3 … per table instance
            version (int): The table version the event's write produced
     """

    entropy: str
    seat: int
    type_: Literal['entropy']
    at: float
    id: str
    seq: int
    version: int
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
            "at": at,
            "id": id,
            "seq": seq,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entropy = d.pop("entropy")

        seat = d.pop("seat")

        type_ = cast(Literal['entropy'] , d.pop("type"))
        if type_ != 'entropy':
            raise ValueError(f"type must match const 'entropy', got '{type_}'")

        at = d.pop("at")

        id = d.pop("id")

        seq = d.pop("seq")

        version = d.pop("version")

        logged_entropy_event = cls(
            entropy=entropy,
            seat=seat,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
        )


        logged_entropy_event.additional_properties = d
        return logged_entropy_event

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
