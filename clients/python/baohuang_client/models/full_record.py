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
  from ..models.committed_dealing import CommittedDealing
  from ..models.deal_result import DealResult
  from ..models.given_dealing import GivenDealing
  from ..models.left_act import LeftAct
  from ..models.move_act import MoveAct
  from ..models.ruleset_spec import RulesetSpec
  from ..models.seeded_dealing import SeededDealing
  from ..models.snapshot import Snapshot
  from ..models.tally import Tally
  from ..models.tribute import Tribute
  from ..models.trustee_act import TrusteeAct





T = TypeVar("T", bound="FullRecord")



@_attrs_define
class FullRecord:
    """ A record with every hand: ``opening`` is the deal's first snapshot.

        Attributes:
            acts (list[LeftAct | MoveAct | TrusteeAct]):
            deal (int): The deal's number at the table
            dealing (CommittedDealing | GivenDealing | SeededDealing):
            instance (str):
            opening (Snapshot): The whole state of a deal in play (docs/clients.md). ``positions[seat]`` is 1…5 once
                ``over``.
            penalties (Tally): A table's running figures around the deal: ``before`` it and ``after`` it (null while
                the deal is not over).
            record (Literal['full']):
            ruleset (RulesetSpec | str):
            started (float):
            table (str):
            totals (Tally): A table's running figures around the deal: ``before`` it and ``after`` it (null while
                the deal is not over).
            dealer (int | None | Unset):
            ended (float | None | Unset):
            left (list[int] | Unset): Default: `[]`.
            result (DealResult | None | Unset):
            tribute (None | Tribute | Unset):
            trustee_level (None | str | Unset):
            version (int | Unset): The record format's version (1 here). Default: `1`.
     """

    acts: list[LeftAct | MoveAct | TrusteeAct]
    deal: int
    dealing: CommittedDealing | GivenDealing | SeededDealing
    instance: str
    opening: Snapshot
    penalties: Tally
    record: Literal['full']
    ruleset: RulesetSpec | str
    started: float
    table: str
    totals: Tally
    dealer: int | None | Unset = UNSET
    ended: float | None | Unset = UNSET
    left: list[int] | Unset = UNSET
    result: DealResult | None | Unset = UNSET
    tribute: None | Tribute | Unset = UNSET
    trustee_level: None | str | Unset = UNSET
    version: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.committed_dealing import CommittedDealing # noqa: PLC0415
        from ..models.deal_result import DealResult # noqa: PLC0415
        from ..models.given_dealing import GivenDealing # noqa: PLC0415
        from ..models.left_act import LeftAct # noqa: PLC0415
        from ..models.move_act import MoveAct # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.seeded_dealing import SeededDealing # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.tally import Tally # noqa: PLC0415
        from ..models.tribute import Tribute # noqa: PLC0415
        from ..models.trustee_act import TrusteeAct # noqa: PLC0415
        acts = []
        for acts_item_data in self.acts:
            acts_item: dict[str, Any]
            if isinstance(acts_item_data, MoveAct):
                acts_item = acts_item_data.to_dict()
            elif isinstance(acts_item_data, TrusteeAct):
                acts_item = acts_item_data.to_dict()
            else:
                acts_item = acts_item_data.to_dict()

            acts.append(acts_item)



        deal = self.deal

        dealing: dict[str, Any]
        if isinstance(self.dealing, CommittedDealing):
            dealing = self.dealing.to_dict()
        elif isinstance(self.dealing, SeededDealing):
            dealing = self.dealing.to_dict()
        else:
            dealing = self.dealing.to_dict()


        instance = self.instance

        opening = self.opening.to_dict()

        penalties = self.penalties.to_dict()

        record = self.record

        ruleset: dict[str, Any] | str
        if isinstance(self.ruleset, RulesetSpec):
            ruleset = self.ruleset.to_dict()
        else:
            ruleset = self.ruleset

        started = self.started

        table = self.table

        totals = self.totals.to_dict()

        dealer: int | None | Unset
        if isinstance(self.dealer, Unset):
            dealer = UNSET
        else:
            dealer = self.dealer

        ended: float | None | Unset
        if isinstance(self.ended, Unset):
            ended = UNSET
        else:
            ended = self.ended

        left: list[int] | Unset = UNSET
        if not isinstance(self.left, Unset):
            left = self.left



        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, DealResult):
            result = self.result.to_dict()
        else:
            result = self.result

        tribute: dict[str, Any] | None | Unset
        if isinstance(self.tribute, Unset):
            tribute = UNSET
        elif isinstance(self.tribute, Tribute):
            tribute = self.tribute.to_dict()
        else:
            tribute = self.tribute

        trustee_level: None | str | Unset
        if isinstance(self.trustee_level, Unset):
            trustee_level = UNSET
        else:
            trustee_level = self.trustee_level

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "acts": acts,
            "deal": deal,
            "dealing": dealing,
            "instance": instance,
            "opening": opening,
            "penalties": penalties,
            "record": record,
            "ruleset": ruleset,
            "started": started,
            "table": table,
            "totals": totals,
        })
        if dealer is not UNSET:
            field_dict["dealer"] = dealer
        if ended is not UNSET:
            field_dict["ended"] = ended
        if left is not UNSET:
            field_dict["left"] = left
        if result is not UNSET:
            field_dict["result"] = result
        if tribute is not UNSET:
            field_dict["tribute"] = tribute
        if trustee_level is not UNSET:
            field_dict["trustee_level"] = trustee_level
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.committed_dealing import CommittedDealing # noqa: PLC0415
        from ..models.deal_result import DealResult # noqa: PLC0415
        from ..models.given_dealing import GivenDealing # noqa: PLC0415
        from ..models.left_act import LeftAct # noqa: PLC0415
        from ..models.move_act import MoveAct # noqa: PLC0415
        from ..models.ruleset_spec import RulesetSpec # noqa: PLC0415
        from ..models.seeded_dealing import SeededDealing # noqa: PLC0415
        from ..models.snapshot import Snapshot # noqa: PLC0415
        from ..models.tally import Tally # noqa: PLC0415
        from ..models.tribute import Tribute # noqa: PLC0415
        from ..models.trustee_act import TrusteeAct # noqa: PLC0415
        d = dict(src_dict)
        acts = []
        _acts = d.pop("acts")
        for acts_item_data in (_acts):
            def _parse_acts_item(data: object) -> LeftAct | MoveAct | TrusteeAct:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    acts_item_type_0 = MoveAct.from_dict(data)



                    return acts_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    acts_item_type_1 = TrusteeAct.from_dict(data)



                    return acts_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                acts_item_type_2 = LeftAct.from_dict(data)



                return acts_item_type_2

            acts_item = _parse_acts_item(acts_item_data)

            acts.append(acts_item)


        deal = d.pop("deal")

        def _parse_dealing(data: object) -> CommittedDealing | GivenDealing | SeededDealing:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                dealing_type_0 = CommittedDealing.from_dict(data)



                return dealing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                dealing_type_1 = SeededDealing.from_dict(data)



                return dealing_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            dealing_type_2 = GivenDealing.from_dict(data)



            return dealing_type_2

        dealing = _parse_dealing(d.pop("dealing"))


        instance = d.pop("instance")

        opening = Snapshot.from_dict(d.pop("opening"))




        penalties = Tally.from_dict(d.pop("penalties"))




        record = cast(Literal['full'] , d.pop("record"))
        if record != 'full':
            raise ValueError(f"record must match const 'full', got '{record}'")

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


        started = d.pop("started")

        table = d.pop("table")

        totals = Tally.from_dict(d.pop("totals"))




        def _parse_dealer(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        dealer = _parse_dealer(d.pop("dealer", UNSET))


        def _parse_ended(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        ended = _parse_ended(d.pop("ended", UNSET))


        left = cast(list[int], d.pop("left", UNSET))


        def _parse_result(data: object) -> DealResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = DealResult.from_dict(data)



                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DealResult | None | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        def _parse_tribute(data: object) -> None | Tribute | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tribute_type_0 = Tribute.from_dict(data)



                return tribute_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Tribute | Unset, data)

        tribute = _parse_tribute(d.pop("tribute", UNSET))


        def _parse_trustee_level(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        trustee_level = _parse_trustee_level(d.pop("trustee_level", UNSET))


        version = d.pop("version", UNSET)

        full_record = cls(
            acts=acts,
            deal=deal,
            dealing=dealing,
            instance=instance,
            opening=opening,
            penalties=penalties,
            record=record,
            ruleset=ruleset,
            started=started,
            table=table,
            totals=totals,
            dealer=dealer,
            ended=ended,
            left=left,
            result=result,
            tribute=tribute,
            trustee_level=trustee_level,
            version=version,
        )


        full_record.additional_properties = d
        return full_record

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
