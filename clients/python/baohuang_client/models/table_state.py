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
  from ..models.clock import Clock
  from ..models.deal_result import DealResult
  from ..models.dealing import Dealing
  from ..models.seat_state import SeatState





T = TypeVar("T", bound="TableState")



@_attrs_define
class TableState:
    """ The table around the deal, shown to every caller.

    ``deal``: the deal's number at this table (1, 2, …); ``dealer``: the seat it was dealt from
    (``None`` for a snapshot the platform gave); ``deadline``: when the seat to act runs out of
    time (seconds since the Unix epoch; ``None`` when no clock runs; while a committed deal waits
    for the seats' entropy, when its window closes); ``totals[seat]``: the sum of
    the finished deals' scores; ``penalties[seat]``: S-9's charges so far (negative), apart from
    the zero-sum totals;
    ``results``: the finished deals' results, in order: the newest ``BAOHUANG_DEALS_KEPT`` of
    them once the next deal starts (the totals go on adding every deal up); ``dealing``: how the
    current deal is dealt (:class:`Dealing`: a committed deal's commitment, for everyone).

        Attributes:
            bot_delay (float | Unset): Default: `1.0`.
            charges (list[int] | Unset):
            clock (Clock | None | Unset):
            deadline (float | None | Unset):
            deal (int | Unset): Default: `1`.
            dealer (int | None | Unset):
            dealing (Dealing | Unset): How the current deal is dealt (docs/dealing.md), shown to every caller.

                ``committed``: by the service, from a seed it committed to before any card was dealt —
                ``commitment`` is the seed's SHA-256, ``algorithm`` how the cards follow from it — mixed with
                the ``entropy`` each seat added (``null``: none yet, or none), which seats may add until
                ``closes`` (seconds since the Unix epoch; ``null`` once dealt; ``seconds``: how long the
                table gives them); ``seed`` reveals it once the deal is over. ``seed``: dealt from a seed
                (SplitMix64) the platform passed or the service drew (``chosen_by``), which only the platform
                sees. ``snapshot``: the platform gave the deal's snapshot.
            penalties (list[int] | Unset):
            played (bool | Unset): Default: `false`.
            results (list[DealResult] | Unset): Default: `[]`.
            seats (list[SeatState] | Unset):
            totals (list[int] | Unset):
            trustee_level (None | TrusteeLevel | Unset):
     """

    bot_delay: float | Unset = UNSET
    charges: list[int] | Unset = UNSET
    clock: Clock | None | Unset = UNSET
    deadline: float | None | Unset = UNSET
    deal: int | Unset = UNSET
    dealer: int | None | Unset = UNSET
    dealing: Dealing | Unset = UNSET
    penalties: list[int] | Unset = UNSET
    played: bool | Unset = UNSET
    results: list[DealResult] | Unset = UNSET
    seats: list[SeatState] | Unset = UNSET
    totals: list[int] | Unset = UNSET
    trustee_level: None | TrusteeLevel | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.deal_result import DealResult # noqa: PLC0415
        from ..models.dealing import Dealing # noqa: PLC0415
        from ..models.seat_state import SeatState # noqa: PLC0415
        bot_delay = self.bot_delay

        charges: list[int] | Unset = UNSET
        if not isinstance(self.charges, Unset):
            charges = self.charges



        clock: dict[str, Any] | None | Unset
        if isinstance(self.clock, Unset):
            clock = UNSET
        elif isinstance(self.clock, Clock):
            clock = self.clock.to_dict()
        else:
            clock = self.clock

        deadline: float | None | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        else:
            deadline = self.deadline

        deal = self.deal

        dealer: int | None | Unset
        if isinstance(self.dealer, Unset):
            dealer = UNSET
        else:
            dealer = self.dealer

        dealing: dict[str, Any] | Unset = UNSET
        if not isinstance(self.dealing, Unset):
            dealing = self.dealing.to_dict()

        penalties: list[int] | Unset = UNSET
        if not isinstance(self.penalties, Unset):
            penalties = self.penalties



        played = self.played

        results: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.results, Unset):
            results = []
            for results_item_data in self.results:
                results_item = results_item_data.to_dict()
                results.append(results_item)



        seats: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.seats, Unset):
            seats = []
            for seats_item_data in self.seats:
                seats_item = seats_item_data.to_dict()
                seats.append(seats_item)



        totals: list[int] | Unset = UNSET
        if not isinstance(self.totals, Unset):
            totals = self.totals



        trustee_level: None | str | Unset
        if isinstance(self.trustee_level, Unset):
            trustee_level = UNSET
        elif isinstance(self.trustee_level, TrusteeLevel):
            trustee_level = self.trustee_level.value
        else:
            trustee_level = self.trustee_level


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if bot_delay is not UNSET:
            field_dict["bot_delay"] = bot_delay
        if charges is not UNSET:
            field_dict["charges"] = charges
        if clock is not UNSET:
            field_dict["clock"] = clock
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if deal is not UNSET:
            field_dict["deal"] = deal
        if dealer is not UNSET:
            field_dict["dealer"] = dealer
        if dealing is not UNSET:
            field_dict["dealing"] = dealing
        if penalties is not UNSET:
            field_dict["penalties"] = penalties
        if played is not UNSET:
            field_dict["played"] = played
        if results is not UNSET:
            field_dict["results"] = results
        if seats is not UNSET:
            field_dict["seats"] = seats
        if totals is not UNSET:
            field_dict["totals"] = totals
        if trustee_level is not UNSET:
            field_dict["trustee_level"] = trustee_level

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock import Clock # noqa: PLC0415
        from ..models.deal_result import DealResult # noqa: PLC0415
        from ..models.dealing import Dealing # noqa: PLC0415
        from ..models.seat_state import SeatState # noqa: PLC0415
        d = dict(src_dict)
        bot_delay = d.pop("bot_delay", UNSET)

        charges = cast(list[int], d.pop("charges", UNSET))


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


        def _parse_deadline(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        deadline = _parse_deadline(d.pop("deadline", UNSET))


        deal = d.pop("deal", UNSET)

        def _parse_dealer(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        dealer = _parse_dealer(d.pop("dealer", UNSET))


        _dealing = d.pop("dealing", UNSET)
        dealing: Dealing | Unset
        if isinstance(_dealing,  Unset):
            dealing = UNSET
        else:
            dealing = Dealing.from_dict(_dealing)




        penalties = cast(list[int], d.pop("penalties", UNSET))


        played = d.pop("played", UNSET)

        _results = d.pop("results", UNSET)
        results: list[DealResult] | Unset = UNSET
        if _results is not UNSET:
            results = []
            for results_item_data in _results:
                results_item = DealResult.from_dict(results_item_data)



                results.append(results_item)


        _seats = d.pop("seats", UNSET)
        seats: list[SeatState] | Unset = UNSET
        if _seats is not UNSET:
            seats = []
            for seats_item_data in _seats:
                seats_item = SeatState.from_dict(seats_item_data)



                seats.append(seats_item)


        totals = cast(list[int], d.pop("totals", UNSET))


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


        table_state = cls(
            bot_delay=bot_delay,
            charges=charges,
            clock=clock,
            deadline=deadline,
            deal=deal,
            dealer=dealer,
            dealing=dealing,
            penalties=penalties,
            played=played,
            results=results,
            seats=seats,
            totals=totals,
            trustee_level=trustee_level,
        )


        table_state.additional_properties = d
        return table_state

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
