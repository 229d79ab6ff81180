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
  from ..models.previous_deal import PreviousDeal
  from ..models.transfer import Transfer





T = TypeVar("T", bound="DealStartedEvent")



@_attrs_define
class DealStartedEvent:
    """ The table's deal number ``deal`` began, dealt from ``dealer`` (G-4); ``tribute`` holds the
    cards paid (P) under ``tribute``, as ``previous`` (that deal's roles and finishing order)
    calls for. A committed deal's (docs/dealing.md) names its
    ``commitment`` and the ``entropy`` each seat added (null: none), which dealt it.

        Attributes:
            deal (int):
            dealer (int):
            type_ (Literal['deal_started']):
            at (float | Unset):
            commitment (None | str | Unset):
            entropy (list[None | str] | None | Unset):
            id (str | Unset):
            previous (None | PreviousDeal | Unset):
            seq (int | Unset):
            tribute (list[Transfer] | Unset): Default: `[]`.
            version (int | Unset):
     """

    deal: int
    dealer: int
    type_: Literal['deal_started']
    at: float | Unset = UNSET
    commitment: None | str | Unset = UNSET
    entropy: list[None | str] | None | Unset = UNSET
    id: str | Unset = UNSET
    previous: None | PreviousDeal | Unset = UNSET
    seq: int | Unset = UNSET
    tribute: list[Transfer] | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.previous_deal import PreviousDeal # noqa: PLC0415
        from ..models.transfer import Transfer # noqa: PLC0415
        deal = self.deal

        dealer = self.dealer

        type_ = self.type_

        at = self.at

        commitment: None | str | Unset
        if isinstance(self.commitment, Unset):
            commitment = UNSET
        else:
            commitment = self.commitment

        entropy: list[None | str] | None | Unset
        if isinstance(self.entropy, Unset):
            entropy = UNSET
        elif isinstance(self.entropy, list):
            entropy = []
            for entropy_type_0_item_data in self.entropy:
                entropy_type_0_item: None | str
                entropy_type_0_item = entropy_type_0_item_data
                entropy.append(entropy_type_0_item)


        else:
            entropy = self.entropy

        id = self.id

        previous: dict[str, Any] | None | Unset
        if isinstance(self.previous, Unset):
            previous = UNSET
        elif isinstance(self.previous, PreviousDeal):
            previous = self.previous.to_dict()
        else:
            previous = self.previous

        seq = self.seq

        tribute: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tribute, Unset):
            tribute = []
            for tribute_item_data in self.tribute:
                tribute_item = tribute_item_data.to_dict()
                tribute.append(tribute_item)



        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deal": deal,
            "dealer": dealer,
            "type": type_,
        })
        if at is not UNSET:
            field_dict["at"] = at
        if commitment is not UNSET:
            field_dict["commitment"] = commitment
        if entropy is not UNSET:
            field_dict["entropy"] = entropy
        if id is not UNSET:
            field_dict["id"] = id
        if previous is not UNSET:
            field_dict["previous"] = previous
        if seq is not UNSET:
            field_dict["seq"] = seq
        if tribute is not UNSET:
            field_dict["tribute"] = tribute
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.previous_deal import PreviousDeal # noqa: PLC0415
        from ..models.transfer import Transfer # noqa: PLC0415
        d = dict(src_dict)
        deal = d.pop("deal")

        dealer = d.pop("dealer")

        type_ = cast(Literal['deal_started'] , d.pop("type"))
        if type_ != 'deal_started':
            raise ValueError(f"type must match const 'deal_started', got '{type_}'")

        at = d.pop("at", UNSET)

        def _parse_commitment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        commitment = _parse_commitment(d.pop("commitment", UNSET))


        def _parse_entropy(data: object) -> list[None | str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                entropy_type_0 = []
                _entropy_type_0 = data
                for entropy_type_0_item_data in (_entropy_type_0):
                    def _parse_entropy_type_0_item(data: object) -> None | str:
                        if data is None:
                            return data
                        return cast(None | str, data)

                    entropy_type_0_item = _parse_entropy_type_0_item(entropy_type_0_item_data)

                    entropy_type_0.append(entropy_type_0_item)

                return entropy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[None | str] | None | Unset, data)

        entropy = _parse_entropy(d.pop("entropy", UNSET))


        id = d.pop("id", UNSET)

        def _parse_previous(data: object) -> None | PreviousDeal | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                previous_type_0 = PreviousDeal.from_dict(data)



                return previous_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PreviousDeal | Unset, data)

        previous = _parse_previous(d.pop("previous", UNSET))


        seq = d.pop("seq", UNSET)

        _tribute = d.pop("tribute", UNSET)
        tribute: list[Transfer] | Unset = UNSET
        if _tribute is not UNSET:
            tribute = []
            for tribute_item_data in _tribute:
                tribute_item = Transfer.from_dict(tribute_item_data)



                tribute.append(tribute_item)


        version = d.pop("version", UNSET)

        deal_started_event = cls(
            deal=deal,
            dealer=dealer,
            type_=type_,
            at=at,
            commitment=commitment,
            entropy=entropy,
            id=id,
            previous=previous,
            seq=seq,
            tribute=tribute,
            version=version,
        )


        deal_started_event.additional_properties = d
        return deal_started_event

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
