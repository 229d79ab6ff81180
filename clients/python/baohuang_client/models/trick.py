from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trick_circle import TrickCircle
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.top_play import TopPlay





T = TypeVar("T", bound="Trick")



@_attrs_define
class Trick:
    """ The trick in progress. ``top`` is ``None`` when ``turn`` must lead (T-3).

    ``passed``/``yielded``: the seats that passed or yielded on ``top`` (T-4, T-6); a yielder who
    passes in the second circle moves from ``yielded`` to ``passed``. ``circle`` is 1 or 2 (T-6).
    ``jiefeng``: the seat that declared 接风 on a 底牌 (T-7).

        Attributes:
            circle (TrickCircle | Unset): Default: `1`.
            jiefeng (int | None | Unset):
            passed (list[int] | Unset): Default: `[]`.
            top (None | TopPlay | Unset):
            yielded (list[int] | Unset): Default: `[]`.
     """

    circle: TrickCircle | Unset = UNSET
    jiefeng: int | None | Unset = UNSET
    passed: list[int] | Unset = UNSET
    top: None | TopPlay | Unset = UNSET
    yielded: list[int] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.top_play import TopPlay # noqa: PLC0415
        circle: int | Unset = UNSET
        if not isinstance(self.circle, Unset):
            circle = self.circle.value


        jiefeng: int | None | Unset
        if isinstance(self.jiefeng, Unset):
            jiefeng = UNSET
        else:
            jiefeng = self.jiefeng

        passed: list[int] | Unset = UNSET
        if not isinstance(self.passed, Unset):
            passed = self.passed



        top: dict[str, Any] | None | Unset
        if isinstance(self.top, Unset):
            top = UNSET
        elif isinstance(self.top, TopPlay):
            top = self.top.to_dict()
        else:
            top = self.top

        yielded: list[int] | Unset = UNSET
        if not isinstance(self.yielded, Unset):
            yielded = self.yielded




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if circle is not UNSET:
            field_dict["circle"] = circle
        if jiefeng is not UNSET:
            field_dict["jiefeng"] = jiefeng
        if passed is not UNSET:
            field_dict["passed"] = passed
        if top is not UNSET:
            field_dict["top"] = top
        if yielded is not UNSET:
            field_dict["yielded"] = yielded

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.top_play import TopPlay # noqa: PLC0415
        d = dict(src_dict)
        _circle = d.pop("circle", UNSET)
        circle: TrickCircle | Unset
        if isinstance(_circle,  Unset):
            circle = UNSET
        else:
            circle = TrickCircle(_circle)




        def _parse_jiefeng(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        jiefeng = _parse_jiefeng(d.pop("jiefeng", UNSET))


        passed = cast(list[int], d.pop("passed", UNSET))


        def _parse_top(data: object) -> None | TopPlay | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                top_type_0 = TopPlay.from_dict(data)



                return top_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TopPlay | Unset, data)

        top = _parse_top(d.pop("top", UNSET))


        yielded = cast(list[int], d.pop("yielded", UNSET))


        trick = cls(
            circle=circle,
            jiefeng=jiefeng,
            passed=passed,
            top=top,
            yielded=yielded,
        )

        return trick

