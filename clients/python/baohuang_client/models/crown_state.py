from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.crown_state_stage import CrownStateStage
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CrownState")



@_attrs_define
class CrownState:
    """ Before the first play (G-4…G-8; engine/before_play/). Present exactly while ``phase`` is
    ``"crown"`` or ``"guard"`` (and kept on a void deal).

    ``first``: the seat first offered the crown (G-4). ``passes``: how many times the crown was
    handed on (让庄/让位) so far. ``pile``: the cards travelling with ``BJ*`` (贴2, G-6, G-7),
    held by nobody until a seat accepts. ``stage`` (guard phase only): ``"grab"`` the 抢独 round,
    ``"call"`` the emperor settles the guard, ``"declare"`` the 明保/造反 round; ``pending``: the
    seats still to answer in that stage, in order (``turn`` is the first).

        Attributes:
            first (int): T-1: seats 0–4 in the order of play
            passes (int | Unset): Default: `0`.
            pending (list[int] | Unset): Default: `[]`.
            pile (list[str] | Unset): Default: `[]`.
            stage (CrownStateStage | None | Unset):
     """

    first: int
    passes: int | Unset = UNSET
    pending: list[int] | Unset = UNSET
    pile: list[str] | Unset = UNSET
    stage: CrownStateStage | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        first = self.first

        passes = self.passes

        pending: list[int] | Unset = UNSET
        if not isinstance(self.pending, Unset):
            pending = self.pending



        pile: list[str] | Unset = UNSET
        if not isinstance(self.pile, Unset):
            pile = self.pile



        stage: None | str | Unset
        if isinstance(self.stage, Unset):
            stage = UNSET
        elif isinstance(self.stage, CrownStateStage):
            stage = self.stage.value
        else:
            stage = self.stage


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "first": first,
        })
        if passes is not UNSET:
            field_dict["passes"] = passes
        if pending is not UNSET:
            field_dict["pending"] = pending
        if pile is not UNSET:
            field_dict["pile"] = pile
        if stage is not UNSET:
            field_dict["stage"] = stage

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first = d.pop("first")

        passes = d.pop("passes", UNSET)

        pending = cast(list[int], d.pop("pending", UNSET))


        pile = cast(list[str], d.pop("pile", UNSET))


        def _parse_stage(data: object) -> CrownStateStage | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                stage_type_0 = CrownStateStage(data)



                return stage_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CrownStateStage | None | Unset, data)

        stage = _parse_stage(d.pop("stage", UNSET))


        crown_state = cls(
            first=first,
            passes=passes,
            pending=pending,
            pile=pile,
            stage=stage,
        )

        return crown_state

