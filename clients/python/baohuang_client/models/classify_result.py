from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.combo_out import ComboOut
  from ..models.reason import Reason





T = TypeVar("T", bound="ClassifyResult")



@_attrs_define
class ClassifyResult:
    """ 
        Attributes:
            valid (bool):
            combo (ComboOut | None | Unset):
            reason (None | Reason | Unset):
     """

    valid: bool
    combo: ComboOut | None | Unset = UNSET
    reason: None | Reason | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.combo_out import ComboOut # noqa: PLC0415
        from ..models.reason import Reason # noqa: PLC0415
        valid = self.valid

        combo: dict[str, Any] | None | Unset
        if isinstance(self.combo, Unset):
            combo = UNSET
        elif isinstance(self.combo, ComboOut):
            combo = self.combo.to_dict()
        else:
            combo = self.combo

        reason: dict[str, Any] | None | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        elif isinstance(self.reason, Reason):
            reason = self.reason.to_dict()
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "valid": valid,
        })
        if combo is not UNSET:
            field_dict["combo"] = combo
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.combo_out import ComboOut # noqa: PLC0415
        from ..models.reason import Reason # noqa: PLC0415
        d = dict(src_dict)
        valid = d.pop("valid")

        def _parse_combo(data: object) -> ComboOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                combo_type_0 = ComboOut.from_dict(data)



                return combo_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ComboOut | None | Unset, data)

        combo = _parse_combo(d.pop("combo", UNSET))


        def _parse_reason(data: object) -> None | Reason | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_0 = Reason.from_dict(data)



                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Reason | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        classify_result = cls(
            valid=valid,
            combo=combo,
            reason=reason,
        )


        classify_result.additional_properties = d
        return classify_result

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
