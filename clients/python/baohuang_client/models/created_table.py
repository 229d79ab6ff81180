from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.snapshot import Snapshot
  from ..models.table_state import TableState





T = TypeVar("T", bound="CreatedTable")



@_attrs_define
class CreatedTable:
    """ A table just written by ``PUT``, with the tokens of its instance: ``seat_tokens[s]``
    acts for seat ``s``, ``spectator_token`` reads the public view.

        Attributes:
            id (str):
            instance (str):
            seat_tokens (list[str]):
            snapshot (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
            spectator_token (str):
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
     """

    id: str
    instance: str
    seat_tokens: list[str]
    snapshot: Snapshot
    spectator_token: str
    table: TableState
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.table_state import TableState # noqa: PLC0415
        id = self.id

        instance = self.instance

        seat_tokens = self.seat_tokens



        snapshot = self.snapshot.to_dict()

        spectator_token = self.spectator_token

        table = self.table.to_dict()

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "instance": instance,
            "seat_tokens": seat_tokens,
            "snapshot": snapshot,
            "spectator_token": spectator_token,
            "table": table,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.table_state import TableState # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        instance = d.pop("instance")

        seat_tokens = cast(list[str], d.pop("seat_tokens"))


        snapshot = Snapshot.from_dict(d.pop("snapshot"))




        spectator_token = d.pop("spectator_token")

        table = TableState.from_dict(d.pop("table"))




        version = d.pop("version")

        created_table = cls(
            id=id,
            instance=instance,
            seat_tokens=seat_tokens,
            snapshot=snapshot,
            spectator_token=spectator_token,
            table=table,
            version=version,
        )


        created_table.additional_properties = d
        return created_table

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
