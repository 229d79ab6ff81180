from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PostDeal")



@_attrs_define
class PostDeal:
    """ 
        Attributes:
            version (int): the version the client saw
            committed (bool | None | Unset): Dealt by the service from a seed it commits to, the seats adding entropy
                (docs/dealing.md); by default as the deal before was. Not with `seed`
            entropy_seconds (int | None | Unset):
            seed (int | None | Unset): Deal from this seed (G-4, SplitMix64, taken mod 2^64); when absent, committed or from
                a seed the service draws (`committed`)
     """

    version: int
    committed: bool | None | Unset = UNSET
    entropy_seconds: int | None | Unset = UNSET
    seed: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        version = self.version

        committed: bool | None | Unset
        if isinstance(self.committed, Unset):
            committed = UNSET
        else:
            committed = self.committed

        entropy_seconds: int | None | Unset
        if isinstance(self.entropy_seconds, Unset):
            entropy_seconds = UNSET
        else:
            entropy_seconds = self.entropy_seconds

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "version": version,
        })
        if committed is not UNSET:
            field_dict["committed"] = committed
        if entropy_seconds is not UNSET:
            field_dict["entropy_seconds"] = entropy_seconds
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        def _parse_committed(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        committed = _parse_committed(d.pop("committed", UNSET))


        def _parse_entropy_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        entropy_seconds = _parse_entropy_seconds(d.pop("entropy_seconds", UNSET))


        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))


        post_deal = cls(
            version=version,
            committed=committed,
            entropy_seconds=entropy_seconds,
            seed=seed,
        )

        return post_deal

