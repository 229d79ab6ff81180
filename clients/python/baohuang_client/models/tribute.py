from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.previous_deal import PreviousDeal
  from ..models.transfer import Transfer





T = TypeVar("T", bound="Tribute")



@_attrs_define
class Tribute:
    """ The tribute paid into this deal (P): ``previous`` is the deal before (its roles and
    finishing order), ``transfers`` the cards that changed hands, as this caller may see them
    (a seat sees the cards it gave or took).

        Attributes:
            previous (PreviousDeal): The previous deal's roles and finishing order (P: it must be over, T-9). `finished`
                lists
                the seats in finishing order, as for `/v1/scores`: it stops at the deal's end, or goes on
                with the seats still holding cards in the order the platform ranks them, the side that
                finished first (T-9); the tribute follows the order given (who eats first, P-3, P-4).
            transfers (list[Transfer]):
     """

    previous: PreviousDeal
    transfers: list[Transfer]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.previous_deal import PreviousDeal # noqa: PLC0415
        from ..models.transfer import Transfer # noqa: PLC0415
        previous = self.previous.to_dict()

        transfers = []
        for transfers_item_data in self.transfers:
            transfers_item = transfers_item_data.to_dict()
            transfers.append(transfers_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "previous": previous,
            "transfers": transfers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.previous_deal import PreviousDeal # noqa: PLC0415
        from ..models.transfer import Transfer # noqa: PLC0415
        d = dict(src_dict)
        previous = PreviousDeal.from_dict(d.pop("previous"))




        transfers = []
        _transfers = d.pop("transfers")
        for transfers_item_data in (_transfers):
            transfers_item = Transfer.from_dict(transfers_item_data)



            transfers.append(transfers_item)


        tribute = cls(
            previous=previous,
            transfers=transfers,
        )


        tribute.additional_properties = d
        return tribute

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
