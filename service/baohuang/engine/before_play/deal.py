"""Seeded, reproducible shuffle and deal (docs/rules.md G-4; docs/dealing.md; docs/clients.md
``POST /v1/deal``).

The algorithm is fixed here precisely so that any client, in any language, can reproduce a deal
from ``(ruleset, seed, dealer)`` and check the service. All arithmetic is on unsigned 64-bit
integers, wrapping modulo 2**64. Steps 1, 2 and 4–8 are shared with committed dealing
(:mod:`.committed`), which draws from a SHA-256 stream instead of step 3's SplitMix64.

1. **Card ids** (cards.py): rank card ``rank*4 + (3 - suit)`` with ranks ``3456789TJQKA2`` = 0 … 12
   and suits ``S H C D`` = 0 … 3 (so ``3D`` = 0, ``3S`` = 3, ``2S`` = 51); ``SJ`` 52, ``SJ*`` 53,
   ``BJ`` 56, ``BJ*`` 57.
2. **Canonical deck**: every card id in ascending order, each with its number of copies:
   rank cards 4 copies each (the short deck, D-1, starts at ``6D`` = id 12); then the four small
   jokers — ``SJ, SJ, SJ, SJ*`` in ``lianzhong-simple`` (G-4), else four ``SJ``; then the four big
   jokers ``BJ, BJ, BJ, BJ*``. That is 216 cards (168 for the short deck). Under the ``tribute``
   ruleset ``BJ*`` is set aside first (G-4): the list is the first 215 entries.
3. **PRNG**: SplitMix64. ``state = seed mod 2**64`` (a negative seed is taken in two's
   complement). Each draw: ``state += 0x9E3779B97F4A7C15; z = state;
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
   return z ^ (z >> 31)``. (Seed 1234567 draws 6457827717110365317, 3203168211198807973, … ;
   seed 1 draws 10451216379200822465, 13757245211066428519, … .)
4. **Uniform index** ``below(n)`` in ``[0, n)`` without bias, by rejection: ``limit = 2**64 -
   (2**64 mod n)``; draw ``r`` until ``r < limit``; return ``r mod n``.
5. **Shuffle**: Fisher–Yates from the top: for ``i`` from ``len - 1`` down to ``1``:
   ``j = below(i + 1)``, swap entries ``i`` and ``j``.
6. **Deal** (G-4): shuffled card ``k`` (0-based) goes to seat ``(dealer + k) mod 5``, one card at a
   time from the dealing seat on. 216 cards: the dealer holds 44, the others 43; the short deck's
   168: the dealer and the next two seats hold 34, the other two 33. Under ``tribute`` the 215
   cards give 43 each and ``BJ*`` is then added to the hand of the seat first offered the crown,
   which holds 44 *(reading: the scepter is handed to that seat, 将保留的大王发给他)*.
7. **Crown** (the seat first offered the crown): the ``BJ*`` holder (G-5, G-7); under ``tribute``
   the dealer *(reading: the 进贡 text, 保皇怎么玩, has the server pick a seat at random; the
   platform's choice of dealer stands in for that pick, so no second random draw is needed)*.
8. **Hands** are returned high to low: card ids descending, as canonical codes (D-3).

Test vector (seed 1, dealer 0, ``classic``): see ``tests/engine/test_dealing.py``
``test_published_vector``, and docs/dealing.md, which states the same steps for clients.
"""

from __future__ import annotations

from typing import Final

import msgspec

from ..cards import BJ, BJ_SCEPTER, CODES, SHORT_DECK_LOWEST_RANK, SJ, SJ_SWORD
from ..errors import InvalidInput
from ..rulesets import SEATS, Ruleset, RulesetField
from ..snapshot import CrownState, Snapshot

MASK64: Final = (1 << 64) - 1
GOLDEN_GAMMA: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB


class Draws:
    """A source of 64-bit draws (step 3), and the uniform index drawn from them (step 4)."""

    __slots__ = ()

    def next(self) -> int:
        """The next 64-bit output."""
        raise NotImplementedError

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling (step 4)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next()
            if r < limit:
                return r % n


class SplitMix64(Draws):
    """The SplitMix64 generator (Steele, Lea, Flood 2014; Vigna's reference ``splitmix64.c``)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output (step 3 of the module docstring)."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)


class Dealt(msgspec.Struct, frozen=True):
    """A dealt deal: five hands, high to low, and the seat first offered the crown (G-4)."""

    hands: list[list[str]]
    crown: int


def canonical_deck(ruleset: Ruleset) -> list[int]:
    """The deck before shuffling (step 2): ids ascending with their copies; without ``BJ*``
    under ``tribute``, where it is set aside (G-4)."""
    lowest = SHORT_DECK_LOWEST_RANK * 4 if ruleset.deck == "short" else 0
    deck = [card for card in range(lowest, SJ) for _ in range(4)]
    if ruleset.guard_by == "sword":
        deck += [SJ, SJ, SJ, SJ_SWORD]
    else:
        deck += [SJ] * 4
    deck += [BJ, BJ, BJ]
    if not ruleset.tribute:
        deck.append(BJ_SCEPTER)
    return deck


def shuffled_with(ruleset: Ruleset, draws: Draws) -> list[int]:
    """The canonical deck after the Fisher–Yates shuffle (step 5) with ``draws``."""
    deck = canonical_deck(ruleset)
    for i in range(len(deck) - 1, 0, -1):
        j = draws.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(ruleset: Ruleset, seed: int) -> list[int]:
    """The canonical deck after the seeded Fisher–Yates shuffle (steps 3–5)."""
    return shuffled_with(ruleset, SplitMix64(seed))


def deal_ids(ruleset: Ruleset, seed: int, dealer: int) -> tuple[list[list[int]], int]:
    """Hands as card ids (high to low) and the crown seat (steps 6–8)."""
    return deal_shuffled(ruleset, SplitMix64(seed), dealer)


def deal_shuffled(ruleset: Ruleset, draws: Draws, dealer: int) -> tuple[list[list[int]], int]:
    """Hands as card ids (high to low) and the crown seat (steps 6–8) of the deck shuffled with
    ``draws``."""
    if not 0 <= dealer < SEATS:
        raise InvalidInput(
            "INVALID_SEAT", "T-1", f"dealer seat {dealer} is not 0–4 (T-1)", ".dealer"
        )
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    for k, card in enumerate(shuffled_with(ruleset, draws)):
        hands[(dealer + k) % SEATS].append(card)
    if ruleset.tribute:
        crown = dealer  # (reading) the dealer is the seat first offered the crown
        hands[crown].append(BJ_SCEPTER)
    else:
        crown = next(seat for seat in range(SEATS) if BJ_SCEPTER in hands[seat])
    for hand in hands:
        hand.sort(reverse=True)
    return hands, crown


def deal(ruleset: Ruleset, seed: int, dealer: int) -> Dealt:
    """G-4: the reproducible deal of ``seed`` from ``dealer``; same inputs, same hands."""
    return dealt_from(*deal_ids(ruleset, seed, dealer))


def dealt_from(hands: list[list[int]], crown: int) -> Dealt:
    """Hands of card ids as a :class:`Dealt` of canonical codes (step 8)."""
    return Dealt(hands=[[CODES[card] for card in hand] for hand in hands], crown=crown)


def opening_snapshot(ruleset: RulesetField, dealt: Dealt) -> Snapshot:
    """G-4: the deal in its first phase, the crown offered to ``dealt.crown``.

    ``turn`` and ``emperor`` are the seat first offered the crown, ``mode`` is ``"team"``
    (provisional until the guard is settled).
    """
    return Snapshot(
        mode="team",
        emperor=dealt.crown,
        hands=[list(hand) for hand in dealt.hands],
        turn=dealt.crown,
        ruleset=ruleset,
        phase="crown",
        crown=CrownState(first=dealt.crown),
    )


def undealt_snapshot(ruleset: RulesetField, dealer: int) -> Snapshot:
    """A live table's deal before its cards are dealt (phase ``deal``, G-4): no hands yet, the
    dealer at ``turn``; no move is legal in it."""
    return Snapshot(
        mode="team",
        emperor=dealer,
        hands=[[] for _ in range(SEATS)],
        turn=dealer,
        ruleset=ruleset,
        phase="deal",
    )
