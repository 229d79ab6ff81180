"""Seat views never leak another hand's cards nor a hidden guard (G-8, 暗保/暗独)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from baohuang.engine import BASES, Snapshot, apply_move, legal_moves, seat_view
from baohuang.engine.rulesets import resolve_ruleset
from thorough import examples

from .play_support import deal

RULESETS = [*BASES.values(), resolve_ruleset("lianzhong-simple", kaopai=True, bie6=True)]
CARD_KEYS = {"hand", "cards"}


def card_codes(node: Any, key: str | None = None) -> list[str]:
    """Every card code anywhere in a decoded view (lists under ``hand``/``cards``)."""
    if isinstance(node, dict):
        return [code for k, value in node.items() for code in card_codes(value, k)]
    if isinstance(node, list):
        if key in CARD_KEYS:
            return [str(code) for code in node]
        return [code for item in node for code in card_codes(item)]
    return []


def mid_deal(seed: int, ruleset_index: int, moves: int) -> Snapshot:
    rng = random.Random(seed)
    snapshot = deal(rng, RULESETS[ruleset_index % len(RULESETS)])
    for _ in range(moves):
        if snapshot.over:
            break
        snapshot = apply_move(snapshot, rng.choice(legal_moves(snapshot)))[0]
    return snapshot


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 7), st.integers(0, 120))
def test_G_8_seat_view_holds_own_hand_and_public_cards_only(
    seed: int, ruleset_index: int, moves: int
) -> None:
    snapshot = mid_deal(seed, ruleset_index, moves)
    top = snapshot.trick.top
    public = Counter(top.cards) if top else Counter[str]()
    for seat in range(5):
        view = msgspec.to_builtins(seat_view(snapshot, seat))
        assert view["hand"] == snapshot.hands[seat]
        assert view["counts"] == [len(hand) for hand in snapshot.hands]
        seen = Counter(card_codes(view))
        assert seen == Counter(snapshot.hands[seat]) + public
        assert not set(view) & {"hands"}
        hidden = not (
            snapshot.guard_revealed
            or snapshot.over
            or len(snapshot.rebellion) >= 2
            or seat == snapshot.guard
        )
        if hidden:
            assert view["guard"] is None
            assert view["mode"] != "solo_hidden"
        elif snapshot.guard is not None:
            assert view["guard"] == snapshot.guard


def test_G_1_hidden_solo_looks_like_team_play_to_others() -> None:
    rng = random.Random(7)
    snapshot = deal(rng, BASES["classic"], mode="solo_hidden")
    snapshot = msgspec.structs.replace(snapshot, rebellion=[], guard_revealed=False)
    emperor = snapshot.emperor
    other = (emperor + 1) % 5
    assert seat_view(snapshot, emperor).mode == "solo_hidden"
    assert seat_view(snapshot, emperor).guard == emperor
    assert seat_view(snapshot, other).mode == "team"
    assert seat_view(snapshot, other).guard is None
