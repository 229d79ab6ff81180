"""Realistic play-phase bodies for the HTTP benchmarks of /v1/moves/validate and /v1/tables.

    .venv/bin/python bench/snapshots.py [--deals 40]      # writes bench/out/validate_bodies.jsonl

A *game* is one random full-deck deal (tests/engine/play_support.py's ``deal()``, 216 cards,
classic, with and without kaopai) played by a random agent choosing among the engine's
``legal_moves``: it leads with a random play, and when following plays something 55 % of the time
(a random legal play) and otherwise passes (or yields where only that is open). ``game()`` returns
every ``(snapshot before, move)`` of the deal up to ``max_moves``, so each pair is a mid-deal
snapshot with a legal move, the body of a ``/v1/moves/validate`` request; the same list, replayed
in order, is the move sequence a live table goes through (``/v1/tables/{id}/moves``).
Seeded: the same ``seed`` gives the same game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import msgspec

from baohuang.engine import (
    Move,
    PassMove,
    PlayMove,
    Snapshot,
    apply_move,
    legal_moves,
    validate_snapshot,
)
from baohuang.engine.rulesets import resolve_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))
from play_support import deal  # the tests' dealer: one source of random deals

OUT = Path(__file__).resolve().parent / "out"
VALIDATE_BODIES = OUT / "validate_bodies.jsonl"

_encode = msgspec.json.encode


def choose(rng: random.Random, moves: list[Move]) -> Move:
    """The random agent: lead anything; follow with a play 55 % of the time, else pass/yield."""
    plays = [m for m in moves if isinstance(m, PlayMove)]
    others = [m for m in moves if not isinstance(m, PlayMove)]
    if plays and (not others or rng.random() < 0.55):
        return rng.choice(plays)
    passes = [m for m in others if isinstance(m, PassMove)]
    return rng.choice(passes or others)


def game(seed: int, kaopai: bool = False, max_moves: int = 400) -> list[tuple[Snapshot, Move]]:
    """One random deal played to its end (or ``max_moves``): ``(snapshot before, move)`` pairs."""
    rng = random.Random(seed)
    ruleset = resolve_ruleset("classic", kaopai=kaopai)
    snapshot = validate_snapshot(deal(rng, ruleset, "team"))
    steps: list[tuple[Snapshot, Move]] = []
    while not snapshot.over and len(steps) < max_moves:
        moves = legal_moves(snapshot)
        if not moves:
            break
        move = choose(rng, moves)
        steps.append((snapshot, move))
        snapshot, _ = apply_move(snapshot, move)
    return steps


def validate_body(snapshot: Snapshot, move: Move) -> bytes:
    return _encode({"snapshot": snapshot, "move": move})


def table_move_body(move: Move, version: int) -> bytes:
    return _encode({"move": move, "version": version})


def write_validate_bodies(games: list[list[tuple[Snapshot, Move]]], path: Path) -> int:
    """Every (snapshot, move) of ``games`` as one validate body a line; returns the count."""
    OUT.mkdir(parents=True, exist_ok=True)
    lines = [validate_body(s, m) for steps in games for s, m in steps]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    args = parser.parse_args()
    games = [game(seed, kaopai=seed % 3 == 2) for seed in range(args.deals)]
    count = write_validate_bodies(games, VALIDATE_BODIES)
    lengths = sorted(len(g) for g in games)
    sizes = [len(line) for line in VALIDATE_BODIES.read_bytes().splitlines()]
    print(
        json.dumps(
            {
                "bodies": count,
                "moves_per_deal_min_median_max": [
                    lengths[0],
                    lengths[len(lengths) // 2],
                    lengths[-1],
                ],
                "body_bytes_median": sorted(sizes)[len(sizes) // 2],
                "path": str(VALIDATE_BODIES),
            }
        )
    )


if __name__ == "__main__":
    main()
