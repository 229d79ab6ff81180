from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.clock import Clock
  from ..models.snapshot import Snapshot
  from ..models.webhook import Webhook





T = TypeVar("T", bound="PutTable")



@_attrs_define
class PutTable:
    """ 
        Attributes:
            snapshot (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
            clock (Clock | None | Unset):
            webhook (None | Unset | Webhook):
     """

    snapshot: Snapshot
    clock: Clock | None | Unset = UNSET
    webhook: None | Unset | Webhook = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.webhook import Webhook # noqa: PLC0415
        snapshot = self.snapshot.to_dict()

        clock: dict[str, Any] | None | Unset
        if isinstance(self.clock, Unset):
            clock = UNSET
        elif isinstance(self.clock, Clock):
            clock = self.clock.to_dict()
        else:
            clock = self.clock

        webhook: dict[str, Any] | None | Unset
        if isinstance(self.webhook, Unset):
            webhook = UNSET
        elif isinstance(self.webhook, Webhook):
            webhook = self.webhook.to_dict()
        else:
            webhook = self.webhook


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "snapshot": snapshot,
        })
        if clock is not UNSET:
            field_dict["clock"] = clock
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.webhook import Webhook # noqa: PLC0415
        d = dict(src_dict)
        snapshot = Snapshot.from_dict(d.pop("snapshot"))




        def _parse_clock(data: object) -> Clock | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clock_type_0 = Clock.from_dict(data)



                return clock_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Clock | None | Unset, data)

        clock = _parse_clock(d.pop("clock", UNSET))


        def _parse_webhook(data: object) -> None | Unset | Webhook:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                webhook_type_0 = Webhook.from_dict(data)



                return webhook_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | Webhook, data)

        webhook = _parse_webhook(d.pop("webhook", UNSET))


        put_table = cls(
            snapshot=snapshot,
            clock=clock,
            webhook=webhook,
        )

        return put_table

