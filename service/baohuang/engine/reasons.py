"""Why a play or move is refused: stable codes, the rule id they cite, and a message.

Every refusal the engine gives is one of these constants (docs/clients.md). Messages state the
rule in English with the Chinese term, so a person at a table recognises it. A constant's ``rule``
is the rule that usually refuses with that code; where another rule refuses (the crown follows
G-5, G-6 or G-7 by ruleset), the refusing site cites it with :meth:`Reason.citing`.
"""

from __future__ import annotations

import msgspec

__all__ = ["MoveRefused", "Reason"]  # and the constants below, imported by name


class Reason(msgspec.Struct, frozen=True, gc=False):
    """A verdict's reason: ``code`` is stable, ``rule`` is a rule id (docs/rules.md), ``message`` is prose."""

    code: str
    rule: str
    message: str

    def citing(self, rule: str, message: str | None = None) -> Reason:
        """The same code given by ``rule`` (and, for this use, ``message``)."""
        if rule == self.rule and message is None:
            return self
        return Reason(self.code, rule, self.message if message is None else message)


class MoveRefused(ValueError):
    """A move applied although the rules refuse it; ``reason`` says why (a verdict, not bad
    input: see :func:`baohuang.engine.apply_move`)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.message)
        self.reason = reason


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
BIG_JOKER_IS_MARKED = (
    "the play uses cards the seat does not hold: the hand's big joker is the marked one, BJ* "
    "(皇牌), not a plain BJ (D-4)"
)
SMALL_JOKER_IS_MARKED = (
    "the play uses cards the seat does not hold: the hand's small joker is the marked one, SJ* "
    "(侍卫牌), not a plain SJ (D-4)"
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
NOT_DEALT = Reason(
    "NOT_DEALT",
    "G-4",
    "the cards are not dealt yet: the table waits for the seats' entropy, then deals (尚未发牌)",
)

# G — before play: the crown and the guard
WRONG_PHASE = Reason(
    "WRONG_PHASE",
    "G-8",
    "this action belongs to another phase of the deal: the crown (accept, decline, grab; call in "
    "classic), the guard (call, declare_solo, grab, reveal, rebel) or the play (选皇帝、定侍卫之后才出牌)",
)
NOT_CROWN_HOLDER = Reason(
    "NOT_CROWN_HOLDER",
    "G-5",
    "only the seat holding the scepter joker BJ* answers the crown (持皇牌者叫庄或让位)",
)
ACCEPT_BY_CALLING = Reason(
    "ACCEPT_BY_CALLING",
    "G-5",
    "in classic the holder takes the crown by calling a card (叫庄), or hands it on (让庄)",
)
CANNOT_ACCEPT = Reason(
    "CANNOT_ACCEPT",
    "G-2",
    "accepting the crown needs three of one (rank, suit) to call (没有能力登基：需有三张同花色同点数的牌)",
)
MUST_ACCEPT = Reason(
    "MUST_ACCEPT",
    "G-7",
    "after one full round the holder must accept the crown unless it cannot call or holds four of "
    "one (rank, suit) (传完一轮后自己必须当皇帝，除非没有能力登基或者有4张同色同点的牌)",
)
MUST_CALL = Reason(
    "MUST_CALL",
    "G-5",
    "this seat must call a card now: 逼庄, or an emperor naming the guard (必须叫庄/叫侍卫)",
)
CANNOT_CALL = Reason(
    "CANNOT_CALL",
    "G-2",
    "the emperor calls a (rank, suit) of which he holds three or four (叫庄需要有3张或4张同点数同花色的牌)",
)
CALL_CARD_NOT_ALLOWED = Reason(
    "CALL_CARD_NOT_ALLOWED",
    "G-2",
    "this card cannot be called in this ruleset: jokers only in classic; tribute calls no joker "
    "nor 2; lianzhong-simple calls no card, SJ* decides (G-3)",
)
GRAB_NOT_ALLOWED = Reason(
    "GRAB_NOT_ALLOWED",
    "G-7",
    "no grab here: 抢庄 (classic, G-5) by a seat not holding the crown, before the emperor is "
    "settled, where the table allows it; 抢独 (lianzhong, G-7) in its round before the guard is "
    "called, where the room allows it, never by the emperor himself; tribute has no grab (G-6)",
)
SOLO_NOT_ALLOWED = Reason(
    "SOLO_NOT_ALLOWED",
    "G-8",
    "only the emperor declares 明独, when he settles the guard (lianzhong-simple: holding SJ* too)",
)
REVEAL_NOT_ALLOWED = Reason(
    "REVEAL_NOT_ALLOWED",
    "G-8",
    "only the guard of a team deal reveals itself (明保), before the first play, where the ruleset "
    "scores it",
)
REBEL_NOT_ALLOWED = Reason(
    "REBEL_NOT_ALLOWED",
    "G-8",
    "only a rebel declares 造反, in lianzhong-simple, before the first play",
)
ACTION_NOT_AVAILABLE = Reason(
    "ACTION_NOT_AVAILABLE",
    "G-8",
    "this action is not open to this seat at this step of choosing the emperor and guard",
)
