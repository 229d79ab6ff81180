from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.logged_accepted_event import LoggedAcceptedEvent
  from ..models.logged_called_event import LoggedCalledEvent
  from ..models.logged_clock_event import LoggedClockEvent
  from ..models.logged_crown_forced_event import LoggedCrownForcedEvent
  from ..models.logged_crown_passed_event import LoggedCrownPassedEvent
  from ..models.logged_deal_committed_event import LoggedDealCommittedEvent
  from ..models.logged_deal_over_event import LoggedDealOverEvent
  from ..models.logged_deal_started_event import LoggedDealStartedEvent
  from ..models.logged_deal_void_event import LoggedDealVoidEvent
  from ..models.logged_dealt_event import LoggedDealtEvent
  from ..models.logged_declined_event import LoggedDeclinedEvent
  from ..models.logged_entropy_event import LoggedEntropyEvent
  from ..models.logged_finished_event import LoggedFinishedEvent
  from ..models.logged_grabbed_event import LoggedGrabbedEvent
  from ..models.logged_jiefeng_event import LoggedJiefengEvent
  from ..models.logged_left_event import LoggedLeftEvent
  from ..models.logged_move_event import LoggedMoveEvent
  from ..models.logged_passed_event import LoggedPassedEvent
  from ..models.logged_phase_event import LoggedPhaseEvent
  from ..models.logged_played_event import LoggedPlayedEvent
  from ..models.logged_rebelled_event import LoggedRebelledEvent
  from ..models.logged_revealed_event import LoggedRevealedEvent
  from ..models.logged_solo_declared_event import LoggedSoloDeclaredEvent
  from ..models.logged_token_rotated_event import LoggedTokenRotatedEvent
  from ..models.logged_trick_won_event import LoggedTrickWonEvent
  from ..models.logged_trustee_event import LoggedTrusteeEvent
  from ..models.logged_yielded_event import LoggedYieldedEvent





T = TypeVar("T", bound="EventsPage")



@_attrs_define
class EventsPage:
    """ Logged events after the event asked for, oldest first, cut to the caller; ``last_seq``
    is the table's last ``seq`` and ``last_event_id`` its id (ask again with
    ``after=last_event_id``). Events the caller may not see are left out, so their ``seq``
    numbers are missing.

    ``reset``: the log no longer holds the event asked for (a failover rolled it back, or it
    is past the log's end): no events; the client reads the table again (``GET``, its view as
    it now is) and polls on ``after`` that answer's ``last_event_id``.

        Attributes:
            events (list[LoggedAcceptedEvent | LoggedCalledEvent | LoggedClockEvent | LoggedCrownForcedEvent |
                LoggedCrownPassedEvent | LoggedDealCommittedEvent | LoggedDealOverEvent | LoggedDealStartedEvent |
                LoggedDealtEvent | LoggedDealVoidEvent | LoggedDeclinedEvent | LoggedEntropyEvent | LoggedFinishedEvent |
                LoggedGrabbedEvent | LoggedJiefengEvent | LoggedLeftEvent | LoggedMoveEvent | LoggedPassedEvent |
                LoggedPhaseEvent | LoggedPlayedEvent | LoggedRebelledEvent | LoggedRevealedEvent | LoggedSoloDeclaredEvent |
                LoggedTokenRotatedEvent | LoggedTrickWonEvent | LoggedTrusteeEvent | LoggedYieldedEvent]):
            instance (str):
            last_seq (int):
            version (int):
            last_event_id (str | Unset): Default: `"0"`.
            reset (bool | Unset): Default: `false`.
     """

    events: list[LoggedAcceptedEvent | LoggedCalledEvent | LoggedClockEvent | LoggedCrownForcedEvent | LoggedCrownPassedEvent | LoggedDealCommittedEvent | LoggedDealOverEvent | LoggedDealStartedEvent | LoggedDealtEvent | LoggedDealVoidEvent | LoggedDeclinedEvent | LoggedEntropyEvent | LoggedFinishedEvent | LoggedGrabbedEvent | LoggedJiefengEvent | LoggedLeftEvent | LoggedMoveEvent | LoggedPassedEvent | LoggedPhaseEvent | LoggedPlayedEvent | LoggedRebelledEvent | LoggedRevealedEvent | LoggedSoloDeclaredEvent | LoggedTokenRotatedEvent | LoggedTrickWonEvent | LoggedTrusteeEvent | LoggedYieldedEvent]
    instance: str
    last_seq: int
    version: int
    last_event_id: str | Unset = UNSET
    reset: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.logged_accepted_event import LoggedAcceptedEvent # noqa: PLC0415
        from ..models.logged_called_event import LoggedCalledEvent # noqa: PLC0415
        from ..models.logged_clock_event import LoggedClockEvent # noqa: PLC0415
        from ..models.logged_crown_forced_event import LoggedCrownForcedEvent # noqa: PLC0415
        from ..models.logged_crown_passed_event import LoggedCrownPassedEvent # noqa: PLC0415
        from ..models.logged_deal_committed_event import LoggedDealCommittedEvent # noqa: PLC0415
        from ..models.logged_deal_over_event import LoggedDealOverEvent # noqa: PLC0415
        from ..models.logged_deal_started_event import LoggedDealStartedEvent # noqa: PLC0415
        from ..models.logged_deal_void_event import LoggedDealVoidEvent # noqa: PLC0415
        from ..models.logged_dealt_event import LoggedDealtEvent # noqa: PLC0415
        from ..models.logged_declined_event import LoggedDeclinedEvent # noqa: PLC0415
        from ..models.logged_entropy_event import LoggedEntropyEvent # noqa: PLC0415
        from ..models.logged_finished_event import LoggedFinishedEvent # noqa: PLC0415
        from ..models.logged_grabbed_event import LoggedGrabbedEvent # noqa: PLC0415
        from ..models.logged_jiefeng_event import LoggedJiefengEvent # noqa: PLC0415
        from ..models.logged_left_event import LoggedLeftEvent # noqa: PLC0415
        from ..models.logged_move_event import LoggedMoveEvent # noqa: PLC0415
        from ..models.logged_passed_event import LoggedPassedEvent # noqa: PLC0415
        from ..models.logged_phase_event import LoggedPhaseEvent # noqa: PLC0415
        from ..models.logged_played_event import LoggedPlayedEvent # noqa: PLC0415
        from ..models.logged_rebelled_event import LoggedRebelledEvent # noqa: PLC0415
        from ..models.logged_revealed_event import LoggedRevealedEvent # noqa: PLC0415
        from ..models.logged_solo_declared_event import LoggedSoloDeclaredEvent # noqa: PLC0415
        from ..models.logged_token_rotated_event import LoggedTokenRotatedEvent # noqa: PLC0415
        from ..models.logged_trick_won_event import LoggedTrickWonEvent # noqa: PLC0415
        from ..models.logged_trustee_event import LoggedTrusteeEvent # noqa: PLC0415
        from ..models.logged_yielded_event import LoggedYieldedEvent # noqa: PLC0415
        events = []
        for events_item_data in self.events:
            events_item: dict[str, Any]
            if isinstance(events_item_data, LoggedPlayedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedPassedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedYieldedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedJiefengEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedTrickWonEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedFinishedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedDealOverEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedCrownPassedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedCrownForcedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedAcceptedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedDeclinedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedGrabbedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedCalledEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedSoloDeclaredEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedRevealedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedRebelledEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedDealVoidEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedPhaseEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedClockEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedTrusteeEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedLeftEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedTokenRotatedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedDealCommittedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedEntropyEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedDealStartedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LoggedDealtEvent):
                events_item = events_item_data.to_dict()
            else:
                events_item = events_item_data.to_dict()

            events.append(events_item)



        instance = self.instance

        last_seq = self.last_seq

        version = self.version

        last_event_id = self.last_event_id

        reset = self.reset


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "events": events,
            "instance": instance,
            "last_seq": last_seq,
            "version": version,
        })
        if last_event_id is not UNSET:
            field_dict["last_event_id"] = last_event_id
        if reset is not UNSET:
            field_dict["reset"] = reset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.logged_accepted_event import LoggedAcceptedEvent # noqa: PLC0415
        from ..models.logged_called_event import LoggedCalledEvent # noqa: PLC0415
        from ..models.logged_clock_event import LoggedClockEvent # noqa: PLC0415
        from ..models.logged_crown_forced_event import LoggedCrownForcedEvent # noqa: PLC0415
        from ..models.logged_crown_passed_event import LoggedCrownPassedEvent # noqa: PLC0415
        from ..models.logged_deal_committed_event import LoggedDealCommittedEvent # noqa: PLC0415
        from ..models.logged_deal_over_event import LoggedDealOverEvent # noqa: PLC0415
        from ..models.logged_deal_started_event import LoggedDealStartedEvent # noqa: PLC0415
        from ..models.logged_deal_void_event import LoggedDealVoidEvent # noqa: PLC0415
        from ..models.logged_dealt_event import LoggedDealtEvent # noqa: PLC0415
        from ..models.logged_declined_event import LoggedDeclinedEvent # noqa: PLC0415
        from ..models.logged_entropy_event import LoggedEntropyEvent # noqa: PLC0415
        from ..models.logged_finished_event import LoggedFinishedEvent # noqa: PLC0415
        from ..models.logged_grabbed_event import LoggedGrabbedEvent # noqa: PLC0415
        from ..models.logged_jiefeng_event import LoggedJiefengEvent # noqa: PLC0415
        from ..models.logged_left_event import LoggedLeftEvent # noqa: PLC0415
        from ..models.logged_move_event import LoggedMoveEvent # noqa: PLC0415
        from ..models.logged_passed_event import LoggedPassedEvent # noqa: PLC0415
        from ..models.logged_phase_event import LoggedPhaseEvent # noqa: PLC0415
        from ..models.logged_played_event import LoggedPlayedEvent # noqa: PLC0415
        from ..models.logged_rebelled_event import LoggedRebelledEvent # noqa: PLC0415
        from ..models.logged_revealed_event import LoggedRevealedEvent # noqa: PLC0415
        from ..models.logged_solo_declared_event import LoggedSoloDeclaredEvent # noqa: PLC0415
        from ..models.logged_token_rotated_event import LoggedTokenRotatedEvent # noqa: PLC0415
        from ..models.logged_trick_won_event import LoggedTrickWonEvent # noqa: PLC0415
        from ..models.logged_trustee_event import LoggedTrusteeEvent # noqa: PLC0415
        from ..models.logged_yielded_event import LoggedYieldedEvent # noqa: PLC0415
        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            def _parse_events_item(data: object) -> LoggedAcceptedEvent | LoggedCalledEvent | LoggedClockEvent | LoggedCrownForcedEvent | LoggedCrownPassedEvent | LoggedDealCommittedEvent | LoggedDealOverEvent | LoggedDealStartedEvent | LoggedDealtEvent | LoggedDealVoidEvent | LoggedDeclinedEvent | LoggedEntropyEvent | LoggedFinishedEvent | LoggedGrabbedEvent | LoggedJiefengEvent | LoggedLeftEvent | LoggedMoveEvent | LoggedPassedEvent | LoggedPhaseEvent | LoggedPlayedEvent | LoggedRebelledEvent | LoggedRevealedEvent | LoggedSoloDeclaredEvent | LoggedTokenRotatedEvent | LoggedTrickWonEvent | LoggedTrusteeEvent | LoggedYieldedEvent:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_0 = LoggedPlayedEvent.from_dict(data)



                    return events_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_1 = LoggedPassedEvent.from_dict(data)



                    return events_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_2 = LoggedYieldedEvent.from_dict(data)



                    return events_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_3 = LoggedJiefengEvent.from_dict(data)



                    return events_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_4 = LoggedTrickWonEvent.from_dict(data)



                    return events_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_5 = LoggedFinishedEvent.from_dict(data)



                    return events_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_6 = LoggedDealOverEvent.from_dict(data)



                    return events_item_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_7 = LoggedCrownPassedEvent.from_dict(data)



                    return events_item_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_8 = LoggedCrownForcedEvent.from_dict(data)



                    return events_item_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_9 = LoggedAcceptedEvent.from_dict(data)



                    return events_item_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_10 = LoggedDeclinedEvent.from_dict(data)



                    return events_item_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_11 = LoggedGrabbedEvent.from_dict(data)



                    return events_item_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_12 = LoggedCalledEvent.from_dict(data)



                    return events_item_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_13 = LoggedSoloDeclaredEvent.from_dict(data)



                    return events_item_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_14 = LoggedRevealedEvent.from_dict(data)



                    return events_item_type_14
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_15 = LoggedRebelledEvent.from_dict(data)



                    return events_item_type_15
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_16 = LoggedDealVoidEvent.from_dict(data)



                    return events_item_type_16
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_17 = LoggedPhaseEvent.from_dict(data)



                    return events_item_type_17
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_18 = LoggedClockEvent.from_dict(data)



                    return events_item_type_18
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_19 = LoggedTrusteeEvent.from_dict(data)



                    return events_item_type_19
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_20 = LoggedLeftEvent.from_dict(data)



                    return events_item_type_20
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_21 = LoggedTokenRotatedEvent.from_dict(data)



                    return events_item_type_21
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_22 = LoggedDealCommittedEvent.from_dict(data)



                    return events_item_type_22
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_23 = LoggedEntropyEvent.from_dict(data)



                    return events_item_type_23
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_24 = LoggedDealStartedEvent.from_dict(data)



                    return events_item_type_24
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_25 = LoggedDealtEvent.from_dict(data)



                    return events_item_type_25
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                events_item_type_26 = LoggedMoveEvent.from_dict(data)



                return events_item_type_26

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)


        instance = d.pop("instance")

        last_seq = d.pop("last_seq")

        version = d.pop("version")

        last_event_id = d.pop("last_event_id", UNSET)

        reset = d.pop("reset", UNSET)

        events_page = cls(
            events=events,
            instance=instance,
            last_seq=last_seq,
            version=version,
            last_event_id=last_event_id,
            reset=reset,
        )


        events_page.additional_properties = d
        return events_page

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
