from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trustee_level import TrusteeLevel
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.bot_seat import BotSeat
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
            bots (list[BotSeat] | Unset): Default: `[]`.
            clock (Clock | None | Unset):
            trustee_level (None | TrusteeLevel | Unset): Who plays a seat in 托管: T-10's move when absent (the rules'
                default), or this bot level (played as the heuristic)
            webhook (None | Unset | Webhook):
     """

    snapshot: Snapshot
    bots: list[BotSeat] | Unset = UNSET
    clock: Clock | None | Unset = UNSET
    trustee_level: None | TrusteeLevel | Unset = UNSET
    webhook: None | Unset | Webhook = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bot_seat import BotSeat # noqa: PLC0415
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.webhook import Webhook # noqa: PLC0415
        snapshot = self.snapshot.to_dict()

        bots: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.bots, Unset):
            bots = []
            for bots_item_data in self.bots:
                bots_item = bots_item_data.to_dict()
                bots.append(bots_item)



        clock: dict[str, Any] | None | Unset
        if isinstance(self.clock, Unset):
            clock = UNSET
        elif isinstance(self.clock, Clock):
            clock = self.clock.to_dict()
        else:
            clock = self.clock

        trustee_level: None | str | Unset
        if isinstance(self.trustee_level, Unset):
            trustee_level = UNSET
        elif isinstance(self.trustee_level, TrusteeLevel):
            trustee_level = self.trustee_level.value
        else:
            trustee_level = self.trustee_level

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
        if bots is not UNSET:
            field_dict["bots"] = bots
        if clock is not UNSET:
            field_dict["clock"] = clock
        if trustee_level is not UNSET:
            field_dict["trustee_level"] = trustee_level
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bot_seat import BotSeat # noqa: PLC0415
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.webhook import Webhook # noqa: PLC0415
        d = dict(src_dict)
        snapshot = Snapshot.from_dict(d.pop("snapshot"))




        _bots = d.pop("bots", UNSET)
        bots: list[BotSeat] | Unset = UNSET
        if _bots is not UNSET:
            bots = []
            for bots_item_data in _bots:
                bots_item = BotSeat.from_dict(bots_item_data)



                bots.append(bots_item)


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


        def _parse_trustee_level(data: object) -> None | TrusteeLevel | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                trustee_level_type_0 = TrusteeLevel(data)



                return trustee_level_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TrusteeLevel | Unset, data)

        trustee_level = _parse_trustee_level(d.pop("trustee_level", UNSET))


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
            bots=bots,
            clock=clock,
            trustee_level=trustee_level,
            webhook=webhook,
        )

        return put_table

