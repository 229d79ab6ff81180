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





T = TypeVar("T", bound="ClassifyRequest")



@_attrs_define
class ClassifyRequest:
    """ 
        Attributes:
            cards (list[str]):
            ruleset (RulesetSpec | str | Unset): A ruleset name, or {base, kaopai?, bie6?, deck?, grab?} (docs/rules.md R).
                Default: `"classic"`.
     """

    cards: list[str]
    ruleset: RulesetSpec | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        cards = self.cards



        ruleset: dict[str, Any] | str | Unset
        if isinstance(self.ruleset, Unset):
            ruleset = UNSET
        elif isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "cards": cards,
        })
        if ruleset is not UNSET:
            field_dict["ruleset"] = ruleset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        d = dict(src_dict)
        cards = cast(list[str], d.pop("cards"))


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


        classify_request = cls(
            cards=cards,
            ruleset=ruleset,
        )

        return classify_request

