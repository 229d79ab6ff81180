from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AuditFailure")



@_attrs_define
class AuditFailure:
    """ The first thing the record gets wrong: the event's ``seq`` (``None`` in a finished deal's
    compact record, whose events have none), what is wrong with it, and the deal it is in.

        Attributes:
            message (str):
            seq (int | None):
            deal (int | None | Unset):
     """

    message: str
    seq: int | None
    deal: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        message = self.message

        seq: int | None
        seq = self.seq

        deal: int | None | Unset
        if isinstance(self.deal, Unset):
            deal = UNSET
        else:
            deal = self.deal


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "message": message,
            "seq": seq,
        })
        if deal is not UNSET:
            field_dict["deal"] = deal

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        def _parse_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seq = _parse_seq(d.pop("seq"))


        def _parse_deal(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        deal = _parse_deal(d.pop("deal", UNSET))


        audit_failure = cls(
            message=message,
            seq=seq,
            deal=deal,
        )


        audit_failure.additional_properties = d
        return audit_failure

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
