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





T = TypeVar("T", bound="CommittedDeal")



@_attrs_define
class CommittedDeal:
    """ A table's first deal, dealt by the service from a seed it commits to before any card is
    dealt (docs/dealing.md): the ``ruleset``, the ``dealer`` (G-4) and the window for the
    seats' entropy.

        Attributes:
            dealer (int | Unset): T-1: seats 0–4 in the order of play. Default: `0`.
            entropy_seconds (int | Unset): How long the seats may add entropy before the cards are dealt; the deal is dealt
                sooner once every seat that can add has (0: at once, from the service's seed alone). Default 15. Default: `15`.
            ruleset (RulesetSpec | str | Unset): Default: `"classic"`.
     """

    dealer: int | Unset = UNSET
    entropy_seconds: int | Unset = UNSET
    ruleset: RulesetSpec | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        dealer = self.dealer

        entropy_seconds = self.entropy_seconds

        ruleset: dict[str, Any] | str | Unset
        if isinstance(self.ruleset, Unset):
            ruleset = UNSET
        elif isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if dealer is not UNSET:
            field_dict["dealer"] = dealer
        if entropy_seconds is not UNSET:
            field_dict["entropy_seconds"] = entropy_seconds
        if ruleset is not UNSET:
            field_dict["ruleset"] = ruleset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        d = dict(src_dict)
        dealer = d.pop("dealer", UNSET)

        entropy_seconds = d.pop("entropy_seconds", UNSET)

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


        committed_deal = cls(
            dealer=dealer,
            entropy_seconds=entropy_seconds,
            ruleset=ruleset,
        )

        return committed_deal

