from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.transfer import Transfer





T = TypeVar("T", bound="TributeResult")



@_attrs_define
class TributeResult:
    """ The tribute cards, highest first (P-2…P-4), and the five hands after them, high to low.

        Attributes:
            hands (list[list[str]]):
            transfers (list[Transfer]):
     """

    hands: list[list[str]]
    transfers: list[Transfer]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.transfer import Transfer # noqa: PLC0415
        hands = []
        for hands_item_data in self.hands:
            hands_item = hands_item_data


            hands.append(hands_item)



        transfers = []
        for transfers_item_data in self.transfers:
            transfers_item = transfers_item_data.to_dict()
            transfers.append(transfers_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "hands": hands,
            "transfers": transfers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.transfer import Transfer # noqa: PLC0415
        d = dict(src_dict)
        hands = []
        _hands = d.pop("hands")
        for hands_item_data in (_hands):
            hands_item = cast(list[str], hands_item_data)

            hands.append(hands_item)


        transfers = []
        _transfers = d.pop("transfers")
        for transfers_item_data in (_transfers):
            transfers_item = Transfer.from_dict(transfers_item_data)



            transfers.append(transfers_item)


        tribute_result = cls(
            hands=hands,
            transfers=transfers,
        )


        tribute_result.additional_properties = d
        return tribute_result

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
