"""A play-phase snapshot checked as a whole: one that contradicts itself is bad input.

:func:`validate_play` checks what a snapshot in play says against the rules (docs/rules.md) and
returns it with every card code canonical (D-3). A contradiction raises
:class:`~baohuang.engine.errors.InvalidInput` carrying a problem code (``INVALID_SNAPSHOT``,
``UNKNOWN_CARD``, ``TOO_MANY_COPIES``, ``UNKNOWN_RULESET``), the rule, and the path to it.
:func:`baohuang.engine.validate_snapshot` sends every other snapshot to the before-play checks.
"""

from __future__ import annotations

import msgspec

from ..cards import BJ_SCEPTER, CODES, SJ_SWORD, CardSet, copies_excess, parse_cards
from ..combos import classify
from ..errors import InvalidInput
from ..errors import invalid_snapshot as _bad
from ..reasons import Reason
from ..rulesets import SEATS, Ruleset, crown_rule
from ..snapshot import Snapshot, TopPlay, Trick, ruleset_at
from .turns import next_holding, score_play, to_act

SCEPTER_CODE = CODES[BJ_SCEPTER]
SWORD_CODE = CODES[SJ_SWORD]


def validate_play(snapshot: Snapshot, path: str) -> Snapshot:
    """Check a play-phase ``snapshot`` as a whole; return it with canonical card codes (D-3).

    Checked: the ruleset exists (R); five hands; seats 0–4; roles fit the mode (G-1), a grab deal
    the ruleset's grab option (G-5…G-7), and the marked jokers (D-7); the cards
    exist in the ruleset's deck (D-1, D-3) and hands plus the top play hold no more copies than
    four decks (D-5); finished seats, and only they, hold no cards (T-7, T-8); the top play is a
    combo (C-1); the emperor leads a deal no card of which has been played (T-2); the trick's
    passes, yields, circle, 接风 and turn are ones the play could reach (T-4…T-7); while not over, the seat to act holds cards and the score is not settled (T-9).
    """
    ruleset = ruleset_at(snapshot, path)
    if len(snapshot.hands) != SEATS:
        raise _bad(f"{path}.hands", f"a deal has five hands, not {len(snapshot.hands)}")
    _check_seats(snapshot, path)
    snapshot = _canonical_cards(snapshot, ruleset.cards, path)
    _check_roles(snapshot, path)
    if snapshot.mode == "grab" and not ruleset.grab:
        raise _bad(
            f"{path}.mode",
            f"no grab in {ruleset.name}: tribute has none, classic's 抢庄 and lianzhong's 抢独 "
            "need the grab option",
            crown_rule(ruleset),
        )
    _check_marked_jokers(snapshot, ruleset, path)
    _check_finished(snapshot, path)
    top = snapshot.trick.top
    if top is not None and isinstance(classify(ruleset.cards.parse(top.cards)), Reason):
        raise _bad(f"{path}.trick.top.cards", "the top play is not a combo", "C-1")
    _check_end(snapshot, ruleset, path)
    if not snapshot.over:
        _check_trick(snapshot, ruleset, path)
    return snapshot


def _seat_ok(seat: int | None) -> bool:
    return seat is None or 0 <= seat < SEATS


def _check_seats(snapshot: Snapshot, path: str) -> None:
    """T-1: every seat named is 0–4 (a Struct built in Python skips msgspec's Meta checks)."""
    single = {
        "emperor": snapshot.emperor,
        "guard": snapshot.guard,
        "turn": snapshot.turn,
        "trick.jiefeng": snapshot.trick.jiefeng,
        "trick.top.seat": None if snapshot.trick.top is None else snapshot.trick.top.seat,
    }
    for name, seat in single.items():
        if not _seat_ok(seat):
            raise _bad(f"{path}.{name}", f"seat {seat} is not 0–4", "T-1")
    lists = {
        "finished": snapshot.finished,
        "rebellion": snapshot.rebellion,
        "trick.passed": snapshot.trick.passed,
        "trick.yielded": snapshot.trick.yielded,
    }
    for name, seats in lists.items():
        for index, seat in enumerate(seats):
            if not _seat_ok(seat):
                raise _bad(f"{path}.{name}[{index}]", f"seat {seat} is not 0–4", "T-1")
            if seat in seats[:index]:
                raise _bad(f"{path}.{name}[{index}]", f"seat {seat} is listed twice")


def _canonical_cards(snapshot: Snapshot, card_set: CardSet, path: str) -> Snapshot:
    """Parse every card (D-3), check D-5 over hands plus the top play, rewrite codes canonically."""
    hands = [
        parse_cards(hand, card_set, f"{path}.hands[{i}]") for i, hand in enumerate(snapshot.hands)
    ]
    top = snapshot.trick.top
    top_cards = [] if top is None else parse_cards(top.cards, card_set, f"{path}.trick.top.cards")
    every = [card for hand in hands for card in hand]
    every.extend(top_cards)
    excess = copies_excess(every)
    if excess is not None:
        raise InvalidInput(
            "TOO_MANY_COPIES",
            "D-5",
            f"hands and the top play hold more '{CODES[excess]}' than four decks do (D-1, D-4)",
            _excess_path(hands, top_cards, excess, path),
        )
    changed = False
    new_hands: list[list[str]] = []
    for codes, ids in zip(snapshot.hands, hands, strict=True):
        canonical = [CODES[card] for card in ids]
        changed = changed or canonical != codes
        new_hands.append(canonical)
    trick = snapshot.trick
    if top is not None:
        canonical_top = [CODES[card] for card in sorted(top_cards, reverse=True)]
        if canonical_top != top.cards:
            changed = True
            trick = msgspec.structs.replace(trick, top=TopPlay(top.seat, canonical_top))
    if not changed:
        return snapshot
    return msgspec.structs.replace(snapshot, hands=new_hands, trick=trick)


def _excess_path(hands: list[list[int]], top: list[int], excess: int, path: str) -> str:
    """The path of the first card at which a copy limit is exceeded (rare path, recounts)."""
    places = [
        (f"{path}.hands[{i}][{j}]", card)
        for i, hand in enumerate(hands)
        for j, card in enumerate(hand)
    ]
    places += [(f"{path}.trick.top.cards[{j}]", card) for j, card in enumerate(top)]
    seen: list[int] = []
    for where, card in places:
        seen.append(card)
        if copies_excess(seen) is not None:
            return where
    return path  # pragma: no cover - copies_excess found an excess above


def _check_roles(snapshot: Snapshot, path: str) -> None:
    """G-1: team play has a guard other than the emperor; solo and grab have none (``null`` or the
    emperor himself, as scoring reads it); rebels are neither emperor nor guard (G-8)."""
    emperor, guard = snapshot.emperor, snapshot.guard
    if snapshot.mode == "team":
        if guard is None or guard == emperor:
            raise _bad(f"{path}.guard", "team play needs a guard other than the emperor", "G-1")
    elif guard is not None and guard != emperor:
        raise _bad(
            f"{path}.guard", f"a {snapshot.mode} deal has no guard besides the emperor", "G-1"
        )
    for index, seat in enumerate(snapshot.rebellion):
        if seat in (emperor, guard):
            raise _bad(f"{path}.rebellion[{index}]", "only rebels can rebel (造反)", "G-8")


def _check_marked_jokers(snapshot: Snapshot, ruleset: Ruleset, path: str) -> None:
    """D-7: in play the emperor is settled, so ``BJ*`` is in his hand or already played; in
    lianzhong-simple ``SJ*`` is in the guard's hand (the emperor's, playing solo) or played.
    A grab has no guard (G-1), so there the sword names nobody, wherever it lies *(reading)*."""
    emperor = snapshot.emperor
    sword_owner = emperor if snapshot.mode in ("solo_hidden", "solo_open") else snapshot.guard
    sword = ruleset.guard_by == "sword" and snapshot.mode != "grab"
    for seat, hand in enumerate(snapshot.hands):
        if seat != emperor and SCEPTER_CODE in hand:
            raise _bad(
                f"{path}.hands[{seat}]",
                f"seat {seat} holds the scepter joker BJ*, which only the emperor (seat "
                f"{emperor}) holds once settled",
                "D-7",
            )
        if sword and seat != sword_owner and SWORD_CODE in hand:
            raise _bad(
                f"{path}.hands[{seat}]",
                f"seat {seat} holds the sword joker SJ*, which marks the guard (seat "
                f"{sword_owner})",
                "D-7",
            )


def _check_finished(snapshot: Snapshot, path: str) -> None:
    """T-7/T-8: a seat has finished exactly when its hand is empty."""
    for seat, hand in enumerate(snapshot.hands):
        if seat in snapshot.finished and hand:
            raise _bad(f"{path}.hands[{seat}]", f"seat {seat} has finished but holds cards", "T-8")
        if seat not in snapshot.finished and not hand:
            raise _bad(
                f"{path}.finished", f"seat {seat} holds no cards but has not finished", "T-7"
            )


def _check_end(snapshot: Snapshot, ruleset: Ruleset, path: str) -> None:
    """T-9: ``over`` exactly when the score is settled; ``positions`` only then, a permutation."""
    final = score_play(snapshot, ruleset).final
    if snapshot.over and not final:
        raise _bad(f"{path}.over", "the deal is over but its score can still change", "T-9")
    if not snapshot.over and final:
        raise _bad(f"{path}.over", "the score is settled, so the deal is over", "T-9")
    positions = snapshot.positions
    if positions is not None:
        if not snapshot.over:
            raise _bad(f"{path}.positions", "positions are given only once the deal is over", "T-9")
        if sorted(positions) != [1, 2, 3, 4, 5]:
            raise _bad(f"{path}.positions", "positions are 1–5, each once", "T-9")
        for place, seat in enumerate(snapshot.finished, start=1):
            if positions[seat] != place:
                raise _bad(f"{path}.positions[{seat}]", "finished seats keep their places", "T-7")


def _check_trick(snapshot: Snapshot, ruleset: Ruleset, path: str) -> None:
    """T-3…T-7: the trick is one the play could have reached, and ``turn`` is the seat to act."""
    trick: Trick = snapshot.trick
    hands = snapshot.hands
    at = f"{path}.trick"
    if not hands[snapshot.turn]:
        raise _bad(f"{path}.turn", f"seat {snapshot.turn} has finished and cannot act", "T-8")
    top = trick.top
    dealt = sum(len(hand) for hand in hands) == ruleset.cards.size
    if dealt and top is None and snapshot.turn != snapshot.emperor:
        raise _bad(f"{path}.turn", "the emperor leads the first trick of the deal", "T-2")
    if top is None:
        if trick.passed or trick.yielded or trick.circle != 1 or trick.jiefeng is not None:
            raise _bad(
                at, "with no top play the trick has no passes, yields, circle 2 or 接风", "T-3"
            )
        return
    for name, seats in (("passed", trick.passed), ("yielded", trick.yielded)):
        for index, seat in enumerate(seats):
            if seat == top.seat:
                raise _bad(
                    f"{at}.{name}[{index}]", "the top play's owner does not answer it", "T-5"
                )
            if not hands[seat]:
                raise _bad(f"{at}.{name}[{index}]", f"seat {seat} has finished", "T-8")
            if name == "yielded" and seat in trick.passed:
                raise _bad(f"{at}.yielded[{index}]", f"seat {seat} both passed and yielded", "T-6")
    if not hands[top.seat] and snapshot.finished[-1] != top.seat:
        raise _bad(f"{at}.top.seat", "a 底牌 on top is the latest finisher's", "T-7")
    if trick.yielded and not ruleset.yield_allowed:
        raise _bad(f"{at}.yielded", "this ruleset has no 让牌", "T-6")
    if trick.circle == 2:
        if not trick.yielded:
            raise _bad(
                f"{at}.circle", "a second circle goes to yielders, and there are none", "T-6"
            )
        unanswered = to_act(hands, msgspec.structs.replace(trick, circle=1))
        if unanswered:
            raise _bad(
                f"{at}.circle", f"seat {unanswered[0]} has not answered the first circle", "T-6"
            )
    waiting = to_act(hands, trick)
    if not waiting:
        raise _bad(at, "everyone has answered the top play, so the trick is over", "T-5")
    if snapshot.turn != waiting[0]:
        raise _bad(f"{path}.turn", f"seat {waiting[0]} acts next, not seat {snapshot.turn}", "T-1")
    if trick.circle == 1:
        # T-1: seats answer in order, so the seats that answered are exactly those before turn.
        acted = set(trick.passed) | set(trick.yielded)
        before = _between(top.seat, snapshot.turn)
        for seat in before:
            if hands[seat] and seat not in acted:
                raise _bad(
                    f"{path}.turn", f"seat {seat} answers before seat {snapshot.turn}", "T-1"
                )
        for seat in acted:
            if seat not in before:
                raise _bad(at, f"seat {seat} answered before its turn", "T-1")
    jiefeng = trick.jiefeng
    if jiefeng is not None and (
        hands[top.seat] or jiefeng != next_holding(hands, top.seat) or jiefeng not in trick.passed
    ):
        raise _bad(f"{at}.jiefeng", "接风 is declared by the next seat on a 底牌 only", "T-7")


def _between(start: int, end: int) -> list[int]:
    """Seats strictly after ``start`` and before ``end`` in the order of play."""
    seats: list[int] = []
    seat = (start + 1) % SEATS
    while seat != end:
        seats.append(seat)
        seat = (seat + 1) % SEATS
    return seats
