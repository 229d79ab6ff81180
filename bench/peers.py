"""qqbot2's way of judging a play, re-created from its published description, as a benchmark
anchor (no code of it is used).

qqbot2 (github.com/infinityedge01/qqbot2, ``hoshino/modules/baohuang``, a QQ-group 保皇 bot)
judges a play like this: give every card an order (3 … 2 as 3 … 15, small jokers 16, big jokers
17, marked ones as their plain kind); sort the play high to low; it is one combo when every card
below the jokers has one order; a follow must hold as many cards as the top play and, position by
position, be strictly higher. It knows no copy limits (D-5) and no 烤牌 (K), so it is asked only
about pairs of the normal rules (N), where its verdict (beats or not) must agree with ours.

Our input is card codes, so the order of a code is looked up in one dict built here, the same
start our engine gets (its card set's dicts): the anchor is the algorithm, not a string parser.
"""

from __future__ import annotations

from collections.abc import Sequence

from baohuang.engine import RANK_SYMBOLS

_ORDER: dict[str, int] = {"SJ": 16, "SJ*": 16, "BJ": 17, "BJ*": 17}
for _value, _symbol in enumerate(RANK_SYMBOLS, start=3):
    for _suit in "SHCD":
        _ORDER[_symbol + _suit] = _value
        if _symbol == "T":
            _ORDER["10" + _suit] = _value


def _one_combo(orders: list[int]) -> bool:
    """Every card below the jokers has one order (the list is sorted high to low)."""
    for index in range(len(orders) - 1, 0, -1):
        if orders[index - 1] > 15:
            break
        if orders[index - 1] != orders[index]:
            return False
    return bool(orders)


def qqbot2_beats(previous: Sequence[str], candidate: Sequence[str]) -> bool:
    """Does ``candidate`` beat ``previous``, qqbot2's way (``previous`` must be a combo)."""
    top = sorted(map(_ORDER.__getitem__, previous), reverse=True)
    if not _one_combo(top):
        raise ValueError("the top play is no combo")
    play = sorted(map(_ORDER.__getitem__, candidate), reverse=True)
    if not _one_combo(play) or len(play) != len(top):
        return False
    # a loop, as described; all() over a generator would be slower and flatter our engine
    for mine, theirs in zip(play, top, strict=True):  # noqa: SIM110
        if mine <= theirs:
            return False
    return True
