"""Random deals from random shuffles, played to the end by a random agent among ``legal_moves``.

For every ruleset and kaopai/憋6 mix and every mode: listed moves validate; a random move is legal
exactly when its shape is listed, and a refused one changes nothing; every snapshot the engine
writes validates; every deal ends (T-9); no card is created or lost; positions are a permutation
and finished seats keep their places; the final score is settled and sums to zero (S-1).
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang.engine import (
    BASES,
    FinishedEvent,
    JiefengMove,
    Mode,
    Move,
    MoveRefused,
    PassMove,
    PlayedEvent,
    PlayMove,
    Reason,
    Ruleset,
    Snapshot,
    YieldMove,
    apply_move,
    auto_move,
    classify,
    legal_moves,
    replay,
    score,
    validate_snapshot,
    verify_move,
)
from baohuang.engine.rulesets import resolve_ruleset
from thorough import examples

from .play_support import MODES, deal, deck_codes

RULESETS = [
    resolve_ruleset(base, kaopai=kaopai, bie6=bie6)
    for base in BASES
    for kaopai in (False, True)
    for bie6 in (False, True)
]


def shape(ruleset: Ruleset, cards: list[str]) -> tuple[int, int, int, int] | None:
    combo = classify(ruleset.cards.parse(cards))
    if isinstance(combo, Reason):
        return None
    return (combo.rank, combo.count, combo.small, combo.big)


def random_move(rng: random.Random, snapshot: Snapshot) -> Move:
    """Any move at all: often by the wrong seat, with cards that may be no combo or not held."""
    seat = snapshot.turn if rng.random() < 0.7 else rng.randrange(5)
    kind = rng.randrange(6)
    if kind == 0:
        return PassMove(seat)
    if kind == 1:
        return YieldMove(seat)
    if kind == 2:
        return JiefengMove(seat)
    hand = snapshot.hands[seat] or snapshot.hands[snapshot.turn]
    cards = rng.sample(hand, rng.randint(0, min(len(hand), 6)))
    if rng.random() < 0.2:
        extra = rng.choice(["7S", "9D", "KH"])  # perhaps not held
        if cards.count(extra) < 3:
            cards.append(extra)
    return PlayMove(seat, cards)


def listed(ruleset: Ruleset, snapshot: Snapshot, moves: list[Move], move: Move) -> bool:
    """Whether ``legal_moves`` covers ``move``: same answer, or a held play of a listed shape."""
    if not isinstance(move, PlayMove):
        return move in moves
    if move.seat != snapshot.turn or Counter(move.cards) - Counter(snapshot.hands[move.seat]):
        return False
    shapes = {shape(ruleset, m.cards) for m in moves if isinstance(m, PlayMove)}
    return shape(ruleset, move.cards) in shapes


def t10_from_the_list(snapshot: Snapshot, moves: list[Move]) -> Move:
    """T-10 in play, read off ``legal_moves``: a follower passes; a leader plays its cheapest
    legal single, or its cheapest legal play when it has no single it may lead."""
    if snapshot.trick.top is not None:
        return PassMove(snapshot.turn)
    plays = [move for move in moves if isinstance(move, PlayMove)]
    singles = [move for move in plays if len(move.cards) == 1]
    return singles[0] if singles else plays[0]


def play_out(seed: int, ruleset: Ruleset, mode: Mode) -> None:
    rng = random.Random(seed)
    start = validate_snapshot(deal(rng, ruleset, mode))
    snapshot = start
    played: Counter[str] = Counter()
    history: list[Move] = []
    for _ in range(3000):
        if snapshot.over:
            break
        moves = legal_moves(snapshot)
        assert moves, "a seat to act always has a legal move"
        # 托管 looks at the singles alone; it must pick what the whole list would
        assert auto_move(snapshot) == t10_from_the_list(snapshot, moves)
        for move in moves if len(moves) <= 30 else rng.sample(moves, 30):
            assert verify_move(snapshot, move) is None, move
        probe = random_move(rng, snapshot)
        reason = verify_move(snapshot, probe)
        assert (reason is None) == listed(ruleset, snapshot, moves, probe), (probe, reason)
        if reason is not None:
            before = msgspec.json.encode(snapshot)
            with pytest.raises(MoveRefused):
                apply_move(snapshot, probe)
            assert msgspec.json.encode(snapshot) == before
        move = rng.choice(moves) if rng.random() < 0.9 else auto_move(snapshot)
        history.append(move)
        snapshot, events = apply_move(snapshot, move)
        snapshot = validate_snapshot(snapshot)
        for event in events:
            if isinstance(event, PlayedEvent):
                played.update(event.cards)
            if isinstance(event, FinishedEvent):
                assert snapshot.finished[event.position - 1] == event.seat
    assert snapshot.over, "the deal did not end"
    in_hands = Counter(code for hand in snapshot.hands for code in hand)
    assert in_hands + played == Counter(deck_codes(ruleset))
    positions = snapshot.positions
    assert positions is not None and sorted(positions) == [1, 2, 3, 4, 5]
    for place, seat in enumerate(snapshot.finished, start=1):
        assert positions[seat] == place
    result = score(snapshot)
    assert result.final and result.scores is not None and result.sides is not None
    assert result.sides.emperor + result.sides.rebels == 0
    if ruleset.scoring != "S-3":
        assert sum(result.scores) == 0
    # The audit of the whole deal in one call reaches the same end.
    audit = replay(start, history)
    assert (audit.applied, audit.failed) == (len(history), None)
    assert audit.snapshot == snapshot


@settings(max_examples=examples(80), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    index=st.integers(0, len(RULESETS) - 1),
    mode=st.sampled_from(MODES),
)
def test_random_deals_play_to_the_end(seed: int, index: int, mode: Mode) -> None:
    play_out(seed, RULESETS[index], mode)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_ruleset_plays_a_team_deal_to_the_end(ruleset: Ruleset) -> None:
    play_out(7, ruleset, "team")
