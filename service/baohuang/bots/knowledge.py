"""What a seat may know about the cards it cannot see, and worlds consistent with it.

The unseen cards are the deck less the seat's hand, the cards played (the public record) and the
cards travelling with the crown (G-6, G-7: face up, held by nobody). A *world* deals them to the
other seats in the counts the view shows, honouring what is publicly known: the emperor holds
``BJ*`` until he plays it (D-7), the emperor holds his three of the called card and the guard the
fourth (G-2) until they play them, and the ``SJ*`` holder is the guard (G-3). The guard, when
the view hides it, is drawn among the seats that may be it. A world is a whole
:class:`~baohuang.engine.Snapshot` the engine can judge; it is a guess, built from the view only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ..engine import SEATS, InvalidInput, Ruleset, SeatView, Snapshot, ruleset_of, validate_snapshot
from .record import Act

SCEPTER = "BJ*"
SWORD = "SJ*"
KINDS = {"BJ": ("BJ", SCEPTER), "SJ": ("SJ", SWORD)}
"""A called joker is a kind of card: the marked one counts as its twin (G-2, G-5)."""


def deck_of(ruleset: Ruleset) -> Counter[str]:
    """Every card of the ruleset's deck with its copies (D-1, D-4)."""
    deck: Counter[str] = Counter()
    for code in ruleset.cards.codes():
        deck[code] = 1 if code.endswith("*") else 4
    deck["BJ"] = 3
    deck["SJ"] = 3 if SWORD in deck else 4
    return deck


def played_by(history: Sequence[Act]) -> list[Counter[str]]:
    """The cards each seat played, from the public record."""
    played = [Counter[str]() for _ in range(SEATS)]
    for act in history:
        if act.type == "played":
            played[act.seat].update(act.cards)
    return played


def unseen_cards(view: SeatView, history: Sequence[Act]) -> Counter[str]:
    """The cards the seat cannot place: the deck less its hand, what was played, the crown pile."""
    pool = deck_of(ruleset_of(view.ruleset))
    pool.subtract(view.hand)
    for seat_played in played_by(history):
        pool.subtract(seat_played)
    if view.crown is not None:
        pool.subtract(view.crown.pile)
    if view.trick.top is not None and not history:
        pool.subtract(view.trick.top.cards)  # without a record, the top at least is known
    return +pool


def guard_candidates(view: SeatView, history: Sequence[Act]) -> list[int]:
    """The seats that may be the hidden guard, as the public record tells the seat."""
    if view.guard is not None:
        return [view.guard]
    for seat, seat_played in enumerate(played_by(history)):
        # The fourth called card or the sword, once on the table, names its holder (G-2, G-3).
        if seat != view.emperor and (
            (view.called is not None and seat_played[view.called]) or seat_played[SWORD]
        ):
            return [seat]
    return [
        seat
        for seat in range(SEATS)
        if seat not in (view.emperor, view.seat)
        and seat not in view.rebellion  # they said they are rebels (G-8)
        and not _would_be_over(view, seat)
    ]


def _would_be_over(view: SeatView, guard: int) -> bool:
    """Whether a deal still running would be over with ``guard`` as the guard: one side has
    entirely finished (T-9), so ``guard`` cannot be it."""
    finished = set(view.finished)
    team = {view.emperor, guard}
    return team <= finished or set(range(SEATS)) - team <= finished


def _roles_settled(view: SeatView) -> bool:
    """Whether the deal has a guard to place: team play once the guard is settled, in play or
    in the 明保/造反 round (G-2, G-3, G-8)."""
    if view.mode != "team":
        return False
    return view.phase == "play" or (view.crown is not None and view.crown.stage == "declare")


def world(view: SeatView, history: Sequence[Act], rng: random.Random) -> Snapshot:
    """One snapshot consistent with everything ``view`` and ``history`` say."""
    seat = view.seat
    pool = unseen_cards(view, history)
    played = played_by(history)
    others = [other for other in range(SEATS) if other != seat]
    need = {other: view.counts[other] for other in others}
    hands: dict[int, list[str]] = {other: [] for other in others}
    guard = view.guard
    if guard is None and view.mode in ("solo_open", "solo_hidden"):
        guard = view.emperor  # a solo's guard is the emperor himself (G-1)
    if guard is None and _roles_settled(view):
        guard = rng.choice(guard_candidates(view, history) or [view.emperor])

    def give(holder: int, code: str, copies: int) -> None:
        for _ in range(copies):
            if holder == seat or pool[code] <= 0 or len(hands[holder]) >= need[holder]:
                return
            pool[code] -= 1
            hands[holder].append(code)

    give(view.emperor, SCEPTER, 1)  # the crown holder, before play (D-7, G-4)
    if guard is not None:
        if view.called is not None:
            kind = KINDS.get(view.called, (view.called,))
            held = sum(code in kind for code in hands.get(view.emperor, ()))
            emperor_played = sum(played[view.emperor][code] for code in kind)
            alone = guard == view.emperor  # 暗独: the emperor called a card he holds four of
            give(view.emperor, view.called, (4 if alone else 3) - emperor_played - held)
            if not alone:
                give(guard, view.called, 1 - sum(played[guard][code] for code in kind))
        give(guard, SWORD, 1)
    # What is left of the marked jokers and the called card cannot be in a third hand: it was
    # played (D-7, G-2, G-3), though a partial record may not say so.
    pool[SCEPTER] = 0
    if guard is not None:
        pool[SWORD] = 0
        for code in KINDS.get(view.called, (view.called,)) if view.called is not None else ():
            if code != SCEPTER:
                pool[code] = 0
    rest = list(pool.elements())
    rng.shuffle(rest)
    for other in others:
        missing = need[other] - len(hands[other])
        hands[other].extend(rest[:missing])
        del rest[:missing]
    all_hands = [list(view.hand) if other == seat else hands[other] for other in range(SEATS)]
    return Snapshot(
        mode=view.mode,
        emperor=view.emperor,
        hands=all_hands,
        turn=view.turn,
        ruleset=view.ruleset,
        guard=guard,
        guard_revealed=view.guard_revealed,
        rebellion=list(view.rebellion),
        finished=list(view.finished),
        trick=view.trick,
        over=view.over,
        positions=view.positions,
        phase=view.phase,
        crown=view.crown,
        called=view.called,
        void=view.void,
    )


def check_view(view: SeatView, history: Sequence[Act]) -> None:
    """Refuse a view the seat could not have been shown (bad input at ``.view``/``.history``):
    the card codes and the ruleset are checked as the engine checks them, and the counts must
    be five and agree with the hand."""
    try:
        ruleset = ruleset_of(view.ruleset)
    except InvalidInput as error:
        raise error.within(".view") from None
    try:
        ruleset.cards.parse(view.hand)
    except InvalidInput as error:
        raise error.within(".view.hand") from None
    for index, act in enumerate(history):
        try:
            ruleset.cards.parse(act.cards)
        except InvalidInput as error:
            raise error.within(f".history[{index}].cards") from None
    if len(view.counts) != SEATS or any(count < 0 for count in view.counts):
        raise InvalidInput(
            "INVALID_VIEW", None, "counts holds one card count per seat, five", ".view.counts"
        )
    for name in ("seat", "turn", "emperor"):
        if not 0 <= getattr(view, name) < SEATS:
            raise InvalidInput(
                "INVALID_SEAT", "T-1", f"{name} is a seat 0–4 (T-1)", f".view.{name}"
            )
    if view.counts[view.seat] != len(view.hand):
        raise InvalidInput(
            "INVALID_VIEW",
            None,
            f"counts[{view.seat}] is {view.counts[view.seat]} but the hand holds "
            f"{len(view.hand)} cards",
            f".view.counts[{view.seat}]",
        )


def checked_world(view: SeatView, history: Sequence[Act], rng: random.Random) -> Snapshot:
    """A world (:func:`world`) that the engine accepts as a whole; a view no deal could show
    (the engine's checks fail on every world drawn from it) is bad input at ``.view``."""
    check_view(view, history)
    try:
        return validate_snapshot(world(view, history, rng))
    except InvalidInput as error:
        raise InvalidInput(error.code, error.rule, error.message, ".view") from None
