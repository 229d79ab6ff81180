from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.level import Level
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.history_event import HistoryEvent
  from ..models.seat_view import SeatView





T = TypeVar("T", bound="SuggestRequest")



@_attrs_define
class SuggestRequest:
    """ ``view``: the seat's view (what ``GET /v1/tables/{id}`` shows a seat token); ``history``: the deal's events, oldest
    first (may be empty);
    ``level``: ``heuristic`` (fast) or ``search``; ``budget_ms``: the search's time (default
    1000, at most 2000); ``seed``: which hands the search imagines for the others.

        Attributes:
            view (SeatView): One seat's view: the public view plus the seat's own hand, and the guard when this seat
                is the guard (G-8).
            budget_ms (int | None | Unset):
            history (list[HistoryEvent] | Unset): Default: `[]`.
            level (Level | Unset):
            seed (int | Unset): Default: `0`.
     """

    view: SeatView
    budget_ms: int | None | Unset = UNSET
    history: list[HistoryEvent] | Unset = UNSET
    level: Level | Unset = UNSET
    seed: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.history_event import HistoryEvent # noqa: PLC0415
        from ..models.seat_view import SeatView # noqa: PLC0415
        view = self.view.to_dict()

        budget_ms: int | None | Unset
        if isinstance(self.budget_ms, Unset):
            budget_ms = UNSET
        else:
            budget_ms = self.budget_ms

        history: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.history, Unset):
            history = []
            for history_item_data in self.history:
                history_item = history_item_data.to_dict()
                history.append(history_item)



        level: str | Unset = UNSET
        if not isinstance(self.level, Unset):
            level = self.level.value


        seed = self.seed


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "view": view,
        })
        if budget_ms is not UNSET:
            field_dict["budget_ms"] = budget_ms
        if history is not UNSET:
            field_dict["history"] = history
        if level is not UNSET:
            field_dict["level"] = level
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.history_event import HistoryEvent # noqa: PLC0415
        from ..models.seat_view import SeatView # noqa: PLC0415
        d = dict(src_dict)
        view = SeatView.from_dict(d.pop("view"))




        def _parse_budget_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        budget_ms = _parse_budget_ms(d.pop("budget_ms", UNSET))


        _history = d.pop("history", UNSET)
        history: list[HistoryEvent] | Unset = UNSET
        if _history is not UNSET:
            history = []
            for history_item_data in _history:
                history_item = HistoryEvent.from_dict(history_item_data)



                history.append(history_item)


        _level = d.pop("level", UNSET)
        level: Level | Unset
        if isinstance(_level,  Unset):
            level = UNSET
        else:
            level = Level(_level)




        seed = d.pop("seed", UNSET)

        suggest_request = cls(
            view=view,
            budget_ms=budget_ms,
            history=history,
            level=level,
            seed=seed,
        )

        return suggest_request

