"""Tribute, 进贡 (docs/rules.md, section P), for the ``tribute`` ruleset; docs/clients.md ``POST /v1/tribute``.

The previous deal's roles and finishing order are scored by :func:`scoring.score_deal` (S-3);
its ``winner`` and final ``positions`` (T-9) drive the tribute on the five new hands:

* P-1: a draw pays nothing. Otherwise the losing side pays and the winning side eats; nothing is
  returned (不还贡): every transfer goes from a loser to a winner.
* P-2: a payer gives their highest cards: card ids descending, so jokers, then ``2``, ``A`` … and
  within a rank the canonical suit order ``S H C D`` *(reading: D-2 ignores suits; the canonical
  order makes the choice deterministic)*; never ``BJ*``.
* P-3, team (皇帝吃2张贡或进2张贡，其他人吃或进1张贡牌):
  - the emperor's side lost: the emperor pays his 2 highest and the guard his 1 highest, three
    cards in all; the three rebels eat one each: the three cards high to low go to the rebels in
    their finishing order, the earliest finisher taking the highest
    (革命党一方按走客顺序从大到小吃贡);
  - the emperor's side won: each rebel pays its 1 highest card; of those three cards, high to low,
    the guard takes the middle one and the emperor the other two
    (保皇派吃贡时得到其他三人贡牌中中间大小的牌).
* P-4, solo (皇帝打“独”时进贡则进四张，吃贡其他人各进一张): the emperor lost — he pays his 4
  highest, one to each other, high to low in the others' finishing order (highest to the
  earliest finisher); the emperor won — each other pays him its highest card.
  明独 (``solo_open``): every count doubled (贡牌翻番): the emperor pays 8, two to each other,
  the earliest finisher taking the two highest, the next the next two, and so on *(reading)*;
  or eats 8, two from each other.
* Grab: the ``tribute`` ruleset has no grab (G-6), so the rules are silent. A grab is scored as a
  declared solo (scoring.py, S-3 *(reading)*), and pays or eats as 明独 here, doubled counts
  *(reading)*.

Equal cards (several copies of one card) are told apart by the payer's previous finishing
position, earlier first, then by the order the payer gave them *(reading)*; this only decides the
``from`` field, never who ends up with which card. Transfers are listed highest card first, in
that tie order. Returned hands are high to low.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec

from ..cards import BJ_SCEPTER, CODES, check_copies, parse_cards
from ..declared import deal_end
from ..errors import InvalidInput
from ..events import PreviousDeal, Transfer
from ..rulesets import SEATS, Ruleset, RulesetField, ruleset_of
from ..scoring import Mode, ScoreResult, check_roles, score_deal

TEAM_EMPEROR_COUNT: Final = 2  # P-3 皇帝吃2张贡或进2张贡
TEAM_OTHER_COUNT: Final = 1  # P-3 其他人吃或进1张贡牌
SOLO_EACH_COUNT: Final = 1  # P-4 one to / from each other; the emperor's total is four


class TributeResult(msgspec.Struct, frozen=True):
    """The tribute cards, highest first (P-2…P-4), and the five hands after them, high to low."""

    transfers: list[Transfer]
    hands: list[list[str]]


class _Payment(msgspec.Struct, frozen=True, gc=False):
    card: int
    payer: int
    payer_position: int
    index: int  # the payer's own order: 0 for their highest card


def _highest(hand: Sequence[int], count: int, seat: int) -> list[int]:
    """P-2: the ``count`` highest cards of ``hand``, never ``BJ*``."""
    payable = sorted((card for card in hand if card != BJ_SCEPTER), reverse=True)
    if len(payable) < count:
        raise InvalidInput(
            "CANNOT_PAY_TRIBUTE",
            "P-2",
            f"seat {seat} must pay {count} cards but holds only {len(payable)} besides BJ* (P-2)",
            ".hands",
        )
    return payable[:count]


def _pool(
    payers: Sequence[tuple[int, int]], hands: Sequence[Sequence[int]], positions: Sequence[int]
) -> list[_Payment]:
    """Every payer's highest cards, high to low, ties in the payers' finishing order."""
    pool = [
        _Payment(card=card, payer=seat, payer_position=positions[seat], index=index)
        for seat, count in payers
        for index, card in enumerate(_highest(hands[seat], count, seat))
    ]
    pool.sort(key=lambda p: (-p.card, p.payer_position, p.index))
    return pool


def _check_over(
    ruleset: Ruleset, mode: Mode, emperor: int, guard: int | None, finished: Sequence[int]
) -> ScoreResult:
    """The previous deal's score, which must be final (T-9): else bad input at ``.finished``."""
    previous = score_deal(ruleset, mode, emperor, guard, False, False, finished)
    if not previous.final:
        raise InvalidInput(
            "PREVIOUS_NOT_OVER",
            "T-9",
            "the previous deal is not over: its score can still change, so its tribute is "
            "unknown (T-9, P)",
            ".finished",
        )
    return previous


def tribute_ids(
    ruleset: Ruleset,
    mode: Mode,
    emperor: int,
    guard: int | None,
    finished: Sequence[int],
    hands: Sequence[Sequence[int]],
) -> list[tuple[int, int, int]]:
    """P-1 … P-4 on card ids: the transfers ``(from, to, card)``, highest card first.

    ``mode``, ``emperor``, ``guard`` and ``finished`` describe the previous deal, which must be
    over (T-9). A non-tribute ruleset, a previous deal that is not over, impossible roles, or a
    payer without enough cards is bad input (``.ruleset``, ``.finished``, ``.hands``).
    """
    if not ruleset.tribute:
        raise InvalidInput(
            "NO_TRIBUTE",
            "P",
            f"ruleset '{ruleset.name}' has no tribute: only the tribute ruleset pays it (P)",
            ".ruleset",
        )
    if len(hands) != SEATS:
        raise InvalidInput("INVALID_HANDS", "P", "tribute needs five hands (P)", ".hands")
    previous = _check_over(ruleset, mode, emperor, guard, finished)
    assert previous.positions is not None
    positions = previous.positions
    if previous.winner == "draw":  # P-1 平局无输赢: nothing is paid
        return []
    emperor_won = previous.winner == "emperor"
    others = sorted((s for s in range(SEATS) if s != emperor), key=lambda s: positions[s])

    if mode == "team":
        assert guard is not None
        rebels = [s for s in others if s != guard]  # in finishing order
        if emperor_won:
            pool = _pool([(s, TEAM_OTHER_COUNT) for s in rebels], hands, positions)
            # P-3: the guard takes the middle card, the emperor the highest and the lowest.
            takers = [emperor, guard, emperor]
        else:
            payers = [(emperor, TEAM_EMPEROR_COUNT), (guard, TEAM_OTHER_COUNT)]
            pool = _pool(payers, hands, positions)
            takers = rebels  # P-3: in finishing order, highest card first
        return [(p.payer, taker, p.card) for p, taker in zip(pool, takers, strict=True)]

    # P-4 solo; 明独 doubles every count; a grab pays as 明独 (reading).
    each = SOLO_EACH_COUNT * (2 if mode in ("solo_open", "grab") else 1)
    if emperor_won:
        pool = _pool([(s, each) for s in others], hands, positions)
        return [(p.payer, emperor, p.card) for p in pool]
    pool = _pool([(emperor, each * len(others))], hands, positions)
    takers = [seat for seat in others for _ in range(each)]  # highest to the earliest finisher
    return [(p.payer, taker, p.card) for p, taker in zip(pool, takers, strict=True)]


def pay_tribute(
    ruleset: Ruleset,
    mode: Mode,
    emperor: int,
    guard: int | None,
    finished: Sequence[int],
    hands: Sequence[Sequence[str]],
) -> TributeResult:
    """P: the tribute the previous deal ``(mode, emperor, guard, finished)`` imposes on ``hands``.

    ``hands`` are five lists of card codes. An unknown code is bad input at ``.hands[i][j]``;
    more copies than the decks hold, ``TOO_MANY_COPIES`` (D-5) at ``.hands``.
    """
    if len(hands) != SEATS:
        raise InvalidInput("INVALID_HANDS", "P", "tribute needs five hands (P)", ".hands")
    card_set = ruleset.cards
    ids = [parse_cards(hand, card_set, f".hands[{seat}]") for seat, hand in enumerate(hands)]
    try:
        check_copies((card for hand in ids for card in hand), "the hands")
    except InvalidInput as error:
        raise error.within(".hands") from None
    transfers = tribute_ids(ruleset, mode, emperor, guard, finished, ids)
    for giver, taker, card in transfers:
        ids[giver].remove(card)
        ids[taker].append(card)
    return TributeResult(
        transfers=[Transfer(from_=g, to=t, card=CODES[c]) for g, t, c in transfers],
        hands=[[CODES[card] for card in sorted(hand, reverse=True)] for hand in ids],
    )


def tribute(
    ruleset: RulesetField, previous: PreviousDeal, hands: Sequence[Sequence[str]]
) -> TributeResult:
    """API ``/v1/tribute``: the tribute (P) that the ``previous`` deal imposes on new ``hands``.

    Checked in this order, each bad input at its argument: the ruleset exists and pays tribute
    (``.ruleset``, R, P); every card exists (``.hands[i][j]``, D-3); the previous deal's roles and
    finishing order are a deal's, over and agreeing with its end (``.previous.finished``, G-1, T-9);
    the hands hold no more copies than the decks (``.hands``, D-5) and every payer can pay (P-2).
    """
    resolved = ruleset_of(ruleset)
    if not resolved.tribute:
        raise InvalidInput(
            "NO_TRIBUTE",
            "P",
            f"ruleset '{resolved.name}' has no tribute: only the tribute ruleset pays it (P)",
            ".ruleset",
        )
    for seat, hand in enumerate(hands):
        parse_cards(hand, resolved.cards, f".hands[{seat}]")
    mode, emperor, guard, finished = (
        previous.mode,
        previous.emperor,
        previous.guard,
        previous.finished,
    )
    try:  # the previous deal as /v1/scores reads one: its order agrees with its end (T-9)
        check_roles(mode, emperor, guard, finished)
        deal_end(resolved, mode, emperor, guard, finished)
        _check_over(resolved, mode, emperor, guard, finished)
    except InvalidInput as error:
        raise error.within(".previous") from None
    return pay_tribute(resolved, mode, emperor, guard, finished, hands)
