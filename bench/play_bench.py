"""Engine timings of the play phase: ``.venv/bin/python bench/play_bench.py``.

Not a test (no ``test_`` prefix): prints the median of many runs, in microseconds, for a full
216-card snapshot with a 44-card hand to act.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from baohuang.engine import (
    PlayMove,
    Ruleset,
    Snapshot,
    TopPlay,
    Trick,
    apply_move,
    legal_moves,
    validate_snapshot,
    verify_move,
)
from baohuang.engine.rulesets import resolve_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from play_support import deal  # the tests' dealer: one source of random deals


def median_us(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1000


def full_deal(ruleset: Ruleset) -> Snapshot:
    """A fresh 216-card deal whose emperor (to lead) holds 44 cards."""
    for seed in range(1000):
        snapshot = validate_snapshot(deal(random.Random(seed), ruleset, "team"))
        if len(snapshot.hands[snapshot.turn]) == 44:
            return snapshot
    raise AssertionError("no 44-card emperor found")


def hung(snapshot: Snapshot, top: list[str]) -> Snapshot:
    """The same cards, the seat before ``turn`` having played ``top`` (taken from other hands)."""
    hands = [list(hand) for hand in snapshot.hands]
    for code in top:
        seat = next(s for s in range(5) if s != snapshot.turn and code in hands[s])
        hands[seat].remove(code)
    owner = (snapshot.turn + 4) % 5
    trick = Trick(top=TopPlay(owner, top))
    return validate_snapshot(msgspec.structs.replace(snapshot, hands=hands, trick=trick))


def joker_rich(snapshot: Snapshot) -> Snapshot:
    """The deal with most jokers swapped into the hand to act (the most shapes to try)."""
    hands = [list(hand) for hand in snapshot.hands]
    mine = hands[snapshot.turn]
    spare = {"BJ": 1, "SJ": 2}  # left with the others, for the tops below
    for seat, hand in enumerate(hands):
        if seat == snapshot.turn:
            continue
        for code in [c for c in hand if c[1:2] == "J" and c[0] in "SB"]:
            if spare.get(code, 0):
                spare[code] -= 1
                continue
            low = min((c for c in mine if c[1:2] != "J"), key=lambda c: "3456789TJQKA2".index(c[0]))
            mine.remove(low)
            mine.append(code)
            hand.remove(code)
            hand.append(low)
    return validate_snapshot(msgspec.structs.replace(snapshot, hands=hands))


def bench_lead(lead: Snapshot) -> None:
    hand = lead.hands[lead.turn]
    single = PlayMove(lead.turn, [hand[-1]])

    def validate_and_apply() -> None:
        apply_move(validate_snapshot(lead), single)

    print(f"  {sum(map(len, lead.hands))} cards, hand to act {len(hand)}")
    print(f"  validate_snapshot   {median_us(lambda: validate_snapshot(lead), 2000):8.1f} us")
    print(f"  validate+apply      {median_us(validate_and_apply, 2000):8.1f} us")
    print(f"  verify_move (lead)  {median_us(lambda: verify_move(lead, single), 5000):8.1f} us")
    print(f"  apply_move (lead)   {median_us(lambda: apply_move(lead, single), 5000):8.1f} us")
    count = len(legal_moves(lead))
    print(
        f"  legal_moves (lead)  {median_us(lambda: legal_moves(lead), 200):8.1f} us ({count} moves)"
    )


def bench_top(lead: Snapshot, top: list[str]) -> None:
    follow = hung(lead, top)
    moves = legal_moves(follow)
    plays = [m for m in moves if isinstance(m, PlayMove)]
    move = plays[-1] if plays else PlayMove(follow.turn, follow.hands[follow.turn][:1])
    verify = median_us(lambda: verify_move(follow, move), 5000)
    legal = median_us(lambda: legal_moves(follow), 500)
    print(
        f"  top {' '.join(top):14} verify {verify:6.1f} us, legal_moves {legal:7.1f} us"
        f" ({len(moves)} moves)"
    )


def bench_mid_deal(deals: int = 12, rounds: int = 7) -> None:
    """The play phase's figure on realistic positions: every (snapshot, legal move) of random deals
    (bench/snapshots.py: 216 cards dealt, then played by a random agent), timed one by one."""
    from snapshots import game

    pairs = [step for seed in range(deals) for step in game(500 + seed, kaopai=seed % 2 == 1)]
    full = [(s, m) for s, m in pairs if sum(map(len, s.hands)) >= 180]
    for label, chosen in (("all", pairs), ("216..180 cards in hands", full)):
        both, verify = [], []
        for _ in range(rounds):
            for snapshot, move in chosen:
                start = time.perf_counter_ns()
                checked = validate_snapshot(snapshot)
                apply_move(checked, move)
                both.append(time.perf_counter_ns() - start)
                start = time.perf_counter_ns()
                verify_move(snapshot, move)
                verify.append(time.perf_counter_ns() - start)
        print(
            f"  mid-deal {label:<24} {len(chosen):5} moves: validate_snapshot+apply_move"
            f" median {statistics.median(both) / 1000:6.1f} us (p90"
            f" {sorted(both)[len(both) * 9 // 10] / 1000:.1f}), verify_move median"
            f" {statistics.median(verify) / 1000:5.1f} us"
        )


def main() -> None:
    print("random deals, moves chosen among legal_moves (classic, kaopai on odd seeds):")
    bench_mid_deal()
    for kaopai in (False, True):
        ruleset = resolve_ruleset("classic", kaopai=kaopai)
        for name, lead in (
            ("dealt", full_deal(ruleset)),
            ("joker-rich", joker_rich(full_deal(ruleset))),
        ):
            print(f"classic kaopai={kaopai}, {name} hand:")
            bench_lead(lead)
            tops = (["SJ", "9S", "9H", "9C"], ["SJ", "SJ", "7S"], ["BJ", "SJ", "7S"])
            for top in tops:
                bench_top(lead, top)


if __name__ == "__main__":
    main()
