from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.seat_state_bot import SeatStateBot
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SeatState")



@_attrs_define
class SeatState:
    """ A seat's 托管 state (T-11): ``trustee`` whether 托管 plays for it now; ``entered`` how
    often it entered 托管 this deal; ``left`` whether it left the table (S-9, for good);
    ``bot`` the level of the bot the platform seated there (``null``: a person plays it).

        Attributes:
            bot (None | SeatStateBot | Unset):
            entered (int | Unset): Default: `0`.
            left (bool | Unset): Default: `false`.
            trustee (bool | Unset): Default: `false`.
     """

    bot: None | SeatStateBot | Unset = UNSET
    entered: int | Unset = UNSET
    left: bool | Unset = UNSET
    trustee: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bot: None | str | Unset
        if isinstance(self.bot, Unset):
            bot = UNSET
        elif isinstance(self.bot, SeatStateBot):
            bot = self.bot.value
        else:
            bot = self.bot

        entered = self.entered

        left = self.left

        trustee = self.trustee


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if bot is not UNSET:
            field_dict["bot"] = bot
        if entered is not UNSET:
            field_dict["entered"] = entered
        if left is not UNSET:
            field_dict["left"] = left
        if trustee is not UNSET:
            field_dict["trustee"] = trustee

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_bot(data: object) -> None | SeatStateBot | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bot_type_0 = SeatStateBot(data)



                return bot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SeatStateBot | Unset, data)

        bot = _parse_bot(d.pop("bot", UNSET))


        entered = d.pop("entered", UNSET)

        left = d.pop("left", UNSET)

        trustee = d.pop("trustee", UNSET)

        seat_state = cls(
            bot=bot,
            entered=entered,
            left=left,
            trustee=trustee,
        )


        seat_state.additional_properties = d
        return seat_state

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
