"""Named tests for rules of docs/rules.md that had none: D-7 (marked jokers fix roles), S-10
(a void deal scores nothing) and K-6's choice between two covers, through the engine's public
functions."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from baohuang.engine import (
    CODES,
    AcceptMove,
    CallMove,
    DeclineMove,
    InvalidInput,
    RulesetField,
    Snapshot,
    apply_move,
    compare,
    deal,
    legal_moves,
    opening_snapshot,
    ruleset_of,
    score,
    validate_snapshot,
)
from baohuang.engine.rulesets import resolve_ruleset

HANDS = [
    ["BJ*", "7S", "7H", "9D"],
    ["8S", "8H", "KD"],
    ["9S", "QH"],
    ["TS", "TH", "3C"],
    ["JS", "4D"],
]
SIMPLE_HANDS = [
    ["BJ*", "7S", "7H", "9D"],
    ["8S", "8H", "KD"],
    ["9S", "QH"],
    ["SJ*", "TS", "TH", "6C"],
    ["JS", "6D"],
]


def snapshot(**fields: Any) -> Snapshot:
    base: dict[str, Any] = {"ruleset": "classic", "mode": "team", "emperor": 0, "guard": 3}
    base.update(fields)
    base.setdefault("hands", HANDS)
    base.setdefault("turn", base["emperor"])
    return msgspec.convert(base, Snapshot)


def moved(hands: list[list[str]], card: str, source: int, target: int) -> list[list[str]]:
    """``hands`` with ``card`` moved from seat ``source`` to seat ``target``."""
    result = [list(hand) for hand in hands]
    result[source].remove(card)
    result[target].append(card)
    return result


def refused(snapshot: Snapshot) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        validate_snapshot(snapshot)
    return caught.value


# --- D-7: the marked jokers fix roles ----------------------------------------------------------


def test_D_7_scepter_and_sword_where_the_roles_put_them_are_consistent() -> None:
    """``BJ*`` in the emperor's hand or already played; ``SJ*`` with the guard, with the emperor
    playing 暗独, or already played: none of these contradicts itself."""
    without_scepter = [["7S", "7H", "9D"], *HANDS[1:]]
    consistent = [
        snapshot(),
        snapshot(hands=without_scepter),  # BJ* was played in an earlier trick
        snapshot(  # BJ* is the emperor's play on top
            hands=without_scepter,
            turn=1,
            trick={"top": {"seat": 0, "cards": ["BJ*"]}},
        ),
        snapshot(mode="grab", guard=None),  # the grabber holds the scepter he took
        snapshot(ruleset="lianzhong-simple", hands=SIMPLE_HANDS),
        snapshot(  # SJ* was played
            ruleset="lianzhong-simple",
            hands=[*SIMPLE_HANDS[:3], ["TS", "TH", "6C"], SIMPLE_HANDS[4]],
        ),
        snapshot(  # the emperor holds both marked jokers: 暗独 (G-3)
            ruleset="lianzhong-simple",
            mode="solo_hidden",
            guard=0,
            hands=moved(SIMPLE_HANDS, "SJ*", 3, 0),
        ),
    ]
    for candidate in consistent:
        assert validate_snapshot(candidate).emperor == candidate.emperor


def test_D_7_in_the_guard_phase_the_marked_jokers_stay_where_the_roles_say() -> None:
    """Once the emperor is settled (the guard phase), a ``BJ*`` elsewhere, or an ``SJ*`` held by
    another seat than the guard, is a snapshot that contradicts itself."""
    classic = _first_guard_phase("classic", seed=7)
    assert classic.phase == "guard"
    elsewhere = (classic.emperor + 1) % 5
    hands = moved(classic.hands, "BJ*", classic.emperor, elsewhere)
    hands = moved(hands, hands[elsewhere][0], elsewhere, classic.emperor)
    error = refused(msgspec.structs.replace(classic, hands=hands))
    assert error.code == "INVALID_SNAPSHOT"
    assert validate_snapshot(classic) == classic  # the same snapshot, scepter in place, is fine

    simple = _first_guard_phase("lianzhong-simple", seed=3)
    assert simple.phase == "guard" and simple.crown is not None
    assert simple.crown.stage == "declare" and simple.mode == "team"
    guard = simple.guard
    assert guard is not None and "SJ*" in simple.hands[guard]
    rebel = next(seat for seat in range(5) if seat not in (simple.emperor, guard))
    hands = moved(simple.hands, "SJ*", guard, rebel)
    hands = moved(hands, hands[rebel][0], rebel, guard)
    error = refused(msgspec.structs.replace(simple, hands=hands))
    assert error.code == "INVALID_SNAPSHOT"


def _first_guard_phase(ruleset: RulesetField, seed: int) -> Snapshot:
    """Call, or accept, at the first chance; decline otherwise; stop once the guard is settled
    (the 明保/造反 round is open)."""
    state = opening_snapshot(ruleset, deal(ruleset_of(ruleset), seed, 0))
    for _ in range(20):
        if state.crown is not None and state.crown.stage == "declare":
            return state
        moves = legal_moves(state)
        chosen = next(
            (move for move in moves if isinstance(move, CallMove | AcceptMove)),
            next(move for move in moves if isinstance(move, DeclineMove)),
        )
        state = apply_move(state, chosen)[0]
    raise AssertionError(f"no guard settled in {ruleset} with seed {seed}")


def test_D_7_in_play_a_scepter_outside_the_emperors_hand_contradicts_the_snapshot() -> None:
    error = refused(snapshot(hands=moved(HANDS, "BJ*", 0, 2)))
    assert error.code == "INVALID_SNAPSHOT"


def test_D_7_in_play_the_sword_holder_is_the_guard_in_lianzhong_simple() -> None:
    rebel_holds_sword = moved(SIMPLE_HANDS, "SJ*", 3, 2)
    error = refused(snapshot(ruleset="lianzhong-simple", hands=rebel_holds_sword))
    assert error.code == "INVALID_SNAPSHOT"
    hidden_solo = snapshot(ruleset="lianzhong-simple", mode="solo_hidden", guard=0)
    assert refused(msgspec.structs.replace(hidden_solo, hands=SIMPLE_HANDS)).code == (
        "INVALID_SNAPSHOT"
    )


# --- S-10: a void deal ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "declines"),
    [("lianzhong-simple", 10), ("tribute", 6)],
    ids=["two rounds without an emperor", "the first seat passes twice"],
)
def test_S_10_a_void_deal_has_no_winner_no_places_and_scores_zero(
    ruleset: str, declines: int
) -> None:
    state = opening_snapshot(ruleset, deal(ruleset_of(ruleset), 11, 2))
    for _ in range(declines):
        assert not state.over
        state = apply_move(state, DeclineMove(state.turn))[0]
    assert state.over and state.void
    result = score(state)
    assert result.final
    assert result.winner is None and result.positions is None
    assert result.scores == [0] * 5
    assert result.sides is not None and (result.sides.emperor, result.sides.rebels) == (0, 0)
    assert legal_moves(state) == []


def test_K_6_of_two_covers_the_one_with_more_single_card_groups() -> None:
    """``BJ BJ SJ SJ SJ`` covers ``BJ SJ 7S`` in two ways: ``BJ<SJ SJ SJ, SJ<BJ, 7S<BJ`` (two
    single-card groups) or ``BJ<BJ BJ, SJ<SJ SJ, 7S<SJ`` (one); K-6 gives the first, always."""
    judgement = compare(
        ["BJ", "SJ", "7S"],
        ["BJ", "BJ", "SJ", "SJ", "SJ"],
        resolve_ruleset("classic", kaopai=True),
    )
    assert judgement.reason is None and judgement.cover is not None
    assert [(CODES[card], [CODES[c] for c in group]) for card, group in judgement.cover] == [
        ("BJ", ["SJ", "SJ", "SJ"]),
        ("SJ", ["BJ"]),
        ("7S", ["BJ"]),
    ]
