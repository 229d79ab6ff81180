"""What a seat may know about the cards it cannot see, and worlds consistent with it.

The unseen cards are the deck less the seat's hand, the cards played and the cards travelling
with the crown (G-6, G-7: face up, held by nobody). A *world* deals them to the other seats in
exactly the counts the view shows, honouring what is publicly known: a finished seat holds
nothing (T-7); the emperor holds ``BJ*`` until he plays it (D-7); the emperor holds his three of
the called card and the guard the fourth (G-2) until they play them, and the ``SJ*`` holder is
the guard (G-3). The guard, when the view hides it, is drawn among the seats that may still be
it (:func:`guard_candidates`); under the sword each of them, and the emperor (暗独), as often as
its share of the places ``SJ*`` may lie in (:func:`_roles`). At a classic 逼庄 (G-5) the seats
the crown passed over held no card exactly three times (:func:`_honour_forcing`). A world is a
whole :class:`~baohuang.engine.Snapshot` the engine accepts; it is a guess, built from the view
only.

The view is the truth and the record may be behind it (docs/clients.md, "Bots"): a client that
reads the view and the events in two requests may send a history that lags the view by a few
acts, or none at all. Counts, the trick and the finished seats come from the view; the record
only narrows down which cards are still out, so every card it does not account for is still
possible in some hand, and the top play's cards are on the table whether the record shows
them yet or not.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from ..engine import (
    CLASSIC_FORCE_AFTER,
    CODES,
    SEATS,
    InvalidInput,
    Mode,
    Ruleset,
    SeatView,
    Snapshot,
    holder_after,
    ruleset_of,
    validate_snapshot,
)
from .record import Act

SCEPTER = "BJ*"
SWORD = "SJ*"
MARKED = frozenset({SCEPTER, SWORD})
KINDS = {"BJ": ("BJ", SCEPTER), "SJ": ("SJ", SWORD)}
"""A called joker is a kind of card: the marked one counts as its twin (G-2, G-5)."""
ATTEMPTS: Final = 8
"""Worlds drawn before a view is judged one no deal could show: each draw that the engine
refuses tries the other guard candidates, so one more is rarely needed."""


def deck_of(ruleset: Ruleset) -> Counter[str]:
    """Every card of the ruleset's deck with its copies (D-1, D-4)."""
    deck: Counter[str] = Counter()
    for code in ruleset.cards.codes():
        deck[code] = 1 if code.endswith("*") else 4
    deck["BJ"] = 3
    deck["SJ"] = 3 if SWORD in deck else 4
    return deck


def canonical(codes: Sequence[str], ruleset: Ruleset) -> list[str]:
    """``codes`` as the engine writes them (D-3), so that ``10H`` and ``TH`` count as one card."""
    return [CODES[card] for card in ruleset.cards.parse(codes)]


def played_by(history: Sequence[Act], ruleset: Ruleset) -> list[Counter[str]]:
    """The cards each seat played, as far as the public record says."""
    played = [Counter[str]() for _ in range(SEATS)]
    for act in history:
        if act.type == "played":
            played[act.seat].update(canonical(act.cards, ruleset))
    return played


def _top_recorded(view: SeatView, history: Sequence[Act], ruleset: Ruleset) -> bool:
    """Whether the record already holds the top play: then it is the record's last play and no
    trick was won after it (only passes, yields and 接风 follow a top play, T-4…T-7)."""
    top = view.trick.top
    if top is None:
        return False
    for act in reversed(history):
        if act.type == "trick_won":
            return False
        if act.type == "played":
            return act.seat == top.seat and Counter(canonical(act.cards, ruleset)) == Counter(
                canonical(top.cards, ruleset)
            )
    return False


def unseen_cards(
    view: SeatView, history: Sequence[Act], played: Sequence[Counter[str]]
) -> Counter[str]:
    """The cards some other seat may hold: the deck less the seat's hand, the crown pile, the
    top play and what the record shows played (``played``, :func:`played_by` of ``history``;
    never fewer than a lagging record allows)."""
    ruleset = ruleset_of(view.ruleset)
    pool = deck_of(ruleset)
    pool.subtract(canonical(view.hand, ruleset))
    if view.crown is not None:
        pool.subtract(canonical(view.crown.pile, ruleset))
    top_seat, top = None, Counter[str]()
    if view.trick.top is not None:
        pool.subtract(canonical(view.trick.top.cards, ruleset))
        if _top_recorded(view, history, ruleset):  # counted once, as the top
            top_seat, top = view.trick.top.seat, Counter(canonical(view.trick.top.cards, ruleset))
    for seat, seat_played in enumerate(played):
        pool.subtract(seat_played - top if seat == top_seat else +seat_played)
    return +pool


def _kind(view: SeatView) -> tuple[str, ...]:
    """The cards that make their holder the guard: the called card (with its marked twin when
    a joker is called, G-2) or, where the sword decides, ``SJ*`` (G-3)."""
    if ruleset_of(view.ruleset).guard_by == "sword":
        return (SWORD,)
    if view.called is None:
        return ()
    return KINDS.get(view.called, (view.called,))


def _shown(played: Counter[str], kind: Sequence[str]) -> int:
    return sum(played[code] for code in kind)


def guard_candidates(view: SeatView, history: Sequence[Act]) -> list[int]:
    """The seats that may be the hidden guard, as the public record tells the seat; empty when
    only the emperor can be (暗独, G-1: he holds every copy of the called card).

    A seat other than the emperor that played a guard's card is the guard (G-2, G-3). Otherwise
    the guard still holds that card, so it is a seat still holding cards: not the emperor, not
    this seat (the view would say so, G-8), not a declared rebel (G-8), and not one with which
    one side would already have finished (T-9: the deal would be over). A finished seat may be
    the guard only when the record is behind the view (it may have played the card unrecorded);
    it is then drawn only if no seat still holding cards can be."""
    if view.guard is not None:
        return [view.guard]
    ruleset = ruleset_of(view.ruleset)
    kind = _kind(view)
    played = played_by(history, ruleset)
    for seat, seat_played in enumerate(played):
        if seat != view.emperor and _shown(seat_played, kind):
            return [seat]
    if kind and _shown(played[view.emperor], kind) >= (1 if kind == (SWORD,) else 4):
        return []  # the emperor played every copy (or the sword): he is alone
    open_seats = [
        seat
        for seat in range(SEATS)
        if seat not in (view.emperor, view.seat) and seat not in view.rebellion
    ]
    holding = [
        seat
        for seat in open_seats
        if seat not in view.finished and view.counts[seat] > 0 and not _would_be_over(view, seat)
    ]
    if holding or not _record_behind(view, history):
        return holding
    return [seat for seat in open_seats if not _would_be_over(view, seat)]


def _record_behind(view: SeatView, history: Sequence[Act]) -> bool:
    """Whether the record accounts for fewer cards than the view shows gone: some plays are
    missing from it, so a finished seat may have played the guard's card unrecorded."""
    ruleset = ruleset_of(view.ruleset)
    out = sum(deck_of(ruleset).values()) - sum(view.counts)
    if view.crown is not None:
        out -= len(view.crown.pile)
    recorded = sum(len(act.cards) for act in history if act.type == "played")
    return recorded < out


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


def _roles(
    view: SeatView, history: Sequence[Act], played: Sequence[Counter[str]], rng: random.Random
) -> list[tuple[Mode, int | None]]:
    """The modes and guards a world may have, the first drawn at random, the rest in an order
    to try should the engine refuse a world built on the first."""
    if view.guard is not None:
        return [(view.mode, view.guard)]
    if view.mode in ("solo_open", "solo_hidden"):
        return [(view.mode, view.emperor)]  # a solo's guard is the emperor himself (G-1)
    if not _roles_settled(view):
        return [(view.mode, None)]
    candidates = guard_candidates(view, history)
    rng.shuffle(candidates)
    roles: list[tuple[Mode, int | None]] = [("team", seat) for seat in candidates]
    if view.emperor == view.seat:
        return roles
    hidden_solo: tuple[Mode, int | None] = ("solo_hidden", view.emperor)
    if _kind(view) != (SWORD,) or not candidates:
        # 暗独 looks like team play to everyone but the emperor (G-1). Under a call the emperor
        # chose it, and a four is called only to play alone or for want of a three
        # (:mod:`.before_play`): the last resort.
        return [*roles, hidden_solo]
    # Under the sword nobody chose: ``SJ*`` lies in any unseen place with equal chance, so the
    # guard is a seat, or the emperor himself (暗独, G-3), as often as its share of them.
    places = [view.counts[seat] for seat in candidates]
    scepter_held = 0 if played[view.emperor][SCEPTER] else 1  # D-7: his until the record shows it
    places.append(max(0, view.counts[view.emperor] - scepter_held))
    options = [*roles, hidden_solo]
    if not any(places):
        return options
    first = rng.choices(range(len(options)), weights=places)[0]
    return [options[first], *options[:first], *options[first + 1 :]]


def world(view: SeatView, history: Sequence[Act], rng: random.Random) -> Snapshot:
    """One snapshot consistent with everything ``view`` and ``history`` say, which the engine
    accepts (:func:`~baohuang.engine.validate_snapshot`). A view no deal could show raises the
    engine's :class:`~baohuang.engine.InvalidInput`."""
    refused: InvalidInput | None = None
    played = played_by(history, ruleset_of(view.ruleset))  # once: every draw reads it
    for _ in range(ATTEMPTS):
        for mode, guard in _roles(view, history, played, rng):
            try:
                return validate_snapshot(_dealt(view, history, played, rng, mode, guard))
            except InvalidInput as error:
                refused = error
    assert refused is not None  # _roles names at least one
    raise refused


def _dealt(
    view: SeatView,
    history: Sequence[Act],
    played: Sequence[Counter[str]],
    rng: random.Random,
    mode: Mode,
    guard: int | None,
) -> Snapshot:
    """The unseen cards dealt with ``guard`` as the guard: the cards that fix roles first, then
    the rest at random, every other seat getting exactly its count."""
    seat = view.seat
    pool = unseen_cards(view, history, played)
    others = [other for other in range(SEATS) if other != seat]
    need = {other: view.counts[other] for other in others}
    hands: dict[int, list[str]] = {other: [] for other in others}

    def give(holder: int, code: str, copies: int) -> None:
        for _ in range(copies):
            if holder == seat or pool[code] <= 0 or len(hands[holder]) >= need[holder]:
                return
            pool[code] -= 1
            hands[holder].append(code)

    give(view.emperor, SCEPTER, 1)  # the crown holder, before play (D-7, G-4)
    kind = _kind(view)
    if guard is not None and kind and kind != (SWORD,):
        held = sum(code in kind for code in hands.get(view.emperor, ()))
        alone = guard == view.emperor  # 暗独: the emperor called a card he holds four of
        owed = (4 if alone else 3) - _shown(played[view.emperor], kind) - held
        give(view.emperor, kind[0], owed)
        if not alone:
            give(guard, kind[0], 1 - _shown(played[guard], kind))
    if guard is not None:
        give(guard, SWORD, 1)
    # What is left of the marked jokers and the called card cannot be in a third hand: it was
    # played (D-7, G-2, G-3), though a lagging record may not say so yet.
    pool[SCEPTER] = 0
    if guard is not None:
        pool[SWORD] = 0
        for code in kind:
            if code != SCEPTER:
                pool[code] = 0
    rest = list(pool.elements())
    rng.shuffle(rest)
    for other in others:
        missing = need[other] - len(hands[other])
        hands[other].extend(rest[:missing])
        del rest[:missing]
    _honour_forcing(view, hands, rng)
    all_hands = [list(view.hand) if other == seat else hands[other] for other in range(SEATS)]
    if any(len(all_hands[other]) != view.counts[other] for other in others):
        raise InvalidInput(
            "INVALID_VIEW", None, "the counts hold more cards than are still out", ".counts"
        )
    return Snapshot(
        mode=mode,
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


def _passed_over(view: SeatView) -> list[int]:
    """At a classic 逼庄 (G-5, the crown handed on five times and forced on the seat that holds
    it now), the seats the forcing passed over: from the first holder on, in the crown's
    direction, those before the holder. The forcing chose the first seat holding exactly three
    of a card, so each of these held none, which every seat may know."""
    crown = view.crown
    if (
        view.phase != "crown"
        or crown is None
        or ruleset_of(view.ruleset).base != "classic"
        or crown.passes < CLASSIC_FORCE_AFTER
    ):
        return []
    order = [holder_after(crown.first, offset) for offset in range(SEATS)]  # every seat once
    return order[: order.index(view.emperor)]


def _kinds_at_forcing(view: SeatView, seat: int, hand: Sequence[str]) -> Counter[str]:
    """How many of each card ``seat`` held at 逼庄 (jokers by rank, the marked one as its twin):
    ``BJ*`` lay with the first holder then, and lies with the holder in a world (G-5)."""
    assert view.crown is not None
    counts = Counter(code.rstrip("*") for code in hand)
    first, holder = view.crown.first, view.emperor
    if first != holder:
        counts["BJ"] += (seat == first) - (seat == holder)
    return counts


def _honour_forcing(view: SeatView, hands: dict[int, list[str]], rng: random.Random) -> None:
    """Make every hidden seat the forcing passed over (:func:`_passed_over`) hold no card exactly
    three times, by swapping one card of each such three for another seat's card that makes no
    new three on either side (a seat it passed over must not get one either, nor keep four less
    one). Dealt at random, three hands in four hold some card exactly three times, so without this
    most worlds drawn at such a position were ones no deal could show, and the seat's question
    was refused as an impossible view."""
    passed_over = _passed_over(view)
    for seat in passed_over:
        if seat not in hands:
            continue  # the asking seat's own hand is the truth
        for _ in range(len(hands[seat])):
            counts = _kinds_at_forcing(view, seat, hands[seat])
            threes = sorted(kind for kind, count in counts.items() if count == 3)
            if not threes:
                break
            kind = rng.choice(threes)
            given = next(
                (code for code in hands[seat] if code.rstrip("*") == kind and code not in MARKED),
                None,
            )
            if given is None:
                return  # only a marked card makes the three: no world of this draw can hide it

            choices = [
                (other, code)
                for other in sorted(hands)
                if other != seat
                for code in _may_give(view, hands[other], other in passed_over, other, kind, counts)
            ]
            if not choices:
                return  # the engine refuses this world and another is drawn
            other, taken = rng.choice(choices)
            hands[seat].remove(given)
            hands[other].remove(taken)
            hands[seat].append(taken)
            hands[other].append(given)


def _may_give(
    view: SeatView,
    hand: Sequence[str],
    passed_over: bool,
    seat: int,
    kind: str,
    receiving: Counter[str],
) -> list[str]:
    """The cards of ``seat``'s ``hand`` that may change places with a card of ``kind`` from a
    hand counted ``receiving``: none makes a new three there, and, where the forcing passed
    ``seat`` over too, none leaves it three of a card (from two, or from four)."""
    theirs = _kinds_at_forcing(view, seat, hand) if passed_over else Counter[str]()
    if passed_over and theirs[kind] == 2:
        return []
    return [
        code
        for code in hand
        if code not in MARKED
        and code.rstrip("*") != kind
        and receiving[code.rstrip("*")] != 2
        and not (passed_over and theirs[code.rstrip("*")] == 4)
    ]


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
    """A world (:func:`world`) after :func:`check_view`; a view no deal could show (the engine
    refuses every world drawn from it) is bad input at ``.view``."""
    check_view(view, history)
    try:
        return world(view, history, rng)
    except InvalidInput as error:
        raise InvalidInput(error.code, error.rule, error.message, ".view") from None
