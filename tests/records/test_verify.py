"""The deal record's verifier, one check at a time (docs/records.md "Verifying"), its JSON Schema,
and ``baohuang verify`` at a terminal.

Records are made here by the table's own rules (:mod:`baohuang.tables.flow`), with time and the
service's seeds given, and changed one field at a time: each change must fail, naming the part
or the act, the rule and the code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from baohuang.engine import (
    AcceptMove,
    CallMove,
    DealOverEvent,
    Event,
    MoveRefused,
    PassMove,
    PlayMove,
    auto_move,
    deal,
    legal_moves,
    opening_snapshot,
    ruleset_of,
)
from baohuang.records import (
    CommittedDealing,
    FullRecord,
    LeftAct,
    MoveAct,
    SeededDealing,
    Standing,
    TrusteeAct,
    build_record,
    decode_record,
    encode_record,
    record_schema,
    verify,
)
from baohuang.tables import Caller, flow
from baohuang.tables.record import TableRecord
from baohuang.tables.views import cut_record

jsonschema_rs = pytest.importorskip("jsonschema_rs")  # installed with schemathesis (test extra)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "openapi" / "deal-record.schema.json"
NOW = 1_800_000_000.0
SECRET = "ab" * 32


class Table:
    """A table driven by the table's rules, its events logged with their times."""

    def __init__(self, record: TableRecord, events: list[Event]) -> None:
        self.record = record
        self.events = [msgspec.structs.replace(e, at=NOW) for e in events]
        self.now = NOW

    def apply(self, change: Callable[..., flow.Change | None], *args: Any, **options: Any) -> None:
        """``change(record, *args, now, **options)``, the table's rules' way."""
        self.now += 1.5
        changed = change(self.record, *args, self.now, **options)
        assert changed is not None
        self.record, events = changed
        self.events += [msgspec.structs.replace(e, at=self.now) for e in events]

    def to_play(self) -> None:
        """Through the crown and guard phases, taking the crown (no void deal, 黄庄)."""
        while self.record.snapshot.phase != "play" and not self.record.snapshot.over:
            moves = legal_moves(self.record.snapshot)
            taking = [m for m in moves if isinstance(m, AcceptMove | CallMove)]
            move = taking[0] if taking else auto_move(self.record.snapshot)
            self.apply(flow.play, move)

    def play_to_the_end(self, trustee: tuple[int, ...] = ()) -> None:
        """Into play, then 托管 for ``trustee`` and T-10's moves for the others to the end."""
        self.to_play()
        for seat in trustee:
            self.apply(flow.set_trustee, seat, True)
        while not self.record.snapshot.over:
            move = auto_move(self.record.snapshot)
            self.apply(flow.play, move)

    def record_of(self) -> FullRecord:
        table = self.record.table
        standing = Standing(
            table="t",
            instance="0123456789abcdef",
            deal=table.deal,
            ruleset=self.record.snapshot.ruleset,
            totals=table.totals,
            penalties=table.penalties,
            left=[seat for seat, state in enumerate(table.seats) if state.left],
            trustee_level=table.trustee_level,
        )
        return build_record(self.events, standing)


def committed(ruleset: str = "classic", entropy: dict[int, str] | None = None) -> Table:
    record, events = flow.open_committed(ruleset, 2, 30, None, NOW, secret=SECRET)
    table = Table(record, events)
    for seat, given in (entropy or {1: "0a0b", 3: "ff"}).items():
        table.apply(flow.add_entropy, seat, given)
    table.now += 60  # the window closes
    table.apply(flow.time_out)
    return table


def seeded(ruleset: str = "lianzhong-classic") -> Table:
    """A table from a given snapshot, then its second deal from the platform's seed."""
    snapshot = opening_snapshot(ruleset, deal(ruleset_of(ruleset), 7, 0))
    table = Table(*flow.open_table(snapshot, None, NOW))
    table.play_to_the_end()
    table.events = []
    table.apply(flow.next_deal, 12345)
    return table


@pytest.fixture(scope="module")
def finished() -> FullRecord:
    """A committed classic deal, over, with 托管, a seat leaving and one entering 托管 after a
    timeout-like request."""
    table = committed()
    table.apply(flow.set_trustee, 4, True)
    table.apply(flow.set_trustee, 4, False)
    for _ in range(30):  # some moves by the seats
        moves = legal_moves(table.record.snapshot)
        plays = [m for m in moves if isinstance(m, PlayMove)]
        move = (plays or moves)[0]
        table.apply(flow.play, move)
    table.apply(flow.leave, 0)
    table.play_to_the_end(trustee=(1, 2))
    record = table.record_of()
    assert verify(record).valid, verify(record).failure
    return record


def failure_of(record: FullRecord) -> tuple[str, int | None, str | None, str]:
    failed = verify(record).failure
    assert failed is not None
    return failed.part, failed.act, failed.rule, failed.code


def test_G_4_a_committed_deal_verifies(finished: FullRecord) -> None:
    verdict = verify(finished)
    assert verdict.valid and verdict.acts == len(finished.acts) and verdict.deal == 1
    dealing = finished.dealing
    assert isinstance(dealing, CommittedDealing) and dealing.seed == SECRET
    assert dealing.entropy == [None, "0a0b", None, "ff", None]
    kinds = {type(act) for act in finished.acts}
    assert kinds == {MoveAct, TrusteeAct, LeftAct}
    assert finished.acts[0].at > 0 and finished.ended is not None


def test_G_4_seeded_and_given_deals_verify() -> None:
    table = seeded()
    table.play_to_the_end(trustee=(0,))
    record = table.record_of()
    assert isinstance(record.dealing, SeededDealing) and record.dealing.seed == 12345
    assert record.dealing.chosen_by == "platform" and record.dealer is not None
    assert verify(record).valid, verify(record).failure
    given = Table(*flow.open_table(record.opening, None, NOW))
    given.play_to_the_end()
    assert verify(given.record_of()).valid


def test_G_4_a_seed_that_is_not_the_one_committed_to_fails(finished: FullRecord) -> None:
    dealing = finished.dealing
    assert isinstance(dealing, CommittedDealing)
    swapped = msgspec.structs.replace(dealing, seed="cd" * 32)
    assert failure_of(msgspec.structs.replace(finished, dealing=swapped)) == (
        "dealing", None, "G-4", "COMMITMENT_MISMATCH"
    )  # fmt: skip
    other = msgspec.structs.replace(dealing, commitment="00" * 32)
    assert failure_of(msgspec.structs.replace(finished, dealing=other))[3] == "COMMITMENT_MISMATCH"
    hidden = msgspec.structs.replace(dealing, seed=None)
    assert failure_of(msgspec.structs.replace(finished, dealing=hidden))[3] == "SEED_NOT_REVEALED"
    newer = msgspec.structs.replace(dealing, algorithm="sha256-ctr/2")
    assert failure_of(msgspec.structs.replace(finished, dealing=newer))[3] == "UNKNOWN_ALGORITHM"


def test_G_4_other_entropy_or_an_edited_hand_is_not_the_deal(finished: FullRecord) -> None:
    dealing = finished.dealing
    assert isinstance(dealing, CommittedDealing)
    entropy = msgspec.structs.replace(dealing, entropy=[None, "0a0c", None, "ff", None])
    assert failure_of(msgspec.structs.replace(finished, dealing=entropy)) == (
        "dealing", None, "G-4", "DEAL_MISMATCH"
    )  # fmt: skip
    hands = [list(hand) for hand in finished.opening.hands]
    hands[0][-1], hands[1][-1] = hands[1][-1], hands[0][-1]
    if hands[0][-1] != hands[1][-1]:
        opening = msgspec.structs.replace(finished.opening, hands=hands)
        assert failure_of(msgspec.structs.replace(finished, opening=opening))[3] in (
            "DEAL_MISMATCH",
            "INVALID_SNAPSHOT",
        )


def test_P_2_the_tribute_listed_must_be_what_the_deal_before_calls_for() -> None:
    table = committed("tribute")
    table.play_to_the_end(trustee=(0, 1))
    table.events = []
    table.apply(flow.next_deal, None, committed=True, seconds=0)
    table.play_to_the_end(trustee=(2,))
    record = table.record_of()
    assert record.tribute is not None and record.tribute.transfers
    assert verify(record).valid, verify(record).failure
    previous = record.tribute.previous
    other = msgspec.structs.replace(
        previous, emperor=(previous.emperor + 1) % 5, guard=None, mode="solo_open"
    )
    tribute = msgspec.structs.replace(record.tribute, previous=other)
    assert failure_of(msgspec.structs.replace(record, tribute=tribute))[:3] == (
        "tribute",
        None,
        "P-2",
    )


def _with_act(record: FullRecord, index: int, act: Any) -> FullRecord:
    acts = list(record.acts)
    acts[index] = act
    return msgspec.structs.replace(record, acts=acts)


def test_T_10_a_trustee_move_is_T_10s_move(finished: FullRecord) -> None:
    index = next(
        i
        for i, act in enumerate(finished.acts)
        if isinstance(act, MoveAct) and act.by == "trustee" and isinstance(act.move, PassMove)
    )
    act = finished.acts[index]
    assert isinstance(act, MoveAct)
    # the seat passed for by 托管; the seat itself passing is as legal, but 托管 plays
    moved = msgspec.structs.replace(act, by="seat")
    assert verify(_with_act(finished, index, moved)).valid
    before = finished.acts[index - 1]
    if isinstance(before, MoveAct) and before.by == "trustee":
        swapped = msgspec.structs.replace(before, by="trustee")
        assert verify(_with_act(finished, index - 1, swapped)).valid


def test_T_11_trustee_acts_follow_the_seat_states(finished: FullRecord) -> None:
    first = next(i for i, act in enumerate(finished.acts) if isinstance(act, TrusteeAct))
    act = finished.acts[first]
    assert isinstance(act, TrusteeAct) and act.on
    twice = [*finished.acts[: first + 1], act, *finished.acts[first + 1 :]]
    assert failure_of(msgspec.structs.replace(finished, acts=twice)) == (
        "act", first + 2, "T-11", "TRUSTEE_STATE"
    )  # fmt: skip
    # a 托管 move for a seat that is not in 托管
    index, move = next(
        (i, a)
        for i, a in enumerate(finished.acts)
        if isinstance(a, MoveAct) and a.by == "seat" and i > first + 1
    )
    assert failure_of(_with_act(finished, index, msgspec.structs.replace(move, by="trustee")))[
        1:
    ] == (index + 1, "T-11", "NOT_IN_TRUSTEE")


def test_T_11_a_seat_that_entered_more_than_three_times_stays_in_trustee() -> None:
    table = committed()
    for _ in range(4):
        table.apply(flow.set_trustee, 1, True)
        if table.record.table.seats[1].entered <= flow.TRUSTEE_LIMIT:
            table.apply(flow.set_trustee, 1, False)
    with pytest.raises(MoveRefused):
        table.apply(flow.set_trustee, 1, False)
    table.play_to_the_end()
    record = table.record_of()
    assert verify(record).valid
    off = TrusteeAct(at=1.0, seat=1, on=False, count=4)
    locked = [*record.acts[:-1], off, record.acts[-1]]
    # leaving 托管 at the end: refused by T-11 (the act count shows where)
    assert failure_of(msgspec.structs.replace(record, acts=locked))[1:] == (
        len(record.acts), "T-11", "TRUSTEE_LOCKED"
    )  # fmt: skip


def test_S_9_leaving_is_charged_as_S_9_says(finished: FullRecord) -> None:
    index, act = next((i, a) for i, a in enumerate(finished.acts) if isinstance(a, LeftAct))
    assert act.penalty == 0  # classic charges nothing
    charged = _with_act(finished, index, msgspec.structs.replace(act, penalty=-40))
    assert failure_of(charged)[1:] == (index + 1, "S-9", "LEAVE_PENALTY")
    table = committed("lianzhong-simple")
    table.to_play()
    while not table.record.table.played:
        table.apply(flow.play, auto_move(table.record.snapshot))
    table.apply(flow.leave, 3)
    table.play_to_the_end()
    record = table.record_of()
    assert verify(record).valid and record.penalties.after is not None
    assert record.penalties.after[3] == -40 and record.result is not None
    assert record.result.penalties[3] == -40


def test_T_1_a_move_out_of_order_is_named_with_its_rule(finished: FullRecord) -> None:
    moves = [i for i, act in enumerate(finished.acts) if isinstance(act, MoveAct)]
    index = moves[len(moves) // 2]
    act = finished.acts[index]
    assert isinstance(act, MoveAct)
    wrong = msgspec.structs.replace(act, move=PassMove((act.move.seat + 1) % 5), by="seat")
    part, at, rule, code = failure_of(_with_act(finished, index, wrong))
    assert (part, at) == ("act", index + 1) and rule is not None and code


def test_T_9_S_the_result_and_totals_are_what_the_acts_give(finished: FullRecord) -> None:
    cut = msgspec.structs.replace(finished, acts=finished.acts[:-3])
    assert failure_of(cut)[0] == "result" or failure_of(cut)[0] == "act"
    assert finished.result is not None
    score = msgspec.structs.replace(finished.result.score, winner="rebels")
    edited = msgspec.structs.replace(finished.result, score=score)
    assert failure_of(msgspec.structs.replace(finished, result=edited))[::3] == (
        "result", "RESULT_MISMATCH"
    )  # fmt: skip
    assert finished.totals.after is not None
    totals = msgspec.structs.replace(finished.totals, after=[1, 0, 0, 0, -1])
    assert failure_of(msgspec.structs.replace(finished, totals=totals))[2:] == (
        "S-1",
        "TOTALS_MISMATCH",
    )
    penalties = msgspec.structs.replace(finished.penalties, after=[-40, 0, 0, 0, 0])
    assert (
        failure_of(msgspec.structs.replace(finished, penalties=penalties))[3]
        == "PENALTIES_MISMATCH"
    )


def test_T_9_a_record_that_ends_before_the_deal_does_not_verify() -> None:
    table = committed()
    for _ in range(5):
        table.apply(flow.play, auto_move(table.record.snapshot))
    record = table.record_of()
    assert record.result is None and record.totals.after is None
    assert failure_of(record)[0] == "dealing"  # the seed is not revealed yet
    assert isinstance(record.dealing, CommittedDealing) and record.dealing.seed is None


def test_only_a_full_record_of_this_version_verifies(finished: FullRecord) -> None:
    older = msgspec.structs.replace(finished, version=2)
    assert failure_of(older)[::3] == ("record", "RECORD_VERSION")
    table = committed()
    for _ in range(3):
        table.apply(flow.play, auto_move(table.record.snapshot))
    seat = cut_record(table.record_of(), Caller("seat", 1, "0123456789abcdef"))
    assert seat.__struct_config__.tag == "seat"
    failed = verify(seat).failure
    assert failed is not None and failed.code == "NOT_FULL"


def test_the_record_reads_as_a_person_reads_it(finished: FullRecord) -> None:
    text = encode_record(finished).decode()
    lines = text.splitlines()
    assert lines[0].startswith('{"record":"full","version":1,"table":"t"')
    assert len(lines) == len(finished.acts) + 2  # headers and opening, one act a line, the rest
    assert all(line.startswith('{"act":') for line in lines[1:-1])
    assert decode_record(text) == finished
    assert len(text) < 64_000  # small enough to mail (a whole deal with 托管: ~50 KB)


def test_the_json_schema_in_the_repository_is_the_records(finished: FullRecord) -> None:
    """openapi/deal-record.schema.json is what the code says (clients/generate writes it), and
    every form of a record validates against it."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert schema == json.loads(json.dumps(record_schema()))
    validator = jsonschema_rs.Draft202012Validator(schema)
    validator.validate(json.loads(encode_record(finished)))
    table = committed()
    table.play_to_the_end()
    for caller in (Caller("seat", 0, "i"), Caller("spectator", None, "i")):
        unfinished = Table(*flow.open_committed("classic", 0, 30, None, NOW, secret=SECRET))
        validator.validate(json.loads(encode_record(cut_record(unfinished.record_of(), caller))))
    with pytest.raises(jsonschema_rs.ValidationError):
        validator.validate({**json.loads(encode_record(finished)), "record": "other"})


def _verify_cli(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "baohuang.cli", "verify", str(path), *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_baohuang_verify_at_a_terminal(finished: FullRecord, tmp_path: Path) -> None:
    good = tmp_path / "deal.json"
    good.write_bytes(encode_record(finished))
    done = _verify_cli(good)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"valid: table t, deal 1, {len(finished.acts)} acts"
    index = next(i for i, act in enumerate(finished.acts) if isinstance(act, MoveAct))
    act = finished.acts[index]
    assert isinstance(act, MoveAct)
    wrong = msgspec.structs.replace(act, move=PassMove((act.move.seat + 2) % 5))
    bad = tmp_path / "edited.json"
    bad.write_bytes(encode_record(_with_act(finished, index, wrong)))
    done = _verify_cli(bad)
    assert done.returncode == 1
    assert done.stdout.startswith(f"invalid: act {index + 1}: "), done.stdout
    verdict = json.loads(_verify_cli(bad, "--json").stdout)
    assert verdict["valid"] is False and verdict["failure"]["act"] == index + 1
    junk = tmp_path / "junk.json"
    junk.write_text('{"record": "full"}')
    done = _verify_cli(junk)
    assert done.returncode == 2 and "not a deal record" in done.stderr
    assert _verify_cli(tmp_path / "missing.json").returncode == 2


def test_a_deal_over_event_reveals_the_seed_it_was_committed_to(finished: FullRecord) -> None:
    """The record's reveal is the table's ``deal_over``: both come from the same event."""
    assert isinstance(finished.dealing, CommittedDealing)
    assert finished.dealing.seed == SECRET
    assert DealOverEvent(positions=[], seed=SECRET).seed == finished.dealing.seed
