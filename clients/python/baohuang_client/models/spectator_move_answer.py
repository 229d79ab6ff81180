from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

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
  from ..models.public_view import PublicView
  from ..models.rebelled_event import RebelledEvent
  from ..models.revealed_event import RevealedEvent
  from ..models.solo_declared_event import SoloDeclaredEvent
  from ..models.table_state import TableState
  from ..models.token_rotated_event import TokenRotatedEvent
  from ..models.trick_won_event import TrickWonEvent
  from ..models.trustee_event import TrusteeEvent
  from ..models.yielded_event import YieldedEvent





T = TypeVar("T", bound="SpectatorMoveAnswer")



@_attrs_define
class SpectatorMoveAnswer:
    """ A committed move: the version it produced, the table after it and its events (each with
    its ``seq`` and ``version``), cut to the caller like every answer (``audience``: which view
    ``view`` is).

    ``replayed``: true when this is the answer remembered under the request's
    ``Idempotency-Key``: ``version`` and ``events`` are the original ones, ``view`` is the table
    as it is now.

        Attributes:
            audience (Literal['spectator']): A spectator token's answer: `view` is the `PublicView`
            events (list[AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent
                | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent |
                GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent |
                RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent]):
            instance (str):
            table (TableState): The table around the deal, shown to every caller.

                ``deal``: the deal's number at this table (1, 2, …); ``dealer``: the seat it was dealt from
                (``None`` for a snapshot the platform gave); ``deadline``: when the seat to act runs out of
                time (seconds since the Unix epoch; ``None`` when no clock runs; while a committed deal waits
                for the seats' entropy, when its window closes); ``totals[seat]``: the sum of
                the finished deals' scores; ``penalties[seat]``: S-9's charges so far (negative), apart from
                the zero-sum totals;
                ``results``: the finished deals' results, in order: the newest ``BAOHUANG_DEALS_KEPT`` of
                them once the next deal starts (the totals go on adding every deal up); ``dealing``: how the
                current deal is dealt (:class:`Dealing`: a committed deal's commitment, for everyone).
            version (int):
            view (PublicView): What everyone at the table may see (a spectator): no hand, only how many cards each seat
                holds (``counts[s]``); ``guard`` is null while hidden (G-8), and a 暗独 looks like team play.
            replayed (bool | Unset): Default: `false`.
     """

    audience: Literal['spectator']
    events: list[AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent | GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent | RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent]
    instance: str
    table: TableState
    version: int
    view: PublicView
    replayed: bool | Unset = UNSET
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
        from ..models.public_view import PublicView # noqa: PLC0415
        from ..models.rebelled_event import RebelledEvent # noqa: PLC0415
        from ..models.revealed_event import RevealedEvent # noqa: PLC0415
        from ..models.solo_declared_event import SoloDeclaredEvent # noqa: PLC0415
        from ..models.table_state import TableState # noqa: PLC0415
        from ..models.token_rotated_event import TokenRotatedEvent # noqa: PLC0415
        from ..models.trick_won_event import TrickWonEvent # noqa: PLC0415
        from ..models.trustee_event import TrusteeEvent # noqa: PLC0415
        from ..models.yielded_event import YieldedEvent # noqa: PLC0415
        audience = self.audience

        events = []
        for events_item_data in self.events:
            events_item: dict[str, Any]
            if isinstance(events_item_data, PlayedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, PassedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, YieldedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, JiefengEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, TrickWonEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, FinishedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DealOverEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CrownPassedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CrownForcedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, AcceptedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DeclinedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, GrabbedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CalledEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, SoloDeclaredEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, RevealedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, RebelledEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DealVoidEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, PhaseEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ClockEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, TrusteeEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, LeftEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, TokenRotatedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DealCommittedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, EntropyEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DealStartedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DealtEvent):
                events_item = events_item_data.to_dict()
            else:
                events_item = events_item_data.to_dict()

            events.append(events_item)



        instance = self.instance

        table = self.table.to_dict()

        version = self.version

        view = self.view.to_dict()

        replayed = self.replayed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "audience": audience,
            "events": events,
            "instance": instance,
            "table": table,
            "version": version,
            "view": view,
        })
        if replayed is not UNSET:
            field_dict["replayed"] = replayed

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
        from ..models.public_view import PublicView # noqa: PLC0415
        from ..models.rebelled_event import RebelledEvent # noqa: PLC0415
        from ..models.revealed_event import RevealedEvent # noqa: PLC0415
        from ..models.solo_declared_event import SoloDeclaredEvent # noqa: PLC0415
        from ..models.table_state import TableState # noqa: PLC0415
        from ..models.token_rotated_event import TokenRotatedEvent # noqa: PLC0415
        from ..models.trick_won_event import TrickWonEvent # noqa: PLC0415
        from ..models.trustee_event import TrusteeEvent # noqa: PLC0415
        from ..models.yielded_event import YieldedEvent # noqa: PLC0415
        d = dict(src_dict)
        audience = cast(Literal['spectator'] , d.pop("audience"))
        if audience != 'spectator':
            raise ValueError(f"audience must match const 'spectator', got '{audience}'")

        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            def _parse_events_item(data: object) -> AcceptedEvent | CalledEvent | ClockEvent | CrownForcedEvent | CrownPassedEvent | DealCommittedEvent | DealOverEvent | DealStartedEvent | DealtEvent | DealVoidEvent | DeclinedEvent | EntropyEvent | FinishedEvent | GrabbedEvent | JiefengEvent | LeftEvent | MoveEvent | PassedEvent | PhaseEvent | PlayedEvent | RebelledEvent | RevealedEvent | SoloDeclaredEvent | TokenRotatedEvent | TrickWonEvent | TrusteeEvent | YieldedEvent:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_0 = PlayedEvent.from_dict(data)



                    return events_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_1 = PassedEvent.from_dict(data)



                    return events_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_2 = YieldedEvent.from_dict(data)



                    return events_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_3 = JiefengEvent.from_dict(data)



                    return events_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_4 = TrickWonEvent.from_dict(data)



                    return events_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_5 = FinishedEvent.from_dict(data)



                    return events_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_6 = DealOverEvent.from_dict(data)



                    return events_item_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_7 = CrownPassedEvent.from_dict(data)



                    return events_item_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_8 = CrownForcedEvent.from_dict(data)



                    return events_item_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_9 = AcceptedEvent.from_dict(data)



                    return events_item_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_10 = DeclinedEvent.from_dict(data)



                    return events_item_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_11 = GrabbedEvent.from_dict(data)



                    return events_item_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_12 = CalledEvent.from_dict(data)



                    return events_item_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_13 = SoloDeclaredEvent.from_dict(data)



                    return events_item_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_14 = RevealedEvent.from_dict(data)



                    return events_item_type_14
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_15 = RebelledEvent.from_dict(data)



                    return events_item_type_15
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_16 = DealVoidEvent.from_dict(data)



                    return events_item_type_16
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_17 = PhaseEvent.from_dict(data)



                    return events_item_type_17
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_18 = ClockEvent.from_dict(data)



                    return events_item_type_18
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_19 = TrusteeEvent.from_dict(data)



                    return events_item_type_19
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_20 = LeftEvent.from_dict(data)



                    return events_item_type_20
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_21 = TokenRotatedEvent.from_dict(data)



                    return events_item_type_21
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_22 = DealCommittedEvent.from_dict(data)



                    return events_item_type_22
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_23 = EntropyEvent.from_dict(data)



                    return events_item_type_23
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_24 = DealStartedEvent.from_dict(data)



                    return events_item_type_24
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    events_item_type_25 = DealtEvent.from_dict(data)



                    return events_item_type_25
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                events_item_type_26 = MoveEvent.from_dict(data)



                return events_item_type_26

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)


        instance = d.pop("instance")

        table = TableState.from_dict(d.pop("table"))




        version = d.pop("version")

        view = PublicView.from_dict(d.pop("view"))




        replayed = d.pop("replayed", UNSET)

        spectator_move_answer = cls(
            audience=audience,
            events=events,
            instance=instance,
            table=table,
            version=version,
            view=view,
            replayed=replayed,
        )


        spectator_move_answer.additional_properties = d
        return spectator_move_answer

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
