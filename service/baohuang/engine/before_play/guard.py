"""The guard phase: the emperor is settled; the guard is chosen and may show itself (G-1…G-3,
G-7, G-8).

``Snapshot.crown.stage`` says which step is open and ``crown.pending`` which seats still answer
it, in order (``turn`` is the first):

* ``"grab"`` — 抢独 (G-7), only where the room allows it (``grab`` option); never in classic,
  whose 抢庄 belongs to the crown phase, nor in tribute, which has no grab (G-6): the emperor first (declare 明独, or decline), then the
  others from the emperor towards earlier seats (上家 direction). The first grab wins, which is
  exactly G-7's priority (the emperor's own solo first, then the nearest grabber counting
  towards earlier seats).
* ``"call"`` — the emperor calls (G-2) or declares 明独; in ``lianzhong-simple`` he declares 明独
  (only holding ``SJ*`` too, G-3) or declines, and ``SJ*`` decides (G-3).
* ``"declare"`` — before the first play, every other seat in turn from the emperor on may
  reveal itself as the guard (明保, where the ruleset scores it: S-2, S-4) or, in
  ``lianzhong-simple``, declare 造反; else decline. Every seat answers, so the turn order gives
  nothing away (a hidden guard, or a hidden solo, looks like team play).

Readings *(reading)*: the declaration round runs in team and 暗独 deals (not after 明独 or a grab,
which hide nothing and are never doubled by 造反); ``tribute`` has no 明保 (S-3) and so no round;
in ``lianzhong-simple`` with the 抢独 round, the emperor's 明独 choice is made there and not asked
again; a grabber takes ``BJ*`` from the emperor, who keeps the cards that came with the crown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import SJ_SWORD
from ..reasons import (
    ACTION_NOT_AVAILABLE,
    CALL_CARD_NOT_ALLOWED,
    DEAL_OVER,
    GRAB_NOT_ALLOWED,
    MUST_CALL,
    NOT_YOUR_TURN,
    REBEL_NOT_ALLOWED,
    REVEAL_NOT_ALLOWED,
    SOLO_NOT_ALLOWED,
    WRONG_PHASE,
    Reason,
)
from ..rulesets import SEATS, Ruleset, crown_rule
from ..snapshot import (
    CallMove,
    DeclareSoloMove,
    DeclineMove,
    GrabMove,
    Mode,
    Move,
    RebelMove,
    RevealMove,
    Snapshot,
    Stage,
)
from .crown import holds_four, kind_of

GUARD_MOVES: Final = (DeclineMove, GrabMove, CallMove, DeclareSoloMove, RevealMove, RebelMove)


def has_grab_round(ruleset: Ruleset) -> bool:
    """G-7 抢独: where the room allows it; classic grabs (抢庄) in the crown phase instead, and
    tribute has no grab (G-6)."""
    return ruleset.grab and ruleset.base.startswith("lianzhong")


def has_declare_round(ruleset: Ruleset, mode: str) -> bool:
    """G-8: 明保 where the ruleset scores it (S-2, S-4), 造反 in lianzhong-simple; team and 暗独."""
    return ruleset.scoring in ("S-2", "S-4") and mode in ("team", "solo_hidden")


def stage_order(stage: Stage, emperor: int) -> list[int]:
    """The seats answering ``stage``, in order."""
    if stage == "grab":
        return [(emperor - k) % SEATS for k in range(SEATS)]  # G-7: towards earlier seats
    if stage == "call":
        return [emperor]
    return [(emperor + k) % SEATS for k in range(1, SEATS)]  # T-1 order from the emperor


def first_stage(ruleset: Ruleset) -> Stage:
    return "grab" if has_grab_round(ruleset) else "call"


def sword_roles(hands: Sequence[Sequence[int]], emperor: int) -> tuple[Mode, int]:
    """G-3: the ``SJ*`` holder is the guard; the emperor holding it plays 暗独."""
    holder = next(seat for seat in range(SEATS) if SJ_SWORD in hands[seat])
    return ("solo_hidden", emperor) if holder == emperor else ("team", holder)


def called_roles(hands: Sequence[Sequence[int]], emperor: int, kind: int) -> tuple[Mode, int]:
    """G-2: the holder of the fourth copy is the guard; all four make 暗独 (solo_hidden)."""
    for seat in range(SEATS):
        if seat != emperor and any(kind_of(card) == kind for card in hands[seat]):
            return "team", seat
    return "solo_hidden", emperor


TRIBUTE_SOLO_MESSAGE: Final = (
    "明独 in tribute is declared by showing four of one (rank, suit), neither joker nor 2 "
    "(亮出四张牌点相同且花色相同的牌，不能为花和2)"
)


def solo_refusal(
    snapshot: Snapshot, ruleset: Ruleset, hands: Sequence[Sequence[int]]
) -> Reason | None:
    """G-8 明独 by the emperor; in lianzhong-simple only holding ``SJ*`` as well (G-3); in
    tribute only showing four of one (rank, suit), neither joker nor 2 (G-6)."""
    hand = hands[snapshot.emperor]
    if ruleset.guard_by == "sword" and SJ_SWORD not in hand:
        return SOLO_NOT_ALLOWED
    if ruleset.base == "tribute" and not holds_four(ruleset, hand):
        return SOLO_NOT_ALLOWED.citing("G-6", TRIBUTE_SOLO_MESSAGE)
    return None


def guard_refusal(
    snapshot: Snapshot, ruleset: Ruleset, hands: Sequence[Sequence[int]], move: Move
) -> Reason | None:
    """Why ``move`` is refused in the guard phase (G-2, G-3, G-7, G-8), or ``None``.

    This checks who may call, and when; the card called is judged once read
    (:func:`.crown.call_refusal`, by :mod:`.machine`).
    """
    if snapshot.over:
        return DEAL_OVER
    crown = snapshot.crown
    assert crown is not None and crown.stage is not None
    if not isinstance(move, GUARD_MOVES):
        return WRONG_PHASE
    seat = move.seat
    stage = crown.stage
    if isinstance(move, GrabMove) and stage != "grab":
        return GRAB_NOT_ALLOWED.citing(crown_rule(ruleset))  # grabbing is over, for every seat
    if seat != snapshot.turn:
        return NOT_YOUR_TURN
    emperor = seat == snapshot.emperor
    if isinstance(move, DeclineMove):
        if stage == "call" and ruleset.guard_by != "sword":
            # G-8: the emperor calls or declares 明独, under his ruleset's crown rule (G-6, G-7)
            return MUST_CALL.citing(crown_rule(ruleset))
        return None
    if isinstance(move, GrabMove):  # the grab round (G-7): the emperor declares 明独 instead
        return GRAB_NOT_ALLOWED.citing(crown_rule(ruleset)) if emperor else None
    if isinstance(move, DeclareSoloMove):
        if not emperor or stage == "declare":
            return SOLO_NOT_ALLOWED
        return solo_refusal(snapshot, ruleset, hands)
    if isinstance(move, CallMove):
        if stage != "call":
            return ACTION_NOT_AVAILABLE
        if ruleset.guard_by == "sword":
            return CALL_CARD_NOT_ALLOWED  # G-3: SJ* decides, nobody calls
        return None
    if isinstance(move, RevealMove):
        if stage != "declare" or snapshot.mode != "team" or seat != snapshot.guard:
            return REVEAL_NOT_ALLOWED
        return None
    # RebelMove
    if (
        stage != "declare"
        or ruleset.guard_by != "sword"
        or seat in (snapshot.emperor, snapshot.guard)
    ):
        return REBEL_NOT_ALLOWED
    return None


__all__ = [
    "GUARD_MOVES",
    "called_roles",
    "first_stage",
    "guard_refusal",
    "has_declare_round",
    "has_grab_round",
    "solo_refusal",
    "stage_order",
    "sword_roles",
]
