from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.mode import Mode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PreviousDeal")



@_attrs_define
class PreviousDeal:
    """ The previous deal's roles and finishing order (P: it must be over, T-9). `finished` lists
    the seats in finishing order, as for `/v1/scores`: it stops at the deal's end, or goes on
    with the seats still holding cards in the order the platform ranks them, the side that
    finished first (T-9); the tribute follows the order given (who eats first, P-3, P-4).

        Attributes:
            emperor (int): T-1: seats 0–4 in the order of play
            finished (list[int]):
            mode (Mode):
            guard (int | None | Unset):
     """

    emperor: int
    finished: list[int]
    mode: Mode
    guard: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        emperor = self.emperor

        finished = self.finished



        mode = self.mode.value

        guard: int | None | Unset
        if isinstance(self.guard, Unset):
            guard = UNSET
        else:
            guard = self.guard


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "emperor": emperor,
            "finished": finished,
            "mode": mode,
        })
        if guard is not UNSET:
            field_dict["guard"] = guard

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        emperor = d.pop("emperor")

        finished = cast(list[int], d.pop("finished"))


        mode = Mode(d.pop("mode"))




        def _parse_guard(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        guard = _parse_guard(d.pop("guard", UNSET))


        previous_deal = cls(
            emperor=emperor,
            finished=finished,
            mode=mode,
            guard=guard,
        )

        return previous_deal

