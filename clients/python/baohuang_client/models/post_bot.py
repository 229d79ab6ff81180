from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.level import Level
from typing import cast






T = TypeVar("T", bound="PostBot")



@_attrs_define
class PostBot:
    """ 
        Attributes:
            level (Level | None): the bot's level; null: a person plays the seat
            version (int): the version the client saw
     """

    level: Level | None
    version: int





    def to_dict(self) -> dict[str, Any]:
        level: None | str
        if isinstance(self.level, Level):
            level = self.level.value
        else:
            level = self.level

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "level": level,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_level(data: object) -> Level | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                level_type_0 = Level(data)



                return level_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Level | None, data)

        level = _parse_level(d.pop("level"))


        version = d.pop("version")

        post_bot = cls(
            level=level,
            version=version,
        )

        return post_bot

