from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.mode import Mode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ruleset_spec import RulesetSpec
  from ..models.snapshot import Snapshot





T = TypeVar("T", bound="ScoresRequest")



@_attrs_define
class ScoresRequest:
    """ Either `snapshot` alone, or the roles and the `finished` order (with `ruleset`).

    `finished`: the seats in finishing order. It may stop where the deal ended (T-9): the seats
    still holding cards then take the remaining positions. Or it may go on, up to a complete
    order of five, with the seats still holding cards in any order that leaves the better
    places to the side that finished (an unfinished solo or grab emperor last): the scores are
    those of the order cut at the end, and `positions` the places as given. A seat listed twice
    or out of range, or after the end before a seat of the side that finished, is 422 naming
    that entry (`INVALID_FINISHED`, `INVALID_SEAT`, `DEAL_OVER`).

    造反 (lianzhong-simple, team and 暗独, G-8): it succeeded when two or more rebels declared it
    and the rebels' side won the deal (S-4, S-6), and only then doubles the score. `rebellion`
    gives the declaring seats (rebels, each once) and the service decides, as for a snapshot.
    `rebellion_succeeded` states the outcome instead: `true` stands for two or more declarers and
    is 422 `REBELLION_MISMATCH` when the finishing order gives the deal to the emperor's side or
    a draw; with `rebellion` too it must agree with it. Before the deal is final nothing has
    succeeded yet, and the multiplier leaves 造反 out.

        Attributes:
            emperor (int | None | Unset):
            finished (list[int] | None | Unset):
            guard (int | None | Unset):
            guard_revealed (bool | Unset): Default: `false`.
            mode (Mode | None | Unset):
            rebellion (list[int] | None | Unset):
            rebellion_succeeded (bool | Unset): Default: `false`.
            ruleset (None | RulesetSpec | str | Unset):
            snapshot (None | Snapshot | Unset):
     """

    emperor: int | None | Unset = UNSET
    finished: list[int] | None | Unset = UNSET
    guard: int | None | Unset = UNSET
    guard_revealed: bool | Unset = UNSET
    mode: Mode | None | Unset = UNSET
    rebellion: list[int] | None | Unset = UNSET
    rebellion_succeeded: bool | Unset = UNSET
    ruleset: None | RulesetSpec | str | Unset = UNSET
    snapshot: None | Snapshot | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        emperor: int | None | Unset
        if isinstance(self.emperor, Unset):
            emperor = UNSET
        else:
            emperor = self.emperor

        finished: list[int] | None | Unset
        if isinstance(self.finished, Unset):
            finished = UNSET
        elif isinstance(self.finished, list):
            finished = self.finished


        else:
            finished = self.finished

        guard: int | None | Unset
        if isinstance(self.guard, Unset):
            guard = UNSET
        else:
            guard = self.guard

        guard_revealed = self.guard_revealed

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        elif isinstance(self.mode, Mode):
            mode = self.mode.value
        else:
            mode = self.mode

        rebellion: list[int] | None | Unset
        if isinstance(self.rebellion, Unset):
            rebellion = UNSET
        elif isinstance(self.rebellion, list):
            rebellion = self.rebellion


        else:
            rebellion = self.rebellion

        rebellion_succeeded = self.rebellion_succeeded

        ruleset: dict[str, Any] | None | str | Unset
        if isinstance(self.ruleset, Unset):
            ruleset = UNSET
        elif isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset

        snapshot: dict[str, Any] | None | Unset
        if isinstance(self.snapshot, Unset):
            snapshot = UNSET
        elif isinstance(self.snapshot, Snapshot):
            snapshot = self.snapshot.to_dict()
        else:
            snapshot = self.snapshot


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if emperor is not UNSET:
            field_dict["emperor"] = emperor
        if finished is not UNSET:
            field_dict["finished"] = finished
        if guard is not UNSET:
            field_dict["guard"] = guard
        if guard_revealed is not UNSET:
            field_dict["guard_revealed"] = guard_revealed
        if mode is not UNSET:
            field_dict["mode"] = mode
        if rebellion is not UNSET:
            field_dict["rebellion"] = rebellion
        if rebellion_succeeded is not UNSET:
            field_dict["rebellion_succeeded"] = rebellion_succeeded
        if ruleset is not UNSET:
            field_dict["ruleset"] = ruleset
        if snapshot is not UNSET:
            field_dict["snapshot"] = snapshot

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        d = dict(src_dict)
        def _parse_emperor(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        emperor = _parse_emperor(d.pop("emperor", UNSET))


        def _parse_finished(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                finished_type_0 = cast(list[int], data)

                return finished_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        finished = _parse_finished(d.pop("finished", UNSET))


        def _parse_guard(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        guard = _parse_guard(d.pop("guard", UNSET))


        guard_revealed = d.pop("guard_revealed", UNSET)

        def _parse_mode(data: object) -> Mode | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_0 = Mode(data)



                return mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Mode | None | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))


        def _parse_rebellion(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                rebellion_type_0 = cast(list[int], data)

                return rebellion_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        rebellion = _parse_rebellion(d.pop("rebellion", UNSET))


        rebellion_succeeded = d.pop("rebellion_succeeded", UNSET)

        def _parse_ruleset(data: object) -> None | RulesetSpec | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ruleset_type_1 = RulesetSpec.from_dict(data)



                return ruleset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RulesetSpec | str | Unset, data)

        ruleset = _parse_ruleset(d.pop("ruleset", UNSET))


        def _parse_snapshot(data: object) -> None | Snapshot | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                snapshot_type_0 = Snapshot.from_dict(data)



                return snapshot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Snapshot | Unset, data)

        snapshot = _parse_snapshot(d.pop("snapshot", UNSET))


        scores_request = cls(
            emperor=emperor,
            finished=finished,
            guard=guard,
            guard_revealed=guard_revealed,
            mode=mode,
            rebellion=rebellion,
            rebellion_succeeded=rebellion_succeeded,
            ruleset=ruleset,
            snapshot=snapshot,
        )

        return scores_request

