"""Scoring a deal (docs/rules.md, section S) and the moment a deal ends (T-9, S-7, S-8).

:func:`score_deal` takes the roles, the 明保 / 造反 flags and the seats in finishing order so far,
and answers whether the score can still change (``final``) and, once it cannot, every figure.

Definitions used throughout (position ``p`` is 1 … 5, finishing order):

* **Side score.** The emperor's side is the emperor plus, in ``team`` play, the guard; the rebels
  are everybody else. ``sides.emperor`` / ``sides.rebels`` are the two sides' scores *after* the
  multiplier. Under S-2 and S-4 a side's score is the sum of its members' seat scores; under S-3
  every member is *credited* the side's score (S-3), so the seat scores of a side do not add up to
  it and ``sides`` carries the side score itself. Either way ``sides.emperor + sides.rebels == 0``
  (S-1), and under S-2 / S-4 the five seat scores sum to zero as well.
* **Winner.** ``"emperor"`` when ``sides.emperor > 0``, ``"rebels"`` when it is negative,
  ``"draw"`` when it is zero — one definition for every ruleset and mode (S-3 names the 0 : 0
  draw; under S-2 team a side score of 0, e.g. 头科 + 大落, and S-2/S-3 solo with the emperor third,
  and S-4 team with guard score 0, and S-6 with the emperor second, are draws the same way
  *(reading)*).
* **Multiplier.** The factor applied to the formula's base figures (reported even while the deal
  is not final): S-2 team 明保 ×2, S-2 明独 ×2; S-3 明独 ×2; S-4 team 明保 or successful 造反 ×2,
  never ×4; S-6 successful 造反 ×2. The fixed figures of S-2 grab (±40/∓10) and S-5 (±24/∓6) are
  base figures, multiplier 1.

Per ruleset family and mode (``P`` = position points, ``e`` / ``g`` = positions of emperor /
guard, ``m`` = multiplier):

* S-2 team: ``E = P(e) + P(g)`` with ``P = 6, 3, 0, −3, −6``; emperor ``2E/3·m``, guard ``E/3·m``,
  each rebel ``−E/3·m``. Solo (hidden or open): emperor ``x = P(e)·m`` with
  ``P = 16, 4, 0, −4, −16``, each rebel ``−x/4``. Grab: emperor ``+40`` if first else ``−40``,
  each other ``∓10``.
* S-3 (``P = 4, 2, 0, −2, −4``): team ``E = P(e) + P(g)``, emperor and guard ``E``, each rebel
  ``−E``. Solo: emperor ``x = P(e)·m``, each rebel ``−x`` (the rebels' side score).
* S-4 team: guard ``γ = 6 − (e + g)``, emperor ``2γ·m``, guard ``γ·m``, each rebel ``−γ·m``.
  S-5 (solo_open, and grab by S-8): emperor first ``+24`` else ``−24``, each other ``∓6``.
  S-6 (solo_hidden): emperor first ``+12·m``, second ``0``, third or worse ``−12·m``; each other
  ``−x/4``.

When the deal is final but some seats have not finished, they take the remaining positions
(T-9): in seat order (T-1) starting with the seat after the last finisher, except that in a solo
or grab deal an unfinished emperor takes the last position — the deal ended because his position
could no longer improve the score, so the rebels' side holds the better places *(reading)*.
In team play a final deal always has one side entirely finished, so the unfinished seats all
belong to the other side and their order among themselves never changes a score. A client may
list them itself, in any order that leaves the better places to the side that finished
(:func:`.declared.deal_end`); the seats it lists keep their places, and the score is the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, get_args

import msgspec

from .errors import InvalidInput
from .reasons import Reason
from .rulesets import SEATS, Ruleset

Mode = Literal["team", "solo_hidden", "solo_open", "grab"]
Winner = Literal["emperor", "rebels", "draw"]
MODES: Final[tuple[Mode, ...]] = get_args(Mode)

S2_TEAM_POINTS: Final = (6, 3, 0, -3, -6)  # S-2 头科 二科 三科 二落 大落
S2_SOLO_POINTS: Final = (16, 4, 0, -4, -16)  # S-2 独保
S2_GRAB_EMPEROR: Final = 40  # S-2 抢杠: ±40 for the grabber, ∓10 each other
S3_POINTS: Final = (4, 2, 0, -2, -4)  # S-3
S5_EMPEROR: Final = 24  # S-5 明独保: ±24, each other ∓6
S6_EMPEROR: Final = 12  # S-6 暗独保: +12 / 0 / −12, each other ∓3


class Sides(msgspec.Struct, frozen=True, gc=False):
    """The two sides' scores after the multiplier; they always sum to zero (S-1)."""

    emperor: int
    rebels: int


class ScoreResult(msgspec.Struct, frozen=True):
    """A deal's score. `final` is false, and the figures null, while the score can still change
    (T-9). `void` is null unless the deal is void (S-10): then it is final with no winner and no
    positions, every seat scores 0, and `void` says why: `{"code": "NO_EMPEROR", "rule": "G-5"}`
    (黄庄; `G-6`, `G-7` in the other rulesets) when nobody took the crown, `{"code":
    "ALL_TRUSTEE", "rule": "T-11"}` when every seat was in 托管 at the end. A void snapshot has
    `"void": true` and `"over": true`."""

    final: bool
    winner: Winner | None
    multiplier: int
    positions: list[int] | None  # positions[seat]: 1 … 5, unfinished seats placed as T-9 says
    scores: list[int] | None
    sides: Sides | None
    void: Reason | None


# S-10: why a deal is void. The code says what happened, the rule which rule voids it.
NO_EMPEROR_CLASSIC = Reason(
    "NO_EMPEROR",
    "G-5",
    "黄庄: the crown was handed on five times and then no seat held exactly three of a card to "
    "call (逼庄), so nobody became emperor; the deal is not scored and is dealt again",
)
NO_EMPEROR_TRIBUTE = Reason(
    "NO_EMPEROR",
    "G-6",
    "every seat passed the crown and the first seat passed again, so nobody became emperor; "
    "the deal is not scored and is dealt again",
)
NO_EMPEROR_LIANZHONG = Reason(
    "NO_EMPEROR",
    "G-7",
    "流局: two rounds of the crown went by without an emperor; the deal is not scored and is "
    "dealt again",
)
ALL_TRUSTEE = Reason(
    "ALL_TRUSTEE",
    "T-11",
    "every seat was in 托管 when the deal ended: the deal is not scored (不予计分)",
)


def no_emperor(ruleset: Ruleset) -> Reason:
    """Why a deal that ended before play is void: nobody took the crown (G-5, G-6, G-7)."""
    if ruleset.base == "classic":
        return NO_EMPEROR_CLASSIC
    if ruleset.base == "tribute":
        return NO_EMPEROR_TRIBUTE
    return NO_EMPEROR_LIANZHONG


def void_result(reason: Reason) -> ScoreResult:
    """S-10: a void deal has no winner and no positions; every seat scores 0; ``reason`` says
    why (:func:`no_emperor`, or :data:`ALL_TRUSTEE` for T-11's unscored deal)."""
    return ScoreResult(
        final=True,
        winner=None,
        multiplier=1,
        positions=None,
        scores=[0] * SEATS,
        sides=Sides(0, 0),
        void=reason,
    )


def check_roles(mode: str, emperor: int, guard: int | None, finished: Sequence[int]) -> None:
    """Raise bad input (:class:`~.errors.InvalidInput`) unless the roles fit ``mode`` and ``finished`` is a valid
    partial finishing order (distinct seats 0–4).

    Team play needs a guard other than the emperor (G-1); solo and grab deals have none, so
    ``guard`` must be ``None`` or the emperor himself (lianzhong-simple 暗独: the emperor holds
    ``SJ*``, G-3).
    """
    if mode not in MODES:
        raise InvalidInput(
            "INVALID_MODE", "G-1", f"mode '{mode}' is not one of {', '.join(MODES)} (G-1)", ".mode"
        )
    if not 0 <= emperor < SEATS:
        raise InvalidInput("INVALID_SEAT", "T-1", f"seat {emperor} is not 0–4 (T-1)", ".emperor")
    if mode == "team":
        if guard is None:
            raise InvalidInput(
                "GUARD_REQUIRED", "G-1", "team play needs a guard (皇帝 + 侍卫, G-1)", ".guard"
            )
        if not 0 <= guard < SEATS:
            raise InvalidInput("INVALID_SEAT", "T-1", f"seat {guard} is not 0–4 (T-1)", ".guard")
        if guard == emperor:
            raise InvalidInput(
                "GUARD_IS_EMPEROR",
                "G-1",
                "in team play the guard is another seat than the emperor; "
                "an emperor who is his own guard plays solo (G-1, G-2)",
                ".guard",
            )
    elif guard is not None and guard != emperor:
        raise InvalidInput(
            "UNEXPECTED_GUARD",
            "G-1",
            f"a {mode} deal has no guard: the emperor plays alone (G-1)",
            ".guard",
        )
    if len(finished) > SEATS:
        raise InvalidInput(
            "INVALID_FINISHED", "T-7", "at most five seats can finish (T-7)", ".finished"
        )
    seen: set[int] = set()
    for index, seat in enumerate(finished):
        where = f".finished[{index}]"
        if not 0 <= seat < SEATS:
            raise InvalidInput("INVALID_SEAT", "T-1", f"seat {seat} is not 0–4 (T-1)", where)
        if seat in seen:
            raise InvalidInput(
                "INVALID_FINISHED", "T-7", f"seat {seat} finishes twice (T-7, T-8)", where
            )
        seen.add(seat)


def multiplier(
    ruleset: Ruleset, mode: Mode, guard_revealed: bool, rebellion_succeeded: bool
) -> int:
    """The factor on the formula's base figures (S-2 明保/明独, S-3 明独, S-4/S-6 明保/造反).

    * 明保 counts only in team play, and only where the ruleset scores it (S-2, S-4; G-8). Under
      S-3 a ``guard_revealed`` flag is ignored: the tribute ruleset has no 明保 *(reading)*.
    * 造反 exists only in ``lianzhong-simple`` (G-8, S-4); elsewhere the flag is ignored
      *(reading)*. It doubles team play (S-4) and 暗独 (S-6: 包括暗獨保), never 明独 nor 抢独,
      where the emperor plays openly and there is no hidden guard to rebel against *(reading)*.
    * S-4: 明保 and 造反 together still give ×2, never ×4 (S-4 *(reading)*).
    * S-3 grab: the grabber plays a declared solo, ×2 like 明独 *(reading: the rules are silent)*.
    """
    rebellion = rebellion_succeeded and ruleset.guard_by == "sword"
    if ruleset.scoring == "S-2":
        if mode == "team":
            return 2 if guard_revealed else 1
        return 2 if mode == "solo_open" else 1
    if ruleset.scoring == "S-3":
        return 2 if mode in ("solo_open", "grab") else 1
    if mode == "team":
        return 2 if guard_revealed or rebellion else 1
    if mode == "solo_hidden":
        return 2 if rebellion else 1
    return 1


def is_final(
    ruleset: Ruleset, mode: Mode, emperor: int, guard: int | None, finished: Sequence[int]
) -> bool:
    """T-9: whether the deal is over, i.e. its score can no longer change.

    Team: one side has entirely finished. Grab (S-8) and S-5 solo_open: at the first finisher.
    S-6 solo_hidden: the emperor finished, or two others did (he is then third or worse).
    S-2 and S-3 solo: the emperor finished, or all four others did (S-7; each position scores
    differently, so S-3 solo ends like S-2 solo *(reading)*).
    """
    done = set(finished)
    if mode == "team":
        assert guard is not None
        emperor_side = {emperor, guard}
        return emperor_side <= done or len(done - emperor_side) == SEATS - 2
    if mode == "grab" or (mode == "solo_open" and ruleset.scoring == "S-4"):
        return len(done) >= 1
    if emperor in done:
        return True
    if mode == "solo_hidden" and ruleset.scoring == "S-4":
        return len(done) >= 2
    return len(done) >= SEATS - 1


def final_positions(mode: Mode, emperor: int, finished: Sequence[int]) -> list[int]:
    """``positions[seat]`` for a final deal: the seats in ``finished`` keep their places (those
    that finished, and any a client listed after them); the others take the rest in seat order
    from the seat after the last one listed, an unfinished solo/grab emperor last (T-9
    *(reading)*, see the module docstring)."""
    order = list(finished)
    if len(order) < SEATS:
        start = (order[-1] + 1) % SEATS if order else emperor
        rest = [(start + i) % SEATS for i in range(SEATS)]
        rest = [seat for seat in rest if seat not in order]
        if mode != "team" and emperor in rest:
            rest.remove(emperor)
            rest.append(emperor)
        order += rest
    positions = [0] * SEATS
    for index, seat in enumerate(order):
        positions[seat] = index + 1
    return positions


def _third(value: int) -> int:
    assert value % 3 == 0, f"S-1: {value} is not divisible by 3"
    return value // 3


def _quarter(value: int) -> int:
    assert value % 4 == 0, f"S-1: {value} is not divisible by 4"
    return value // 4


def _seat_scores(
    ruleset: Ruleset, mode: Mode, emperor: int, guard: int | None, positions: list[int], m: int
) -> tuple[list[int], Sides]:
    """Seat scores and side scores from complete positions (S-2 … S-6)."""
    e = positions[emperor]
    scores = [0] * SEATS
    if mode == "team":
        assert guard is not None
        g = positions[guard]
        if ruleset.scoring == "S-2":
            side = (S2_TEAM_POINTS[e - 1] + S2_TEAM_POINTS[g - 1]) * m
            emperor_score, guard_score, rebel = 2 * _third(side), _third(side), -_third(side)
        elif ruleset.scoring == "S-3":
            side = S3_POINTS[e - 1] + S3_POINTS[g - 1]
            emperor_score, guard_score, rebel = side, side, -side
        else:
            guard_points = (6 - (e + g)) * m
            side = 3 * guard_points
            emperor_score, guard_score, rebel = 2 * guard_points, guard_points, -guard_points
        for seat in range(SEATS):
            scores[seat] = rebel
        scores[emperor] = emperor_score
        scores[guard] = guard_score
        return scores, Sides(emperor=side, rebels=-side)

    if ruleset.scoring == "S-2":
        if mode == "grab":
            side = S2_GRAB_EMPEROR if e == 1 else -S2_GRAB_EMPEROR
        else:
            side = S2_SOLO_POINTS[e - 1] * m
        rebel = -_quarter(side)
    elif ruleset.scoring == "S-3":
        if mode == "grab":
            # (reading) the rules are silent on grab under S-3: a declared solo (×2) that ends at the
            # first finisher (S-8); the grabber is first (+4) or, by T-9, last (−4).
            side = (S3_POINTS[0] if e == 1 else S3_POINTS[-1]) * m
        else:
            side = S3_POINTS[e - 1] * m
        rebel = -side  # each rebel is credited the rebels' side score (S-3)
    elif mode == "solo_hidden":
        side = (S6_EMPEROR if e == 1 else 0 if e == 2 else -S6_EMPEROR) * m
        rebel = -_quarter(side)
    else:  # S-5 solo_open, and grab by S-8
        side = S5_EMPEROR if e == 1 else -S5_EMPEROR
        rebel = -_quarter(side)
    for seat in range(SEATS):
        scores[seat] = rebel
    scores[emperor] = side
    return scores, Sides(emperor=side, rebels=-side)


def winner_of(sides: Sides) -> Winner:
    """The side with the positive score, ``"draw"`` on 0 : 0 (see the module docstring)."""
    if sides.emperor > 0:
        return "emperor"
    if sides.emperor < 0:
        return "rebels"
    return "draw"


def score_deal(
    ruleset: Ruleset,
    mode: Mode,
    emperor: int,
    guard: int | None,
    guard_revealed: bool,
    rebellion_succeeded: bool,
    finished: Sequence[int],
) -> ScoreResult:
    """Score a deal from its roles and finishing order so far (S-1 … S-8, T-9).

    ``finished`` is the seats in finishing order, partial or complete. ``rebellion_succeeded`` is
    the S-4 condition itself (see :func:`rebellion_succeeded`; :func:`score_with_rebellion`
    derives it from the declarers). Raises bad input (:class:`~.errors.InvalidInput`) on impossible roles or orders.
    """
    check_roles(mode, emperor, guard, finished)
    m = multiplier(ruleset, mode, guard_revealed, rebellion_succeeded)
    if not is_final(ruleset, mode, emperor, guard, finished):
        return ScoreResult(
            final=False,
            winner=None,
            multiplier=m,
            positions=None,
            scores=None,
            sides=None,
            void=None,
        )
    positions = final_positions(mode, emperor, finished)
    scores, sides = _seat_scores(ruleset, mode, emperor, guard, positions, m)
    # S-1: integers always; seat scores sum to zero, except under S-3 where the sides do.
    assert all(type(score) is int for score in scores)
    assert sides.emperor + sides.rebels == 0
    assert ruleset.scoring == "S-3" or sum(scores) == 0
    return ScoreResult(
        final=True,
        winner=winner_of(sides),
        multiplier=m,
        positions=positions,
        scores=scores,
        sides=sides,
        void=None,
    )


def rebellion_succeeded(rebellion: Sequence[int], winner: Winner | None) -> bool:
    """S-4 造反 success: two or more rebels declared it and the rebels' side won."""
    return len(set(rebellion)) >= 2 and winner == "rebels"


def score_with_rebellion(
    ruleset: Ruleset,
    mode: Mode,
    emperor: int,
    guard: int | None,
    guard_revealed: bool,
    rebellion: Sequence[int],
    finished: Sequence[int],
) -> ScoreResult:
    """:func:`score_deal` with 造反 given as the declaring seats rather than as the outcome.

    The winner never depends on the multiplier, so the deal is scored once without the rebellion
    to learn the winner, then again with :func:`rebellion_succeeded`. While the deal is not final
    the rebellion has not (yet) succeeded and the reported multiplier leaves it out.
    """
    plain = score_deal(ruleset, mode, emperor, guard, guard_revealed, False, finished)
    if not rebellion_succeeded(rebellion, plain.winner):
        return plain
    return score_deal(ruleset, mode, emperor, guard, guard_revealed, True, finished)


def rebels_won(result: ScoreResult) -> bool:
    """Whether a final result went to the rebels' side (the S-4 造反 condition's second half)."""
    return result.winner == "rebels"
