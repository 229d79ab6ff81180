from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.move_by import MoveBy
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.accept_move import AcceptMove
  from ..models.call_move import CallMove
  from ..models.declare_solo_move import DeclareSoloMove
  from ..models.decline_move import DeclineMove
  from ..models.grab_move import GrabMove
  from ..models.jiefeng_move import JiefengMove
  from ..models.pass_move import PassMove
  from ..models.play_move import PlayMove
  from ..models.rebel_move import RebelMove
  from ..models.reveal_move import RevealMove
  from ..models.yield_move import YieldMove





T = TypeVar("T", bound="LoggedMoveEvent")



@_attrs_define
class LoggedMoveEvent:
    """ 
        Attributes:
            by (MoveBy):
            move (AcceptMove | CallMove | DeclareSoloMove | DeclineMove | GrabMove | JiefengMove | PassMove | PlayMove |
                RebelMove | RevealMove | YieldMove):
            type_ (Literal['move']):
            at (float): When the table logged it (seconds since the Unix epoch)
            id (str): `<seq>.<token>`: the seq and the token of the write that logged it (the stream's `id:`, `Last-Event-
                ID` and `after`)
            seq (int): 1, 2, 3 … per table instance
            version (int): The table version the event's write produced
     """

    by: MoveBy
    move: AcceptMove | CallMove | DeclareSoloMove | DeclineMove | GrabMove | JiefengMove | PassMove | PlayMove | RebelMove | RevealMove | YieldMove
    type_: Literal['move']
    at: float
    id: str
    seq: int
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.accept_move import AcceptMove # noqa: PLC0415
        from ..models.call_move import CallMove # noqa: PLC0415
        from ..models.declare_solo_move import DeclareSoloMove # noqa: PLC0415
        from ..models.decline_move import DeclineMove # noqa: PLC0415
        from ..models.grab_move import GrabMove # noqa: PLC0415
        from ..models.jiefeng_move import JiefengMove # noqa: PLC0415
        from ..models.pass_move import PassMove # noqa: PLC0415
        from ..models.play_move import PlayMove # noqa: PLC0415
        from ..models.rebel_move import RebelMove # noqa: PLC0415
        from ..models.reveal_move import RevealMove # noqa: PLC0415
        from ..models.yield_move import YieldMove # noqa: PLC0415
        by = self.by.value

        move: dict[str, Any]
        if isinstance(self.move, PlayMove):
            move = self.move.to_dict()
        elif isinstance(self.move, PassMove):
            move = self.move.to_dict()
        elif isinstance(self.move, YieldMove):
            move = self.move.to_dict()
        elif isinstance(self.move, JiefengMove):
            move = self.move.to_dict()
        elif isinstance(self.move, AcceptMove):
            move = self.move.to_dict()
        elif isinstance(self.move, DeclineMove):
            move = self.move.to_dict()
        elif isinstance(self.move, GrabMove):
            move = self.move.to_dict()
        elif isinstance(self.move, CallMove):
            move = self.move.to_dict()
        elif isinstance(self.move, DeclareSoloMove):
            move = self.move.to_dict()
        elif isinstance(self.move, RevealMove):
            move = self.move.to_dict()
        else:
            move = self.move.to_dict()


        type_ = self.type_

        at = self.at

        id = self.id

        seq = self.seq

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "by": by,
            "move": move,
            "type": type_,
            "at": at,
            "id": id,
            "seq": seq,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accept_move import AcceptMove # noqa: PLC0415
        from ..models.call_move import CallMove # noqa: PLC0415
        from ..models.declare_solo_move import DeclareSoloMove # noqa: PLC0415
        from ..models.decline_move import DeclineMove # noqa: PLC0415
        from ..models.grab_move import GrabMove # noqa: PLC0415
        from ..models.jiefeng_move import JiefengMove # noqa: PLC0415
        from ..models.pass_move import PassMove # noqa: PLC0415
        from ..models.play_move import PlayMove # noqa: PLC0415
        from ..models.rebel_move import RebelMove # noqa: PLC0415
        from ..models.reveal_move import RevealMove # noqa: PLC0415
        from ..models.yield_move import YieldMove # noqa: PLC0415
        d = dict(src_dict)
        by = MoveBy(d.pop("by"))




        def _parse_move(data: object) -> AcceptMove | CallMove | DeclareSoloMove | DeclineMove | GrabMove | JiefengMove | PassMove | PlayMove | RebelMove | RevealMove | YieldMove:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_0 = PlayMove.from_dict(data)



                return move_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_1 = PassMove.from_dict(data)



                return move_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_2 = YieldMove.from_dict(data)



                return move_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_3 = JiefengMove.from_dict(data)



                return move_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_4 = AcceptMove.from_dict(data)



                return move_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_5 = DeclineMove.from_dict(data)



                return move_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_6 = GrabMove.from_dict(data)



                return move_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_7 = CallMove.from_dict(data)



                return move_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_8 = DeclareSoloMove.from_dict(data)



                return move_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                move_type_9 = RevealMove.from_dict(data)



                return move_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            move_type_10 = RebelMove.from_dict(data)



            return move_type_10

        move = _parse_move(d.pop("move"))


        type_ = cast(Literal['move'] , d.pop("type"))
        if type_ != 'move':
            raise ValueError(f"type must match const 'move', got '{type_}'")

        at = d.pop("at")

        id = d.pop("id")

        seq = d.pop("seq")

        version = d.pop("version")

        logged_move_event = cls(
            by=by,
            move=move,
            type_=type_,
            at=at,
            id=id,
            seq=seq,
            version=version,
        )


        logged_move_event.additional_properties = d
        return logged_move_event

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
