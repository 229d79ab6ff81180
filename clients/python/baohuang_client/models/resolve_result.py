from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.resolve_step import ResolveStep





T = TypeVar("T", bound="ResolveResult")



@_attrs_define
class ResolveResult:
    """ 
        Attributes:
            steps (list[ResolveStep]):
            valid (bool):
            winner (int):
     """

    steps: list[ResolveStep]
    valid: bool
    winner: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.resolve_step import ResolveStep # noqa: PLC0415
        steps = []
        for steps_item_data in self.steps:
            steps_item = steps_item_data.to_dict()
            steps.append(steps_item)



        valid = self.valid

        winner = self.winner


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "steps": steps,
            "valid": valid,
            "winner": winner,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.resolve_step import ResolveStep # noqa: PLC0415
        d = dict(src_dict)
        steps = []
        _steps = d.pop("steps")
        for steps_item_data in (_steps):
            steps_item = ResolveStep.from_dict(steps_item_data)



            steps.append(steps_item)


        valid = d.pop("valid")

        winner = d.pop("winner")

        resolve_result = cls(
            steps=steps,
            valid=valid,
            winner=winner,
        )


        resolve_result.additional_properties = d
        return resolve_result

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
