"""What one seat, or a spectator, may see of a deal (hidden information, docs/rules.md A 暗保/暗独, G-8).

A spectator sees how many cards every seat holds, the trick, whose turn it is, who has
finished, and the emperor; a seat sees that and its own hand. The guard is shown only when it is
revealed (明保, G-8; or two rebels declared 造反 in ``lianzhong-simple``), when the deal is over,
or to the guard itself. A hidden solo (暗独, G-1) looks like team play to everyone but the emperor
*(reading: showing ``solo_hidden`` or ``guard == emperor`` would reveal exactly what 暗独 hides)*.
Before play the crown state and the called card are public; the guard is hidden the same way, and
every seat answers the 明保/造反 round, so whose turn it is reveals nobody (engine/before_play/guard.py).
"""

from __future__ import annotations

import msgspec

from .rulesets import RulesetField
from .snapshot import CrownState, Mode, Phase, Seat, Snapshot, Trick


class PublicView(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What everyone at the table may see (a spectator): no hand, only how many cards each seat
    holds (``counts[s]``); ``guard`` is null while hidden (G-8), and a 暗独 looks like team play.
    """

    counts: list[int]
    ruleset: RulesetField
    mode: Mode
    emperor: Seat
    guard: Seat | None
    guard_revealed: bool
    rebellion: list[Seat]
    trick: Trick
    turn: Seat
    finished: list[Seat]
    over: bool
    positions: list[int] | None
    # Before play (G-4…G-8): the crown state is public (who was offered it, how often it was
    # handed on, the cards travelling with it, the stage and who answers next), and so is the
    # called card (G-2); the guard it names is not (G-8).
    phase: Phase = "play"
    crown: CrownState | None = None
    called: str | None = None
    void: bool = False


class SeatView(PublicView, frozen=True, kw_only=True):
    """One seat's view: the public view plus the seat's own hand, and the guard when this seat
    is the guard (G-8)."""

    seat: Seat
    hand: list[str]


def guard_visible(snapshot: Snapshot, seat: int | None) -> bool:
    """G-8: a hidden guard is known only to itself (and, in a hidden solo, to the emperor);
    ``seat`` ``None`` asks what everyone may know."""
    return (
        snapshot.guard_revealed
        or snapshot.over
        or len(snapshot.rebellion) >= 2  # G-8: two 造反 reveal the guard to all
        or (seat is not None and seat == snapshot.guard)
    )


def public_view(snapshot: Snapshot) -> PublicView:
    """What a spectator sees of ``snapshot``."""
    return _public(snapshot, guard_visible(snapshot, None))


def seat_view(snapshot: Snapshot, seat: int) -> SeatView:
    """What ``seat`` sees of ``snapshot``: the public view, its hand, and the guard if it is it."""
    public = _public(snapshot, guard_visible(snapshot, seat))
    return SeatView(seat=seat, hand=list(snapshot.hands[seat]), **msgspec.structs.asdict(public))


def _public(snapshot: Snapshot, visible: bool) -> PublicView:
    """The public view, with the guard shown when ``visible``."""
    return PublicView(
        counts=[len(hand) for hand in snapshot.hands],
        ruleset=snapshot.ruleset,
        mode=_shown_mode(snapshot, visible),
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


def _shown_mode(snapshot: Snapshot, guard_visible: bool) -> Mode:
    """暗独 (G-1) is shown as team play to whoever may not know the guard."""
    if snapshot.mode == "solo_hidden" and not guard_visible:
        return "team"
    return snapshot.mode
