from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PostEntropy")



@_attrs_define
class PostEntropy:
    """ 
        Attributes:
            entropy (str): 1 to 64 bytes of the seat's own choosing, as lowercase hex digits (e.g. from a browser's
                crypto.getRandomValues)
     """

    entropy: str





    def to_dict(self) -> dict[str, Any]:
        entropy = self.entropy


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "entropy": entropy,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entropy = d.pop("entropy")

        post_entropy = cls(
            entropy=entropy,
        )

        return post_entropy

