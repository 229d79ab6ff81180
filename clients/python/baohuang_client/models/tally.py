from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Tally")



@_attrs_define
class Tally:
    """ A table's running figures around the deal: ``before`` it and ``after`` it (null while
    the deal is not over).

        Attributes:
            before (list[int]):
            after (list[int] | None | Unset):
     """

    before: list[int]
    after: list[int] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        before = self.before



        after: list[int] | None | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        elif isinstance(self.after, list):
            after = self.after


        else:
            after = self.after


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "before": before,
        })
        if after is not UNSET:
            field_dict["after"] = after

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        before = cast(list[int], d.pop("before"))


        def _parse_after(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                after_type_0 = cast(list[int], data)

                return after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        after = _parse_after(d.pop("after", UNSET))


        tally = cls(
            before=before,
            after=after,
        )


        tally.additional_properties = d
        return tally

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
