from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="DealCommittedEvent")



@_attrs_define
class DealCommittedEvent:
    """ A live table's deal ``deal`` is to be dealt by the service from ``dealer`` (G-4), from a
    seed whose SHA-256 is ``commitment``, by ``algorithm`` (docs/dealing.md): the first event of
    a committed deal, before any card is dealt. Until ``closes`` (seconds since the Unix epoch)
    each seat may add its entropy; the deal is dealt then, or as soon as every seat that can add
    has.

        Attributes:
            algorithm (str):
            closes (float):
            commitment (str):
            deal (int):
            dealer (int):
            type_ (Literal['deal_committed']):
            at (float | Unset):
            id (str | Unset):
            seq (int | Unset):
            version (int | Unset):
     """

    algorithm: str
    closes: float
    commitment: str
    deal: int
    dealer: int
    type_: Literal['deal_committed']
    at: float | Unset = UNSET
    id: str | Unset = UNSET
    seq: int | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        algorithm = self.algorithm

        closes = self.closes

        commitment = self.commitment

        deal = self.deal

        dealer = self.dealer

        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "algorithm": algorithm,
            "closes": closes,
            "commitment": commitment,
            "deal": deal,
            "dealer": dealer,
            "type": type_,
        })
        if at is not UNSET:
            field_dict["at"] = at
        if id is not UNSET:
            field_dict["id"] = id
        if seq is not UNSET:
            field_dict["seq"] = seq
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        algorithm = d.pop("algorithm")

        closes = d.pop("closes")

        commitment = d.pop("commitment")

        deal = d.pop("deal")

        dealer = d.pop("dealer")

        type_ = cast(Literal['deal_committed'] , d.pop("type"))
        if type_ != 'deal_committed':
            raise ValueError(f"type must match const 'deal_committed', got '{type_}'")

        at = d.pop("at", UNSET)

        id = d.pop("id", UNSET)

        seq = d.pop("seq", UNSET)

        version = d.pop("version", UNSET)

        deal_committed_event = cls(
            algorithm=algorithm,
            closes=closes,
            commitment=commitment,
            deal=deal,
            dealer=dealer,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
        )


        deal_committed_event.additional_properties = d
        return deal_committed_event

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
