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






T = TypeVar("T", bound="TrusteeAct")



@_attrs_define
class TrusteeAct:
    """ T-11: ``seat`` entered (``on``) or left 托管, ``count`` times entered this deal;
    ``cause``: its clock ran out (``timeout``), it asked, or it left the table.

        Attributes:
            act (Literal['trustee']):
            count (int):
            on (bool):
            seat (int): T-1: seats 0–4 in the order of play
            at (float | Unset): Seconds since the deal started (`started`). Default: `0.0`.
            cause (None | TrusteeCause | Unset):
     """

    act: Literal['trustee']
    count: int
    on: bool
    seat: int
    at: float | Unset = UNSET
    cause: None | TrusteeCause | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        act = self.act

        count = self.count

        on = self.on

        seat = self.seat

        at = self.at

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
            "act": act,
            "count": count,
            "on": on,
            "seat": seat,
        })
        if at is not UNSET:
            field_dict["at"] = at
        if cause is not UNSET:
            field_dict["cause"] = cause

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        act = cast(Literal['trustee'] , d.pop("act"))
        if act != 'trustee':
            raise ValueError(f"act must match const 'trustee', got '{act}'")

        count = d.pop("count")

        on = d.pop("on")

        seat = d.pop("seat")

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


        trustee_act = cls(
            act=act,
            count=count,
            on=on,
            seat=seat,
            at=at,
            cause=cause,
        )


        trustee_act.additional_properties = d
        return trustee_act

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
