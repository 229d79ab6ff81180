"""What one seat may see of a deal (hidden information, RULES.md A 暗保/暗独, G-8).

A seat sees its own hand, how many cards every seat holds, the trick, whose turn it is, who has
finished, and the emperor. It sees the guard only when the guard is revealed (明保, G-8; or two
rebels declared 造反 in ``lianzhong-simple``), when the deal is over, or when it is the guard. A
hidden solo (暗独, G-1) looks like team play to everyone but the emperor *(reading: showing
``solo_hidden`` or ``guard == emperor`` would reveal exactly what 暗独 hides)*. Before play the
crown state and the called card are public; the guard is hidden the same way, and every seat
answers the 明保/造反 round, so whose turn it is reveals nobody (engine/guard_phase.py).
"""

from __future__ import annotations

import msgspec

from .rulesets import RulesetField
from .snapshot import CrownState, Mode, Phase, Snapshot, Trick


class SeatView(msgspec.Struct, frozen=True):
    """One seat's view. ``guard`` is null while hidden from this seat; ``counts[s]`` is the
    number of cards seat ``s`` holds."""

    seat: int
    hand: list[str]
    counts: list[int]
    ruleset: RulesetField
    mode: Mode
    emperor: int
    guard: int | None
    guard_revealed: bool
    rebellion: list[int]
    trick: Trick
    turn: int
    finished: list[int]
    over: bool
    positions: list[int] | None
    # Before play (G-4…G-8): the crown state is public (who was offered it, how often it was
    # handed on, the cards travelling with it, the stage and who answers next), and so is the
    # called card (G-2); the guard it names is not (G-8).
    phase: Phase = "play"
    crown: CrownState | None = None
    called: str | None = None
    void: bool = False


def guard_visible(snapshot: Snapshot, seat: int) -> bool:
    """G-8: a hidden guard is known only to itself (and, in a hidden solo, to the emperor)."""
    return (
        snapshot.guard_revealed
        or snapshot.over
        or len(snapshot.rebellion) >= 2  # G-8: two 造反 reveal the guard to all
        or seat == snapshot.guard
    )


def seat_view(snapshot: Snapshot, seat: int) -> SeatView:
    visible = guard_visible(snapshot, seat)
    mode = snapshot.mode
    if mode == "solo_hidden" and not visible:
        mode = "team"
    return SeatView(
        seat=seat,
        hand=list(snapshot.hands[seat]),
        counts=[len(hand) for hand in snapshot.hands],
        ruleset=snapshot.ruleset,
        mode=mode,
        emperor=snapshot.emperor,
        guard=snapshot.guard if visible else None,
        guard_revealed=snapshot.guard_revealed,
        rebellion=list(snapshot.rebellion),
        trick=snapshot.trick,
        turn=snapshot.turn,
        finished=list(snapshot.finished),
        over=snapshot.over,
        positions=snapshot.positions,
        phase=snapshot.phase,
        crown=snapshot.crown,
        called=snapshot.called,
        void=snapshot.void,
    )
