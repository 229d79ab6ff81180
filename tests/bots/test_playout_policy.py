"""The play-out's heuristic finds leads and answers without listing every legal move: it must
find exactly the move the heuristic picks from the engine's whole list (the oracle)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang.bots.playout import heuristic_move, playout
from baohuang.engine import Snapshot, apply_move, legal_moves
from thorough import examples

from .deals import RULESETS, walk


def _positions(seed: int, ruleset_index: int) -> list[Snapshot]:
    """Every position in play of one deal played by the heuristic with a share of random moves
    (so that hands, tops and partners vary), settled by the heuristic before play."""
    rng = random.Random(seed)
    state, _ = walk(seed, ruleset_index, 40, settle=True)
    positions = []
    while not state.over:
        if state.phase == "play":
            positions.append(state)
        moves = legal_moves(state)
        move = rng.choice(moves) if rng.random() < 0.3 else heuristic_move(state, moves)
        state = apply_move(state, move)[0]
    return positions


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1))
def test_the_quick_play_out_move_is_the_heuristics_choice_from_every_legal_move(
    seed: int, ruleset_index: int
) -> None:
    for state in _positions(seed, ruleset_index):
        assert heuristic_move(state) == heuristic_move(state, legal_moves(state)), state


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1))
def test_a_quick_play_out_ends_as_one_over_every_legal_move(seed: int, ruleset_index: int) -> None:
    state, _ = walk(seed, ruleset_index, 40, settle=True)
    slow = state
    while not slow.over:
        slow = apply_move(slow, heuristic_move(slow, legal_moves(slow)))[0]
    assert playout(state) == slow
