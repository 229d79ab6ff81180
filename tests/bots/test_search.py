"""The search level with a fixed number of iterations: legal, reproducible, and it finds a move
that clearly wins where the heuristic's rule does not (docs/bots.md)."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from baohuang.bots import BotInput, suggest
from baohuang.bots.knowledge import world
from baohuang.bots.playout import final_scores, playout
from baohuang.bots.search import (
    DEPART_MARGIN,
    DEPART_VISITS,
    SCORE_UNIT,
    Edge,
    Node,
    answer_of,
    grow,
    iterate,
    move_key,
    open_moves,
)
from baohuang.engine import (
    PassMove,
    PlayMove,
    Snapshot,
    apply_move,
    legal_moves,
    seat_view,
    verify_move,
)
from thorough import examples

from .deals import RULESETS, walk


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1), st.integers(0, 300))
def test_a_searched_move_is_legal_and_a_function_of_seed_and_iterations(
    seed: int, ruleset_index: int, moves: int
) -> None:
    snapshot, history = walk(seed, ruleset_index, moves, settle=True)
    bot = BotInput(view=seat_view(snapshot, snapshot.turn), history=history)
    move = suggest(bot, "search", budget_ms=None, worlds=6, seed=seed)
    assert verify_move(snapshot, move) is None, move
    assert suggest(bot, "search", budget_ms=None, worlds=6, seed=seed) == move


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1), st.integers(0, 12))
def test_every_decision_before_play_is_legal(seed: int, ruleset_index: int, moves: int) -> None:
    """The crown, the call, 明独, a grab, 明保 and 造反 are weighed by play-outs: still legal."""
    snapshot, history = walk(seed, ruleset_index, moves)
    if snapshot.phase == "play":
        return
    bot = BotInput(view=seat_view(snapshot, snapshot.turn), history=history)
    # Six worlds, not twelve: legality does not depend on how many weigh the choice.
    move = suggest(bot, "search", budget_ms=None, worlds=6, seed=seed)
    assert verify_move(snapshot, move) is None, move
    assert move in legal_moves(snapshot)


def _race() -> Snapshot:
    """A grab (抢庄, S-8: the deal ends at the first finisher, +40 to the grabber if he is
    first): the grabber leads holding a pair of 2s and a 3; four others hold one card each. The
    heuristic leads its lowest set, the 3, which any other single beats to go out first; the
    pair first keeps the lead (no single beats a pair, C), and the 3 then wins the deal."""
    return Snapshot(
        mode="grab",
        emperor=0,
        hands=[["2S", "2H", "3S"], ["4S"], ["5S"], ["6S"], ["7S"]],
        turn=0,
        ruleset="classic",
        phase="play",
    )


def test_the_search_finds_the_lead_that_wins_where_the_heuristic_loses() -> None:
    snapshot = _race()
    bot = BotInput(view=seat_view(snapshot, 0))
    assert suggest(bot, "heuristic").cards == ["3S"]  # type: ignore[union-attr]
    for seed in range(3):
        move = suggest(bot, "search", budget_ms=None, worlds=40, seed=seed)
        assert sorted(move.cards) == ["2H", "2S"], (seed, move)  # type: ignore[union-attr]
        after = apply_move(snapshot, move)[0]
        assert verify_move(after, legal_moves(after)[0]) is None


def _statistics(root: Node) -> dict[object, tuple[int, int, float]]:
    return {key: (edge.visits, edge.available, edge.total) for key, edge in root.edges.items()}


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1), st.integers(20, 200))
def test_the_tree_is_a_function_of_seed_and_iterations(
    seed: int, ruleset_index: int, moves: int
) -> None:
    """Same seed and count, same tree, edge for edge."""
    snapshot, history = walk(seed, ruleset_index, moves, settle=True)
    if snapshot.phase != "play":
        return
    bot = BotInput(view=seat_view(snapshot, snapshot.turn), history=history)
    legal = legal_moves(snapshot)
    first = legal[0]
    trees = [grow(bot, legal, first, random.Random(seed), None, 8) for _ in range(2)]
    assert _statistics(trees[0]) == _statistics(trees[1])
    assert sum(edge.visits for edge in trees[0].edges.values()) == 8


def test_every_legal_move_is_opened_as_visits_grow() -> None:
    """All candidate moves are searched, in the heuristic's order, not a fixed few."""
    snapshot = _race()
    legal = legal_moves(snapshot)
    first = legal[-1]
    opened = open_moves(snapshot, legal, first, 10**6)
    assert opened[0] == first
    assert sorted(map(move_key, opened)) == sorted(map(move_key, legal))
    assert len(open_moves(snapshot, legal, first, 0)) == min(2, len(legal))


def _edge(gains: list[float]) -> Edge:
    edge = Edge()
    edge.visits, edge.available = len(gains), len(gains)
    edge.gains = list(gains)
    return edge


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(st.floats(-4, 4), min_size=0, max_size=30))
@example([1.0, 2.0] * 5)  # 4.4 standard errors better: played
@example([0.0, 0.5] * 5)  # 3 standard errors better: played
@example([-0.5, 1.0] * 5)  # 1.3 standard errors better: not yet
@example([0.25] * 4)  # better in every world tried, by the same: played
@example([0.0] * 10)  # the same in every world: kept
@example([4.0] * 3)  # too few play-outs of the other move
def test_the_search_leaves_the_heuristics_move_only_for_one_clearly_better(
    gains: list[float],
) -> None:
    """The oracle: the other move's mean gain over the heuristic's in the same worlds against
    twice its standard error (a one-sample t statistic over the paired gains)."""
    heuristic, other = PassMove(seat=0), PlayMove(seat=0, cards=["3S"])
    root = Node()
    root.edges[move_key(heuristic)] = _edge([])
    root.edges[move_key(other)] = _edge(gains)
    answer = answer_of(root, [heuristic, other], heuristic)
    if len(gains) < DEPART_VISITS:
        assert answer == heuristic
        return
    mean = sum(gains) / len(gains)
    variance = sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1)
    error = (variance / len(gains)) ** 0.5
    if abs(mean - DEPART_MARGIN * error) > 1e-6 and abs(mean) > 1e-9:  # rounding decides there
        assert answer == (other if mean > DEPART_MARGIN * error else heuristic)
    elif mean <= 0:
        assert answer == heuristic


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, len(RULESETS) - 1), st.integers(20, 200))
def test_a_root_moves_gains_are_its_play_outs_less_the_heuristics_in_the_same_worlds(
    seed: int, ruleset_index: int, moves: int
) -> None:
    """Iteration by iteration: one that tried another root move adds to that move's gains its
    score less the heuristic's choice played out in the same world (the oracle plays it out
    itself); one that tried the heuristic's choice adds no gain."""
    snapshot, history = walk(seed, ruleset_index, moves, settle=True)
    if snapshot.phase != "play":
        return
    seat = snapshot.turn
    bot = BotInput(view=seat_view(snapshot, seat), history=history)
    legal = legal_moves(snapshot)
    first = legal[0]
    root, rng = Node(), random.Random(seed)
    for _ in range(12):
        sample = world(bot.view, bot.history, rng)
        before = {
            key: (edge.visits, edge.total, len(edge.gains)) for key, edge in root.edges.items()
        }
        iterate(root, sample, legal, first)
        was = {key: before.get(key, (0, 0.0, 0)) for key in root.edges}
        [key] = [key for key, edge in root.edges.items() if edge.visits != was[key][0]]
        edge = root.edges[key]
        if key == move_key(first):
            assert all(len(other.gains) == was[name][2] for name, other in root.edges.items())
            continue
        kept = final_scores(playout(apply_move(sample, first)[0]))[seat] / SCORE_UNIT
        assert len(edge.gains) == was[key][2] + 1, key
        assert abs(edge.gains[-1] - (edge.total - was[key][1] - kept)) < 1e-9, key
    for key, edge in root.edges.items():
        assert len(edge.gains) == (0 if key == move_key(first) else edge.visits), key
