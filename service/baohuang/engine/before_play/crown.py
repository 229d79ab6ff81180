"""The crown phase: who becomes the emperor (docs/rules.md G-2, G-4…G-7).

The state lives in ``Snapshot.crown`` (:class:`~baohuang.engine.snapshot.CrownState`): the seat
first offered the crown, how often it was handed on, and the cards travelling with it (贴2).
``BJ*`` itself lies in the holder's hand; the holder is ``turn`` (and, provisionally,
``emperor``). In every ruleset the crown travels to the previous seat, ``(seat − 1) mod 5``,
against the order of play (G-5, G-6, G-7). Per ruleset (R):

* ``classic`` (G-5): the holder calls a card (G-2, jokers count as a rank of their own) — the
  classic "accept" — declares 明独, or hands ``BJ*`` on (让庄). After five hand-ons 逼庄: from
  the first holder on, in the crown's direction, the first seat holding exactly three of some
  (rank, suit) gets ``BJ*`` and must call a card of which it holds exactly three; none → void
  (黄庄). Any seat not holding the crown may grab it (抢庄) until the emperor is settled.
* ``tribute`` (G-6): the holder accepts (only with three of a (rank, suit) neither joker nor 2) or
  passes; passing seats after the first add a 2. After five passes ``BJ*`` and the 2s go back to
  the first seat, which chooses once more; passing again voids the deal.
* ``lianzhong-*`` (G-7): accept, or hand on (上家); ``lianzhong-simple`` adds a 2 (else its
  highest card below the jokers) on every pass by a seat that received the crown. After one full
  round the holder must accept unless it cannot call or holds four of one (rank, suit); after two
  rounds the deal is void.

Readings where the rules are silent (each marked *(reading)* where applied):

* A seat "holds three" of a (rank, suit) when it holds three or more (G-2: four make 暗独),
  except in 逼庄, which says exactly three. Calls and acceptance read the hand only, never the
  travelling pile (the pile holds 2s, which only lianzhong-simple passes and it calls no card).
* Accepting needs a callable card wherever the guard is called (tribute by G-6; lianzhong-classic
  by G-7's 没有能力登基); in lianzhong-simple anyone may accept.
* lianzhong-simple: "must accept unless it cannot call" never binds, because nobody there calls
  (SJ* decides, G-3) — the 联众 text gives the must-accept rule to 经典玩法 only and voids 简明玩法
  after two rounds (两轮之内仍然没有决定谁是皇帝时，系统重新发牌).
* 逼庄 (classic): exactly-three is counted on the hands as they lie after the fifth hand-on
  (``BJ*`` back with the first holder); the chosen seat then receives ``BJ*`` and calls a card
  of which it held exactly three then, so the deal is team play (暗独 only when its three were
  big jokers and ``BJ*`` made them four); it may neither hand on nor declare 明独.
* 贴2 card: the seat's highest 2 in canonical suit order (``2S`` first); without a 2 (simple
  only) its highest card below the jokers; with neither, nothing. The first holder's first pass
  adds nothing (it received nothing; tribute: "after the first").
* The pile goes into the accepting seat's hand; it is public (a seat view shows it).
* A classic grab moves ``BJ*`` into the grabber's hand (强行将皇牌拿到自己手里).
* The holder of the crown cannot grab it; a 明独 by the classic holder needs no called card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from ..cards import BJ, BJ_SCEPTER, SJ, TWO_RANK
from ..reasons import (
    ACCEPT_BY_CALLING,
    CALL_CARD_NOT_ALLOWED,
    CANNOT_ACCEPT,
    CANNOT_CALL,
    DEAL_OVER,
    GRAB_NOT_ALLOWED,
    MUST_ACCEPT,
    MUST_CALL,
    NOT_CROWN_HOLDER,
    WRONG_PHASE,
    Reason,
)
from ..rulesets import SEATS, Ruleset, crown_rule
from ..snapshot import (
    AcceptMove,
    CallMove,
    CrownState,
    DeclareSoloMove,
    DeclineMove,
    GrabMove,
    Move,
    Snapshot,
)

ROUND: Final = 5  # one full round of hand-ons
CLASSIC_FORCE_AFTER: Final = 5  # G-5: after five hand-ons, 逼庄
CROWN_STEP: Final = -1  # G-5, G-6, G-7: to the previous seat, against the order of play (T-1)
LIANZHONG_VOID_AFTER: Final = 10  # G-7: two rounds with no emperor


def kind_of(card: int) -> int:
    """The call kind of a card (G-2): the card itself, or ``BJ``/``SJ`` for every big/small
    joker (G-5: jokers count as a rank of their own; a marked joker counts as its twin, D-4)."""
    if card >= BJ:
        return BJ
    if card >= SJ:
        return SJ
    return card


def kind_counts(hand: Iterable[int]) -> Counter[int]:
    return Counter(kind_of(card) for card in hand)


def kind_allowed(ruleset: Ruleset, kind: int) -> bool:
    """G-2 / R: which kinds may be called: any in classic, no joker nor 2 in tribute, no joker in
    lianzhong-classic (a joker has no suit: 同花色同点数), none in lianzhong-simple (G-3)."""
    if ruleset.guard_by == "call-any":
        return True
    if ruleset.guard_by == "call-no-joker-no-two":
        return kind < SJ and kind >> 2 != TWO_RANK
    if ruleset.guard_by == "call":
        return kind < SJ
    return False


def callable_kinds(ruleset: Ruleset, hand: Iterable[int], exactly: bool = False) -> list[int]:
    """Kinds the hand may call, ascending: held three or more times (G-2), or exactly three
    (G-5 逼庄)."""
    counts = kind_counts(hand)
    return sorted(
        kind
        for kind, count in counts.items()
        if kind_allowed(ruleset, kind) and (count == 3 if exactly else count >= 3)
    )


def call_refusal(ruleset: Ruleset, hand: Sequence[int], kind: int) -> Reason | None:
    """G-2: may a seat holding ``hand`` call ``kind``?"""
    if not kind_allowed(ruleset, kind):
        return CALL_CARD_NOT_ALLOWED
    if kind_counts(hand)[kind] < 3:
        return CANNOT_CALL
    return None


FORCED_CALL_MESSAGE: Final = "逼庄: the forced seat calls a card of which it holds exactly three (有且只有3张同点数同花色的牌)"


def is_forced(ruleset: Ruleset, crown: CrownState) -> bool:
    """G-5 逼庄: classic, after five hand-ons the holder must call."""
    return ruleset.base == "classic" and crown.passes >= CLASSIC_FORCE_AFTER


def hand_at_forcing(hand: Sequence[int], seat: int, first: int) -> list[int]:
    """The forced seat's hand as it lay at 逼庄: without the ``BJ*`` handed to it then (G-5)."""
    held = list(hand)
    if seat != first and BJ_SCEPTER in held:
        held.remove(BJ_SCEPTER)
    return held


def forced_call_refusal(
    ruleset: Ruleset, hand: Sequence[int], seat: int, first: int, kind: int
) -> Reason | None:
    """G-5 逼庄: the forced seat calls a card of which it holds exactly three *(reading)*."""
    reason = call_refusal(ruleset, hand, kind)
    if reason is not None and reason is not CANNOT_CALL:
        return reason
    if kind_counts(hand_at_forcing(hand, seat, first))[kind] != 3:
        return CANNOT_CALL.citing("G-5", FORCED_CALL_MESSAGE)
    return None


def holder_after(first: int, passes: int) -> int:
    """Where the crown lies after ``passes`` hand-ons (before any 逼庄): each goes to the
    previous seat (G-5, G-6, G-7)."""
    return (first + CROWN_STEP * passes) % SEATS


def forced_seat(ruleset: Ruleset, hands: Sequence[Sequence[int]], first: int) -> int | None:
    """G-5 逼庄: from the first holder on, in the crown's direction, the first seat holding
    exactly three of some (rank, suit), jokers counting as ranks; ``None``: 黄庄 (hands as they
    lie, *(reading)*)."""
    for offset in range(SEATS):
        seat = (first + CROWN_STEP * offset) % SEATS
        if callable_kinds(ruleset, hands[seat], exactly=True):
            return seat
    return None


def holds_four(ruleset: Ruleset, hand: Iterable[int]) -> bool:
    """Whether the hand holds four of one (rank, suit) it could call (4张同色同点的牌, G-7).

    Jokers have no suit, so four big jokers are not 同色同点 in lianzhong *(reading)*.
    """
    return any(
        count >= 4 and kind_allowed(ruleset, kind) for kind, count in kind_counts(hand).items()
    )


def must_accept(ruleset: Ruleset, passes: int, hand: Sequence[int]) -> bool:
    """G-7: after one full round the holder must accept unless it cannot call or holds four of
    one (rank, suit) (lianzhong-classic; in lianzhong-simple nobody calls, so it never binds
    *(reading)*)."""
    return (
        ruleset.guard_by == "call"
        and passes >= ROUND
        and bool(callable_kinds(ruleset, hand))
        and not holds_four(ruleset, hand)
    )


def tie_card(ruleset: Ruleset, hand: Sequence[int], passes: int) -> int | None:
    """The card a passing seat adds to the crown (贴2), or ``None``.

    G-6 tribute: every passing seat after the first adds a 2 when it has one. G-7
    lianzhong-simple: every seat that received the crown adds a 2, else its highest card below
    the jokers. The highest in canonical order (``2S`` first) *(reading)*.
    """
    if passes == 0 or ruleset.base not in ("tribute", "lianzhong-simple"):
        return None
    twos = [card for card in hand if card < SJ and card >> 2 == TWO_RANK]
    if twos:
        return max(twos)
    if ruleset.base == "lianzhong-simple":
        plain = [card for card in hand if card < SJ]
        return max(plain) if plain else None
    return None


def crown_refusal(
    snapshot: Snapshot, ruleset: Ruleset, hands: Sequence[Sequence[int]], move: Move
) -> Reason | None:
    """Why ``move`` is refused in the crown phase (G-5…G-7), or ``None``.

    ``hands`` are the snapshot's hands as card ids. The holder is ``snapshot.turn``.
    """
    if snapshot.over:
        return DEAL_OVER
    crown = snapshot.crown
    assert crown is not None
    holder = snapshot.turn
    seat = move.seat
    rule = crown_rule(ruleset)
    if isinstance(move, GrabMove):
        # G-5 抢庄: classic only, where the table leaves ``grab`` on, by a seat not holding the
        # crown, at any time before the emperor is settled (so out of turn); 抢独 waits for the
        # guard phase (G-7); tribute has no grab (G-6).
        if ruleset.base != "classic" or not ruleset.grab or seat == holder:
            return GRAB_NOT_ALLOWED.citing(rule)
        return None
    if not isinstance(move, (AcceptMove, DeclineMove, CallMove, DeclareSoloMove)):
        return WRONG_PHASE
    if seat != holder:
        return NOT_CROWN_HOLDER.citing(rule)
    hand = hands[seat]
    if ruleset.base == "classic":
        forced = is_forced(ruleset, crown)
        if isinstance(move, AcceptMove):
            return ACCEPT_BY_CALLING
        if isinstance(move, CallMove):
            return None  # the card is judged by call_refusal once read (before_play)
        return MUST_CALL if forced else None  # decline (让庄) or 明独
    if isinstance(move, (CallMove, DeclareSoloMove)):
        # G-6, G-7: the holder accepts or hands on; the emperor calls or declares in the guard phase
        return WRONG_PHASE.citing(rule)
    if isinstance(move, AcceptMove):
        if ruleset.guard_by != "sword" and not callable_kinds(ruleset, hand):
            return CANNOT_ACCEPT.citing(rule)  # G-6; G-7 没有能力登基 (reading, module docstring)
        return None
    if must_accept(ruleset, crown.passes, hand):
        return MUST_ACCEPT
    return None


__all__ = [
    "CLASSIC_FORCE_AFTER",
    "CROWN_STEP",
    "LIANZHONG_VOID_AFTER",
    "ROUND",
    "call_refusal",
    "callable_kinds",
    "crown_refusal",
    "forced_call_refusal",
    "forced_seat",
    "hand_at_forcing",
    "holder_after",
    "holds_four",
    "is_forced",
    "kind_allowed",
    "kind_counts",
    "kind_of",
    "must_accept",
    "tie_card",
]
