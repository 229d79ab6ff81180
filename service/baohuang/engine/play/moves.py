"""The deal state machine of the play phase (T-1…T-10, B-1, K in play, T-9).

Verify, then apply: :func:`baohuang.engine.verify_move` asks the predicates below why a move is
refused, or ``None``; :func:`baohuang.engine.apply_move` asks the same predicates first and
builds the next snapshot (:func:`apply_play`) only for a move they allow, so a refused move
changes nothing (snapshots are frozen; a new one is built per move). The predicates
(``turn_refusal``, ``answer_refusal``, ``play_refusal``) are the rules; :mod:`.legal` lists moves
by asking them, never by a copy of its own.

Snapshots given to these functions have passed :func:`baohuang.engine.validate_snapshot`, and
the cards of a move have been read (unknown cards and too many copies are bad input, raised
before any verdict).

Readings where the rules are silent (marked *(reading)* where they are applied):

* T-4: a pass holds for the current top play only; a new top play starts a fresh circle 1 in
  which every seat holding cards answers again, yielders of the old top included.
* T-6: yielding needs a top play and the first circle; a yielder who beats in the second circle
  makes a new top play, which starts a fresh circle 1. A yielder passing in circle 2 moves from
  ``yielded`` to ``passed``. A seat may yield on a 底牌.
* T-7: 接风 is a pass with a claim, declared by the first seat after a 底牌 still holding cards,
  in whichever circle it answers; it is recorded in ``trick.jiefeng`` and lapses when the 底牌 is
  beaten (the new top play's trick has no 接风). The lead after a 底牌 goes to that same seat
  whether or not it declared.
* T-9: when the deal ends, the trick is left as it stood (the final play on top) and ``turn`` is
  not advanced; ``over`` and ``positions`` say the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from ..beating import refusal
from ..cards import BJ, BJ_SCEPTER, CODES, SIX_RANK, SJ, SJ_SWORD
from ..combos import Combo, classify
from ..errors import invalid_snapshot
from ..events import (
    DealOverEvent,
    Event,
    FinishedEvent,
    JiefengEvent,
    PassedEvent,
    PlayedEvent,
    TrickWonEvent,
    YieldedEvent,
)
from ..reasons import (
    BIG_JOKER_IS_MARKED,
    CARDS_NOT_IN_HAND,
    DEAL_OVER,
    JIEFENG_NOT_ALLOWED,
    LEADER_CANNOT_PASS,
    NOT_YOUR_TURN,
    PLAYER_FINISHED,
    SIX_HELD_BACK,
    SMALL_JOKER_IS_MARKED,
    YIELD_NOT_ALLOWED,
    Reason,
)
from ..rulesets import Ruleset
from ..snapshot import (
    JiefengMove,
    Move,
    PassMove,
    Snapshot,
    TopPlay,
    Trick,
    YieldMove,
)
from .turns import next_holding, score_play, to_act

__all__ = [
    "Play",
    "answer_refusal",
    "apply_play",
    "play_refusal",
    "read_play",
    "top_combo",
    "turn_refusal",
]

# The predicates: every rule of a move lives in exactly one of these.


def turn_refusal(snapshot: Snapshot, seat: int) -> Reason | None:
    """T-9 (no moves once over), T-8 (a finished seat never acts), T-1 (only ``turn`` acts)."""
    if snapshot.over:
        return DEAL_OVER
    if not snapshot.hands[seat]:
        return PLAYER_FINISHED
    if seat != snapshot.turn:
        return NOT_YOUR_TURN
    return None


def answer_refusal(snapshot: Snapshot, ruleset: Ruleset, move: Move) -> Reason | None:
    """Pass (T-3, T-4), yield (T-6) or 接风 (T-7) by the seat to act; plays are not answers."""
    trick = snapshot.trick
    top = trick.top
    if isinstance(move, PassMove):
        return LEADER_CANNOT_PASS if top is None else None
    if isinstance(move, YieldMove):
        if not ruleset.yield_allowed or top is None or trick.circle != 1:
            return YIELD_NOT_ALLOWED
        return None
    if isinstance(move, JiefengMove):
        # Only on a 底牌 on top (its owner holds no cards), only by the next seat holding cards.
        if top is None or snapshot.hands[top.seat]:
            return JIEFENG_NOT_ALLOWED
        if move.seat != next_holding(snapshot.hands, top.seat):
            return JIEFENG_NOT_ALLOWED
        return None
    raise TypeError(f"not an answer: {move!r}")


def play_refusal(
    ruleset: Ruleset, top: Combo | None, combo: Combo, hand_size: int
) -> Reason | None:
    """Whether a combo held in hand may be played on ``top`` (``None``: the seat leads).

    T-3: a leader plays any combo; T-4: a follower must beat the top play, under N or, where the
    ruleset enables it, K (via :func:`~baohuang.engine.beating.refusal`); B-1 憋6: a play with a
    6 must empty the hand. Reads the combo's shape only, never its cards.
    """
    if top is not None:
        reason = refusal(combo, top, ruleset.kaopai)
        if reason is not None:
            return reason
    if ruleset.bie6 and combo.count and combo.rank == SIX_RANK and combo.size != hand_size:
        return SIX_HELD_BACK
    return None


def top_combo(snapshot: Snapshot, ruleset: Ruleset) -> Combo | None:
    """The top play as a combo (validation made sure it is one), or ``None`` when leading."""
    top = snapshot.trick.top
    if top is None:
        return None
    combo = classify(ruleset.cards.parse(top.cards))
    if isinstance(combo, Reason):  # pragma: no cover - validate_snapshot refuses such snapshots
        raise invalid_snapshot(".snapshot.trick.top.cards", combo.message, "C-1")
    return combo


class Play(NamedTuple):
    combo: Combo
    remaining: list[int]  # the hand after the play, in the hand's order


def read_play(
    snapshot: Snapshot, ruleset: Ruleset, seat: int, cards: list[int]
) -> tuple[Reason | None, Play | None]:
    """C-1, the hand (CARDS_NOT_IN_HAND), then :func:`play_refusal`."""
    combo = classify(cards)
    if isinstance(combo, Reason):
        return combo, None
    hand = ruleset.cards.parse(snapshot.hands[seat])
    remaining = _without(hand, cards)
    if remaining is None:
        return _not_in_hand(hand, cards), None
    reason = play_refusal(ruleset, top_combo(snapshot, ruleset), combo, len(hand))
    return reason, (None if reason else Play(combo, remaining))


def _not_in_hand(hand: Sequence[int], cards: Sequence[int]) -> Reason:
    """CARDS_NOT_IN_HAND (T-3); when a plain joker is missing but the hand's unplayed marked twin
    would stand in for it, the message says the hand's joker is the marked one (D-4)."""
    for plain, marked, message in (
        (BJ, BJ_SCEPTER, BIG_JOKER_IS_MARKED),
        (SJ, SJ_SWORD, SMALL_JOKER_IS_MARKED),
    ):
        if cards.count(plain) > hand.count(plain) and hand.count(marked) > cards.count(marked):
            return CARDS_NOT_IN_HAND.citing("T-3", message)
    return CARDS_NOT_IN_HAND


def _without(hand: Sequence[int], cards: Sequence[int]) -> list[int] | None:
    """``hand`` less ``cards`` (a multiset), or ``None`` if the hand lacks some of them.

    Marked jokers are their own cards: ``BJ`` is not in a hand holding only ``BJ*``.
    """
    counts = [0] * 58
    for card in cards:
        counts[card] += 1
    remaining: list[int] = []
    for card in hand:
        if counts[card]:
            counts[card] -= 1
        else:
            remaining.append(card)
    return remaining if len(remaining) + len(cards) == len(hand) else None


def apply_play(
    snapshot: Snapshot, ruleset: Ruleset, move: Move, play: Play | None
) -> tuple[Snapshot, list[Event]]:
    """The snapshot after a move the predicates allow, and its events: ``play`` is the play
    :func:`read_play` read, ``None`` for an answer (pass, yield, 接风)."""
    if play is not None:
        return _after_play(snapshot, ruleset, move.seat, play)
    return _after_answer(snapshot, ruleset, move)


def _after_play(
    snapshot: Snapshot, ruleset: Ruleset, seat: int, play: Play
) -> tuple[Snapshot, list[Event]]:
    """T-4/T-5: a play becomes the top; passes and yields of the old top lapse (T-4 (reading)).

    T-7: a play that empties the hand is a 底牌: the seat finishes at the next position, and the
    deal ends if its score is settled (T-9).
    """
    codes = play.combo.codes()
    hands = list(snapshot.hands)
    hands[seat] = [CODES[card] for card in play.remaining]
    events: list[Event] = [PlayedEvent(seat, codes)]
    state = msgspec.structs.replace(snapshot, hands=hands, trick=Trick(top=TopPlay(seat, codes)))
    if not play.remaining:
        finished = [*snapshot.finished, seat]
        events.append(FinishedEvent(seat, len(finished)))
        state = msgspec.structs.replace(state, finished=finished)
        ended = _end_if_settled(state, ruleset, events)
        if ended is not None:
            return ended, events
    following = next_holding(hands, seat)
    if following is None:  # pragma: no cover
        raise AssertionError("T-9 ends every deal before only one seat holds cards")
    return msgspec.structs.replace(state, turn=following), events


def _after_answer(snapshot: Snapshot, ruleset: Ruleset, move: Move) -> tuple[Snapshot, list[Event]]:
    """Pass, yield or 接风, then who acts: the next seat to answer (T-1), the second circle of
    yielders (T-6), or the end of the trick and its lead (T-5, T-6 扣牌, T-7 接风)."""
    seat = move.seat
    trick = snapshot.trick
    top = trick.top
    assert top is not None  # answer_refusal allowed it
    events: list[Event]
    if isinstance(move, YieldMove):
        events = [YieldedEvent(seat)]
        trick = msgspec.structs.replace(trick, yielded=[*trick.yielded, seat])
    else:
        declared = isinstance(move, JiefengMove)
        events = [JiefengEvent(seat) if declared else PassedEvent(seat)]
        trick = msgspec.structs.replace(
            trick,
            passed=[*trick.passed, seat],
            yielded=[s for s in trick.yielded if s != seat],  # circle 2: a yielder answers
            jiefeng=seat if declared else trick.jiefeng,
        )
    hands = snapshot.hands
    waiting = to_act(hands, trick)
    if not waiting and trick.circle == 1 and trick.yielded:
        trick = msgspec.structs.replace(trick, circle=2)  # T-6: the yielders' second circle
        waiting = to_act(hands, trick)
    if waiting:
        return msgspec.structs.replace(snapshot, trick=trick, turn=waiting[0]), events
    # T-5: everyone holding cards has passed on the top play; T-6 扣牌 after circle 2 alike.
    lead = top.seat if hands[top.seat] else next_holding(hands, top.seat)  # T-7 接风
    if lead is None:  # pragma: no cover
        raise AssertionError("T-9 ends every deal before only one seat holds cards")
    events.append(TrickWonEvent(top.seat, lead))
    return msgspec.structs.replace(snapshot, trick=Trick(), turn=lead), events


def _end_if_settled(state: Snapshot, ruleset: Ruleset, events: list[Event]) -> Snapshot | None:
    """T-9: end the deal when its score can no longer change; ``None`` while it can."""
    result = score_play(state, ruleset)
    if not result.final or result.positions is None:
        return None
    positions = list(result.positions)
    events.append(DealOverEvent(positions))
    return msgspec.structs.replace(state, over=True, positions=positions)
