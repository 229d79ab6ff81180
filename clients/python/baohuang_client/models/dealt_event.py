from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.chosen_by import ChosenBy
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.snapshot import Snapshot





T = TypeVar("T", bound="DealtEvent")



@_attrs_define
class DealtEvent:
    """ For the record (platforms only): the deal's first snapshot and the seed it was dealt from
    (``None`` for a snapshot the platform gave, and for a committed deal, whose seed
    ``deal_over`` reveals), so that the log alone replays the deal; ``chosen_by``: who chose that
    seed or snapshot (``service`` for a seed it drew, or a committed deal).

        Attributes:
            deal (int):
            seed (int | None):
            snapshot (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
            type_ (Literal['dealt']):
            at (float | Unset):
            chosen_by (ChosenBy | None | Unset):
            id (str | Unset):
            seq (int | Unset):
            version (int | Unset):
     """

    deal: int
    seed: int | None
    snapshot: Snapshot
    type_: Literal['dealt']
    at: float | Unset = UNSET
    chosen_by: ChosenBy | None | Unset = UNSET
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

        chosen_by: None | str | Unset
        if isinstance(self.chosen_by, Unset):
            chosen_by = UNSET
        elif isinstance(self.chosen_by, ChosenBy):
            chosen_by = self.chosen_by.value
        else:
            chosen_by = self.chosen_by

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
        if chosen_by is not UNSET:
            field_dict["chosen_by"] = chosen_by
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

        def _parse_chosen_by(data: object) -> ChosenBy | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                chosen_by_type_0 = ChosenBy(data)



                return chosen_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChosenBy | None | Unset, data)

        chosen_by = _parse_chosen_by(d.pop("chosen_by", UNSET))


        id = d.pop("id", UNSET)

        seq = d.pop("seq", UNSET)

        version = d.pop("version", UNSET)

        dealt_event = cls(
            deal=deal,
            seed=seed,
            snapshot=snapshot,
            type_=type_,
            at=at,
            chosen_by=chosen_by,
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
