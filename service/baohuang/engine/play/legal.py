"""Legal moves and the 托管 move of the seat to act in play (``/v1/moves/legal``, ``/auto``, T-10).

:func:`legal_moves` holds no rule of its own: it asks :mod:`.moves`' predicates
(``turn_refusal``, ``answer_refusal``, ``play_refusal``) about every candidate. The candidates
for plays are every combo shape ``(rank, count, small, big)`` the hand can make (C-1); so the list
is exactly the set of shapes :func:`~baohuang.engine.verify_move` accepts, each once.

Which concrete cards stand for a shape (suits never matter for beating, D-2; a marked joker beats
as its twin, D-4): rank cards in the canonical suit order ``S H C D``, and plain jokers before
marked ones. Keeping ``BJ*``/``SJ*`` back is what players do: in play the scepter only shows what
everybody knows, but ``SJ*`` names the guard in ``lianzhong-simple`` (G-3), so a hidden guard
spends it last. A client wanting other cards of the same shape may send them: they are as legal.

Order, cheapest first: answers (pass, yield, 接风) spend no cards and come first; then plays by
fewest jokers, then lowest rank (a joker-only combo, having no rank, after every ranked one with
as many jokers), then fewer cards, then fewer big jokers.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..beating import shapes_beating
from ..cards import BJ, BJ_SCEPTER, CODES, SJ, SJ_SWORD
from ..combos import NO_RANK, Combo
from ..reasons import Reason
from ..rulesets import Ruleset
from ..snapshot import JiefengMove, Move, PassMove, PlayMove, Snapshot, YieldMove, ruleset_at
from .moves import answer_refusal, play_refusal, top_combo, turn_refusal

__all__ = ["auto_play", "legal_plays"]

JOKER_ONLY_KEY = 99  # sorts a joker-only combo after every rank (see the module docstring)


def legal_plays(snapshot: Snapshot) -> list[Move]:
    """Every legal move of ``snapshot.turn`` in play, plays once per combo shape, cheapest first.

    Empty once the deal is over (T-9).
    """
    seat = snapshot.turn
    if turn_refusal(snapshot, seat) is not None:
        return []
    ruleset = ruleset_at(snapshot)
    moves: list[Move] = [
        answer
        for answer in (PassMove(seat), YieldMove(seat), JiefengMove(seat))
        if answer_refusal(snapshot, ruleset, answer) is None
    ]
    moves.extend(_plays(snapshot, seat, ruleset))
    return moves


def _plays(snapshot: Snapshot, seat: int, ruleset: Ruleset) -> list[PlayMove]:
    """The legal plays of ``seat``, cheapest first (the module docstring's order)."""
    hand = ruleset.cards.parse(snapshot.hands[seat])
    top = top_combo(snapshot, ruleset)
    by_rank, smalls, bigs = _groups(hand)
    size = len(hand)
    # The codes of the first n cards of each group, high to low: bigs > smalls > rank cards, so
    # a play's codes, high to low, are its three prefixes joined (no sort per play). A rank's
    # cards are high to low already (S H C D), so its prefixes are slices.
    big_codes = _prefix_codes(bigs)
    small_codes = _prefix_codes(smalls)
    rank_codes = {rank: [CODES[card] for card in cards] for rank, cards in by_rank.items()}
    rank_codes[NO_RANK] = []
    plays: list[PlayMove] = []
    # The predicate reads the shape only; cards are picked once it says yes. The shapes come in
    # the module docstring's order, so the moves need no sort.
    for shape in _shapes_to_ask(top, ruleset.kaopai, by_rank, len(smalls), len(bigs)):
        if play_refusal(ruleset, top, shape, size) is None:
            codes = big_codes[shape.big] + small_codes[shape.small]
            plays.append(PlayMove(seat, codes + rank_codes[shape.rank][: shape.count]))
    return plays


def _cheapest_single(snapshot: Snapshot, seat: int, ruleset: Ruleset) -> PlayMove | None:
    """The first single of :func:`_plays`' list (``None``: it has none), without making the
    list: the singles' keys are (0, rank, 1, 0) by rank, then (1, joker-only, 0, 0) for a small
    joker and (1, joker-only, 0, 1) for a big one, so asking about them in that order, the first
    legal one is the cheapest; its card is the one :func:`_plays` would name."""
    hand = ruleset.cards.parse(snapshot.hands[seat])
    top = top_combo(snapshot, ruleset)
    by_rank, smalls, bigs = _groups(hand)
    size = len(hand)
    for rank, cards in sorted(by_rank.items()):
        if play_refusal(ruleset, top, Combo(rank, 1, 0, 0, ()), size) is None:
            return PlayMove(seat, [CODES[cards[0]]])
    for small, big, jokers in ((1, 0, smalls), (0, 1, bigs)):
        if jokers and play_refusal(ruleset, top, Combo(NO_RANK, 0, small, big, ()), size) is None:
            return PlayMove(seat, [CODES[jokers[0]]])
    return None


def _groups(hand: list[int]) -> tuple[dict[int, list[int]], list[int], list[int]]:
    """The hand's rank cards by rank (each high to low, ``S H C D``), small jokers and big
    jokers (plain ones first, the marked one last: see the module docstring)."""
    by_rank: dict[int, list[int]] = {}
    smalls: list[int] = []
    bigs: list[int] = []
    for card in sorted(hand, reverse=True):  # S H C D within a rank
        if card >= BJ:
            bigs.append(card)
        elif card >= SJ:
            smalls.append(card)
        else:
            by_rank.setdefault(card >> 2, []).append(card)
    smalls.sort(key=lambda card: card == SJ_SWORD)
    bigs.sort(key=lambda card: card == BJ_SCEPTER)
    return by_rank, smalls, bigs


def _order(shape: Combo) -> tuple[int, int, int, int]:
    """The module docstring's order: fewest jokers, lowest rank (joker-only last), fewest cards,
    fewest big jokers."""
    rank = JOKER_ONLY_KEY if shape.rank == NO_RANK else shape.rank
    return (shape.small + shape.big, rank, shape.count, shape.big)


@lru_cache(maxsize=1024)
def _beating_in_order(
    q_rank: int, q_count: int, q_small: int, q_big: int, kaopai: bool
) -> tuple[Combo, ...]:
    return tuple(sorted(shapes_beating(q_rank, q_count, q_small, q_big, kaopai), key=_order))


def _shapes_to_ask(
    top: Combo | None, kaopai: bool, by_rank: dict[int, list[int]], smalls: int, bigs: int
) -> Iterator[Combo]:
    """The shapes the hand can make (C-1), each once, in :func:`_order`; when following, only
    those among the shapes that beat the top (:func:`~baohuang.engine.beating.shapes_beating`,
    asked once per top shape), so that a follower is not asked about hundreds of shapes that
    cannot beat."""
    if top is not None:
        for shape in _beating_in_order(top.rank, top.count, top.small, top.big, kaopai):
            if (
                shape.small <= smalls
                and shape.big <= bigs
                and shape.count <= len(by_rank.get(shape.rank, ()))
            ):
                yield shape
        return
    held = [(rank, range(1, len(by_rank[rank]) + 1)) for rank in sorted(by_rank)]
    held.append((NO_RANK, range(0, 1)))
    for jokers in range(smalls + bigs + 1):
        bigs_in = range(max(0, jokers - smalls), min(bigs, jokers) + 1)
        for rank, counts in held:
            for count in counts:
                if count or jokers:
                    for big in bigs_in:
                        yield Combo(rank, count, jokers - big, big, ())


def _prefix_codes(cards: list[int]) -> list[list[str]]:
    """For each n, the codes of ``cards[:n]`` sorted high to low."""
    return [
        [CODES[card] for card in sorted(cards[:n], reverse=True)] for n in range(len(cards) + 1)
    ]


def auto_play(snapshot: Snapshot) -> Move | Reason:
    """T-10 托管 in play: a leader plays its single lowest card that B-1 allows; a follower
    passes.

    A leader whose every single card is held back by 憋6 (a hand of sixes only) plays the
    cheapest legal play instead, which then empties the hand *(reading)*. Once the deal is over,
    the reason nobody can act (``DEAL_OVER``).
    """
    seat = snapshot.turn
    reason = turn_refusal(snapshot, seat)
    if reason is not None:
        return reason
    if snapshot.trick.top is not None:
        return PassMove(seat)
    # The singles alone, not the whole list: a table in 托管 to the end of the deal leads
    # hundreds of times in one write.
    ruleset = ruleset_at(snapshot)
    single = _cheapest_single(snapshot, seat, ruleset)
    return single if single is not None else _plays(snapshot, seat, ruleset)[0]
