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






T = TypeVar("T", bound="TrusteeEvent")



@_attrs_define
class TrusteeEvent:
    """ T-11: ``seat`` entered (``on``) or left 托管; ``count`` is how often it entered this deal;
    ``cause`` says why it entered: its clock ran out, it asked, or it left the table (S-9).

        Attributes:
            count (int):
            on (bool):
            seat (int):
            type_ (Literal['trustee']):
            at (float | Unset):
            cause (None | TrusteeCause | Unset):
            id (str | Unset):
            seq (int | Unset):
            version (int | Unset):
     """

    count: int
    on: bool
    seat: int
    type_: Literal['trustee']
    at: float | Unset = UNSET
    cause: None | TrusteeCause | Unset = UNSET
    id: str | Unset = UNSET
    seq: int | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        on = self.on

        seat = self.seat

        type_ = self.type_

        at = self.at

        cause: None | str | Unset
        if isinstance(self.cause, Unset):
            cause = UNSET
        elif isinstance(self.cause, TrusteeCause):
            cause = self.cause.value
        else:
            cause = self.cause

        id = self.id

        seq = self.seq

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "on": on,
            "seat": seat,
            "type": type_,
        })
        if at is not UNSET:
            field_dict["at"] = at
        if cause is not UNSET:
            field_dict["cause"] = cause
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
        count = d.pop("count")

        on = d.pop("on")

        seat = d.pop("seat")

        type_ = cast(Literal['trustee'] , d.pop("type"))
        if type_ != 'trustee':
            raise ValueError(f"type must match const 'trustee', got '{type_}'")

        at = d.pop("at", UNSET)

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


        id = d.pop("id", UNSET)

        seq = d.pop("seq", UNSET)

        version = d.pop("version", UNSET)

        trustee_event = cls(
            count=count,
            on=on,
            seat=seat,
            type_=type_,
            at=at,
            cause=cause,
            id=id,
            seq=seq,
            version=version,
        )


        trustee_event.additional_properties = d
        return trustee_event

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
