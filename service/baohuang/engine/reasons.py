"""Why a play or move is refused: stable codes, the rule id they cite, and a message.

Every refusal the engine gives is one of these constants (API.md "Verdicts"). Messages state the
rule in English with the Chinese term, so a person at a table recognises it.
"""

from __future__ import annotations

import msgspec


class Reason(msgspec.Struct, frozen=True, gc=False):
    """A verdict's reason: ``code`` is stable, ``rule`` is a RULES.md id, ``message`` is prose."""

    code: str
    rule: str
    message: str


# C — combos
EMPTY_PLAY = Reason("EMPTY_PLAY", "C-1", "a play must hold at least one card (一套牌至少一张)")
MIXED_RANKS = Reason(
    "MIXED_RANKS",
    "C-1",
    "a play is cards of one rank plus jokers; no mixed ranks, no straights (套牌点数相同，不可以出顺牌)",
)
# N — normal beating
SIZE_MISMATCH = Reason(
    "SIZE_MISMATCH", "N-1", "must have the same number of cards as the play it beats (张数相同)"
)
NOT_HIGHER = Reason(
    "NOT_HIGHER",
    "N-2",
    "every card must beat a distinct card of the previous play (每张牌必须能压过上一手牌)",
)
BIG_JOKER_UNBEATABLE = Reason(
    "BIG_JOKER_UNBEATABLE",
    "N-3",
    "a play holding a big joker is never beaten under normal rules (挂大王的牌为最大)",
)
# K — kaopai
NO_COVER = Reason(
    "NO_COVER",
    "K-2",
    "the cards cannot be split into groups that each cover one card of the previous play, "
    "with none left over (烤牌)",
)
# B — ruleset restrictions
SIX_HELD_BACK = Reason(
    "SIX_HELD_BACK",
    "B-1",
    "sixes may only go out in the player's final play, all at once (憋6：6必须留到最后一手一次出完)",
)
# T — turns and tricks
NOT_YOUR_TURN = Reason("NOT_YOUR_TURN", "T-1", "it is not this seat's turn (未轮到该玩家)")
CARDS_NOT_IN_HAND = Reason(
    "CARDS_NOT_IN_HAND", "T-3", "the play uses cards the seat does not hold (手中没有这些牌)"
)
LEADER_CANNOT_PASS = Reason(
    "LEADER_CANNOT_PASS", "T-3", "the leader must play; a leader cannot pass (发牌者不能过牌)"
)
YIELD_NOT_ALLOWED = Reason(
    "YIELD_NOT_ALLOWED",
    "T-6",
    "yielding is only allowed in the first circle after a top play, where the ruleset enables it "
    "(让牌)",
)
JIEFENG_NOT_ALLOWED = Reason(
    "JIEFENG_NOT_ALLOWED",
    "T-7",
    "only the next seat holding cards may declare jiefeng, and only on a final play on top (接风)",
)
PLAYER_FINISHED = Reason(
    "PLAYER_FINISHED", "T-8", "this player has finished and never acts again (已出完牌)"
)
DEAL_OVER = Reason("DEAL_OVER", "T-9", "the deal is over; no more moves (本局已结束)")

ALL_REASONS: tuple[Reason, ...] = (
    EMPTY_PLAY,
    MIXED_RANKS,
    SIZE_MISMATCH,
    NOT_HIGHER,
    BIG_JOKER_UNBEATABLE,
    NO_COVER,
    SIX_HELD_BACK,
    NOT_YOUR_TURN,
    CARDS_NOT_IN_HAND,
    LEADER_CANNOT_PASS,
    YIELD_NOT_ALLOWED,
    JIEFENG_NOT_ALLOWED,
    PLAYER_FINISHED,
    DEAL_OVER,
)
