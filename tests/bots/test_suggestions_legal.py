"""Every suggestion is a legal move, at every level, in every ruleset and phase (the engine is
the oracle: ``verify_move`` on the real snapshot)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang.bots import BotInput, suggest
from baohuang.engine import apply_move, seat_view, verify_move
from thorough import examples

from .deals import RULESETS, walk


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1), st.integers(0, 400))
def test_every_heuristic_suggestion_is_legal(seed: int, ruleset_index: int, moves: int) -> None:
    snapshot, history = walk(seed, ruleset_index, moves)
    view = seat_view(snapshot, snapshot.turn)
    move = suggest(BotInput(view=view, history=history), "heuristic", seed=seed)
    assert move.seat == snapshot.turn
    assert verify_move(snapshot, move) is None, move


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1), st.integers(0, 400))
def test_every_search_suggestion_is_legal(seed: int, ruleset_index: int, moves: int) -> None:
    snapshot, history = walk(seed, ruleset_index, moves)
    view = seat_view(snapshot, snapshot.turn)
    move = suggest(BotInput(view=view, history=history), "search", budget_ms=None, worlds=1)
    assert verify_move(snapshot, move) is None, move


def test_a_whole_deal_of_suggestions_is_legal_without_any_history() -> None:
    """Without the record the bot knows less, never anything illegal."""
    for ruleset_index in range(len(RULESETS)):
        snapshot, _ = walk(ruleset_index, ruleset_index, 0)
        while True:
            move = suggest(BotInput(view=seat_view(snapshot, snapshot.turn)))
            assert verify_move(snapshot, move) is None, move
            snapshot = apply_move(snapshot, move)[0]
            if snapshot.over:
                break
