"""Whom a seat plays with, as far as it may know (G-1, G-8).

The emperor plays with the guard in team play and alone otherwise; the guard knows itself, so it
knows its partner. A rebel knows its partners once the guard is revealed; while the guard is
hidden it counts nobody as a partner: passing on a play it takes for a fellow rebel's lets the
guard through as often as not, and a cheap play over a real partner costs little (bench/ladder.py
measured rebels gaining more this way than by trusting every seat but the emperor's). The emperor
of a team deal, not knowing his guard, trusts only the seat the public record points to: one
that keeps passing on the emperor's plays and never beats them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..engine import SEATS, SeatView
from .record import Act

SUSPICION_NEEDED: Final = 2
"""How much more often a seat must have spared the emperor than beaten him to be taken for the
guard: passes on his plays, less two for every play over one."""


def suspected_guard(view: SeatView, history: Sequence[Act]) -> int | None:
    """The seat the public record points to as the hidden guard, if any."""
    spared = [0] * SEATS
    owner: int | None = None
    for act in history:
        if act.type == "trick_won":
            owner = None
        elif act.type == "played":
            if owner == view.emperor and act.seat != owner:
                spared[act.seat] -= 2
            owner = act.seat
        elif act.type in ("passed", "yielded") and owner == view.emperor:
            spared[act.seat] += 1
    candidates = [s for s in range(SEATS) if s not in (view.emperor, view.seat)]
    best = max(candidates, key=lambda s: spared[s], default=None)
    if best is None or spared[best] < SUSPICION_NEEDED:
        return None
    if sum(spared[s] == spared[best] for s in candidates) > 1:
        return None  # a tie points at nobody
    return best


def partners(view: SeatView, history: Sequence[Act]) -> frozenset[int]:
    """The seats ``view.seat`` plays with, as far as it may know."""
    seat, emperor = view.seat, view.emperor
    others = frozenset(range(SEATS)) - {seat}
    if view.mode != "team" or view.guard == emperor:  # solo (暗独 as the emperor sees it), grab
        return frozenset() if seat == emperor else others - {emperor}
    if view.guard is not None:
        team = frozenset({emperor, view.guard})
        return team - {seat} if seat in team else others - team
    if seat != emperor:
        return frozenset()  # a rebel beside a hidden guard: see the module's docstring
    suspect = suspected_guard(view, history)
    return frozenset() if suspect is None else frozenset({suspect})


def partners_in(mode: str, emperor: int, guard: int | None, seat: int) -> frozenset[int]:
    """The seats ``seat`` plays with in a world where every role is known (a search's guess)."""
    others = frozenset(range(SEATS)) - {seat}
    if mode != "team" or guard is None or guard == emperor:
        return frozenset() if seat == emperor else others - {emperor}
    team = frozenset({emperor, guard})
    return team - {seat} if seat in team else others - team
