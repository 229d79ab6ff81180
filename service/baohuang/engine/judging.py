"""Questions about plays without a deal around them: classify, compare, batch, 烤牌 stacks.

These are the engine entry points of API.md "Combos": they read card codes (D-3), enforce copy
limits (D-5), classify (C), and judge beating (N, K). A ``previous`` that is no combo is bad input
(:class:`NotACombo`); a ``candidate`` that is no combo is a verdict.

Copy limits (D-5):

* A comparison (``compare``, ``compare-batch``) checks them per play, not across ``previous`` and
  ``candidate`` together: the question "does P beat Q" stays answerable for any two real plays,
  which K-3's own example needs (``BJ BJ BJ BJ`` beats ``BJ BJ``: six big jokers in all).
* A stack (``/v1/kaopai/resolve``) is the plays of one trick, on the table together, so K-7 has
  D-5 count their cards together: ``BJ``, ``BJ BJ``, ``BJ BJ BJ BJ`` is seven big jokers, bad
  input naming the play that exceeds the limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import msgspec

from .beating import CoverEntry, cover, kaopai_refusal, normal_refusal, refusal
from .cards import CardError, CardSet, check_copies
from .combos import Combo, read_combo, read_shape
from .reasons import Reason
from .rulesets import Ruleset


class NotACombo(ValueError):
    """A play that must be a combo is not one (C-1); ``index`` says which, in a list of plays."""

    def __init__(self, reason: Reason, index: int | None = None) -> None:
        super().__init__(reason.message)
        self.reason = reason
        self.index = index


class Judgement(msgspec.Struct, frozen=True, gc=False):
    """``reason`` is ``None`` when the candidate beats; ``cover`` is then its K-6 cover."""

    reason: Reason | None
    cover: list[CoverEntry] | None


def read_previous(codes: Sequence[str], card_set: CardSet) -> Combo:
    """The top play as a combo; bad cards raise ``CardError``, a non-combo :class:`NotACombo`."""
    combo = read_combo(codes, card_set, "previous")
    if isinstance(combo, Reason):
        raise NotACombo(combo)
    return combo


def judge(previous: Combo, candidate: Combo | Reason, ruleset: Ruleset) -> Judgement:
    """Does ``candidate`` beat ``previous`` under ``ruleset`` (N, or K when kaopai is on)?"""
    if isinstance(candidate, Reason):
        return Judgement(candidate, None)
    why = refusal(candidate, previous, ruleset.kaopai)
    if why is not None:
        return Judgement(why, None)
    return Judgement(None, cover(candidate, previous, ruleset.kaopai))


def compare(previous: Sequence[str], candidate: Sequence[str], ruleset: Ruleset) -> Judgement:
    """API ``/v1/combos/compare``: the judgement with its cover."""
    card_set = ruleset.cards
    top = read_previous(previous, card_set)
    return judge(top, read_combo(candidate, card_set, "candidate"), ruleset)


class BadPair(ValueError):
    """Bad input in pair ``index`` of a batch: ``field`` is ``previous`` or ``candidate``."""

    def __init__(self, index: int, field: str, error: CardError | NotACombo) -> None:
        super().__init__(str(error))
        self.index = index
        self.field = field
        self.error = error


class PairOfPlays(Protocol):
    """One question of a batch: does ``candidate`` beat ``previous``?"""

    @property
    def previous(self) -> Sequence[str]: ...

    @property
    def candidate(self) -> Sequence[str]: ...


def compare_many(pairs: Sequence[PairOfPlays], ruleset: Ruleset) -> list[str | None]:
    """API ``/v1/combos/compare-batch``: one reason code (``None`` for beats) per pair, no covers.

    The hot loop of the service: shapes only (:func:`read_shape`, a C-level count per list and a
    cached decode), and the ruleset's refusal bound once.
    """
    card_set = ruleset.cards
    refuse = kaopai_refusal if ruleset.kaopai else normal_refusal
    codes: list[str | None] = []
    append = codes.append
    for index, pair in enumerate(pairs):
        try:
            top = read_shape(pair.previous, card_set, "previous")
        except CardError as error:
            raise BadPair(index, "previous", error) from None
        if isinstance(top, Reason):
            raise BadPair(index, "previous", NotACombo(top))
        try:
            play = read_shape(pair.candidate, card_set, "candidate")
        except CardError as error:
            raise BadPair(index, "candidate", error) from None
        if isinstance(play, Reason):
            append(play.code)
            continue
        why = refuse(play, top)
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
    """API ``/v1/kaopai/resolve``. The bottom play must be a combo (else :class:`NotACombo` with
    index 0); bad cards raise ``CardError`` carrying the play's index in ``BadPlay``, and so do
    more copies across the stack than four decks hold (K-7, D-5: the plays are on the table
    together)."""
    card_set = ruleset.cards
    combos: list[Combo | Reason] = []
    stacked: list[int] = []
    for index, play in enumerate(plays):
        try:
            combo = read_combo(play, card_set, f"play {index}")
            stacked.extend(card_set.parse(play) if isinstance(combo, Reason) else combo.cards)
            if index:
                check_copies(stacked, f"the trick up to play {index}")
        except CardError as error:
            raise BadPlay(index, error) from None
        combos.append(combo)
    bottom = combos[0]
    if isinstance(bottom, Reason):
        raise NotACombo(bottom, 0)
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


class BadPlay(ValueError):
    """Bad cards in play ``index`` of a trick."""

    def __init__(self, index: int, error: CardError) -> None:
        super().__init__(str(error))
        self.index = index
        self.error = error
