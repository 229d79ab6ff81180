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





T = TypeVar("T", bound="Snapshot")



@_attrs_define
class Snapshot:
    """ The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once ``over``.

        Attributes:
            emperor (int): T-1: seats 0–4 in the order of play
            hands (list[list[str]]):
            mode (Mode):
            turn (int): T-1: seats 0–4 in the order of play
            called (None | str | Unset):
            crown (CrownState | None | Unset):
            finished (list[int] | Unset): Default: `[]`.
            guard (int | None | Unset):
            guard_revealed (bool | Unset): Default: `false`.
            over (bool | Unset): Default: `false`.
            phase (Phase | Unset):
            positions (list[int] | None | Unset):
            rebellion (list[int] | Unset): Default: `[]`.
            ruleset (RulesetSpec | str | Unset): Default: `"classic"`.
            trick (Trick | Unset): The trick in progress. ``top`` is ``None`` when ``turn`` must lead (T-3).

                ``passed``/``yielded``: the seats that passed or yielded on ``top`` (T-4, T-6); a yielder who
                passes in the second circle moves from ``yielded`` to ``passed``. ``circle`` is 1 or 2 (T-6).
                ``jiefeng``: the seat that declared 接风 on a 底牌 (T-7).
            void (bool | Unset): Default: `false`.
     """

    emperor: int
    hands: list[list[str]]
    mode: Mode
    turn: int
    called: None | str | Unset = UNSET
    crown: CrownState | None | Unset = UNSET
    finished: list[int] | Unset = UNSET
    guard: int | None | Unset = UNSET
    guard_revealed: bool | Unset = UNSET
    over: bool | Unset = UNSET
    phase: Phase | Unset = UNSET
    positions: list[int] | None | Unset = UNSET
    rebellion: list[int] | Unset = UNSET
    ruleset: RulesetSpec | str | Unset = UNSET
    trick: Trick | Unset = UNSET
    void: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.crown_state import CrownState # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.trick import Trick # noqa: PLC0415
        emperor = self.emperor

        hands = []
        for hands_item_data in self.hands:
            hands_item = hands_item_data


            hands.append(hands_item)



        mode = self.mode.value

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

        finished: list[int] | Unset = UNSET
        if not isinstance(self.finished, Unset):
            finished = self.finished



        guard: int | None | Unset
        if isinstance(self.guard, Unset):
            guard = UNSET
        else:
            guard = self.guard

        guard_revealed = self.guard_revealed

        over = self.over

        phase: str | Unset = UNSET
        if not isinstance(self.phase, Unset):
            phase = self.phase.value


        positions: list[int] | None | Unset
        if isinstance(self.positions, Unset):
            positions = UNSET
        elif isinstance(self.positions, list):
            positions = self.positions


        else:
            positions = self.positions

        rebellion: list[int] | Unset = UNSET
        if not isinstance(self.rebellion, Unset):
            rebellion = self.rebellion



        ruleset: dict[str, Any] | str | Unset
        if isinstance(self.ruleset, Unset):
            ruleset = UNSET
        elif isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset

        trick: dict[str, Any] | Unset = UNSET
        if not isinstance(self.trick, Unset):
            trick = self.trick.to_dict()

        void = self.void


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "emperor": emperor,
            "hands": hands,
            "mode": mode,
            "turn": turn,
        })
        if called is not UNSET:
            field_dict["called"] = called
        if crown is not UNSET:
            field_dict["crown"] = crown
        if finished is not UNSET:
            field_dict["finished"] = finished
        if guard is not UNSET:
            field_dict["guard"] = guard
        if guard_revealed is not UNSET:
            field_dict["guard_revealed"] = guard_revealed
        if over is not UNSET:
            field_dict["over"] = over
        if phase is not UNSET:
            field_dict["phase"] = phase
        if positions is not UNSET:
            field_dict["positions"] = positions
        if rebellion is not UNSET:
            field_dict["rebellion"] = rebellion
        if ruleset is not UNSET:
            field_dict["ruleset"] = ruleset
        if trick is not UNSET:
            field_dict["trick"] = trick
        if void is not UNSET:
            field_dict["void"] = void

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.crown_state import CrownState # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.trick import Trick # noqa: PLC0415
        d = dict(src_dict)
        emperor = d.pop("emperor")

        hands = []
        _hands = d.pop("hands")
        for hands_item_data in (_hands):
            hands_item = cast(list[str], hands_item_data)

            hands.append(hands_item)


        mode = Mode(d.pop("mode"))




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


        finished = cast(list[int], d.pop("finished", UNSET))


        def _parse_guard(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        guard = _parse_guard(d.pop("guard", UNSET))


        guard_revealed = d.pop("guard_revealed", UNSET)

        over = d.pop("over", UNSET)

        _phase = d.pop("phase", UNSET)
        phase: Phase | Unset
        if isinstance(_phase,  Unset):
            phase = UNSET
        else:
            phase = Phase(_phase)




        def _parse_positions(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                positions_type_0 = cast(list[int], data)

                return positions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        positions = _parse_positions(d.pop("positions", UNSET))


        rebellion = cast(list[int], d.pop("rebellion", UNSET))


        def _parse_ruleset(data: object) -> RulesetSpec | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ruleset_type_1 = RulesetSpec.from_dict(data)



                return ruleset_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(RulesetSpec | str | Unset, data)

        ruleset = _parse_ruleset(d.pop("ruleset", UNSET))


        _trick = d.pop("trick", UNSET)
        trick: Trick | Unset
        if isinstance(_trick,  Unset):
            trick = UNSET
        else:
            trick = Trick.from_dict(_trick)




        void = d.pop("void", UNSET)

        snapshot = cls(
            emperor=emperor,
            hands=hands,
            mode=mode,
            turn=turn,
            called=called,
            crown=crown,
            finished=finished,
            guard=guard,
            guard_revealed=guard_revealed,
            over=over,
            phase=phase,
            positions=positions,
            rebellion=rebellion,
            ruleset=ruleset,
            trick=trick,
            void=void,
        )

        return snapshot

