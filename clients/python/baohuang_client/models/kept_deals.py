from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.deal_summary import DealSummary





T = TypeVar("T", bound="KeptDeals")



@_attrs_define
class KeptDeals:
    """ The deals whose records the table keeps, oldest first: the finished ones
    (``BAOHUANG_DEALS_KEPT`` at most) and the current one. The same for every caller.

        Attributes:
            deals (list[DealSummary]):
            instance (str):
     """

    deals: list[DealSummary]
    instance: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.deal_summary import DealSummary # noqa: PLC0415
        deals = []
        for deals_item_data in self.deals:
            deals_item = deals_item_data.to_dict()
            deals.append(deals_item)



        instance = self.instance


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deals": deals,
            "instance": instance,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deal_summary import DealSummary # noqa: PLC0415
        d = dict(src_dict)
        deals = []
        _deals = d.pop("deals")
        for deals_item_data in (_deals):
            deals_item = DealSummary.from_dict(deals_item_data)



            deals.append(deals_item)


        instance = d.pop("instance")

        kept_deals = cls(
            deals=deals,
            instance=instance,
        )


        kept_deals.additional_properties = d
        return kept_deals

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
