"""Before the first play: the crown and guard phases as one verify/apply machine (G-1…G-8).

The same design as :mod:`..play.moves`: :func:`before_play_refusal` says why a move is refused (a
:class:`~baohuang.engine.reasons.Reason`) or ``None``; :func:`apply_before_play` builds the next
snapshot and its events from a move the refusal allowed; :func:`legal_before_play` lists the
moves of the seat to act by asking the same predicates (:func:`.crown.crown_refusal`,
:func:`.guard.guard_refusal`), and :func:`auto_before_play` picks the 托管 answer among
them. :mod:`baohuang.engine` sends a snapshot here whenever its ``phase`` is not ``"play"``.

托管 in these phases (T-10; the 联众 text: 在决定皇帝和侍卫阶段按默认应答方式处理): the default
answer is to decline (hand the crown on, no grab, no 明独, no 明保, no 造反); where declining is
refused the seat accepts (G-7 must-accept), and where it must call it calls the lowest card of
which it holds exactly three, a four (which would make the deal 暗独) only when it holds no three
*(reading, T-10)*. Lowest is card id order: lowest rank first; within a rank ``D C H S``; jokers
last.

A deal starts (:func:`.deal.opening_snapshot`) in phase ``"crown"`` with ``turn`` and ``emperor`` the
seat first offered the crown and ``mode`` ``"team"`` (provisional until the guard is settled).
It ends in phase ``"play"`` with ``mode``, ``emperor`` and ``guard`` set, ``turn`` the emperor
(T-2) and ``called`` the called card (public), or void: ``over`` and ``void`` true (黄庄/流局).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..cards import BJ_SCEPTER, CODES
from ..events import (
    AcceptedEvent,
    CalledEvent,
    CrownForcedEvent,
    CrownPassedEvent,
    DealVoidEvent,
    DeclinedEvent,
    Event,
    GrabbedEvent,
    PhaseEvent,
    RebelledEvent,
    RevealedEvent,
    SoloDeclaredEvent,
)
from ..reasons import DEAL_OVER, Reason
from ..rulesets import SEATS, Ruleset
from ..snapshot import (
    AcceptMove,
    CallMove,
    CrownState,
    DeclareSoloMove,
    DeclineMove,
    GrabMove,
    Mode,
    Move,
    RebelMove,
    RevealMove,
    Snapshot,
    Stage,
    Trick,
    ruleset_at,
)
from .crown import (
    CLASSIC_FORCE_AFTER,
    LIANZHONG_VOID_AFTER,
    ROUND,
    call_refusal,
    crown_refusal,
    forced_call_refusal,
    forced_seat,
    holder_after,
    is_forced,
    kind_counts,
    kind_of,
    tie_card,
)
from .guard import (
    called_roles,
    first_stage,
    guard_refusal,
    has_declare_round,
    stage_order,
    sword_roles,
)

__all__ = [
    "apply_before_play",
    "auto_before_play",
    "before_play_refusal",
    "legal_before_play",
]

Hands = list[list[int]]


def _hands(snapshot: Snapshot, ruleset: Ruleset) -> Hands:
    card_set = ruleset.cards
    return [card_set.parse(hand) for hand in snapshot.hands]


def _call_kind(ruleset: Ruleset, move: CallMove, path: str) -> int:
    """The kind a call names (G-2); an unknown card is bad input at ``{path}.card``."""
    return kind_of(ruleset.cards.card(move.card, f"{path}.card"))


def _refusal(
    snapshot: Snapshot, ruleset: Ruleset, hands: Hands, move: Move, path: str
) -> Reason | None:
    if snapshot.over:
        return DEAL_OVER
    if snapshot.phase == "crown":
        reason = crown_refusal(snapshot, ruleset, hands, move)
    else:
        reason = guard_refusal(snapshot, ruleset, hands, move)
    if reason is None and isinstance(move, CallMove):
        kind = _call_kind(ruleset, move, path)
        crown = snapshot.crown
        if snapshot.phase == "crown" and crown is not None and is_forced(ruleset, crown):
            reason = forced_call_refusal(ruleset, hands[move.seat], move.seat, crown.first, kind)
        else:
            reason = call_refusal(ruleset, hands[move.seat], kind)
    return reason


def before_play_refusal(
    snapshot: Snapshot, ruleset: Ruleset, move: Move, path: str
) -> Reason | None:
    """Why ``move`` is refused before the first play (G-2…G-8), or ``None`` if it is legal.

    A play action before the first play is ``WRONG_PHASE``.
    """
    return _refusal(snapshot, ruleset, _hands(snapshot, ruleset), move, path)


def _codes(hand: Sequence[int]) -> list[str]:
    return [CODES[card] for card in sorted(hand, reverse=True)]


def move_scepter(hands: Hands, source: int, target: int) -> None:
    if source != target:
        hands[source].remove(BJ_SCEPTER)
        hands[target].append(BJ_SCEPTER)


def _start_play(
    snapshot: Snapshot,
    hands: Hands,
    mode: Mode,
    emperor: int,
    guard: int | None,
    events: list[Event],
    **changes: object,
) -> Snapshot:
    """The first play is next: roles settled, the emperor leads (T-2)."""
    events.append(PhaseEvent("play", emperor))
    return msgspec.structs.replace(
        snapshot,
        hands=[_codes(hand) for hand in hands],
        phase="play",
        crown=None,
        mode=mode,
        emperor=emperor,
        guard=guard,
        turn=emperor,
        trick=Trick(),
        **changes,
    )


def _enter_stage(
    snapshot: Snapshot,
    hands: Hands,
    stage: Stage,
    emperor: int,
    events: list[Event],
    **changes: object,
) -> Snapshot:
    """Open ``stage`` of the guard phase (entering the phase from the crown if need be)."""
    crown = snapshot.crown
    assert crown is not None
    order = stage_order(stage, emperor)
    if snapshot.phase != "guard":
        events.append(PhaseEvent("guard", order[0]))
    return msgspec.structs.replace(
        snapshot,
        hands=[_codes(hand) for hand in hands],
        phase="guard",
        crown=CrownState(first=crown.first, passes=crown.passes, stage=stage, pending=order),
        emperor=emperor,
        turn=order[0],
        **changes,
    )


def _after_roles(
    snapshot: Snapshot,
    ruleset: Ruleset,
    hands: Hands,
    mode: Mode,
    guard: int,
    events: list[Event],
    called: str | None = None,
) -> Snapshot:
    """The guard is settled: the 明保/造反 round where it exists (G-8), else the first play."""
    emperor = snapshot.emperor
    if has_declare_round(ruleset, mode):
        return _enter_stage(
            snapshot, hands, "declare", emperor, events, mode=mode, guard=guard, called=called
        )
    return _start_play(snapshot, hands, mode, emperor, guard, events, called=called)


def _void(snapshot: Snapshot, hands: Hands, crown: CrownState, events: list[Event]) -> Snapshot:
    events.append(DealVoidEvent())
    holder = next(seat for seat in range(SEATS) if BJ_SCEPTER in hands[seat])
    return msgspec.structs.replace(
        snapshot,
        hands=[_codes(hand) for hand in hands],
        crown=crown,
        turn=holder,
        emperor=holder,
        over=True,
        void=True,
    )


def _apply_crown(
    snapshot: Snapshot, ruleset: Ruleset, hands: Hands, move: Move, path: str
) -> tuple[Snapshot, list[Event]]:
    crown = snapshot.crown
    assert crown is not None
    seat, holder = move.seat, snapshot.turn
    events: list[Event] = []
    if isinstance(move, GrabMove):  # G-5 抢庄: the grabber takes BJ*, plays alone, no guard
        events.append(GrabbedEvent(seat))
        move_scepter(hands, holder, seat)
        return _start_play(snapshot, hands, "grab", seat, None, events), events
    if isinstance(move, CallMove):  # G-5 叫庄 (classic)
        kind = _call_kind(ruleset, move, path)
        events.append(CalledEvent(seat, CODES[kind]))
        mode, guard = called_roles(hands, seat, kind)
        state = msgspec.structs.replace(snapshot, emperor=seat)
        return _after_roles(state, ruleset, hands, mode, guard, events, CODES[kind]), events
    if isinstance(move, DeclareSoloMove):  # G-8 明独 (classic holder)
        events.append(SoloDeclaredEvent(seat))
        return _start_play(snapshot, hands, "solo_open", seat, seat, events), events
    if isinstance(move, AcceptMove):  # G-6, G-7: the pile joins the emperor's hand
        events.append(AcceptedEvent(seat, list(crown.pile)))
        hands[seat].extend(ruleset.cards.parse(crown.pile))
        state = msgspec.structs.replace(snapshot, crown=msgspec.structs.replace(crown, pile=[]))
        return _enter_stage(state, hands, first_stage(ruleset), seat, events), events
    assert isinstance(move, DeclineMove)
    passes = crown.passes
    if ruleset.base == "tribute" and passes >= ROUND:  # G-6: the first seat passes again
        events.append(DeclinedEvent(seat))
        return _void(snapshot, hands, crown, events), events
    pile = list(crown.pile)
    added = tie_card(ruleset, hands[seat], passes)
    if added is not None:  # 贴2 (G-6, G-7)
        hands[seat].remove(added)
        pile.append(CODES[added])
    passes += 1
    target = holder_after(crown.first, passes)
    move_scepter(hands, seat, target)
    events.append(CrownPassedEvent(seat, target, None if added is None else CODES[added]))
    crown = msgspec.structs.replace(crown, passes=passes, pile=pile)
    if ruleset.base == "classic" and passes == CLASSIC_FORCE_AFTER:  # G-5 逼庄
        forced = forced_seat(ruleset, hands, crown.first)
        if forced is None:  # 黄庄
            return _void(snapshot, hands, crown, events), events
        move_scepter(hands, target, forced)
        events.append(CrownForcedEvent(forced))
        target = forced
    elif passes >= LIANZHONG_VOID_AFTER:  # G-7: two rounds, no emperor (流局)
        return _void(snapshot, hands, crown, events), events
    state = msgspec.structs.replace(
        snapshot,
        hands=[_codes(hand) for hand in hands],
        crown=crown,
        turn=target,
        emperor=target,
    )
    return state, events


def _apply_guard(
    snapshot: Snapshot, ruleset: Ruleset, hands: Hands, move: Move, path: str
) -> tuple[Snapshot, list[Event]]:
    crown = snapshot.crown
    assert crown is not None and crown.stage is not None
    seat, emperor, stage = move.seat, snapshot.emperor, crown.stage
    events: list[Event] = []
    if isinstance(move, GrabMove):  # G-7 抢独: the first grab in priority order wins
        events.append(GrabbedEvent(seat))
        move_scepter(hands, emperor, seat)
        return _start_play(snapshot, hands, "grab", seat, None, events), events
    if isinstance(move, DeclareSoloMove):  # G-8 明独
        events.append(SoloDeclaredEvent(seat))
        return _start_play(snapshot, hands, "solo_open", emperor, emperor, events), events
    if isinstance(move, CallMove):  # G-2
        kind = _call_kind(ruleset, move, path)
        events.append(CalledEvent(seat, CODES[kind]))
        mode, guard = called_roles(hands, emperor, kind)
        return _after_roles(snapshot, ruleset, hands, mode, guard, events, CODES[kind]), events
    changes: dict[str, object] = {}
    if isinstance(move, RevealMove):  # G-8 明保
        events.append(RevealedEvent(seat))
        changes["guard_revealed"] = True
    elif isinstance(move, RebelMove):  # G-8 造反
        events.append(RebelledEvent(seat))
        changes["rebellion"] = [*snapshot.rebellion, seat]
    else:
        events.append(DeclinedEvent(seat))
    pending = crown.pending[1:]
    if pending:
        state = msgspec.structs.replace(
            snapshot,
            crown=msgspec.structs.replace(crown, pending=pending),
            turn=pending[0],
            **changes,
        )
        return state, events
    state = msgspec.structs.replace(snapshot, **changes)
    if stage == "declare":
        return (
            _start_play(state, hands, snapshot.mode, emperor, snapshot.guard, events),
            events,
        )
    if stage == "grab" and ruleset.guard_by != "sword":
        return _enter_stage(state, hands, "call", emperor, events), events
    mode, guard = sword_roles(hands, emperor)  # G-3 (simple: after the grab round or the call)
    return _after_roles(state, ruleset, hands, mode, guard, events), events


def apply_before_play(
    snapshot: Snapshot, ruleset: Ruleset, move: Move, path: str
) -> tuple[Snapshot, list[Event]]:
    """The snapshot after a move :func:`before_play_refusal` allows, and its events."""
    hands = _hands(snapshot, ruleset)
    if snapshot.phase == "crown":
        return _apply_crown(snapshot, ruleset, hands, move, path)
    return _apply_guard(snapshot, ruleset, hands, move, path)


def legal_before_play(snapshot: Snapshot) -> list[Move]:
    """Every legal move of ``snapshot.turn`` before play, by asking the refusal predicates.

    Order: decline, accept, calls (lowest card id first), 明独, grab, 明保, 造反. A classic grab
    by another seat (out of turn, G-5) is legal too but is not listed: the list is the seat to
    act's.
    """
    if snapshot.over:
        return []
    ruleset = ruleset_at(snapshot)
    hands = _hands(snapshot, ruleset)
    seat = snapshot.turn
    kinds = sorted(kind for kind, count in kind_counts(hands[seat]).items() if count >= 3)
    candidates: list[Move] = [
        DeclineMove(seat),
        AcceptMove(seat),
        *(CallMove(seat, CODES[kind]) for kind in kinds),
        DeclareSoloMove(seat),
        GrabMove(seat),
        RevealMove(seat),
        RebelMove(seat),
    ]
    return [move for move in candidates if _refusal(snapshot, ruleset, hands, move, "") is None]


def auto_before_play(snapshot: Snapshot) -> Move | Reason:
    """The 托管 answer (see the module docstring), or the reason nobody can act."""
    if snapshot.over:
        return DEAL_OVER
    moves = legal_before_play(snapshot)
    for kind in (DeclineMove, AcceptMove):
        for move in moves:
            if isinstance(move, kind):
                return move
    calls = [move for move in moves if isinstance(move, CallMove)]
    if calls:  # listed lowest first; a three keeps team play, a four would make 暗独 (T-10)
        ruleset = ruleset_at(snapshot)
        held = kind_counts(_hands(snapshot, ruleset)[snapshot.turn])
        threes = [call for call in calls if held[kind_of(ruleset.cards.card(call.card))] == 3]
        return (threes or calls)[0]
    return moves[0]  # pragma: no cover - decline, accept or a call is always open
