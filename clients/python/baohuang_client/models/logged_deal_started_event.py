from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.transfer import Transfer





T = TypeVar("T", bound="LoggedDealStartedEvent")



@_attrs_define
class LoggedDealStartedEvent:
    """ 
        Attributes:
            deal (int):
            dealer (int):
            type_ (Literal['deal_started']):
            at (float): When the table logged it (seconds since the Unix epoch)
            id (str): `<seq>.<token>`: the seq and the token of the write that logged it (the stream's `id:`, `Last-Event-
                ID` and `after`)
            seq (int): 1, 2, 3 … per table instance
            version (int): The table version the event's write produced
            tribute (list[Transfer] | Unset): Default: `[]`.
     """

    deal: int
    dealer: int
    type_: Literal['deal_started']
    at: float
    id: str
    seq: int
    version: int
    tribute: list[Transfer] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.transfer import Transfer # noqa: PLC0415
        deal = self.deal

        dealer = self.dealer

        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version

        tribute: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tribute, Unset):
            tribute = []
            for tribute_item_data in self.tribute:
                tribute_item = tribute_item_data.to_dict()
                tribute.append(tribute_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deal": deal,
            "dealer": dealer,
            "type": type_,
            "at": at,
            "id": id,
            "seq": seq,
            "version": version,
        })
        if tribute is not UNSET:
            field_dict["tribute"] = tribute

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.transfer import Transfer # noqa: PLC0415
        d = dict(src_dict)
        deal = d.pop("deal")

        dealer = d.pop("dealer")

        type_ = cast(Literal['deal_started'] , d.pop("type"))
        if type_ != 'deal_started':
            raise ValueError(f"type must match const 'deal_started', got '{type_}'")

        at = d.pop("at")

        id = d.pop("id")

        seq = d.pop("seq")

        version = d.pop("version")

        _tribute = d.pop("tribute", UNSET)
        tribute: list[Transfer] | Unset = UNSET
        if _tribute is not UNSET:
            tribute = []
            for tribute_item_data in _tribute:
                tribute_item = Transfer.from_dict(tribute_item_data)



                tribute.append(tribute_item)


        logged_deal_started_event = cls(
            deal=deal,
            dealer=dealer,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
            tribute=tribute,
        )


        logged_deal_started_event.additional_properties = d
        return logged_deal_started_event

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
