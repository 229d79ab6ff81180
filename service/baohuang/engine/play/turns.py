"""Turn order (T-1, T-4…T-8) and the end of the deal (T-9), shared by validation and play.

Everything here reads hands only to ask "does this seat still hold cards" (T-8): a seat with an
empty hand has finished, and its seat is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rulesets import SEATS, Ruleset
from ..scoring import ScoreResult, score_with_rebellion
from ..snapshot import Snapshot, Trick


def order_after(seat: int) -> tuple[int, ...]:
    """T-1: the other four seats in the order of play, starting with the one after ``seat``."""
    return tuple((seat + step) % SEATS for step in range(1, SEATS))


def next_holding(hands: Sequence[Sequence[str]], seat: int) -> int | None:
    """T-1/T-8: the next seat after ``seat`` still holding cards, or ``None`` if there is none."""
    for other in order_after(seat):
        if hands[other]:
            return other
    return None


def to_act(hands: Sequence[Sequence[str]], trick: Trick) -> list[int]:
    """The seats still to answer the top play, in seat order after its owner.

    Circle 1 (T-4, T-6): every seat holding cards except the owner that has neither passed nor
    yielded. Circle 2 (T-6): the yielders still to answer; a first-circle pass counts as a pass.
    """
    top = trick.top
    if top is None:
        return []
    if trick.circle == 2:
        return [s for s in order_after(top.seat) if s in trick.yielded]
    acted = set(trick.passed) | set(trick.yielded)
    return [s for s in order_after(top.seat) if hands[s] and s not in acted]


def score_play(snapshot: Snapshot, ruleset: Ruleset) -> ScoreResult:
    """The score of a deal in play from its finishing order so far (S, T-9); ``final`` once it is
    settled. 造反 is given as the declaring seats; scoring decides whether it succeeded (S-4, S-6).
    """
    return score_with_rebellion(
        ruleset,
        snapshot.mode,
        snapshot.emperor,
        snapshot.guard,
        snapshot.guard_revealed,
        snapshot.rebellion,
        snapshot.finished,
    )
