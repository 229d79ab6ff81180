from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.chosen_by import ChosenBy
from ..models.dealing_method import DealingMethod
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Dealing")



@_attrs_define
class Dealing:
    """ How the current deal is dealt (docs/dealing.md), shown to every caller.

    ``committed``: by the service, from a seed it committed to before any card was dealt —
    ``commitment`` is the seed's SHA-256, ``algorithm`` how the cards follow from it — mixed with
    the ``entropy`` each seat added (``null``: none yet, or none), which seats may add until
    ``closes`` (seconds since the Unix epoch; ``null`` once dealt; ``seconds``: how long the
    table gives them); ``seed`` reveals it once the deal is over. ``seed``: dealt from a seed
    (SplitMix64) the platform passed or the service drew (``chosen_by``), which only the platform
    sees. ``snapshot``: the platform gave the deal's snapshot.

        Attributes:
            algorithm (None | str | Unset):
            chosen_by (ChosenBy | Unset):
            closes (float | None | Unset):
            commitment (None | str | Unset):
            entropy (list[None | str] | None | Unset):
            method (DealingMethod | Unset):
            seconds (int | None | Unset):
            seed (None | str | Unset):
     """

    algorithm: None | str | Unset = UNSET
    chosen_by: ChosenBy | Unset = UNSET
    closes: float | None | Unset = UNSET
    commitment: None | str | Unset = UNSET
    entropy: list[None | str] | None | Unset = UNSET
    method: DealingMethod | Unset = UNSET
    seconds: int | None | Unset = UNSET
    seed: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        algorithm: None | str | Unset
        if isinstance(self.algorithm, Unset):
            algorithm = UNSET
        else:
            algorithm = self.algorithm

        chosen_by: str | Unset = UNSET
        if not isinstance(self.chosen_by, Unset):
            chosen_by = self.chosen_by.value


        closes: float | None | Unset
        if isinstance(self.closes, Unset):
            closes = UNSET
        else:
            closes = self.closes

        commitment: None | str | Unset
        if isinstance(self.commitment, Unset):
            commitment = UNSET
        else:
            commitment = self.commitment

        entropy: list[None | str] | None | Unset
        if isinstance(self.entropy, Unset):
            entropy = UNSET
        elif isinstance(self.entropy, list):
            entropy = []
            for entropy_type_0_item_data in self.entropy:
                entropy_type_0_item: None | str
                entropy_type_0_item = entropy_type_0_item_data
                entropy.append(entropy_type_0_item)


        else:
            entropy = self.entropy

        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value


        seconds: int | None | Unset
        if isinstance(self.seconds, Unset):
            seconds = UNSET
        else:
            seconds = self.seconds

        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if algorithm is not UNSET:
            field_dict["algorithm"] = algorithm
        if chosen_by is not UNSET:
            field_dict["chosen_by"] = chosen_by
        if closes is not UNSET:
            field_dict["closes"] = closes
        if commitment is not UNSET:
            field_dict["commitment"] = commitment
        if entropy is not UNSET:
            field_dict["entropy"] = entropy
        if method is not UNSET:
            field_dict["method"] = method
        if seconds is not UNSET:
            field_dict["seconds"] = seconds
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_algorithm(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        algorithm = _parse_algorithm(d.pop("algorithm", UNSET))


        _chosen_by = d.pop("chosen_by", UNSET)
        chosen_by: ChosenBy | Unset
        if isinstance(_chosen_by,  Unset):
            chosen_by = UNSET
        else:
            chosen_by = ChosenBy(_chosen_by)




        def _parse_closes(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        closes = _parse_closes(d.pop("closes", UNSET))


        def _parse_commitment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        commitment = _parse_commitment(d.pop("commitment", UNSET))


        def _parse_entropy(data: object) -> list[None | str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                entropy_type_0 = []
                _entropy_type_0 = data
                for entropy_type_0_item_data in (_entropy_type_0):
                    def _parse_entropy_type_0_item(data: object) -> None | str:
                        if data is None:
                            return data
                        return cast(None | str, data)

                    entropy_type_0_item = _parse_entropy_type_0_item(entropy_type_0_item_data)

                    entropy_type_0.append(entropy_type_0_item)

                return entropy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[None | str] | None | Unset, data)

        entropy = _parse_entropy(d.pop("entropy", UNSET))


        _method = d.pop("method", UNSET)
        method: DealingMethod | Unset
        if isinstance(_method,  Unset):
            method = UNSET
        else:
            method = DealingMethod(_method)




        def _parse_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seconds = _parse_seconds(d.pop("seconds", UNSET))


        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))


        dealing = cls(
            algorithm=algorithm,
            chosen_by=chosen_by,
            closes=closes,
            commitment=commitment,
            entropy=entropy,
            method=method,
            seconds=seconds,
            seed=seed,
        )


        dealing.additional_properties = d
        return dealing

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
