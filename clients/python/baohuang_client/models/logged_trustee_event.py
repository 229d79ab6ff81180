from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trustee_cause import TrusteeCause
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="LoggedTrusteeEvent")



@_attrs_define
class LoggedTrusteeEvent:
    """ 
        Attributes:
            count (int):
            on (bool):
            seat (int):
            type_ (Literal['trustee']):
            at (float): When the table logged it (seconds since the Unix epoch)
            id (str): `<seq>.<token>`: the seq and the token of the write that logged it (the stream's `id:`, `Last-Event-
                ID` and `after`)
            seq (int): 1, 2, 3 … per table instance
            version (int): The table version the event's write produced
            cause (None | TrusteeCause | Unset):
     """

    count: int
    on: bool
    seat: int
    type_: Literal['trustee']
    at: float
    id: str
    seq: int
    version: int
    cause: None | TrusteeCause | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        on = self.on

        seat = self.seat

        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version

        cause: None | str | Unset
        if isinstance(self.cause, Unset):
            cause = UNSET
        elif isinstance(self.cause, TrusteeCause):
            cause = self.cause.value
        else:
            cause = self.cause


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "on": on,
            "seat": seat,
            "type": type_,
            "at": at,
            "id": id,
            "seq": seq,
            "version": version,
        })
        if cause is not UNSET:
            field_dict["cause"] = cause

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        on = d.pop("on")

        seat = d.pop("seat")

        type_ = cast(Literal['trustee'] , d.pop("type"))
        if type_ != 'trustee':
            raise ValueError(f"type must match const 'trustee', got '{type_}'")

        at = d.pop("at")

        id = d.pop("id")

        seq = d.pop("seq")

        version = d.pop("version")

        def _parse_cause(data: object) -> None | TrusteeCause | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cause_type_0 = TrusteeCause(data)



                return cause_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TrusteeCause | Unset, data)

        cause = _parse_cause(d.pop("cause", UNSET))


        logged_trustee_event = cls(
            count=count,
            on=on,
            seat=seat,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
            cause=cause,
        )


        logged_trustee_event.additional_properties = d
        return logged_trustee_event

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
