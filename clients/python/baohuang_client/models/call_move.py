from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="CallMove")



@_attrs_define
class CallMove:
    """ G-2: the emperor names a (rank, suit) he holds three or four of; ``BJ``/``SJ`` in classic.

        Attributes:
            action (Literal['call']):
            card (str): D-3: rank 3456789TJQKA2 (10 accepted for T) then suit SHCD; SJ, BJ, BJ*, SJ*
            seat (int): T-1: seats 0–4 in the order of play
     """

    action: Literal['call']
    card: str
    seat: int





    def to_dict(self) -> dict[str, Any]:
        action = self.action

        card = self.card

        seat = self.seat


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "action": action,
            "card": card,
            "seat": seat,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = cast(Literal['call'] , d.pop("action"))
        if action != 'call':
            raise ValueError(f"action must match const 'call', got '{action}'")

        card = d.pop("card")

        seat = d.pop("seat")

        call_move = cls(
            action=action,
            card=card,
            seat=seat,
        )

        return call_move

