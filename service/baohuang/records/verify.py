"""Checking a deal record with nothing but this package (docs/records.md, "Verifying").

:func:`verify` takes a full record and checks, in order:

1. **The dealing** (G-4, docs/dealing.md): a committed deal's revealed seed hashes to its
   commitment, and with the seats' entropy deals the opening's hands; a seeded deal's seed deals
   them; a snapshot the platform gave is a snapshot that holds together (nobody can say more).
2. **The tribute** (P): the cards that changed hands are what the deal before calls for, and
   turn the hands dealt into the opening's.
3. **Every act, in order**: each move is legal where it stands (the engine's verdict, with its
   rule); 托管 plays only for the seat to act, only while it is in 托管 (T-11), and plays T-10's
   move where the table has 托管 play T-10; a seat enters and leaves 托管 as T-11 allows; a
   seat that leaves is charged what S-9 charges.
4. **The result**: the deal is over (T-9); its result is what the rules score (S; void and
   unscored when every seat was in 托管 at its end, T-11, S-10), with the S-9 charges.
5. **The totals**: the table's totals and penalties after the deal are those before it plus
   the deal's.

The first thing that fails is named: the act (1-based, as a person counts the record's acts)
or the part, the rule (an id of docs/rules.md) and a stable code.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from ..engine import (
    CODES,
    COMMITTED_ALGORITHM,
    SEATS,
    DealResult,
    Dealt,
    InvalidInput,
    MoveRefused,
    PlayMove,
    Reason,
    Snapshot,
    Transfer,
    apply_move,
    auto_answer,
    commitment_of,
    committed_deal,
    deal,
    opening_snapshot,
    pay_tribute,
    ruleset_of,
    score,
    validate_snapshot,
)
from .document import (
    VERSION,
    Act,
    CommittedDealing,
    DealRecord,
    FullRecord,
    LeftAct,
    MoveAct,
    SeededDealing,
    TrusteeAct,
)

__all__ = ["Failure", "Verdict", "verify"]

Part = Literal["record", "dealing", "tribute", "act", "result", "totals"]

LEAVE_PENALTY: Final = 40
"""S-9: 强行退出 … 将被扣去40分, under ``lianzhong-*`` once the first play was made."""
TRUSTEE_LIMIT: Final = 3
"""T-11: a seat that entered 托管 more than this often in a deal may not leave it."""


class Failure(msgspec.Struct, frozen=True, kw_only=True):
    """The first thing a record gets wrong: the ``act`` (1-based; null for the headers and the
    result), the ``part`` of the record, the ``rule`` it breaks (docs/rules.md) and a stable
    ``code``, in words in ``message``."""

    part: Part
    act: int | None = None
    rule: str | None = None
    code: str
    message: str


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """``valid`` when every check holds; ``acts``: how many acts were replayed."""

    valid: bool
    table: str
    deal: int
    acts: int
    failure: Failure | None = None


class _Broken(Exception):
    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


def _fail(
    part: Part, code: str, message: str, *, rule: str | None = None, act: int | None = None
) -> _Broken:
    return _Broken(Failure(part=part, act=act, rule=rule, code=code, message=message))


def verify(record: DealRecord) -> Verdict:
    """Check ``record`` (the module docstring): its verdict, naming the first failure."""
    replay = _Replay(record)
    try:
        if record.version != VERSION:
            raise _fail(
                "record",
                "RECORD_VERSION",
                f"a version {record.version} record: this verifier reads version {VERSION}",
            )
        if not isinstance(record, FullRecord):
            raise _fail(
                "record",
                "NOT_FULL",
                f"a {record.__struct_config__.tag} record holds only what its caller may see: "
                "verifying needs every hand (a platform's record, or anyone's once a committed "
                "deal is over)",
            )
        replay.dealing(record)
        for number, act in enumerate(record.acts, 1):
            replay.act(number, act)
        replay.result(record)
    except _Broken as broken:
        return Verdict(
            valid=False,
            table=record.table,
            deal=record.deal,
            acts=replay.acts,
            failure=broken.failure,
        )
    return Verdict(valid=True, table=record.table, deal=record.deal, acts=replay.acts)


class _Replay:
    """The deal as its record's acts take it along."""

    def __init__(self, record: DealRecord) -> None:
        self.snapshot: Snapshot | None = None
        self.acts = 0
        self.left = set(record.left)
        self.trustee = [seat in self.left for seat in range(SEATS)]
        self.entered = [1 if seat in self.left else 0 for seat in range(SEATS)]
        self.charges = [0] * SEATS
        self.played = False
        self.void_by_trustee = False
        self.t10 = record.trustee_level is None
        self.lianzhong = ruleset_of(record.ruleset).base.startswith("lianzhong")

    # -- 1, 2: the dealing and the tribute ----------------------------------------------------

    def dealing(self, record: FullRecord) -> None:
        opening = record.opening
        try:
            validate_snapshot(opening)
        except InvalidInput as invalid:
            raise _fail(
                "dealing",
                invalid.code,
                f"the opening is no deal: {invalid.message} (at {_opening_path(invalid)})",
                rule=invalid.rule,
            ) from None
        dealing = record.dealing
        if isinstance(dealing, CommittedDealing):
            dealt = self._committed(record, dealing)
        elif isinstance(dealing, SeededDealing):
            if dealing.seed is None:
                raise _fail(
                    "dealing", "SEED_HIDDEN", "the record does not show the seed", rule="G-4"
                )
            dealt = deal(ruleset_of(record.ruleset), dealing.seed, record.dealer or 0)
        else:
            self.snapshot = opening  # a snapshot the platform gave: its word
            return
        listed = _paid(dealt.hands, record.tribute.transfers if record.tribute else [])
        dealt_opening = (
            None if listed is None else opening_snapshot(record.ruleset, Dealt(listed, dealt.crown))
        )
        if dealt_opening != opening:
            what = (
                "seed and entropy deal" if isinstance(dealing, CommittedDealing) else "seed deals"
            )
            with_tribute = ", with the tribute it lists" if record.tribute else ""
            raise _fail(
                "dealing",
                "DEAL_MISMATCH",
                f"the opening is not what its {what} from seat {record.dealer}{with_tribute}",
                rule="G-4",
            )
        self._tribute(record, dealt.hands)
        self.snapshot = opening

    def _committed(self, record: FullRecord, dealing: CommittedDealing) -> Dealt:
        if dealing.algorithm != COMMITTED_ALGORITHM:
            raise _fail(
                "dealing",
                "UNKNOWN_ALGORITHM",
                f"dealt by {dealing.algorithm!r}; this verifier knows {COMMITTED_ALGORITHM!r}",
                rule="G-4",
            )
        if dealing.seed is None:
            raise _fail(
                "dealing",
                "SEED_NOT_REVEALED",
                "the seed is revealed once the deal is over; this record does not show it",
                rule="G-4",
            )
        try:
            if commitment_of(dealing.seed) != dealing.commitment:
                raise _fail(
                    "dealing",
                    "COMMITMENT_MISMATCH",
                    "the revealed seed's SHA-256 is not the commitment made before the deal",
                    rule="G-4",
                )
            ruleset = ruleset_of(record.ruleset)
            return committed_deal(ruleset, dealing.seed, dealing.entropy, record.dealer or 0)
        except InvalidInput as invalid:
            raise _fail("dealing", invalid.code, invalid.message, rule=invalid.rule) from None

    def _tribute(self, record: FullRecord, hands: list[list[str]]) -> None:
        """The tribute the record lists (which turns the hands dealt into the opening's: checked
        before) is what the deal before calls for (P)."""
        tribute = record.tribute
        if tribute is None:
            return
        previous = tribute.previous
        try:
            paid = pay_tribute(
                ruleset_of(record.ruleset),
                previous.mode,
                previous.emperor,
                previous.guard,
                previous.finished,
                hands,
            )
        except InvalidInput as invalid:
            raise _fail("tribute", invalid.code, invalid.message, rule=invalid.rule) from None
        if paid.transfers != tribute.transfers:
            raise _fail(
                "tribute",
                "TRIBUTE_MISMATCH",
                "the cards paid are not what the deal before calls for",
                rule="P-2",
            )

    # -- 3: the acts ---------------------------------------------------------------------------

    def act(self, number: int, act: Act) -> None:
        if isinstance(act, MoveAct):
            self._move(number, act)
        elif isinstance(act, TrusteeAct):
            self._trustee(number, act)
        else:
            self._leave(number, act)
        self.acts = number

    def _move(self, number: int, act: MoveAct) -> None:
        snapshot = self.snapshot
        assert snapshot is not None
        move = act.move
        to_act = None if snapshot.over else snapshot.turn
        if act.by == "trustee":
            if move.seat != to_act or not self.trustee[move.seat]:
                raise _fail(
                    "act",
                    "NOT_IN_TRUSTEE",
                    f"托管 plays for seat {move.seat}, which is not in 托管 and to act",
                    rule="T-11",
                    act=number,
                )
            if self.t10:
                auto = auto_answer(snapshot)
                if isinstance(auto, Reason) or auto != move:
                    raise _fail(
                        "act",
                        "NOT_T10_MOVE",
                        f"托管 plays {_shown(auto)}, not {_shown(move)}",
                        rule="T-10",
                        act=number,
                    )
        # A seat in 托管 may still make its own move: a deal that 托管 plays out goes on over
        # several writes (T-11's reading), and between two of them the seat may move first.
        try:
            after, _ = apply_move(snapshot, move)
        except MoveRefused as refused:
            reason = refused.reason
            raise _fail(
                "act",
                reason.code,
                f"{_shown(move)} is illegal: {reason.message}",
                rule=reason.rule,
                act=number,
            ) from None
        except InvalidInput as invalid:
            raise _fail(
                "act", invalid.code, invalid.message, rule=invalid.rule, act=number
            ) from None
        if isinstance(move, PlayMove) and snapshot.phase == "play":
            self.played = True
        if after.over and not snapshot.over and all(self.trustee) and not after.void:
            self.void_by_trustee = True  # T-11: 不予计分
        self.snapshot = after

    def _trustee(self, number: int, act: TrusteeAct) -> None:
        seat = act.seat
        if act.on:
            if self.trustee[seat] or act.count != self.entered[seat] + 1:
                raise _fail(
                    "act",
                    "TRUSTEE_STATE",
                    f"seat {seat} enters 托管 for the {act.count}th time, but it "
                    + ("is in 托管" if self.trustee[seat] else f"entered {self.entered[seat]}"),
                    rule="T-11",
                    act=number,
                )
            self.trustee[seat], self.entered[seat] = True, act.count
            return
        if not self.trustee[seat] or act.count != self.entered[seat]:
            raise _fail(
                "act",
                "TRUSTEE_STATE",
                f"seat {seat} leaves 托管 it is not in, or with a wrong count",
                rule="T-11",
                act=number,
            )
        if seat in self.left:
            raise _fail("act", "SEAT_LEFT", f"seat {seat} left the table", rule="S-9", act=number)
        if self.entered[seat] > TRUSTEE_LIMIT:
            raise _fail(
                "act",
                "TRUSTEE_LOCKED",
                f"seat {seat} entered 托管 {self.entered[seat]} times and may not leave it",
                rule="T-11",
                act=number,
            )
        self.trustee[seat] = False

    def _leave(self, number: int, act: LeftAct) -> None:
        seat = act.seat
        over = self.snapshot is not None and self.snapshot.over
        charged = -LEAVE_PENALTY if self.lianzhong and self.played and not over else 0
        if seat in self.left or act.penalty != charged:
            raise _fail(
                "act",
                "LEAVE_PENALTY",
                f"seat {seat} leaves charged {act.penalty}, where S-9 charges {charged}"
                if seat not in self.left
                else f"seat {seat} left the table already",
                rule="S-9",
                act=number,
            )
        self.left.add(seat)
        self.charges[seat] += charged
        # 托管 follows in the next act (its cause ``leave``), unless the seat was in it already

    # -- 4, 5: the result and the totals --------------------------------------------------------

    def result(self, record: FullRecord) -> None:
        snapshot = self.snapshot
        assert snapshot is not None
        if not snapshot.over:
            raise _fail(
                "result",
                "NOT_OVER",
                "the record ends before the deal is over",
                rule="T-9",
            )
        if self.void_by_trustee:
            snapshot = msgspec.structs.replace(snapshot, void=True, positions=None)
        scored = score(snapshot)
        # leaving after the end is charged nothing (S-9): the charges are the deal's
        expected = DealResult(deal=record.deal, score=scored, penalties=list(self.charges))
        if record.result != expected:
            raise _fail(
                "result",
                "RESULT_MISMATCH",
                "the result is not what the rules score for these acts",
                rule=_scoring_rule(record, scored.void is not None),
            )
        after = [
            b + s for b, s in zip(record.totals.before, scored.scores or [0] * SEATS, strict=True)
        ]
        if record.totals.after != after:
            raise _fail(
                "totals",
                "TOTALS_MISMATCH",
                "the table's totals after the deal are not those before plus its scores",
                rule="S-1",
            )
        penalties = [b + c for b, c in zip(record.penalties.before, self.charges, strict=True)]
        if record.penalties.after != penalties:
            raise _fail(
                "totals",
                "PENALTIES_MISMATCH",
                "the table's penalties after the deal are not those before plus its charges",
                rule="S-9",
            )


def _scoring_rule(record: FullRecord, void: bool) -> str:
    if void:
        return "S-10"
    base = ruleset_of(record.ruleset).base
    return {"classic": "S-2", "tribute": "S-3"}.get(base, "S-4")


def _shown(move: object) -> str:
    """A move as a person reads it: ``seat 2 play 7S 7H``."""
    if isinstance(move, Reason):
        return f"nothing ({move.code})"
    fields = msgspec.to_builtins(move)
    cards = fields.get("cards") or ([fields["card"]] if "card" in fields else [])
    return " ".join([f"seat {fields['seat']}", fields["action"], *cards])


def _opening_path(invalid: InvalidInput) -> str:
    """Where in the record the opening is bad (the engine names its argument ``.snapshot``)."""
    return "$.opening" + invalid.path.removeprefix(".snapshot")


_CARD_IDS: Final = {code: card for card, code in CODES.items()}


def _paid(hands: list[list[str]], transfers: list[Transfer]) -> list[list[str]] | None:
    """``hands`` after ``transfers``, each high to low; ``None`` when a card given was not in
    its giver's hand."""
    held = [list(hand) for hand in hands]
    for transfer in transfers:
        seats = range(SEATS)
        if transfer.from_ not in seats or transfer.to not in seats:
            return None
        if transfer.card not in held[transfer.from_]:
            return None
        held[transfer.from_].remove(transfer.card)
        held[transfer.to].append(transfer.card)
    return [sorted(hand, key=lambda code: _CARD_IDS.get(code, -1), reverse=True) for hand in held]
