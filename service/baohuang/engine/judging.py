"""Questions about plays without a deal around them: classify, compare, batch, 烤牌 stacks.

These are the engine's entry points for the combo routes (docs/clients.md): they read card codes
(D-3), enforce copy limits (D-5), classify (C), and judge beating (N, K). A ``previous`` that is
no combo is bad input (:class:`~.errors.InvalidInput` with the reason's code); a ``candidate``
that is no combo is a verdict. Bad input lies at a path relative to the arguments, each named as
its parameter (``.previous[2]``, ``.pairs[7].candidate``, ``.plays[1]``).

Copy limits (D-5):

* A comparison (``compare``, ``compare-batch``) checks them per play, not across ``previous`` and
  ``candidate`` together: the question "does P beat Q" stays answerable for any two real plays,
  which K-3's own example needs (``BJ BJ BJ BJ`` beats ``BJ BJ``: six big jokers in all).
* A stack (``/v1/kaopai/resolve``) is the plays of one trick, on the table together, so K-7 has
  D-5 count their cards together: ``BJ``, ``BJ BJ``, ``BJ BJ BJ BJ`` is seven big jokers, bad
  input naming the play that exceeds the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol, TypeVar

import msgspec

from .beating import (
    NORMAL_GUARDS,
    NORMAL_REFUSALS,
    CoverEntry,
    cover,
    kaopai_refusal,
    normal_refusal,
    refusal,
)
from .cards import CardSet, check_copies
from .combos import Combo, read_combo
from .errors import InvalidInput
from .known_plays import KNOWN_BY_RULES, PLAYS_BY_RULES
from .reasons import Reason
from .rulesets import Ruleset

T = TypeVar("T")


def not_a_combo(reason: Reason, path: str = "") -> InvalidInput:
    """A play that must be a combo is not one (C-1): bad input with the reason's code."""
    return InvalidInput(reason.code, reason.rule, f"not a combo: {reason.message}", path)


def _within(path: str, read: Callable[[], T]) -> T:
    """``read()``, its bad input seen from where the value it reads sits (``path``)."""
    try:
        return read()
    except InvalidInput as error:
        raise error.within(path) from None


class Judgement(msgspec.Struct, frozen=True, gc=False):
    """``reason`` is ``None`` when the candidate beats; ``cover`` is then its K-6 cover."""

    reason: Reason | None
    cover: list[CoverEntry] | None


def read_previous(codes: Sequence[str], card_set: CardSet) -> Combo:
    """The top play as a combo; bad cards, or no combo (C-1), are bad input within ``codes``."""
    combo = read_combo(codes, card_set, "previous")
    if isinstance(combo, Reason):
        raise not_a_combo(combo)
    return combo


def classify_play(cards: Sequence[str], ruleset: Ruleset) -> Combo | Reason:
    """API ``/v1/combos/classify``: the combo ``cards`` make (C-1…C-4), or why they make none."""
    return _within(".cards", lambda: read_combo(cards, ruleset.cards, "cards"))


def judge(previous: Combo, candidate: Combo | Reason, ruleset: Ruleset) -> Judgement:
    """Does ``candidate`` beat ``previous`` under ``ruleset`` (N, or K when kaopai is on)?"""
    if isinstance(candidate, Reason):
        return Judgement(candidate, None)
    why = refusal(candidate, previous, ruleset.kaopai)
    if why is not None:
        return Judgement(why, None)
    return Judgement(None, cover(candidate, previous, ruleset.kaopai))


def compare(previous: Sequence[str], candidate: Sequence[str], ruleset: Ruleset) -> Judgement:
    """API ``/v1/combos/compare``: the judgement with its cover.

    Both plays come from the ruleset's memo of plays (:mod:`.known_plays`: a play seen before
    costs a tuple and a dict lookup) and so does the verdict's arithmetic (as in
    :func:`verdict`); the K-6 cover is made only when the candidate beats, from the cached
    template of the pair of shapes.
    """
    try:  # the memo's hits, inlined as in verdict()
        known = KNOWN_BY_RULES[ruleset.deck][ruleset.guard_by]
        top = known[tuple(previous)]
        play = known[tuple(candidate)]
        why = NORMAL_REFUSALS[(play.have - top.need) & NORMAL_GUARDS]
    except (KeyError, TypeError):
        return _compare_read(previous, candidate, ruleset)
    kaopai = ruleset.kaopai
    p, q = play.combo, top.combo
    assert isinstance(q, Combo)  # the lookup above raised for a top that is no combo
    if kaopai and isinstance(p, Combo):
        why = kaopai_refusal(p, q)
    if why is not None:
        return Judgement(why, None)
    assert isinstance(p, Combo)  # it beats
    return Judgement(None, cover(p, q, kaopai))


def _compare_read(previous: Sequence[str], candidate: Sequence[str], ruleset: Ruleset) -> Judgement:
    """:func:`compare` when a play is not remembered (or raises): read both, then judge."""
    top, play = _both_plays(previous, candidate, ruleset)
    return judge(top, play, ruleset)


def verdict(previous: Sequence[str], candidate: Sequence[str], ruleset: Ruleset) -> Reason | None:
    """:func:`compare` without the cover: ``None`` when ``candidate`` beats ``previous``, else
    why not; the same bad input. For callers that need only the verdict.

    The whole engine path of a verdict from codes, when both plays are remembered: the ruleset's
    memo, two tuples and two dict lookups, and under the normal rules one subtraction and one
    more lookup (:data:`~.beating.NORMAL_REFUSALS`: the refusal without a call). Anything else
    (a play not remembered, a top that is no combo, an item that cannot be a key) raises
    ``KeyError`` or ``TypeError`` inside the ``try``, and both plays are read again through
    the memo's slow path, which raises bad input where it lies.
    """
    try:
        known = KNOWN_BY_RULES[ruleset.deck][ruleset.guard_by]
        top = known[tuple(previous)]
        play = known[tuple(candidate)]
        why = NORMAL_REFUSALS[(play.have - top.need) & NORMAL_GUARDS]
    except (KeyError, TypeError):
        return _verdict_read(previous, candidate, ruleset)
    if ruleset.kaopai and isinstance(play.combo, Combo):
        q = top.combo
        assert isinstance(q, Combo)  # the lookup above raised for a top that is no combo
        return kaopai_refusal(play.combo, q)
    return why


def _verdict_read(
    previous: Sequence[str], candidate: Sequence[str], ruleset: Ruleset
) -> Reason | None:
    """:func:`verdict` when a play is not remembered (or raises): read both, then refuse."""
    top, play = _both_plays(previous, candidate, ruleset)
    if isinstance(play, Reason):
        return play
    return kaopai_refusal(play, top) if ruleset.kaopai else normal_refusal(play, top)


def _both_plays(
    previous: Sequence[str], candidate: Sequence[str], ruleset: Ruleset
) -> tuple[Combo, Combo | Reason]:
    """Both plays through the memo; the top one must be a combo (C-1). Bad input (and a top
    that is no combo) is raised at ``.previous`` before the candidate is read, then at
    ``.candidate``."""
    plays = PLAYS_BY_RULES[ruleset.deck, ruleset.guard_by]
    top = _within(".previous", partial(plays.read, previous, "previous"))
    if isinstance(top, Reason):
        raise not_a_combo(top, ".previous")
    return top, _within(".candidate", partial(plays.read, candidate, "candidate"))


class PairOfPlays(Protocol):
    """One question of a batch: does ``candidate`` beat ``previous``?"""

    @property
    def previous(self) -> Sequence[str]: ...

    @property
    def candidate(self) -> Sequence[str]: ...


def compare_many(pairs: Sequence[PairOfPlays], ruleset: Ruleset) -> list[str | None]:
    """API ``/v1/combos/compare-batch``: one reason code (``None`` for beats) per pair, no covers.

    The hot loop of the service: :func:`verdict` per pair, inlined, with the ruleset's memo bound
    once; bad input lies at ``.pairs[i].previous`` (or ``.candidate``).
    """
    known = KNOWN_BY_RULES[ruleset.deck][ruleset.guard_by]
    kaopai = ruleset.kaopai
    codes: list[str | None] = []
    append = codes.append
    for index, pair in enumerate(pairs):
        previous = pair.previous
        candidate = pair.candidate
        try:  # the memo's hits, inlined: this loop runs 10,000 times a batch
            top = known[tuple(previous)]
            play = known[tuple(candidate)]
            why = NORMAL_REFUSALS[(play.have - top.need) & NORMAL_GUARDS]
        except (KeyError, TypeError):
            try:
                why = _verdict_read(previous, candidate, ruleset)
            except InvalidInput as error:
                raise error.within(f".pairs[{index}]") from None
        else:
            if kaopai and isinstance(play.combo, Combo):
                q = top.combo
                assert isinstance(q, Combo)  # the lookup above raised for a top that is none
                why = kaopai_refusal(play.combo, q)
        append(None if why is None else why.code)
    return codes


class TrickStep(msgspec.Struct, frozen=True, gc=False):
    index: int
    judgement: Judgement


class TrickResolution(msgspec.Struct, frozen=True, gc=False):
    """K-7: each play judged against the one directly under it, bottom first.

    ``winner`` is the index of the top play of the longest valid prefix; steps stop at the first
    play that does not beat the one under it *(reading: a play above a refused one has no defined
    play under it)*.
    """

    valid: bool
    winner: int
    steps: list[TrickStep]


def resolve_trick(plays: Sequence[Sequence[str]], ruleset: Ruleset) -> TrickResolution:
    """API ``/v1/kaopai/resolve``. The bottom play must be a combo (else bad input at
    ``.plays[0]``); bad cards are bad input within their play (``.plays[2][1]``), and so are more
    copies across the stack than four decks hold (``.plays[2]``: K-7, D-5, the plays are on the
    table together)."""
    card_set = ruleset.cards
    combos: list[Combo | Reason] = []
    stacked: list[int] = []
    for index, play in enumerate(plays):
        try:
            combo = read_combo(play, card_set, f"play {index}")
            stacked.extend(card_set.parse(play) if isinstance(combo, Reason) else combo.cards)
            if index:
                check_copies(stacked, f"the trick up to play {index}")
        except InvalidInput as error:
            raise error.within(f".plays[{index}]") from None
        combos.append(combo)
    bottom = combos[0]
    if isinstance(bottom, Reason):
        raise not_a_combo(bottom, ".plays[0]")
    steps: list[TrickStep] = []
    winner = 0
    under: Combo = bottom
    for index in range(1, len(combos)):
        judgement = judge(under, combos[index], ruleset)
        steps.append(TrickStep(index, judgement))
        if judgement.reason is not None:
            return TrickResolution(False, winner, steps)
        top = combos[index]
        assert not isinstance(top, Reason)  # judge() refuses a non-combo
        under = top
        winner = index
    return TrickResolution(True, winner, steps)
