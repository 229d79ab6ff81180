from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PostTrustee")



@_attrs_define
class PostTrustee:
    """ 
        Attributes:
            on (bool):
            version (int): the version the client saw
     """

    on: bool
    version: int





    def to_dict(self) -> dict[str, Any]:
        on = self.on

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "on": on,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        on = d.pop("on")

        version = d.pop("version")

        post_trustee = cls(
            on=on,
            version=version,
        )

        return post_trustee

