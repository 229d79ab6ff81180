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






T = TypeVar("T", bound="SeededDealing")



@_attrs_define
class SeededDealing:
    """ Dealt from a 64-bit ``seed`` (SplitMix64, docs/dealing.md) that the platform passed or
    the service drew (``chosen_by``; null in records of deals logged before it was said). Only
    a full record shows the seed: it deals every hand.

        Attributes:
            method (Literal['seed']):
            chosen_by (ChosenBy | None | Unset):
            seed (int | None | Unset):
     """

    method: Literal['seed']
    chosen_by: ChosenBy | None | Unset = UNSET
    seed: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        method = self.method

        chosen_by: None | str | Unset
        if isinstance(self.chosen_by, Unset):
            chosen_by = UNSET
        elif isinstance(self.chosen_by, ChosenBy):
            chosen_by = self.chosen_by.value
        else:
            chosen_by = self.chosen_by

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "method": method,
        })
        if chosen_by is not UNSET:
            field_dict["chosen_by"] = chosen_by
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        method = cast(Literal['seed'] , d.pop("method"))
        if method != 'seed':
            raise ValueError(f"method must match const 'seed', got '{method}'")

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


        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))


        seeded_dealing = cls(
            method=method,
            chosen_by=chosen_by,
            seed=seed,
        )


        seeded_dealing.additional_properties = d
        return seeded_dealing

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
