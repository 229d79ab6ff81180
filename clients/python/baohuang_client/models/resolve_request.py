from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ruleset_spec import RulesetSpec





T = TypeVar("T", bound="ResolveRequest")



@_attrs_define
class ResolveRequest:
    """ 
        Attributes:
            plays (list[list[str]]):
            ruleset (RulesetSpec | str | Unset): A ruleset name, or {base, kaopai?, bie6?, deck?, grab?} (docs/rules.md R)
     """

    plays: list[list[str]]
    ruleset: RulesetSpec | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        plays = []
        for plays_item_data in self.plays:
            plays_item = plays_item_data


            plays.append(plays_item)



        ruleset: dict[str, Any] | str | Unset
        if isinstance(self.ruleset, Unset):
            ruleset = UNSET
        elif isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "plays": plays,
        })
        if ruleset is not UNSET:
            field_dict["ruleset"] = ruleset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        d = dict(src_dict)
        plays = []
        _plays = d.pop("plays")
        for plays_item_data in (_plays):
            plays_item = cast(list[str], plays_item_data)

            plays.append(plays_item)


        def _parse_ruleset(data: object) -> RulesetSpec | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ruleset_type_1 = RulesetSpec.from_dict(data)



                return ruleset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(RulesetSpec | str | Unset, data)

        ruleset = _parse_ruleset(d.pop("ruleset", UNSET))


        resolve_request = cls(
            plays=plays,
            ruleset=ruleset,
        )

        return resolve_request

