from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.accepted_event import AcceptedEvent
  from ..models.called_event import CalledEvent
  from ..models.clock_event import ClockEvent
  from ..models.crown_forced_event import CrownForcedEvent
  from ..models.crown_passed_event import CrownPassedEvent
  from ..models.deal_committed_event import DealCommittedEvent
  from ..models.deal_over_event import DealOverEvent
  from ..models.deal_started_event import DealStartedEvent
  from ..models.deal_void_event import DealVoidEvent
  from ..models.dealt_event import DealtEvent
  from ..models.declined_event import DeclinedEvent
  from ..models.entropy_event import EntropyEvent
  from ..models.finished_event import FinishedEvent
  from ..models.grabbed_event import GrabbedEvent
  from ..models.jiefeng_event import JiefengEvent
  from ..models.left_event import LeftEvent
  from ..models.move_event import MoveEvent
  from ..models.passed_event import PassedEvent
  from ..models.phase_event import PhaseEvent
  from ..models.played_event import PlayedEvent
  from ..models.reason import Reason
  from ..models.rebelled_event import RebelledEvent
  from ..models.revealed_event import RevealedEvent
  from ..models.snapshot import Snapshot
  from ..models.solo_declared_event import SoloDeclaredEvent
  from ..models.token_rotated_event import TokenRotatedEvent
  from ..models.trick_won_event import TrickWonEvent
  from ..models.trustee_event import TrusteeEvent
  from ..models.yielded_event import YieldedEvent





T = TypeVar("T", bound="ValidateResult")



@_attrs_define
class ValidateResult:
    """ ``legal: true`` with the next snapshot and the move's events, or ``legal: false`` and why.

        Attributes:
            legal (bool):
            events (list[AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent
                | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent |
                GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent |
                RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent] | None |
                Unset):
            reason (None | Reason | Unset):
            snapshot (None | Snapshot | Unset):
     """

    legal: bool
    events: list[AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent | GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent | RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent] | None | Unset = UNSET
    reason: None | Reason | Unset = UNSET
    snapshot: None | Snapshot | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.accepted_event import AcceptedEvent # noqa: PLC0415
        from ..models.called_event import CalledEvent # noqa: PLC0415
        from ..models.clock_event import ClockEvent # noqa: PLC0415
        from ..models.crown_forced_event import CrownForcedEvent # noqa: PLC0415
        from ..models.crown_passed_event import CrownPassedEvent # noqa: PLC0415
        from ..models.deal_committed_event import DealCommittedEvent # noqa: PLC0415
        from ..models.deal_over_event import DealOverEvent # noqa: PLC0415
        from ..models.deal_started_event import DealStartedEvent # noqa: PLC0415
        from ..models.deal_void_event import DealVoidEvent # noqa: PLC0415
        from ..models.dealt_event import DealtEvent # noqa: PLC0415
        from ..models.declined_event import DeclinedEvent # noqa: PLC0415
        from ..models.entropy_event import EntropyEvent # noqa: PLC0415
        from ..models.finished_event import FinishedEvent # noqa: PLC0415
        from ..models.grabbed_event import GrabbedEvent # noqa: PLC0415
        from ..models.jiefeng_event import JiefengEvent # noqa: PLC0415
        from ..models.left_event import LeftEvent # noqa: PLC0415
        from ..models.move_event import MoveEvent # noqa: PLC0415
        from ..models.passed_event import PassedEvent # noqa: PLC0415
        from ..models.phase_event import PhaseEvent # noqa: PLC0415
        from ..models.played_event import PlayedEvent # noqa: PLC0415
        from ..models.reason import Reason # noqa: PLC0415
        from ..models.rebelled_event import RebelledEvent # noqa: PLC0415
        from ..models.revealed_event import RevealedEvent # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.solo_declared_event import SoloDeclaredEvent # noqa: PLC0415
        from ..models.token_rotated_event import TokenRotatedEvent # noqa: PLC0415
        from ..models.trick_won_event import TrickWonEvent # noqa: PLC0415
        from ..models.trustee_event import TrusteeEvent # noqa: PLC0415
        from ..models.yielded_event import YieldedEvent # noqa: PLC0415
        legal = self.legal

        events: list[dict[str, Any]] | None | Unset
        if isinstance(self.events, Unset):
            events = UNSET
        elif isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item: dict[str, Any]
                if isinstance(events_type_0_item_data, PlayedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, PassedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, YieldedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, JiefengEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, TrickWonEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, FinishedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, DealOverEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, CrownPassedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, CrownForcedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, AcceptedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, DeclinedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, GrabbedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, CalledEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, SoloDeclaredEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, RevealedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, RebelledEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, DealVoidEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, PhaseEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, ClockEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, TrusteeEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, LeftEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, TokenRotatedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, DealCommittedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, EntropyEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, DealStartedEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                elif isinstance(events_type_0_item_data, DealtEvent):
                    events_type_0_item = events_type_0_item_data.to_dict()
                else:
                    events_type_0_item = events_type_0_item_data.to_dict()

                events.append(events_type_0_item)


        else:
            events = self.events

        reason: dict[str, Any] | None | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        elif isinstance(self.reason, Reason):
            reason = self.reason.to_dict()
        else:
            reason = self.reason

        snapshot: dict[str, Any] | None | Unset
        if isinstance(self.snapshot, Unset):
            snapshot = UNSET
        elif isinstance(self.snapshot, Snapshot):
            snapshot = self.snapshot.to_dict()
        else:
            snapshot = self.snapshot


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "legal": legal,
        })
        if events is not UNSET:
            field_dict["events"] = events
        if reason is not UNSET:
            field_dict["reason"] = reason
        if snapshot is not UNSET:
            field_dict["snapshot"] = snapshot

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accepted_event import AcceptedEvent # noqa: PLC0415
        from ..models.called_event import CalledEvent # noqa: PLC0415
        from ..models.clock_event import ClockEvent # noqa: PLC0415
        from ..models.crown_forced_event import CrownForcedEvent # noqa: PLC0415
        from ..models.crown_passed_event import CrownPassedEvent # noqa: PLC0415
        from ..models.deal_committed_event import DealCommittedEvent # noqa: PLC0415
        from ..models.deal_over_event import DealOverEvent # noqa: PLC0415
        from ..models.deal_started_event import DealStartedEvent # noqa: PLC0415
        from ..models.deal_void_event import DealVoidEvent # noqa: PLC0415
        from ..models.dealt_event import DealtEvent # noqa: PLC0415
        from ..models.declined_event import DeclinedEvent # noqa: PLC0415
        from ..models.entropy_event import EntropyEvent # noqa: PLC0415
        from ..models.finished_event import FinishedEvent # noqa: PLC0415
        from ..models.grabbed_event import GrabbedEvent # noqa: PLC0415
        from ..models.jiefeng_event import JiefengEvent # noqa: PLC0415
        from ..models.left_event import LeftEvent # noqa: PLC0415
        from ..models.move_event import MoveEvent # noqa: PLC0415
        from ..models.passed_event import PassedEvent # noqa: PLC0415
        from ..models.phase_event import PhaseEvent # noqa: PLC0415
        from ..models.played_event import PlayedEvent # noqa: PLC0415
        from ..models.reason import Reason # noqa: PLC0415
        from ..models.rebelled_event import RebelledEvent # noqa: PLC0415
        from ..models.revealed_event import RevealedEvent # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.solo_declared_event import SoloDeclaredEvent # noqa: PLC0415
        from ..models.token_rotated_event import TokenRotatedEvent # noqa: PLC0415
        from ..models.trick_won_event import TrickWonEvent # noqa: PLC0415
        from ..models.trustee_event import TrusteeEvent # noqa: PLC0415
        from ..models.yielded_event import YieldedEvent # noqa: PLC0415
        d = dict(src_dict)
        legal = d.pop("legal")

        def _parse_events(data: object) -> list[AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent | GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent | RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                events_type_0 = []
                _events_type_0 = data
                for events_type_0_item_data in (_events_type_0):
                    def _parse_events_type_0_item(data: object) -> AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent | GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent | RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_0 = PlayedEvent.from_dict(data)



                            return events_type_0_item_type_0
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_1 = PassedEvent.from_dict(data)



                            return events_type_0_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_2 = YieldedEvent.from_dict(data)



                            return events_type_0_item_type_2
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_3 = JiefengEvent.from_dict(data)



                            return events_type_0_item_type_3
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_4 = TrickWonEvent.from_dict(data)



                            return events_type_0_item_type_4
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_5 = FinishedEvent.from_dict(data)



                            return events_type_0_item_type_5
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_6 = DealOverEvent.from_dict(data)



                            return events_type_0_item_type_6
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_7 = CrownPassedEvent.from_dict(data)



                            return events_type_0_item_type_7
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_8 = CrownForcedEvent.from_dict(data)



                            return events_type_0_item_type_8
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_9 = AcceptedEvent.from_dict(data)



                            return events_type_0_item_type_9
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_10 = DeclinedEvent.from_dict(data)



                            return events_type_0_item_type_10
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_11 = GrabbedEvent.from_dict(data)



                            return events_type_0_item_type_11
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_12 = CalledEvent.from_dict(data)



                            return events_type_0_item_type_12
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_13 = SoloDeclaredEvent.from_dict(data)



                            return events_type_0_item_type_13
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_14 = RevealedEvent.from_dict(data)



                            return events_type_0_item_type_14
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_15 = RebelledEvent.from_dict(data)



                            return events_type_0_item_type_15
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_16 = DealVoidEvent.from_dict(data)



                            return events_type_0_item_type_16
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_17 = PhaseEvent.from_dict(data)



                            return events_type_0_item_type_17
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_18 = ClockEvent.from_dict(data)



                            return events_type_0_item_type_18
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_19 = TrusteeEvent.from_dict(data)



                            return events_type_0_item_type_19
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_20 = LeftEvent.from_dict(data)



                            return events_type_0_item_type_20
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_21 = TokenRotatedEvent.from_dict(data)



                            return events_type_0_item_type_21
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_22 = DealCommittedEvent.from_dict(data)



                            return events_type_0_item_type_22
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_23 = EntropyEvent.from_dict(data)



                            return events_type_0_item_type_23
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_24 = DealStartedEvent.from_dict(data)



                            return events_type_0_item_type_24
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            events_type_0_item_type_25 = DealtEvent.from_dict(data)



                            return events_type_0_item_type_25
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        if not isinstance(data, dict):
                            raise TypeError()
                        events_type_0_item_type_26 = MoveEvent.from_dict(data)



                        return events_type_0_item_type_26

                    events_type_0_item = _parse_events_type_0_item(events_type_0_item_data)

                    events_type_0.append(events_type_0_item)

                return events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent | GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent | RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent] | None | Unset, data)

        events = _parse_events(d.pop("events", UNSET))


        def _parse_reason(data: object) -> None | Reason | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_0 = Reason.from_dict(data)



                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Reason | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


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


        validate_result = cls(
            legal=legal,
            events=events,
            reason=reason,
            snapshot=snapshot,
        )


        validate_result.additional_properties = d
        return validate_result

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
