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
  from ..models.deal_result import DealResult





T = TypeVar("T", bound="LoggedDealOverEvent")



@_attrs_define
class LoggedDealOverEvent:
    """ 
        Attributes:
            positions (list[int]):
            type_ (Literal['deal_over']):
            at (float): When the table logged it (seconds since the Unix epoch)
            id (str): `<seq>.<token>`: the seq and the token of the write that logged it (the stream's `id:`, `Last-Event-
                ID` and `after`)
            seq (int): 1, 2, 3 … per table instance
            version (int): The table version the event's write produced
            result (DealResult | None | Unset):
            seed (None | str | Unset):
     """

    positions: list[int]
    type_: Literal['deal_over']
    at: float
    id: str
    seq: int
    version: int
    result: DealResult | None | Unset = UNSET
    seed: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.deal_result import DealResult # noqa: PLC0415
        positions = self.positions



        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, DealResult):
            result = self.result.to_dict()
        else:
            result = self.result

        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "positions": positions,
            "type": type_,
            "at": at,
            "id": id,
            "seq": seq,
            "version": version,
        })
        if result is not UNSET:
            field_dict["result"] = result
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deal_result import DealResult # noqa: PLC0415
        d = dict(src_dict)
        positions = cast(list[int], d.pop("positions"))


        type_ = cast(Literal['deal_over'] , d.pop("type"))
        if type_ != 'deal_over':
            raise ValueError(f"type must match const 'deal_over', got '{type_}'")

        at = d.pop("at")

        id = d.pop("id")

        seq = d.pop("seq")

        version = d.pop("version")

        def _parse_result(data: object) -> DealResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = DealResult.from_dict(data)



                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DealResult | None | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))


        logged_deal_over_event = cls(
            positions=positions,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
            result=result,
            seed=seed,
        )


        logged_deal_over_event.additional_properties = d
        return logged_deal_over_event

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
