from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.reason import Reason





T = TypeVar("T", bound="MoveCheck")



@_attrs_define
class MoveCheck:
    """ A dry run of ``POST /moves``: ``legal: true`` when that route would apply the move at
    ``version``, else ``legal: false`` and the reason it would refuse it with. Nothing is
    written.

        Attributes:
            instance (str):
            legal (bool):
            version (int):
            reason (None | Reason | Unset):
     """

    instance: str
    legal: bool
    version: int
    reason: None | Reason | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reason import Reason # noqa: PLC0415
        instance = self.instance

        legal = self.legal

        version = self.version

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
            "instance": instance,
            "legal": legal,
            "version": version,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reason import Reason # noqa: PLC0415
        d = dict(src_dict)
        instance = d.pop("instance")

        legal = d.pop("legal")

        version = d.pop("version")

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


        move_check = cls(
            instance=instance,
            legal=legal,
            version=version,
            reason=reason,
        )


        move_check.additional_properties = d
        return move_check

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
