from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.previous_deal import PreviousDeal
  from ..models.ruleset_spec import RulesetSpec





T = TypeVar("T", bound="TributeRequest")



@_attrs_define
class TributeRequest:
    """ 
        Attributes:
            hands (list[list[str]]):
            previous (PreviousDeal): The previous deal's roles and finishing order (P: it must be over, T-9). `finished`
                lists
                the seats in finishing order, as for `/v1/scores`: it stops at the deal's end, or goes on
                with the seats still holding cards in the order the platform ranks them, the side that
                finished first (T-9); the tribute follows the order given (who eats first, P-3, P-4).
            ruleset (RulesetSpec | str): A ruleset name, or {base, kaopai?, bie6?, deck?, grab?} (docs/rules.md R)
     """

    hands: list[list[str]]
    previous: PreviousDeal
    ruleset: RulesetSpec | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.previous_deal import PreviousDeal # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        hands = []
        for hands_item_data in self.hands:
            hands_item = hands_item_data


            hands.append(hands_item)



        previous = self.previous.to_dict()

        ruleset: dict[str, Any] | str
        if isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "hands": hands,
            "previous": previous,
            "ruleset": ruleset,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.previous_deal import PreviousDeal # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        d = dict(src_dict)
        hands = []
        _hands = d.pop("hands")
        for hands_item_data in (_hands):
            hands_item = cast(list[str], hands_item_data)

            hands.append(hands_item)


        previous = PreviousDeal.from_dict(d.pop("previous"))




        def _parse_ruleset(data: object) -> RulesetSpec | str:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ruleset_type_1 = RulesetSpec.from_dict(data)



                return ruleset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(RulesetSpec | str, data)

        ruleset = _parse_ruleset(d.pop("ruleset"))


        tribute_request = cls(
            hands=hands,
            previous=previous,
            ruleset=ruleset,
        )

        return tribute_request

