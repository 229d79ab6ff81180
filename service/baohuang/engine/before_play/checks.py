"""A crown- or guard-phase snapshot checked as a whole: one that contradicts itself is bad input.

:func:`validate_before_play` checks a snapshot before the first play (or a deal voided there)
and returns it with canonical card codes (D-3); :func:`baohuang.engine.validate_snapshot`
sends every snapshot not in play here.
"""

from __future__ import annotations

import msgspec

from ..cards import BJ_SCEPTER, CODES, SJ_SWORD, copies_excess, parse_cards
from ..errors import InvalidInput
from ..errors import invalid_snapshot as _bad
from ..rulesets import SEATS, Ruleset, crown_rule
from ..snapshot import Mode, Snapshot, Trick, ruleset_at
from .crown import (
    CLASSIC_FORCE_AFTER,
    LIANZHONG_VOID_AFTER,
    ROUND,
    call_refusal,
    forced_seat,
    holder_after,
    kind_of,
)
from .guard import called_roles, has_declare_round, has_grab_round, stage_order, sword_roles
from .machine import Hands, move_scepter

__all__ = ["validate_before_play"]


def validate_before_play(snapshot: Snapshot, path: str) -> Snapshot:
    """Check a crown- or guard-phase (or void) snapshot; return it with canonical card codes.

    Checked: phase and ``crown`` go together; five hands; seats 0–4; every card of the deck is in
    a hand or travels with the crown, none twice (D-1, D-5, G-4 *(reading: nothing is played
    before the play phase, so the whole deck is out)*); nothing played, finished or scored yet;
    ``BJ*`` is held by the seat to act in the crown phase (where ``passes`` says it lies, G-5…G-7)
    and by the emperor in the guard phase; a stage's ``pending`` seats are the rest of its order
    and ``turn`` the first; roles fit the stage (G-1…G-3, G-8); a void deal is over (G-5…G-7).
    """
    ruleset = ruleset_at(snapshot, path)
    crown = snapshot.crown
    if snapshot.phase == "play":
        if crown is not None:
            raise _bad(f"{path}.crown", "the crown state exists only before play", "G-8")
        raise _bad(f"{path}.void", "only a deal voided before play is void", "G-5")
    if crown is None:
        raise _bad(f"{path}.crown", f"phase '{snapshot.phase}' needs the crown state", "G-4")
    if len(snapshot.hands) != SEATS:
        raise _bad(f"{path}.hands", f"a deal has five hands, not {len(snapshot.hands)}")
    for name in ("emperor", "turn", "guard"):
        seat = getattr(snapshot, name)
        if seat is not None and not 0 <= seat < SEATS:
            raise _bad(f"{path}.{name}", f"seat {seat} is not 0–4", "T-1")
    for index, seat in enumerate([crown.first, *crown.pending, *snapshot.rebellion]):
        if not 0 <= seat < SEATS:
            raise _bad(f"{path}.crown", f"seat {seat} is not 0–4 (entry {index})", "T-1")
    card_set = ruleset.cards
    hands = [
        parse_cards(hand, card_set, f"{path}.hands[{i}]") for i, hand in enumerate(snapshot.hands)
    ]
    pile = parse_cards(crown.pile, card_set, f"{path}.crown.pile")
    every = [card for hand in hands for card in hand] + pile
    excess = copies_excess(every)
    if excess is not None:
        raise InvalidInput(
            "TOO_MANY_COPIES",
            "D-5",
            f"hands and the crown's pile hold more '{CODES[excess]}' than four decks do (D-1)",
            f"{path}.hands",
        )
    if len(every) != card_set.size:
        raise _bad(
            f"{path}.hands",
            f"before the first play all {card_set.size} cards are in hands or travel with the "
            f"crown, not {len(every)}",
            "G-4",
        )
    if snapshot.finished or snapshot.positions is not None or snapshot.trick != Trick():
        raise _bad(path, "nothing is played, finished or placed before the first play", "T-2")
    if snapshot.over != snapshot.void:
        raise _bad(f"{path}.void", "a deal ends before play only by being void", "G-5")
    if pile and ruleset.base not in ("tribute", "lianzhong-simple"):
        raise _bad(f"{path}.crown.pile", "only tribute and lianzhong-simple add 2s", "G-6")
    if len(pile) > crown.passes:
        raise _bad(f"{path}.crown.pile", "each hand-on adds at most one card", "G-6")
    holders = [seat for seat in range(SEATS) if BJ_SCEPTER in hands[seat]]
    if not holders:
        raise _bad(f"{path}.hands", "somebody holds the scepter joker BJ*", "G-4")
    if not snapshot.void:
        if snapshot.phase == "crown":
            _check_crown(snapshot, ruleset, hands, holders[0], path)
        else:
            _check_guard(snapshot, ruleset, hands, holders[0], path)
    return _canonical(snapshot, hands, pile)


NO_GRAB_ROUND = {
    "classic": "classic grabs (抢庄) in the crown phase; it has no 抢独 round",
    "tribute": "tribute has no grab",
    "lianzhong-classic": "a 抢独 round only where the room allows it (grab option)",
    "lianzhong-simple": "a 抢独 round only where the room allows it (grab option)",
}


def _check_crown(
    snapshot: Snapshot, ruleset: Ruleset, hands: Hands, holder: int, path: str
) -> None:
    crown = snapshot.crown
    assert crown is not None
    if crown.stage is not None or crown.pending:
        raise _bad(f"{path}.crown.stage", "stages belong to the guard phase", "G-8")
    if snapshot.turn != holder or snapshot.emperor != holder:
        raise _bad(
            f"{path}.turn", f"seat {holder} holds the crown, so it acts and is emperor-to-be", "G-5"
        )
    if snapshot.guard is not None or snapshot.mode != "team" or snapshot.called is not None:
        raise _bad(path, "no guard, solo or called card before the emperor is settled", "G-8")
    if snapshot.guard_revealed or snapshot.rebellion:
        raise _bad(path, "no 明保 or 造反 before the guard is settled", "G-8")
    passes = crown.passes
    limit = {"classic": CLASSIC_FORCE_AFTER, "tribute": ROUND}.get(
        ruleset.base, LIANZHONG_VOID_AFTER - 1
    )
    if passes > limit:
        raise _bad(f"{path}.crown.passes", f"at most {limit} hand-ons in {ruleset.base}", "G-5")
    if ruleset.base == "classic" and passes == CLASSIC_FORCE_AFTER:
        expected = forced_seat(ruleset, _without_scepter(hands, crown.first), crown.first)
    else:
        expected = holder_after(crown.first, passes)
    if holder != expected:
        raise _bad(
            f"{path}.crown", f"after {passes} hand-ons the crown lies with seat {expected}", "G-5"
        )


def _without_scepter(hands: Hands, first: int) -> Hands:
    """The hands as they lay at 逼庄: ``BJ*`` back with the first holder (G-5)."""
    moved = [list(hand) for hand in hands]
    holder = next(seat for seat in range(SEATS) if BJ_SCEPTER in moved[seat])
    move_scepter(moved, holder, first)
    return moved


def _check_guard(
    snapshot: Snapshot, ruleset: Ruleset, hands: Hands, holder: int, path: str
) -> None:
    crown = snapshot.crown
    assert crown is not None
    emperor = snapshot.emperor
    if crown.stage is None:
        raise _bad(f"{path}.crown.stage", "the guard phase is in a stage", "G-8")
    if crown.pile:
        raise _bad(f"{path}.crown.pile", "the emperor took the cards with the crown", "G-6")
    if holder != emperor:  # D-7: accepted, the emperor is settled and holds BJ*
        raise _bad(
            f"{path}.hands[{holder}]",
            f"seat {holder} holds the scepter joker BJ*, which only the emperor (seat {emperor}) "
            "holds once settled",
            "D-7",
        )
    order = stage_order(crown.stage, emperor)
    pending = crown.pending
    if not pending or order[len(order) - len(pending) :] != pending:
        raise _bad(f"{path}.crown.pending", f"the {crown.stage} stage is answered in order", "T-1")
    if snapshot.turn != pending[0]:
        raise _bad(f"{path}.turn", f"seat {pending[0]} answers next", "T-1")
    if crown.stage == "grab" and not has_grab_round(ruleset):
        raise _bad(f"{path}.crown.stage", NO_GRAB_ROUND[ruleset.base], crown_rule(ruleset))
    if crown.stage != "declare":
        if snapshot.guard is not None or snapshot.mode != "team" or snapshot.called is not None:
            raise _bad(path, "the guard is not settled yet", "G-8")
        if snapshot.guard_revealed or snapshot.rebellion:
            raise _bad(path, "no 明保 or 造反 before the guard is settled", "G-8")
        return
    if not has_declare_round(ruleset, snapshot.mode):
        raise _bad(f"{path}.mode", f"no 明保/造反 round in a {snapshot.mode} deal", "G-8")
    mode, guard = _roles(snapshot, ruleset, hands, path)
    if ruleset.guard_by == "sword" and (snapshot.mode, snapshot.guard) != (mode, guard):
        sword = next(seat for seat in range(SEATS) if SJ_SWORD in hands[seat])
        raise _bad(  # D-7: the guard is settled, and SJ* marks it
            f"{path}.hands[{sword}]",
            f"seat {sword} holds the sword joker SJ*, so the deal is {mode}, guard {guard}",
            "D-7",
        )
    if (snapshot.mode, snapshot.guard) != (mode, guard):
        raise _bad(f"{path}.guard", f"the cards make this a {mode} deal, guard {guard}", "G-2")
    if snapshot.guard_revealed and mode != "team":
        raise _bad(f"{path}.guard_revealed", "only a team guard reveals itself", "G-8")
    answered = order[: len(order) - len(pending)]
    for index, seat in enumerate(snapshot.rebellion):
        if ruleset.guard_by != "sword" or seat in (emperor, guard) or seat not in answered:
            raise _bad(f"{path}.rebellion[{index}]", "only rebels declare 造反, in turn", "G-8")
    if snapshot.guard_revealed and guard not in answered:
        raise _bad(f"{path}.guard_revealed", "the guard has not answered yet", "G-8")


def _roles(snapshot: Snapshot, ruleset: Ruleset, hands: Hands, path: str) -> tuple[Mode, int]:
    """The roles the cards give: G-3 (``SJ*``) or the called card (G-2)."""
    if ruleset.guard_by == "sword":
        mode, guard = sword_roles(hands, snapshot.emperor)
        return mode, guard
    if snapshot.called is None:
        raise _bad(f"{path}.called", "the guard was called: name the card", "G-2")
    kind = kind_of(ruleset.cards.card(snapshot.called, f"{path}.called"))
    if CODES[kind] != snapshot.called or call_refusal(ruleset, hands[snapshot.emperor], kind):
        raise _bad(f"{path}.called", "the emperor calls a card he holds three of", "G-2")
    mode, guard = called_roles(hands, snapshot.emperor, kind)
    return mode, guard


def _canonical(snapshot: Snapshot, hands: Hands, pile: list[int]) -> Snapshot:
    crown = snapshot.crown
    assert crown is not None
    new_hands = [[CODES[card] for card in hand] for hand in hands]
    new_pile = [CODES[card] for card in pile]
    if new_hands == snapshot.hands and new_pile == crown.pile:
        return snapshot
    return msgspec.structs.replace(
        snapshot, hands=new_hands, crown=msgspec.structs.replace(crown, pile=new_pile)
    )
