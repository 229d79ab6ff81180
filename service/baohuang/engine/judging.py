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
from typing import Protocol, TypeVar

import msgspec

from .beating import CoverEntry, cover, kaopai_refusal, normal_refusal, refusal
from .cards import CardSet, check_copies
from .combos import EXACT_MAX, Combo, combo_of_count, read_combo, read_shape, shape_of_count
from .errors import InvalidInput
from .reasons import EMPTY_PLAY, Reason
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

    Both plays are read as :func:`read_combo` does, inlined (one C-level count each and a cached
    combo per count: this is the route's whole engine path); a play that needs more than the
    cache (an unknown code, a broken copy limit, an overlong list) is read again by
    :func:`read_combo` itself, which raises the bad input. The cover comes from the cached
    template of the pair of shapes (K-6).
    """
    exact = ruleset.cards.exact.__getitem__
    try:
        top, top_broken = (
            combo_of_count(sum(map(exact, previous))) if len(previous) <= EXACT_MAX else _UNREAD
        )
        play, play_broken = (
            combo_of_count(sum(map(exact, candidate))) if len(candidate) <= EXACT_MAX else _UNREAD
        )
    except (KeyError, TypeError):
        top_broken = True
    if top_broken or play_broken:
        return _compare_reading(previous, candidate, ruleset)
    if isinstance(top, Reason):
        raise not_a_combo(top, ".previous")
    if isinstance(play, Reason):
        return Judgement(play, None)
    kaopai = ruleset.kaopai
    why = kaopai_refusal(play, top) if kaopai else normal_refusal(play, top)
    if why is not None:
        return Judgement(why, None)
    return Judgement(None, cover(play, top, kaopai))


_UNREAD: tuple[Combo | Reason, bool] = (EMPTY_PLAY, True)
"""What :func:`compare` takes for a play it leaves to :func:`read_combo`."""


def _compare_reading(
    previous: Sequence[str], candidate: Sequence[str], ruleset: Ruleset
) -> Judgement:
    """:func:`compare` through :func:`read_combo`, which raises each play's bad input."""
    card_set = ruleset.cards
    try:
        top = read_combo(previous, card_set, "previous")
    except InvalidInput as error:
        raise error.within(".previous") from None
    if isinstance(top, Reason):
        raise not_a_combo(top, ".previous")
    try:
        play = read_combo(candidate, card_set, "candidate")
    except InvalidInput as error:
        raise error.within(".candidate") from None
    return judge(top, play, ruleset)


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
    packed = card_set.packed.__getitem__
    shape = shape_of_count
    codes: list[str | None] = []
    append = codes.append
    for index, pair in enumerate(pairs):
        previous = pair.previous
        try:  # read_shape, inlined: this loop runs 10,000 times a batch
            top, over = shape(sum(map(packed, previous)))
        except (KeyError, TypeError):
            over = None
        if over is not False:
            try:
                top = read_shape(previous, card_set, "previous")
            except InvalidInput as error:
                raise error.within(f".pairs[{index}].previous") from None
        if isinstance(top, Reason):
            raise not_a_combo(top, f".pairs[{index}].previous")
        candidate = pair.candidate
        try:
            play, over = shape(sum(map(packed, candidate)))
        except (KeyError, TypeError):
            over = None
        if over is not False:
            try:
                play = read_shape(candidate, card_set, "candidate")
            except InvalidInput as error:
                raise error.within(f".pairs[{index}].candidate") from None
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
