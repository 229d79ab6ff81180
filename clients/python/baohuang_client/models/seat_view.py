from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.mode import Mode
from ..models.phase import Phase
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.crown_state import CrownState
  from ..models.ruleset_spec import RulesetSpec
  from ..models.trick import Trick





T = TypeVar("T", bound="SeatView")



@_attrs_define
class SeatView:
    """ One seat's view: the public view plus the seat's own hand, and the guard when this seat
    is the guard (G-8).

        Attributes:
            counts (list[int]):
            emperor (int): T-1: seats 0–4 in the order of play
            finished (list[int]):
            guard (int | None):
            guard_revealed (bool):
            hand (list[str]):
            mode (Mode):
            over (bool):
            positions (list[int] | None):
            rebellion (list[int]):
            ruleset (RulesetSpec | str):
            seat (int): T-1: seats 0–4 in the order of play
            trick (Trick): The trick in progress. ``top`` is ``None`` when ``turn`` must lead (T-3).

                ``passed``/``yielded``: the seats that passed or yielded on ``top`` (T-4, T-6); a yielder who
                passes in the second circle moves from ``yielded`` to ``passed``. ``circle`` is 1 or 2 (T-6).
                ``jiefeng``: the seat that declared 接风 on a 底牌 (T-7).
            turn (int): T-1: seats 0–4 in the order of play
            called (None | str | Unset):
            crown (CrownState | None | Unset):
            phase (Phase | Unset):
            void (bool | Unset): Default: `false`.
     """

    counts: list[int]
    emperor: int
    finished: list[int]
    guard: int | None
    guard_revealed: bool
    hand: list[str]
    mode: Mode
    over: bool
    positions: list[int] | None
    rebellion: list[int]
    ruleset: RulesetSpec | str
    seat: int
    trick: Trick
    turn: int
    called: None | str | Unset = UNSET
    crown: CrownState | None | Unset = UNSET
    phase: Phase | Unset = UNSET
    void: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.crown_state import CrownState # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.trick import Trick # noqa: PLC0415
        counts = self.counts



        emperor = self.emperor

        finished = self.finished



        guard: int | None
        guard = self.guard

        guard_revealed = self.guard_revealed

        hand = self.hand



        mode = self.mode.value

        over = self.over

        positions: list[int] | None
        if isinstance(self.positions, list):
            positions = self.positions


        else:
            positions = self.positions

        rebellion = self.rebellion



        ruleset: dict[str, Any] | str
        if isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset

        seat = self.seat

        trick = self.trick.to_dict()

        turn = self.turn

        called: None | str | Unset
        if isinstance(self.called, Unset):
            called = UNSET
        else:
            called = self.called

        crown: dict[str, Any] | None | Unset
        if isinstance(self.crown, Unset):
            crown = UNSET
        elif isinstance(self.crown, CrownState):
            crown = self.crown.to_dict()
        else:
            crown = self.crown

        phase: str | Unset = UNSET
        if not isinstance(self.phase, Unset):
            phase = self.phase.value


        void = self.void


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "counts": counts,
            "emperor": emperor,
            "finished": finished,
            "guard": guard,
            "guard_revealed": guard_revealed,
            "hand": hand,
            "mode": mode,
            "over": over,
            "positions": positions,
            "rebellion": rebellion,
            "ruleset": ruleset,
            "seat": seat,
            "trick": trick,
            "turn": turn,
        })
        if called is not UNSET:
            field_dict["called"] = called
        if crown is not UNSET:
            field_dict["crown"] = crown
        if phase is not UNSET:
            field_dict["phase"] = phase
        if void is not UNSET:
            field_dict["void"] = void

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.crown_state import CrownState # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.trick import Trick # noqa: PLC0415
        d = dict(src_dict)
        counts = cast(list[int], d.pop("counts"))


        emperor = d.pop("emperor")

        finished = cast(list[int], d.pop("finished"))


        def _parse_guard(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        guard = _parse_guard(d.pop("guard"))


        guard_revealed = d.pop("guard_revealed")

        hand = cast(list[str], d.pop("hand"))


        mode = Mode(d.pop("mode"))




        over = d.pop("over")

        def _parse_positions(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                positions_type_0 = cast(list[int], data)

                return positions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        positions = _parse_positions(d.pop("positions"))


        rebellion = cast(list[int], d.pop("rebellion"))


        def _parse_ruleset(data: object) -> RulesetSpec | str:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ruleset_type_1 = RulesetSpec.from_dict(data)



                return ruleset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(RulesetSpec | str, data)

        ruleset = _parse_ruleset(d.pop("ruleset"))


        seat = d.pop("seat")

        trick = Trick.from_dict(d.pop("trick"))




        turn = d.pop("turn")

        def _parse_called(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        called = _parse_called(d.pop("called", UNSET))


        def _parse_crown(data: object) -> CrownState | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                crown_type_0 = CrownState.from_dict(data)



                return crown_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CrownState | None | Unset, data)

        crown = _parse_crown(d.pop("crown", UNSET))


        _phase = d.pop("phase", UNSET)
        phase: Phase | Unset
        if isinstance(_phase,  Unset):
            phase = UNSET
        else:
            phase = Phase(_phase)




        void = d.pop("void", UNSET)

        seat_view = cls(
            counts=counts,
            emperor=emperor,
            finished=finished,
            guard=guard,
            guard_revealed=guard_revealed,
            hand=hand,
            mode=mode,
            over=over,
            positions=positions,
            rebellion=rebellion,
            ruleset=ruleset,
            seat=seat,
            trick=trick,
            turn=turn,
            called=called,
            crown=crown,
            phase=phase,
            void=void,
        )

        return seat_view

