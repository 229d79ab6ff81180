from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.seat_view import SeatView
  from ..models.table_state import TableState





T = TypeVar("T", bound="SeatTable")



@_attrs_define
class SeatTable:
    """ A table as its caller may see it: the whole snapshot (platform), a seat view (seat
    token) or the public view (spectator token), ``audience`` saying which; ``table``: the clock, 托管, deals and totals
    around the deal, the same for everyone; ``last_seq``: the ``seq`` of the table's last logged
    event, where a client starts following it, and ``last_event_id`` that event's id (what to
    poll ``after`` or resume from: see :mod:`.positions`).

        Attributes:
            audience (Literal['seat']): A seat token's answer: `view` is its seat's `SeatView`
            id (str):
            instance (str):
            table (TableState): The table around the deal, shown to every caller.

                ``deal``: the deal's number at this table (1, 2, …); ``dealer``: the seat it was dealt from
                (``None`` for a snapshot the platform gave); ``deadline``: when the seat to act runs out of
                time (seconds since the Unix epoch; ``None`` when no clock runs; while a committed deal waits
                for the seats' entropy, when its window closes); ``totals[seat]``: the sum of
                the finished deals' scores; ``penalties[seat]``: S-9's charges so far (negative), apart from
                the zero-sum totals;
                ``results``: the finished deals' results, in order: the newest ``BAOHUANG_DEALS_KEPT`` of
                them once the next deal starts (the totals go on adding every deal up); ``dealing``: how the
                current deal is dealt (:class:`Dealing`: a committed deal's commitment, for everyone).
            version (int):
            view (SeatView): One seat's view: the public view plus the seat's own hand, and the guard when this seat
                is the guard (G-8).
            last_event_id (str | Unset): Default: `"0"`.
            last_seq (int | Unset): Default: `0`.
     """

    audience: Literal['seat']
    id: str
    instance: str
    table: TableState
    version: int
    view: SeatView
    last_event_id: str | Unset = UNSET
    last_seq: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_view import SeatView # noqa: PLC0415
        from ..models.table_state import TableState # noqa: PLC0415
        audience = self.audience

        id = self.id

        instance = self.instance

        table = self.table.to_dict()

        version = self.version

        view = self.view.to_dict()

        last_event_id = self.last_event_id

        last_seq = self.last_seq


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "audience": audience,
            "id": id,
            "instance": instance,
            "table": table,
            "version": version,
            "view": view,
        })
        if last_event_id is not UNSET:
            field_dict["last_event_id"] = last_event_id
        if last_seq is not UNSET:
            field_dict["last_seq"] = last_seq

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_view import SeatView # noqa: PLC0415
        from ..models.table_state import TableState # noqa: PLC0415
        d = dict(src_dict)
        audience = cast(Literal['seat'] , d.pop("audience"))
        if audience != 'seat':
            raise ValueError(f"audience must match const 'seat', got '{audience}'")

        id = d.pop("id")

        instance = d.pop("instance")

        table = TableState.from_dict(d.pop("table"))




        version = d.pop("version")

        view = SeatView.from_dict(d.pop("view"))




        last_event_id = d.pop("last_event_id", UNSET)

        last_seq = d.pop("last_seq", UNSET)

        seat_table = cls(
            audience=audience,
            id=id,
            instance=instance,
            table=table,
            version=version,
            view=view,
            last_event_id=last_event_id,
            last_seq=last_seq,
        )


        seat_table.additional_properties = d
        return seat_table

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
