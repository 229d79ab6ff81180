from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Webhook")



@_attrs_define
class Webhook:
    """ Where a table's chosen ``events`` (by type, e.g. ``deal_over``) are POSTed.

        Attributes:
            events (list[str]):
            url (str): An http:// or https:// URL outside the service's network, without credentials (checked at PUT and
                before every delivery: WEBHOOK_URL_REFUSED)
     """

    events: list[str]
    url: str





    def to_dict(self) -> dict[str, Any]:
        events = self.events



        url = self.url


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "events": events,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        events = cast(list[str], d.pop("events"))


        url = d.pop("url")

        webhook = cls(
            events=events,
            url=url,
        )

        return webhook

