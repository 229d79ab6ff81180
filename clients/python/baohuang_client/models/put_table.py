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
  from ..models.committed_deal import CommittedDeal
  from ..models.snapshot import Snapshot
  from ..models.webhook import Webhook





T = TypeVar("T", bound="PutTable")



@_attrs_define
class PutTable:
    """ 
        Attributes:
            bots (list[BotSeat] | Unset): Default: `[]`.
            clock (Clock | None | Unset):
            deal (CommittedDeal | None | Unset):
            snapshot (None | Snapshot | Unset):
            trustee_level (None | TrusteeLevel | Unset): Who plays a seat in 托管: T-10's move when absent (the rules'
                default), or this bot level (played as the heuristic)
            webhook (None | Unset | Webhook):
     """

    bots: list[BotSeat] | Unset = UNSET
    clock: Clock | None | Unset = UNSET
    deal: CommittedDeal | None | Unset = UNSET
    snapshot: None | Snapshot | Unset = UNSET
    trustee_level: None | TrusteeLevel | Unset = UNSET
    webhook: None | Unset | Webhook = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bot_seat import BotSeat # noqa: PLC0415
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.committed_deal import CommittedDeal # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.webhook import Webhook # noqa: PLC0415
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

        deal: dict[str, Any] | None | Unset
        if isinstance(self.deal, Unset):
            deal = UNSET
        elif isinstance(self.deal, CommittedDeal):
            deal = self.deal.to_dict()
        else:
            deal = self.deal

        snapshot: dict[str, Any] | None | Unset
        if isinstance(self.snapshot, Unset):
            snapshot = UNSET
        elif isinstance(self.snapshot, Snapshot):
            snapshot = self.snapshot.to_dict()
        else:
            snapshot = self.snapshot

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
        })
        if bots is not UNSET:
            field_dict["bots"] = bots
        if clock is not UNSET:
            field_dict["clock"] = clock
        if deal is not UNSET:
            field_dict["deal"] = deal
        if snapshot is not UNSET:
            field_dict["snapshot"] = snapshot
        if trustee_level is not UNSET:
            field_dict["trustee_level"] = trustee_level
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bot_seat import BotSeat # noqa: PLC0415
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.committed_deal import CommittedDeal # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.webhook import Webhook # noqa: PLC0415
        d = dict(src_dict)
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


        def _parse_deal(data: object) -> CommittedDeal | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                deal_type_0 = CommittedDeal.from_dict(data)



                return deal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CommittedDeal | None | Unset, data)

        deal = _parse_deal(d.pop("deal", UNSET))


        def _parse_snapshot(data: object) -> None | Snapshot | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                snapshot_type_0 = Snapshot.from_dict(data)



                return snapshot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Snapshot | Unset, data)

        snapshot = _parse_snapshot(d.pop("snapshot", UNSET))


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
            bots=bots,
            clock=clock,
            deal=deal,
            snapshot=snapshot,
            trustee_level=trustee_level,
            webhook=webhook,
        )

        return put_table

