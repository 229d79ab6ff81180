"""A deal, whatever its phase: the one place that looks at ``Snapshot.phase``.

A deal runs through the crown and guard phases (:mod:`.before_play`, G-4…G-8) into the play
(:mod:`.play`, T, B-1, K in play, T-9). Each phase is a verify/apply machine of its own; the
functions here send a snapshot to the machine of its phase, so a caller never asks which phase a
deal is in. Every function takes a snapshot that has passed :func:`validate_snapshot`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .before_play.checks import validate_before_play
from .before_play.machine import (
    apply_before_play,
    auto_before_play,
    before_play_refusal,
    legal_before_play,
)
from .cards import CODES, copies_excess, parse_cards
from .errors import InvalidInput, invalid_snapshot
from .events import Event
from .play.checks import validate_play
from .play.legal import auto_play, legal_plays
from .play.moves import Play, answer_refusal, apply_play, read_play, turn_refusal
from .play.turns import score_play
from .reasons import DEAL_OVER, GRAB_NOT_ALLOWED, NOT_DEALT, WRONG_PHASE, MoveRefused, Reason
from .rulesets import Ruleset, crown_rule
from .scoring import ALL_TRUSTEE, ScoreResult, no_emperor, void_result
from .snapshot import (
    BEFORE_PLAY_MOVES,
    CallMove,
    GrabMove,
    Move,
    PlayMove,
    ReplayFailure,
    ReplayResult,
    Snapshot,
    ruleset_at,
)

__all__ = [
    "apply_move",
    "auto_answer",
    "auto_move",
    "legal_moves",
    "legal_moves_of",
    "move_outcome",
    "replay",
    "score",
    "validate_snapshot",
    "verify_move",
]


# Where bad input lies, relative to the arguments of the functions below (see .errors).
SNAPSHOT = ".snapshot"
MOVE = ".move"
MOVES = ".moves"


def _in_play(snapshot: Snapshot) -> bool:
    return snapshot.phase == "play"


def _undealt(snapshot: Snapshot) -> bool:
    """A live table's committed deal before its cards are dealt (G-4): nothing to judge yet."""
    return snapshot.phase == "deal"


def validate_snapshot(snapshot: Snapshot) -> Snapshot:
    """Check ``snapshot`` as a whole and return it with canonical card codes (D-3).

    A snapshot that contradicts itself is bad input (:class:`~.errors.InvalidInput`), never a
    verdict. A deal in play is checked by :func:`.play.checks.validate_play`; one before the first
    play, or voided there (its ``crown`` kept), by :func:`.before_play.checks.validate_before_play`.
    """
    if _undealt(snapshot):
        raise invalid_snapshot(
            f"{SNAPSHOT}.phase",
            "phase 'deal' is a live table's deal before its cards are dealt: there is nothing "
            "to judge in it",
            "G-4",
        )
    if _in_play(snapshot) and snapshot.crown is None and not snapshot.void:
        return validate_play(snapshot, SNAPSHOT)
    return validate_before_play(snapshot, SNAPSHOT)


def _read_move(move: Move, ruleset: Ruleset, path: str) -> list[int] | None:
    """The card ids a move names, checked before any verdict: a card that cannot exist (D-3,
    D-4) or more copies than four decks hold (D-5) is bad input whatever else is wrong."""
    if isinstance(move, CallMove):
        ruleset.cards.card(move.card, f"{path}.card")
        return None
    if not isinstance(move, PlayMove):
        return None
    cards = parse_cards(move.cards, ruleset.cards, f"{path}.cards")
    excess = copies_excess(cards) if len(cards) > 1 else None
    if excess is not None:
        raise InvalidInput(
            "TOO_MANY_COPIES",
            "D-5",
            f"the play holds more '{CODES[excess]}' than four decks do (D-1, D-4)",
            f"{path}.cards",
        )
    return cards


def _too_late(snapshot: Snapshot, ruleset: Ruleset, move: Move) -> Reason:
    """A before-play action once the emperor and guard are settled: grabbing is over (G-5…G-7),
    the rest belongs to another phase."""
    if snapshot.over:
        return DEAL_OVER
    if isinstance(move, GrabMove):
        return GRAB_NOT_ALLOWED.citing(crown_rule(ruleset))
    return WRONG_PHASE


def _check(
    snapshot: Snapshot, ruleset: Ruleset, move: Move, path: str
) -> tuple[Reason | None, Play | None]:
    """Why ``move`` is refused (or ``None``) and, for a play in the play phase, what it plays."""
    cards = _read_move(move, ruleset, path)
    if _undealt(snapshot):
        return NOT_DEALT, None
    if not _in_play(snapshot):  # G-4…G-8
        return before_play_refusal(snapshot, ruleset, move, path), None
    if isinstance(move, BEFORE_PLAY_MOVES):
        return _too_late(snapshot, ruleset, move), None
    reason = turn_refusal(snapshot, move.seat)
    if reason is not None:
        return reason, None
    if cards is not None:
        return read_play(snapshot, ruleset, move.seat, cards)
    return answer_refusal(snapshot, ruleset, move), None


def _apply(
    snapshot: Snapshot, ruleset: Ruleset, move: Move, play: Play | None, path: str
) -> tuple[Snapshot, list[Event]]:
    if not _in_play(snapshot):  # G-4…G-8
        return apply_before_play(snapshot, ruleset, move, path)
    return apply_play(snapshot, ruleset, move, play)


def verify_move(snapshot: Snapshot, move: Move) -> Reason | None:
    """Why ``move`` is illegal in ``snapshot``, or ``None`` if it is legal.

    Before play: the crown and guard rules (G-2…G-8). In play, in this order: the deal (T-9), the
    seat (T-8, T-1), then the action: a play must be a combo (C-1) held in hand, beat the top
    (N/K) and respect 憋6 (B-1); a pass needs a top play (T-3); a yield the first circle where the
    ruleset has 让牌 (T-6); 接风 a 底牌 on top (T-7).
    """
    return _check(snapshot, ruleset_at(snapshot), move, MOVE)[0]


def move_outcome(snapshot: Snapshot, move: Move) -> Reason | tuple[Snapshot, list[Event]]:
    """What ``move`` does: the reason :func:`verify_move` gives when it is illegal, else the
    snapshot after it and its events."""
    ruleset = ruleset_at(snapshot)
    reason, play = _check(snapshot, ruleset, move, MOVE)
    if reason is not None:
        return reason
    return _apply(snapshot, ruleset, move, play, MOVE)


def apply_move(snapshot: Snapshot, move: Move) -> tuple[Snapshot, list[Event]]:
    """The snapshot after ``move`` and its events; raises :class:`~.reasons.MoveRefused` (a
    verdict, with the reason :func:`verify_move` gives) if it is illegal."""
    outcome = move_outcome(snapshot, move)
    if isinstance(outcome, Reason):
        raise MoveRefused(outcome)
    return outcome


def replay(snapshot: Snapshot, moves: Sequence[Move]) -> ReplayResult:
    """Apply ``moves`` in order, stopping at the first refused one (a platform's audit).

    ``applied`` counts the legal moves; ``snapshot`` is the state after them (the last good one);
    ``failed`` names the refused move's index, the move and the reason. Bad input in a move raises
    :class:`~.errors.InvalidInput` at ``.moves[index]``.
    """
    ruleset = ruleset_at(snapshot)
    state = snapshot
    for index, move in enumerate(moves):
        where = f"{MOVES}[{index}]"
        reason, play = _check(state, ruleset, move, where)
        if reason is not None:
            return ReplayResult(index, ReplayFailure(index, move, reason), state)
        state = _apply(state, ruleset, move, play, where)[0]
    return ReplayResult(len(moves), None, state)


def legal_moves(snapshot: Snapshot) -> list[Move]:
    """Every legal move of ``snapshot.turn``; empty once the deal is over (T-9).

    Before play: decline, accept, calls, 明独, grab, 明保, 造反 (G-2…G-8). In play: answers first,
    then plays once per combo shape, cheapest first (:mod:`.play.legal`).
    """
    if _undealt(snapshot):
        return []
    if not _in_play(snapshot):
        return legal_before_play(snapshot)
    return legal_plays(snapshot)


def legal_moves_of(snapshot: Snapshot, seat: int) -> list[Move]:
    """Every legal move of ``seat``, whether or not it is the seat to act: the seat to act's
    list is :func:`legal_moves`; any other seat may only grab the crown out of turn where the
    ruleset allows it (classic, G-5), and has nothing else to do. Empty once the deal is over.
    """
    if seat == snapshot.turn:
        return legal_moves(snapshot)
    grab = GrabMove(seat)
    if _in_play(snapshot) or snapshot.over or verify_move(snapshot, grab) is not None:
        return []
    return [grab]


def auto_answer(snapshot: Snapshot) -> Move | Reason:
    """The 托管 move of the seat to act (T-10): before play the default answer (decline where it
    may), in play a leader's lowest single, else a pass; once the deal is over, ``DEAL_OVER``
    (``NOT_DEALT`` before the cards are dealt)."""
    if _undealt(snapshot):
        return NOT_DEALT
    if not _in_play(snapshot):
        return auto_before_play(snapshot)
    return auto_play(snapshot)


def auto_move(snapshot: Snapshot) -> Move:
    """:func:`auto_answer`, raising :class:`~.reasons.MoveRefused` (``DEAL_OVER``) when nobody
    can act."""
    answer = auto_answer(snapshot)
    if isinstance(answer, Reason):
        raise MoveRefused(answer)
    return answer


def score(snapshot: Snapshot) -> ScoreResult:
    """The deal's score from its finishing order so far (S, T-9); ``final`` once it is settled.

    Before play nothing is scored yet. A void deal is final and scores zero for every seat, with
    no winner and no positions, and says why (S-10): voided before play, nobody took the crown
    (黄庄/流局, G-5…G-7); voided in play, every seat was in 托管 at the end (T-11).
    """
    ruleset = ruleset_at(snapshot)
    if snapshot.void:
        return void_result(ALL_TRUSTEE if _in_play(snapshot) else no_emperor(ruleset))
    if not _in_play(snapshot):
        return ScoreResult(False, None, 1, None, None, None, None)
    return score_play(snapshot, ruleset)
