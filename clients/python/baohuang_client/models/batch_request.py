from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.pair import Pair
  from ..models.ruleset_spec import RulesetSpec





T = TypeVar("T", bound="BatchRequest")



@_attrs_define
class BatchRequest:
    """ 
        Attributes:
            pairs (list[Pair]):
            ruleset (RulesetSpec | str | Unset): A ruleset name, or {base, kaopai?, bie6?, deck?, grab?} (docs/rules.md R).
                Default: `"classic"`.
     """

    pairs: list[Pair]
    ruleset: RulesetSpec | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.pair import Pair # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        pairs = []
        for pairs_item_data in self.pairs:
            pairs_item = pairs_item_data.to_dict()
            pairs.append(pairs_item)



        ruleset: dict[str, Any] | str | Unset
        if isinstance(self.ruleset, Unset):
            ruleset = UNSET
        elif isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "pairs": pairs,
        })
        if ruleset is not UNSET:
            field_dict["ruleset"] = ruleset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pair import Pair # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        d = dict(src_dict)
        pairs = []
        _pairs = d.pop("pairs")
        for pairs_item_data in (_pairs):
            pairs_item = Pair.from_dict(pairs_item_data)



            pairs.append(pairs_item)


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


        batch_request = cls(
            pairs=pairs,
            ruleset=ruleset,
        )

        return batch_request

