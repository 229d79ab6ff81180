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





T = TypeVar("T", bound="DealRequest")



@_attrs_define
class DealRequest:
    """ 
        Attributes:
            dealer (int): T-1: seats 0–4 in the order of play
            seed (int): G-4: any integer, read modulo 2**64: the seeds 0 … 2**64 − 1 each deal their own hands, a larger
                seed deals as its remainder (2**64 + 5 as 5) and a negative one as its two's complement (−1 as 2**64 − 1), so
                unsigned and signed 64-bit seeds both work as they are. The same seed always deals the same hands
            ruleset (RulesetSpec | str | Unset): A ruleset name, or {base, kaopai?, bie6?, deck?, grab?} (docs/rules.md R).
                Default: `"classic"`.
     """

    dealer: int
    seed: int
    ruleset: RulesetSpec | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        dealer = self.dealer

        seed = self.seed

        ruleset: dict[str, Any] | str | Unset
        if isinstance(self.ruleset, Unset):
            ruleset = UNSET
        elif isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dealer": dealer,
            "seed": seed,
        })
        if ruleset is not UNSET:
            field_dict["ruleset"] = ruleset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        d = dict(src_dict)
        dealer = d.pop("dealer")

        seed = d.pop("seed")

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


        deal_request = cls(
            dealer=dealer,
            seed=seed,
            ruleset=ruleset,
        )

        return deal_request

