from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Pair")



@_attrs_define
class Pair:
    """ 
        Attributes:
            candidate (list[str]):
            previous (list[str]):
     """

    candidate: list[str]
    previous: list[str]





    def to_dict(self) -> dict[str, Any]:
        candidate = self.candidate



        previous = self.previous




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "candidate": candidate,
            "previous": previous,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        candidate = cast(list[str], d.pop("candidate"))


        previous = cast(list[str], d.pop("previous"))


        pair = cls(
            candidate=candidate,
            previous=previous,
        )

        return pair

