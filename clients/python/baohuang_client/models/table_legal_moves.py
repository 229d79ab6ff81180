from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

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





T = TypeVar("T", bound="TableLegalMoves")



@_attrs_define
class TableLegalMoves:
    """ Every legal move of ``seat`` on the table as stored at ``version``, in the order of
    ``/v1/moves/legal``: answers (pass, yield, 接风) and before-play actions first, then plays
    once per combo shape, cheapest first. Following a play, every ``play`` move beats the top:
    a hint (提示) button cycles through the ``play`` moves in order. Empty when it is not the
    seat's turn (an out-of-turn grab, G-5, aside) and once the deal is over; ``seat`` is null
    only when a platform asked without ``seat`` and nobody is to act.

        Attributes:
            instance (str):
            moves (list[AcceptMove | CallMove | DeclareSoloMove | DeclineMove | GrabMove | JiefengMove | PassMove | PlayMove
                | RebelMove | RevealMove | YieldMove]):
            seat (int | None):
            version (int):
     """

    instance: str
    moves: list[AcceptMove | CallMove | DeclareSoloMove | DeclineMove | GrabMove | JiefengMove | PassMove | PlayMove | RebelMove | RevealMove | YieldMove]
    seat: int | None
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
        instance = self.instance

        moves = []
        for moves_item_data in self.moves:
            moves_item: dict[str, Any]
            if isinstance(moves_item_data, PlayMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, PassMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, YieldMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, JiefengMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, AcceptMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, DeclineMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, GrabMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, CallMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, DeclareSoloMove):
                moves_item = moves_item_data.to_dict()
            elif isinstance(moves_item_data, RevealMove):
                moves_item = moves_item_data.to_dict()
            else:
                moves_item = moves_item_data.to_dict()

            moves.append(moves_item)



        seat: int | None
        seat = self.seat

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "instance": instance,
            "moves": moves,
            "seat": seat,
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
        instance = d.pop("instance")

        moves = []
        _moves = d.pop("moves")
        for moves_item_data in (_moves):
            def _parse_moves_item(data: object) -> AcceptMove | CallMove | DeclareSoloMove | DeclineMove | GrabMove | JiefengMove | PassMove | PlayMove | RebelMove | RevealMove | YieldMove:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_0 = PlayMove.from_dict(data)



                    return moves_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_1 = PassMove.from_dict(data)



                    return moves_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_2 = YieldMove.from_dict(data)



                    return moves_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_3 = JiefengMove.from_dict(data)



                    return moves_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_4 = AcceptMove.from_dict(data)



                    return moves_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_5 = DeclineMove.from_dict(data)



                    return moves_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_6 = GrabMove.from_dict(data)



                    return moves_item_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_7 = CallMove.from_dict(data)



                    return moves_item_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_8 = DeclareSoloMove.from_dict(data)



                    return moves_item_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    moves_item_type_9 = RevealMove.from_dict(data)



                    return moves_item_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                moves_item_type_10 = RebelMove.from_dict(data)



                return moves_item_type_10

            moves_item = _parse_moves_item(moves_item_data)

            moves.append(moves_item)


        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))


        version = d.pop("version")

        table_legal_moves = cls(
            instance=instance,
            moves=moves,
            seat=seat,
            version=version,
        )


        table_legal_moves.additional_properties = d
        return table_legal_moves

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
