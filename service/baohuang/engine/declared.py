"""A deal as a client states it: roles, a finishing order, 造反 (``/v1/scores`` without a
snapshot, and the previous deal of ``/v1/tribute``).

:func:`score_declared` checks what a client says of a deal (the roles fit the mode, G-1; the
finishing order agrees with where the deal ended, T-9; 造反 is declared by rebels, G-8) and scores it
with :mod:`.scoring`. Input that describes no possible deal is bad input (:class:`~.errors.InvalidInput`), at a path
relative to the arguments, each named as its parameter (``.finished[3]``, ``.rebellion_succeeded``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import InvalidInput
from .rulesets import SEATS, Ruleset
from .scoring import Mode, ScoreResult, check_roles, is_final, score_deal

__all__ = ["deal_end", "has_rebellion", "score_declared"]


def deal_end(
    ruleset: Ruleset, mode: Mode, emperor: int, guard: int | None, finished: Sequence[int]
) -> int:
    """T-9: how many seats of ``finished`` finished while the deal ran (all of them when the
    order stops at or before the deal's end).

    A client may stop the order at the end (the seats still holding cards then take the
    remaining places, ``scoring.final_positions``), or go on listing them in any order it keeps (a
    platform's full ranking, 名次, by cards left or otherwise), as long as the side that finished
    holds the better places; the first seat that breaks it is refused, naming it
    (``.finished[i]``).
    """
    for end in range(1, len(finished)):
        if is_final(ruleset, mode, emperor, guard, finished[:end]):
            _check_after_end(mode, emperor, guard, finished, end)
            return end
    return len(finished)


def _check_after_end(
    mode: Mode, emperor: int, guard: int | None, finished: Sequence[int], end: int
) -> None:
    """T-9: of the seats listed after the deal ended, those of the side that finished come
    before those of the other side.

    The side that finished is the one whose finishing ended the deal: in team play the side that
    has entirely finished; in a solo or grab deal the emperor once he has finished, else the
    rebels (the deal ended because his place could no longer improve the score). So only an
    unfinished solo or grab emperor is bound, to the last place; every other order of the seats
    still holding cards agrees with T-9, and none changes a score (S).
    """
    ended = finished[:end]
    emperor_side = {emperor} if guard is None or mode != "team" else {emperor, guard}
    won_by_emperor = emperor_side <= set(ended)
    finishers = emperor_side if won_by_emperor else set(range(SEATS)) - emperor_side
    waiting = finishers - set(ended)  # the finished side's seats still holding cards
    for index in range(end, len(finished)):
        seat = finished[index]
        if seat in finishers:
            waiting.discard(seat)
        elif waiting:
            side = "the emperor's side" if won_by_emperor else "the rebels"
            raise InvalidInput(
                "DEAL_OVER",
                "T-9",
                f"seat {seat} is listed in position {index + 1}, but the deal ended once "
                f"{', '.join(map(str, ended))} had finished: the side that finished ({side}) "
                f"holds the better places, so {_seats(sorted(waiting))} must come before seat "
                f"{seat} (T-9)",
                f".finished[{index}]",
            )


def _seats(seats: Sequence[int]) -> str:
    """``seat 3``, ``seats 3 and 4``, ``seats 1, 3 and 4``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def has_rebellion(ruleset: Ruleset, mode: Mode) -> bool:
    """G-8: 造反 exists in ``lianzhong-simple`` (the guard decided by ``SJ*``), in team play and in
    暗独; it doubles S-4 team and S-6 scores once it succeeded (see :func:`multiplier`)."""
    return ruleset.guard_by == "sword" and mode in ("team", "solo_hidden")


def score_declared(
    ruleset: Ruleset,
    mode: Mode,
    emperor: int,
    guard: int | None,
    guard_revealed: bool,
    finished: Sequence[int],
    rebellion: Sequence[int] | None = None,
    rebellion_succeeded: bool | None = None,
) -> ScoreResult:
    """A deal as a client states it: roles, the seats that finished while it ran, and 造反
    either as its declarers (``rebellion``) or as its outcome (``rebellion_succeeded``), or both.

    One meaning for both: 造反 rebellion_succeeded when two or more rebels declared it and the rebels' side
    won the deal (S-4, S-6), and only then doubles the score. ``rebellion`` gives the declarers
    (each a rebel, once: G-8) and the outcome is decided here, as for a snapshot. ``rebellion_succeeded``
    states the outcome: ``True`` stands for two or more declarers and is refused where the
    finishing order gives the deal to the emperor's side or a draw; given with ``rebellion`` it
    must agree with it. While the deal is not final nothing has rebellion_succeeded yet and the multiplier
    leaves 造反 out. Where there is no 造反 (:func:`has_rebellion`) neither may claim one.

    Bad input lies at ``.mode``, ``.guard``, ``.finished[3]``, ``.rebellion[0]`` and the like.
    """
    check_roles(mode, emperor, guard, finished)
    deal_end(ruleset, mode, emperor, guard, finished)  # the order agrees with T-9
    declarers = _check_declarers(mode, emperor, guard, rebellion)
    if not has_rebellion(ruleset, mode):
        if rebellion:
            raise _no_rebellion(ruleset, mode, "rebellion")
        if rebellion_succeeded:
            raise _no_rebellion(ruleset, mode, "rebellion_succeeded")
    plain = score_deal(ruleset, mode, emperor, guard, guard_revealed, False, finished)
    declared = rebellion_succeeded is True if declarers is None else declarers >= 2
    won = plain.final and plain.winner == "rebels"
    if rebellion_succeeded is not None:
        rule = "S-6" if mode == "solo_hidden" else "S-4"
        if rebellion_succeeded and declarers is not None and declarers < 2:
            raise _mismatch(
                rule,
                f"a rebellion succeeds only once two or more rebels declared it; "
                f"'rebellion' names {declarers}",
            )
        if rebellion_succeeded and plain.final and not won:
            raise _mismatch(
                rule,
                f"a rebellion succeeds only when the rebels' side wins, and this deal's "
                f"winner is {'the emperor' if plain.winner == 'emperor' else 'nobody (a draw)'}",
            )
        if not rebellion_succeeded and declared and won:
            raise _mismatch(
                rule,
                "two or more rebels declared 造反 and the rebels' side won: the rebellion "
                "rebellion_succeeded",
            )
    if declared and won:
        return score_deal(ruleset, mode, emperor, guard, guard_revealed, True, finished)
    return plain


def _check_declarers(
    mode: Mode, emperor: int, guard: int | None, rebellion: Sequence[int] | None
) -> int | None:
    """G-8: the declarers are rebels, each once; how many there are (``None`` when not given)."""
    if rebellion is None:
        return None
    seen: set[int] = set()
    for index, seat in enumerate(rebellion):
        if seat in (emperor, guard) or not 0 <= seat < SEATS:
            raise InvalidInput(
                "INVALID_REBELLION",
                "G-8",
                f"seat {seat} is no rebel in this {mode} deal: only rebels declare 造反 (G-8)",
                f".rebellion[{index}]",
            )
        if seat in seen:
            raise InvalidInput(
                "INVALID_REBELLION",
                "G-8",
                f"seat {seat} declares 造反 twice (G-8)",
                f".rebellion[{index}]",
            )
        seen.add(seat)
    return len(seen)


def _no_rebellion(ruleset: Ruleset, mode: Mode, field: str) -> InvalidInput:
    return InvalidInput(
        "NO_REBELLION",
        "G-8",
        f"there is no 造反 in a {mode} deal of '{ruleset.name}': rebels declare it only in "
        "lianzhong-simple, in team play and in 暗独 (G-8)",
        "." + field,
    )


def _mismatch(rule: str, message: str) -> InvalidInput:
    return InvalidInput("REBELLION_MISMATCH", rule, message, ".rebellion_succeeded")
