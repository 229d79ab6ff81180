from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Index")



@_attrs_define
class Index:
    """ Where the API reference is: `docs` and `swagger` (Swagger UI, served from the package's
    own files), `openapi` (the OpenAPI document as JSON).

        Attributes:
            docs (str):
            name (str):
            openapi (str):
            swagger (str):
            version (str):
     """

    docs: str
    name: str
    openapi: str
    swagger: str
    version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        docs = self.docs

        name = self.name

        openapi = self.openapi

        swagger = self.swagger

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "docs": docs,
            "name": name,
            "openapi": openapi,
            "swagger": swagger,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        docs = d.pop("docs")

        name = d.pop("name")

        openapi = d.pop("openapi")

        swagger = d.pop("swagger")

        version = d.pop("version")

        index = cls(
            docs=docs,
            name=name,
            openapi=openapi,
            swagger=swagger,
            version=version,
        )


        index.additional_properties = d
        return index

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
