from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.snapshot import Snapshot





T = TypeVar("T", bound="SnapshotRequest")



@_attrs_define
class SnapshotRequest:
    """ 
        Attributes:
            snapshot (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
     """

    snapshot: Snapshot





    def to_dict(self) -> dict[str, Any]:
        from ..models.snapshot import Snapshot # noqa: PLC0415
        snapshot = self.snapshot.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "snapshot": snapshot,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.snapshot import Snapshot # noqa: PLC0415
        d = dict(src_dict)
        snapshot = Snapshot.from_dict(d.pop("snapshot"))




        snapshot_request = cls(
            snapshot=snapshot,
        )

        return snapshot_request

