from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.score_result import ScoreResult





T = TypeVar("T", bound="DealResult")



@_attrs_define
class DealResult:
    """ A live table's record of a finished deal (S, S-9, S-10, T-11): ``score`` is the deal's
    zero-sum score (void and every seat 0 when S-10 or T-11 says so, ``score.void`` naming why);
    ``penalties[seat]`` the S-9 charges for leaving, outside the zero-sum scores.

        Attributes:
            deal (int):
            penalties (list[int]):
            score (ScoreResult): A deal's score. `final` is false, and the figures null, while the score can still change
                (T-9). `void` is null unless the deal is void (S-10): then it is final with no winner and no
                positions, every seat scores 0, and `void` says why: `{"code": "NO_EMPEROR", "rule": "G-5"}`
                (黄庄; `G-6`, `G-7` in the other rulesets) when nobody took the crown, `{"code":
                "ALL_TRUSTEE", "rule": "T-11"}` when every seat was in 托管 at the end. A void snapshot has
                `"void": true` and `"over": true`.
     """

    deal: int
    penalties: list[int]
    score: ScoreResult
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.score_result import ScoreResult # noqa: PLC0415
        deal = self.deal

        penalties = self.penalties



        score = self.score.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deal": deal,
            "penalties": penalties,
            "score": score,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.score_result import ScoreResult # noqa: PLC0415
        d = dict(src_dict)
        deal = d.pop("deal")

        penalties = cast(list[int], d.pop("penalties"))


        score = ScoreResult.from_dict(d.pop("score"))




        deal_result = cls(
            deal=deal,
            penalties=penalties,
            score=score,
        )


        deal_result.additional_properties = d
        return deal_result

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
