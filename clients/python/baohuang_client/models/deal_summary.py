from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.dealing_method import DealingMethod
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.deal_result import DealResult





T = TypeVar("T", bound="DealSummary")



@_attrs_define
class DealSummary:
    """ One deal the table keeps: its number, how it was dealt (``method``: ``committed``,
    ``seed`` or ``snapshot``), when it started and ended (seconds since the Unix epoch;
    ``ended`` null while it goes on), and its result once it is over.

        Attributes:
            deal (int):
            method (DealingMethod):
            started (float | None):
            ended (float | None | Unset):
            result (DealResult | None | Unset):
     """

    deal: int
    method: DealingMethod
    started: float | None
    ended: float | None | Unset = UNSET
    result: DealResult | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.deal_result import DealResult # noqa: PLC0415
        deal = self.deal

        method = self.method.value

        started: float | None
        started = self.started

        ended: float | None | Unset
        if isinstance(self.ended, Unset):
            ended = UNSET
        else:
            ended = self.ended

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, DealResult):
            result = self.result.to_dict()
        else:
            result = self.result


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deal": deal,
            "method": method,
            "started": started,
        })
        if ended is not UNSET:
            field_dict["ended"] = ended
        if result is not UNSET:
            field_dict["result"] = result

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deal_result import DealResult # noqa: PLC0415
        d = dict(src_dict)
        deal = d.pop("deal")

        method = DealingMethod(d.pop("method"))




        def _parse_started(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        started = _parse_started(d.pop("started"))


        def _parse_ended(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        ended = _parse_ended(d.pop("ended", UNSET))


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


        deal_summary = cls(
            deal=deal,
            method=method,
            started=started,
            ended=ended,
            result=result,
        )


        deal_summary.additional_properties = d
        return deal_summary

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
