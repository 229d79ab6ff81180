from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.cover_item import CoverItem
  from ..models.reason import Reason





T = TypeVar("T", bound="ResolveStep")



@_attrs_define
class ResolveStep:
    """ 
        Attributes:
            beats (bool):
            cover (list[CoverItem] | None):
            index (int):
            reason (None | Reason):
     """

    beats: bool
    cover: list[CoverItem] | None
    index: int
    reason: None | Reason
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cover_item import CoverItem # noqa: PLC0415
        from ..models.reason import Reason # noqa: PLC0415
        beats = self.beats

        cover: list[dict[str, Any]] | None
        if isinstance(self.cover, list):
            cover = []
            for cover_type_0_item_data in self.cover:
                cover_type_0_item = cover_type_0_item_data.to_dict()
                cover.append(cover_type_0_item)


        else:
            cover = self.cover

        index = self.index

        reason: dict[str, Any] | None
        if isinstance(self.reason, Reason):
            reason = self.reason.to_dict()
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "beats": beats,
            "cover": cover,
            "index": index,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cover_item import CoverItem # noqa: PLC0415
        from ..models.reason import Reason # noqa: PLC0415
        d = dict(src_dict)
        beats = d.pop("beats")

        def _parse_cover(data: object) -> list[CoverItem] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                cover_type_0 = []
                _cover_type_0 = data
                for cover_type_0_item_data in (_cover_type_0):
                    cover_type_0_item = CoverItem.from_dict(cover_type_0_item_data)



                    cover_type_0.append(cover_type_0_item)

                return cover_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[CoverItem] | None, data)

        cover = _parse_cover(d.pop("cover"))


        index = d.pop("index")

        def _parse_reason(data: object) -> None | Reason:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_0 = Reason.from_dict(data)



                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Reason, data)

        reason = _parse_reason(d.pop("reason"))


        resolve_step = cls(
            beats=beats,
            cover=cover,
            index=index,
            reason=reason,
        )


        resolve_step.additional_properties = d
        return resolve_step

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
