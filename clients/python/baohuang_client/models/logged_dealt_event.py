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





T = TypeVar("T", bound="LoggedDealtEvent")



@_attrs_define
class LoggedDealtEvent:
    """ 
        Attributes:
            deal (int):
            seed (int | None):
            snapshot (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
            type_ (Literal['dealt']):
            at (float): When the table logged it (seconds since the Unix epoch)
            id (str): `<seq>.<token>`: the seq and the token of the write that logged it (the stream's `id:`, `Last-Event-
                ID` and `after`)
            seq (int): 1, 2, 3 … per table instance
            version (int): The table version the event's write produced
            chosen_by (ChosenBy | None | Unset):
     """

    deal: int
    seed: int | None
    snapshot: Snapshot
    type_: Literal['dealt']
    at: float
    id: str
    seq: int
    version: int
    chosen_by: ChosenBy | None | Unset = UNSET
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

        chosen_by: None | str | Unset
        if isinstance(self.chosen_by, Unset):
            chosen_by = UNSET
        elif isinstance(self.chosen_by, ChosenBy):
            chosen_by = self.chosen_by.value
        else:
            chosen_by = self.chosen_by


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deal": deal,
            "seed": seed,
            "snapshot": snapshot,
            "type": type_,
            "at": at,
            "id": id,
            "seq": seq,
            "version": version,
        })
        if chosen_by is not UNSET:
            field_dict["chosen_by"] = chosen_by

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

        at = d.pop("at")

        id = d.pop("id")

        seq = d.pop("seq")

        version = d.pop("version")

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


        logged_dealt_event = cls(
            deal=deal,
            seed=seed,
            snapshot=snapshot,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
            chosen_by=chosen_by,
        )


        logged_dealt_event.additional_properties = d
        return logged_dealt_event

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
