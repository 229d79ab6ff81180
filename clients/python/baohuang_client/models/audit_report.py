from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.audit_failure import AuditFailure





T = TypeVar("T", bound="AuditReport")



@_attrs_define
class AuditReport:
    """ ``valid`` when every deal, result and total in the record is what the rules give;
    ``deals`` and ``moves``: how many were replayed, from deal ``first_deal`` on.

        Attributes:
            deals (int):
            moves (int):
            penalties (list[int]):
            totals (list[int]):
            valid (bool):
            failure (AuditFailure | None | Unset):
            first_deal (int | Unset): Default: `1`.
     """

    deals: int
    moves: int
    penalties: list[int]
    totals: list[int]
    valid: bool
    failure: AuditFailure | None | Unset = UNSET
    first_deal: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_failure import AuditFailure # noqa: PLC0415
        deals = self.deals

        moves = self.moves

        penalties = self.penalties



        totals = self.totals



        valid = self.valid

        failure: dict[str, Any] | None | Unset
        if isinstance(self.failure, Unset):
            failure = UNSET
        elif isinstance(self.failure, AuditFailure):
            failure = self.failure.to_dict()
        else:
            failure = self.failure

        first_deal = self.first_deal


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deals": deals,
            "moves": moves,
            "penalties": penalties,
            "totals": totals,
            "valid": valid,
        })
        if failure is not UNSET:
            field_dict["failure"] = failure
        if first_deal is not UNSET:
            field_dict["first_deal"] = first_deal

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_failure import AuditFailure # noqa: PLC0415
        d = dict(src_dict)
        deals = d.pop("deals")

        moves = d.pop("moves")

        penalties = cast(list[int], d.pop("penalties"))


        totals = cast(list[int], d.pop("totals"))


        valid = d.pop("valid")

        def _parse_failure(data: object) -> AuditFailure | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failure_type_0 = AuditFailure.from_dict(data)



                return failure_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditFailure | None | Unset, data)

        failure = _parse_failure(d.pop("failure", UNSET))


        first_deal = d.pop("first_deal", UNSET)

        audit_report = cls(
            deals=deals,
            moves=moves,
            penalties=penalties,
            totals=totals,
            valid=valid,
            failure=failure,
            first_deal=first_deal,
        )


        audit_report.additional_properties = d
        return audit_report

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
