"""Test helpers for the play phase: a tiny dealer (not the service's dealer, G-4).

Imported by the engine tests (relative imports) and by bench/play_bench.py.
"""

from __future__ import annotations

import random

import msgspec

from baohuang.engine import BASES, Mode, Ruleset, RulesetSpec, Snapshot, Trick
from baohuang.engine.cards import BJ, BJ_SCEPTER, CARD_IDS, CODES, SJ, SJ_SWORD

MODES: tuple[Mode, ...] = ("team", "solo_hidden", "solo_open", "grab")


def deck_codes(ruleset: Ruleset) -> list[str]:
    """Every card of the ruleset's deck, copies included (D-1, D-4)."""
    lowest = 3 if ruleset.deck == "short" else 0
    sword = ruleset.guard_by == "sword"
    codes: list[str] = []
    for card in CARD_IDS:
        if card < SJ:
            if card >> 2 >= lowest:
                codes += [CODES[card]] * 4
        elif card == SJ:
            codes += [CODES[SJ]] * (3 if sword else 4)
        elif card == SJ_SWORD:
            codes += [CODES[SJ_SWORD]] if sword else []
        elif card == BJ:
            codes += [CODES[BJ]] * 3
        elif card == BJ_SCEPTER:
            codes.append(CODES[BJ_SCEPTER])
    return codes


def spec_of(ruleset: Ruleset) -> RulesetSpec:
    return RulesetSpec(
        base=ruleset.base,
        kaopai=ruleset.kaopai,
        bie6=ruleset.bie6,
        deck=ruleset.deck,
        grab=ruleset.grab if ruleset.grab != BASES[ruleset.base].grab else None,
    )


def deal(rng: random.Random, ruleset: Ruleset, mode: Mode | None = None) -> Snapshot:
    """Shuffle, deal one card at a time from a random seat (G-4), pick roles plausibly (G-1)."""
    cards = deck_codes(ruleset)
    rng.shuffle(cards)
    dealer = rng.randrange(5)
    hands: list[list[str]] = [[] for _ in range(5)]
    for index, code in enumerate(cards):
        hands[(dealer + index) % 5].append(code)
    emperor = next(seat for seat, hand in enumerate(hands) if "BJ*" in hand)
    chosen: Mode = rng.choice(MODES) if mode is None else mode
    if chosen == "grab" and not ruleset.grab:  # a grab deal needs a table with grabs (G-5…G-7)
        if ruleset.tribute:
            chosen = "solo_open"  # G-6: tribute has no grab
        else:
            ruleset = msgspec.structs.replace(ruleset, grab=True)
    guard: int | None
    if chosen == "team":
        guard = rng.choice([s for s in range(5) if s != emperor])
    else:
        guard = emperor if chosen != "grab" else None
    if ruleset.guard_by == "sword" and guard is not None:
        _give_sword(hands, guard)  # D-7: SJ* marks the guard (the emperor, playing solo)
    rebels = [s for s in range(5) if s not in (emperor, guard)]
    rebellion = rng.sample(rebels, rng.randrange(len(rebels) + 1))
    return Snapshot(
        ruleset=spec_of(ruleset),
        mode=chosen,
        emperor=emperor,
        guard=guard,
        guard_revealed=chosen == "team" and rng.random() < 0.3,
        rebellion=rebellion,
        hands=hands,
        finished=[],
        turn=emperor,  # T-2
        trick=Trick(),
    )


def _give_sword(hands: list[list[str]], seat: int) -> None:
    """Move ``SJ*`` into ``seat``'s hand, trading it for a card other than ``BJ*`` (D-7)."""
    holder = next(s for s, hand in enumerate(hands) if CODES[SJ_SWORD] in hand)
    if holder == seat:
        return
    given = next(code for code in hands[seat] if code != CODES[BJ_SCEPTER])
    hands[seat][hands[seat].index(given)] = CODES[SJ_SWORD]
    hands[holder][hands[holder].index(CODES[SJ_SWORD])] = given
