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
  from ..models.snapshot import Snapshot





T = TypeVar("T", bound="DealtEvent")



@_attrs_define
class DealtEvent:
    """ For the record (platforms only): the deal's first snapshot and the seed it was dealt from
    (``None`` for a snapshot the platform gave), so that the log alone replays the deal.

        Attributes:
            deal (int):
            seed (int | None):
            snapshot (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
            type_ (Literal['dealt']):
            at (float | Unset):
            id (str | Unset):
            seq (int | Unset):
            version (int | Unset):
     """

    deal: int
    seed: int | None
    snapshot: Snapshot
    type_: Literal['dealt']
    at: float | Unset = UNSET
    id: str | Unset = UNSET
    seq: int | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.snapshot import Snapshot # noqa: PLC0415
        deal = self.deal

        seed: int | None
        seed = self.seed

        snapshot = self.snapshot.to_dict()

        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deal": deal,
            "seed": seed,
            "snapshot": snapshot,
            "type": type_,
        })
        if at is not UNSET:
            field_dict["at"] = at
        if id is not UNSET:
            field_dict["id"] = id
        if seq is not UNSET:
            field_dict["seq"] = seq
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.snapshot import Snapshot # noqa: PLC0415
        d = dict(src_dict)
        deal = d.pop("deal")

        def _parse_seed(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seed = _parse_seed(d.pop("seed"))


        snapshot = Snapshot.from_dict(d.pop("snapshot"))




        type_ = cast(Literal['dealt'] , d.pop("type"))
        if type_ != 'dealt':
            raise ValueError(f"type must match const 'dealt', got '{type_}'")

        at = d.pop("at", UNSET)

        id = d.pop("id", UNSET)

        seq = d.pop("seq", UNSET)

        version = d.pop("version", UNSET)

        dealt_event = cls(
            deal=deal,
            seed=seed,
            snapshot=snapshot,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
        )


        dealt_event.additional_properties = d
        return dealt_event

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
