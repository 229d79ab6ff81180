"""Tables played at random through the table service, deal after deal, for the deal-record tests.

A table is created committed or from a snapshot the platform dealt; each deal is dealt
committed (some seats adding entropy, the others waited for until the window closes), from the
platform's seed or from the service's; then random legal moves by the seats, clock timeouts,
托管 asked for and left, seats leaving the table, until a random few seats are left playing and
托管 plays the rest out. Time is the test's (:class:`table_support.Time`), so that timeouts and
windows close when the test says.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec

from baohuang.engine import (
    GrabMove,
    MoveRefused,
    PlayMove,
    Snapshot,
    apply_move,
    deal,
    legal_moves_of,
    opening_snapshot,
    ruleset_of,
)
from baohuang.records import (
    CommittedDealing,
    Dealing,
    DealRecord,
    FullRecord,
    MoveAct,
    SeededDealing,
)
from baohuang.tables import Caller, TableService, VersionConflict
from baohuang.tables.callers import PLATFORM
from baohuang.tables.dealing import CommittedDeal
from baohuang.tables.record import Clock
from table_support import Time

RULESETS = ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]


class SeededSecrets:
    """Stands in for :mod:`secrets` in :mod:`baohuang.tables.flow`, so that the seeds the
    service draws (committed and not) repeat with the test's seed and a failure can be
    replayed."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def token_hex(self, size: int) -> str:
        return self.rng.randbytes(size).hex()

    def randbits(self, bits: int) -> int:
        return self.rng.getrandbits(bits)


CLOCK = Clock(turn_seconds=10, before_play_seconds=10)


async def read(service: TableService, table_id: str) -> tuple[int, Snapshot]:
    table = await service.read(table_id, PLATFORM)
    assert isinstance(table.view, Snapshot)
    return table.version, table.view


async def play_table(
    service: TableService, time: Time, table_id: str, ruleset: str, deals: int, rng: random.Random
) -> list[Caller]:
    """Play ``deals`` deals at a new table ``table_id``; its seats' callers."""
    clock = CLOCK if rng.random() < 0.5 else None
    if rng.random() < 0.6:
        first: Snapshot | CommittedDeal = CommittedDeal(
            ruleset, rng.randrange(5), rng.choice([0, 5, 30])
        )
    else:
        first = opening_snapshot(ruleset, deal(ruleset_of(ruleset), rng.getrandbits(32), 0))
    created, _ = await service.create(table_id, first, PLATFORM, clock)
    seats = [Caller("seat", seat, created.instance) for seat in range(5)]
    left: set[int] = set()
    for number in range(1, deals + 1):
        if number > 1:
            version, _ = await read(service, table_id)
            seed, committed = rng.choice([(None, True), (rng.getrandbits(40), None), (None, False)])
            await service.next_deal(
                table_id, PLATFORM, version, seed, committed, rng.choice([0, 5])
            )
        await _add_entropy(service, time, table_id, seats, left, rng)
        await _play_deal(service, time, table_id, seats, left, rng)
    return seats


async def _add_entropy(
    service: TableService,
    time: Time,
    table_id: str,
    seats: list[Caller],
    left: set[int],
    rng: random.Random,
) -> None:
    """Some seats add entropy; the window closes for the others."""
    _, snapshot = await read(service, table_id)
    if snapshot.phase != "deal":
        return
    for seat in rng.sample(range(5), rng.randrange(6)):
        if seat not in left and (await read(service, table_id))[1].phase == "deal":
            await service.add_entropy(
                table_id, seats[seat], seat, rng.randbytes(rng.randrange(1, 65)).hex()
            )
    table = await service.read(table_id, PLATFORM)
    if table.view.phase == "deal":
        assert table.table.deadline is not None
        time.now = table.table.deadline + 0.01
        assert await service.tick() >= 1


async def _play_deal(
    service: TableService,
    time: Time,
    table_id: str,
    seats: list[Caller],
    left: set[int],
    rng: random.Random,
) -> None:
    """Random acts until a few seats are left playing, then 托管 plays the rest out."""
    playing = set(rng.sample(range(5), rng.choice([0, 1, 1, 2])))  # who plays to the end
    for step in range(10_000):
        version, snapshot = await read(service, table_id)
        if snapshot.over:
            return
        roll = rng.random()
        seat = rng.randrange(5)
        state = (await service.read(table_id, PLATFORM)).table
        try:
            if step > 25 and seat not in playing and not state.seats[seat].trustee:
                await service.set_trustee(table_id, seats[seat], seat, True, version)
            elif roll < 0.02 and len(left) < 2 and seat not in left:
                await service.leave(table_id, seats[seat], seat, version)
                left.add(seat)
                playing.discard(seat)
            elif roll < 0.06 and state.deadline is not None:
                time.now = max(time.now, state.deadline + 0.01)  # the seat to act times out
                await service.tick()
            elif roll < 0.09:
                await service.set_trustee(table_id, seats[seat], seat, True, version)
            elif roll < 0.12 and state.seats[seat].trustee and not state.seats[seat].left:
                await service.set_trustee(table_id, seats[seat], seat, False, version)
            else:
                await _move(service, table_id, seats, snapshot, version, rng)
        except MoveRefused as refused:
            assert refused.reason.code in ("TRUSTEE_LOCKED", "SEAT_LEFT"), refused.reason
        except VersionConflict:
            pass  # 托管 or the clock wrote meanwhile: read again
        if all(s.trustee for s in state.seats):
            await service.tick()  # a play-out spread over writes goes on
    raise AssertionError("the deal did not end")


async def _move(
    service: TableService,
    table_id: str,
    seats: list[Caller],
    snapshot: Snapshot,
    version: int,
    rng: random.Random,
) -> None:
    """The seat to act (or, now and then, a classic grab out of turn) makes a random legal
    move, plays preferred over passes so that deals end."""
    mover = snapshot.turn
    moves = legal_moves_of(snapshot, mover)
    if not moves:
        return
    plays = [move for move in moves if isinstance(move, PlayMove)]
    move = rng.choice(plays if plays and rng.random() < 0.7 else moves)
    await service.move(table_id, seats[move.seat], move, version)


# -- tampering ------------------------------------------------------------------------------


def _moves(record: FullRecord) -> list[tuple[int, MoveAct]]:
    return [(i, act) for i, act in enumerate(record.acts) if isinstance(act, MoveAct)]


def hands_at(record: FullRecord, index: int) -> list[list[str]]:
    """The hands just before act ``index`` (0-based), by replaying the record's moves."""
    snapshot = record.opening
    for act in record.acts[:index]:
        if isinstance(act, MoveAct):
            snapshot, _ = apply_move(snapshot, act.move)
    return snapshot.hands


Tamper = Callable[[FullRecord, random.Random], tuple[DealRecord, int | None, str] | None]
"""A change to a full record: the changed record, the 1-based act the verifier must name
(``None``: a part), and that part; ``None`` when the record has nothing to change."""


def change_a_card(
    record: FullRecord, rng: random.Random
) -> tuple[DealRecord, int | None, str] | None:
    """A play's card becomes one its seat does not hold then: that act fails (T-3)."""
    plays = [(i, act) for i, act in _moves(record) if isinstance(act.move, PlayMove)]
    if not plays:
        return None
    index, act = rng.choice(plays)
    assert isinstance(act.move, PlayMove)
    held = hands_at(record, index)[act.move.seat]
    others = sorted({c for hand in record.opening.hands for c in hand} - set(held))
    cards = list(act.move.cards)
    cards[rng.randrange(len(cards))] = rng.choice(others)
    changed = msgspec.structs.replace(act, move=msgspec.structs.replace(act.move, cards=cards))
    acts = list(record.acts)
    acts[index] = changed
    return msgspec.structs.replace(record, acts=acts), index + 1, "act"


def reorder_moves(
    record: FullRecord, rng: random.Random
) -> tuple[DealRecord, int | None, str] | None:
    """Two moves in a row by different seats swap places (no grab, which comes out of turn):
    the first of them fails."""
    acts = record.acts
    pairs = []
    for i in range(len(acts) - 1):
        one, two = acts[i], acts[i + 1]
        if (
            isinstance(one, MoveAct)
            and isinstance(two, MoveAct)
            and one.move.seat != two.move.seat
            and not isinstance(one.move, GrabMove)
            and not isinstance(two.move, GrabMove)
        ):
            pairs.append(i)
    if not pairs:
        return None
    i = rng.choice(pairs)
    swapped = [*acts[:i], acts[i + 1], acts[i], *acts[i + 2 :]]
    return msgspec.structs.replace(record, acts=swapped), i + 1, "act"


def edit_the_result(
    record: FullRecord, rng: random.Random
) -> tuple[DealRecord, int | None, str] | None:
    """One seat's score in the result grows by 1 (and its total with it)."""
    result = record.result
    if result is None:
        return None
    scores = list(result.score.scores or [0] * 5)
    seat = rng.randrange(5)
    scores[seat] += 1
    score = msgspec.structs.replace(result.score, scores=scores)
    edited = msgspec.structs.replace(result, score=score)
    return msgspec.structs.replace(record, result=edited), None, "result"


def swap_the_seed(
    record: FullRecord, rng: random.Random
) -> tuple[DealRecord, int | None, str] | None:
    """Another seed in place of the one revealed (or the platform's): the dealing fails."""
    dealing = record.dealing
    other: Dealing
    if isinstance(dealing, SeededDealing):
        assert dealing.seed is not None
        other = msgspec.structs.replace(dealing, seed=dealing.seed + 1)
    elif isinstance(dealing, CommittedDealing):
        other = msgspec.structs.replace(dealing, seed=rng.randbytes(32).hex())
    else:
        return None  # a snapshot the platform gave: no seed
    return msgspec.structs.replace(record, dealing=other), None, "dealing"


TAMPERS: dict[str, Tamper] = {
    "a card changed": change_a_card,
    "a move reordered": reorder_moves,
    "a result edited": edit_the_result,
    "a seed swapped": swap_the_seed,
}
