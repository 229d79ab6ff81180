from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.replay_failure import ReplayFailure
  from ..models.score_result import ScoreResult
  from ..models.snapshot import Snapshot





T = TypeVar("T", bound="ReplayOut")



@_attrs_define
class ReplayOut:
    """ 
        Attributes:
            applied (int):
            failed (None | ReplayFailure):
            scores (None | ScoreResult):
            snapshot (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
            valid (bool):
     """

    applied: int
    failed: None | ReplayFailure
    scores: None | ScoreResult
    snapshot: Snapshot
    valid: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.replay_failure import ReplayFailure # noqa: PLC0415
        from ..models.score_result import ScoreResult # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        applied = self.applied

        failed: dict[str, Any] | None
        if isinstance(self.failed, ReplayFailure):
            failed = self.failed.to_dict()
        else:
            failed = self.failed

        scores: dict[str, Any] | None
        if isinstance(self.scores, ScoreResult):
            scores = self.scores.to_dict()
        else:
            scores = self.scores

        snapshot = self.snapshot.to_dict()

        valid = self.valid


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "applied": applied,
            "failed": failed,
            "scores": scores,
            "snapshot": snapshot,
            "valid": valid,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.replay_failure import ReplayFailure # noqa: PLC0415
        from ..models.score_result import ScoreResult # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        d = dict(src_dict)
        applied = d.pop("applied")

        def _parse_failed(data: object) -> None | ReplayFailure:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failed_type_0 = ReplayFailure.from_dict(data)



                return failed_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReplayFailure, data)

        failed = _parse_failed(d.pop("failed"))


        def _parse_scores(data: object) -> None | ScoreResult:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                scores_type_0 = ScoreResult.from_dict(data)



                return scores_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScoreResult, data)

        scores = _parse_scores(d.pop("scores"))


        snapshot = Snapshot.from_dict(d.pop("snapshot"))




        valid = d.pop("valid")

        replay_out = cls(
            applied=applied,
            failed=failed,
            scores=scores,
            snapshot=snapshot,
            valid=valid,
        )


        replay_out.additional_properties = d
        return replay_out

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
