from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="RotatedToken")



@_attrs_define
class RotatedToken:
    """ A new token for ``seat`` (``null``: the spectators' token), the seat changing hands:
    every earlier token of it is refused (401 ``TOKEN_REVOKED``) from now on. ``generation``
    counts the tokens issued for it (``PUT``'s is 0); ``version`` is the write that logged the
    ``token_rotated`` event.

        Attributes:
            generation (int):
            instance (str):
            seat (int | None):
            token (str):
            version (int):
     """

    generation: int
    instance: str
    seat: int | None
    token: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        generation = self.generation

        instance = self.instance

        seat: int | None
        seat = self.seat

        token = self.token

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "generation": generation,
            "instance": instance,
            "seat": seat,
            "token": token,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        generation = d.pop("generation")

        instance = d.pop("instance")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))


        token = d.pop("token")

        version = d.pop("version")

        rotated_token = cls(
            generation=generation,
            instance=instance,
            seat=seat,
            token=token,
            version=version,
        )


        rotated_token.additional_properties = d
        return rotated_token

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
