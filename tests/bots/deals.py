"""Deals of every ruleset walked from the deal into any phase, with the public record a seat
would have received (the events its log shows)."""

from __future__ import annotations

import random

from baohuang.bots import Act, BotInput, acts_of, suggest
from baohuang.engine import (
    BASES,
    RulesetField,
    RulesetSpec,
    Snapshot,
    apply_move,
    deal,
    legal_moves,
    opening_snapshot,
    ruleset_of,
    seat_view,
)

RULESETS: list[RulesetField] = [
    *BASES,
    RulesetSpec(base="lianzhong-simple", kaopai=True, bie6=True),
    RulesetSpec(base="lianzhong-classic", kaopai=True, bie6=True, grab=True),
]


def walk(
    seed: int, ruleset_index: int, moves: int, *, settle: bool = False, by_bots: float = 0.0
) -> tuple[Snapshot, list[Act]]:
    """A fresh deal of ``seed`` after up to ``moves`` random legal moves (before play or in
    play), and its public record; stops one move short of the end so that someone acts.
    ``settle``: the questions before play are answered by the heuristic, so that the deal
    reaches play with an emperor and usually a hidden guard. ``by_bots``: the share of moves
    in play the heuristic makes instead (it gets rid of its cards, so seats finish)."""
    rng = random.Random(seed)
    ruleset = RULESETS[ruleset_index % len(RULESETS)]
    snapshot = opening_snapshot(ruleset, deal(ruleset_of(ruleset), seed, seed % 5))
    history: list[Act] = []
    for _ in range(moves):
        if (settle and snapshot.phase != "play") or rng.random() < by_bots:
            move = suggest(BotInput(view=seat_view(snapshot, snapshot.turn)))
        else:
            move = rng.choice(legal_moves(snapshot))
        after, events = apply_move(snapshot, move)
        if after.over:
            break
        snapshot = after
        history.extend(acts_of(events))
    return snapshot, history
