from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="CommittedDealing")



@_attrs_define
class CommittedDealing:
    """ Dealt by the service from a seed it committed to before any card was dealt:
    ``commitment`` is the seed's SHA-256, ``algorithm`` how the cards follow from the seed and
    the ``entropy`` each seat added (null: none), ``seed`` the seed, revealed once the deal is
    over (null before).

        Attributes:
            algorithm (str):
            commitment (str):
            entropy (list[None | str]):
            method (Literal['committed']):
            seed (None | str | Unset):
     """

    algorithm: str
    commitment: str
    entropy: list[None | str]
    method: Literal['committed']
    seed: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        algorithm = self.algorithm

        commitment = self.commitment

        entropy = []
        for entropy_item_data in self.entropy:
            entropy_item: None | str
            entropy_item = entropy_item_data
            entropy.append(entropy_item)



        method = self.method

        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "algorithm": algorithm,
            "commitment": commitment,
            "entropy": entropy,
            "method": method,
        })
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        algorithm = d.pop("algorithm")

        commitment = d.pop("commitment")

        entropy = []
        _entropy = d.pop("entropy")
        for entropy_item_data in (_entropy):
            def _parse_entropy_item(data: object) -> None | str:
                if data is None:
                    return data
                return cast(None | str, data)

            entropy_item = _parse_entropy_item(entropy_item_data)

            entropy.append(entropy_item)


        method = cast(Literal['committed'] , d.pop("method"))
        if method != 'committed':
            raise ValueError(f"method must match const 'committed', got '{method}'")

        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))


        committed_dealing = cls(
            algorithm=algorithm,
            commitment=commitment,
            entropy=entropy,
            method=method,
            seed=seed,
        )


        committed_dealing.additional_properties = d
        return committed_dealing

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
