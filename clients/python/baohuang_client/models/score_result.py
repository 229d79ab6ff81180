from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.score_result_winner import ScoreResultWinner
from typing import cast

if TYPE_CHECKING:
  from ..models.reason import Reason
  from ..models.sides import Sides





T = TypeVar("T", bound="ScoreResult")



@_attrs_define
class ScoreResult:
    """ A deal's score. `final` is false, and the figures null, while the score can still change
    (T-9). `void` is null unless the deal is void (S-10): then it is final with no winner and no
    positions, every seat scores 0, and `void` says why: `{"code": "NO_EMPEROR", "rule": "G-5"}`
    (黄庄; `G-6`, `G-7` in the other rulesets) when nobody took the crown, `{"code":
    "ALL_TRUSTEE", "rule": "T-11"}` when every seat was in 托管 at the end. A void snapshot has
    `"void": true` and `"over": true`.

        Attributes:
            final (bool):
            multiplier (int):
            positions (list[int] | None):
            scores (list[int] | None):
            sides (None | Sides):
            void (None | Reason):
            winner (None | ScoreResultWinner):
     """

    final: bool
    multiplier: int
    positions: list[int] | None
    scores: list[int] | None
    sides: None | Sides
    void: None | Reason
    winner: None | ScoreResultWinner
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reason import Reason # noqa: PLC0415
        from ..models.sides import Sides # noqa: PLC0415
        final = self.final

        multiplier = self.multiplier

        positions: list[int] | None
        if isinstance(self.positions, list):
            positions = self.positions


        else:
            positions = self.positions

        scores: list[int] | None
        if isinstance(self.scores, list):
            scores = self.scores


        else:
            scores = self.scores

        sides: dict[str, Any] | None
        if isinstance(self.sides, Sides):
            sides = self.sides.to_dict()
        else:
            sides = self.sides

        void: dict[str, Any] | None
        if isinstance(self.void, Reason):
            void = self.void.to_dict()
        else:
            void = self.void

        winner: None | str
        if isinstance(self.winner, ScoreResultWinner):
            winner = self.winner.value
        else:
            winner = self.winner


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "final": final,
            "multiplier": multiplier,
            "positions": positions,
            "scores": scores,
            "sides": sides,
            "void": void,
            "winner": winner,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reason import Reason # noqa: PLC0415
        from ..models.sides import Sides # noqa: PLC0415
        d = dict(src_dict)
        final = d.pop("final")

        multiplier = d.pop("multiplier")

        def _parse_positions(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                positions_type_0 = cast(list[int], data)

                return positions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        positions = _parse_positions(d.pop("positions"))


        def _parse_scores(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scores_type_0 = cast(list[int], data)

                return scores_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        scores = _parse_scores(d.pop("scores"))


        def _parse_sides(data: object) -> None | Sides:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sides_type_0 = Sides.from_dict(data)



                return sides_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Sides, data)

        sides = _parse_sides(d.pop("sides"))


        def _parse_void(data: object) -> None | Reason:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                void_type_0 = Reason.from_dict(data)



                return void_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Reason, data)

        void = _parse_void(d.pop("void"))


        def _parse_winner(data: object) -> None | ScoreResultWinner:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                winner_type_0 = ScoreResultWinner(data)



                return winner_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScoreResultWinner, data)

        winner = _parse_winner(d.pop("winner"))


        score_result = cls(
            final=final,
            multiplier=multiplier,
            positions=positions,
            scores=scores,
            sides=sides,
            void=void,
            winner=winner,
        )


        score_result.additional_properties = d
        return score_result

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
