"""The bots' ladder (docs/bots.md "How strong is each level"): players ranked by paired deals.

    nice -n 15 .venv/bin/python bench/ladder.py --pairings search:heuristic --deals 400 \\
        --seats 1 --iterations 16 --seed 1 --out ladder-search.jsonl
    .venv/bin/python bench/ladder.py --report ladder-*.jsonl

Players: ``random`` (any legal move), ``greedy`` (beats the top with the cheapest legal play,
leads its lowest single, answers before play as T-10), ``t10`` (the 托管 move, T-10),
``heuristic`` and ``search`` (the levels; the search with ``--iterations`` per decision, or
``--budget-ms``).

A pairing ``A:B`` plays every deal once with B at all five seats (the baseline) and once with A
in one seat and B in the four others, for ``--seats`` seats of the deal (rotated: the seats
``deal, deal+1, …`` mod 5, so that over the deals A sits in every seat and every role; or, with
``--seat-of emperor``, the one seat where B became the emperor in the baseline, so that that
role is played in nearly every deal; or, with ``--seat-of solo-rebels``, in the deals whose
baseline emperor went alone, one of the four other seats (rotated with the deal); or, with
``--seat-of rebels``, in the deals the baseline played as a team, one of its three rebels
(rotated with the deal) — the seat is chosen by B's game alone, so the pairing stays fair). A's
*gain* is its seat's score less that seat's score in the baseline: the same cards, the same
opponents, only the seat's player changed, so most of the deal's luck cancels. The gain is
attributed to the seat's role in A's game (emperor, guard, rebel, solo for the emperor of a
solo or grab deal, solo rebel for the others).

Rulesets: the four bases with 烤牌 on (K); the ``tribute`` deals pay tribute (P) as the deal
before them imposes, that deal being played out by the heuristic at every seat from the seed,
so the tribute is the same for every player. Each game is written as one JSON line to ``--out``
as it ends, so a partial run is usable; ``--report`` reads such files and prints, per pairing,
the mean gain per game with its 95 % interval by role and overall, and Elo ratings with 95 %
bootstrap intervals (win, draw or loss of each paired game, Bradley–Terry fit).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from baohuang.bots import Act, BotInput, acts_of, suggest
from baohuang.bots.hand import play_rank
from baohuang.bots.playout import playout
from baohuang.engine import (
    Dealt,
    Move,
    PlayMove,
    PreviousDeal,
    RulesetSpec,
    Snapshot,
    apply_move,
    auto_move,
    deal,
    legal_moves,
    opening_snapshot,
    ruleset_of,
    score,
    seat_view,
    tribute,
)
from ladder_report import report

BASES = ("classic", "tribute", "lianzhong-classic", "lianzhong-simple")
RULESETS = [RulesetSpec(base=base, kaopai=True) for base in BASES]  # type: ignore[arg-type]
Player = Callable[[Snapshot, list[Act], int], Move]


def random_player(state: Snapshot, history: list[Act], seed: int) -> Move:
    return random.Random(seed).choice(legal_moves(state))


def t10_player(state: Snapshot, history: list[Act], seed: int) -> Move:
    return auto_move(state)


def greedy_player(state: Snapshot, history: list[Act], seed: int) -> Move:
    """Beat the top with the cheapest legal play, lead the lowest single; T-10 before play."""
    if state.phase != "play":
        return auto_move(state)
    moves = legal_moves(state)
    plays = [move for move in moves if isinstance(move, PlayMove)]
    if state.trick.top is None:
        singles = [play for play in plays if len(play.cards) == 1] or plays
        return min(singles, key=lambda play: (play_rank(play.cards), len(play.cards)))
    if plays:
        return min(plays, key=lambda play: (play_rank(play.cards), len(play.cards)))
    return moves[0]


def level_player(level: str, budget_ms: float | None, iterations: int | None) -> Player:
    def play(state: Snapshot, history: list[Act], seed: int) -> Move:
        bot = BotInput(view=seat_view(state, state.turn), history=history)
        return suggest(bot, level, budget_ms=budget_ms, seed=seed, worlds=iterations)  # type: ignore[arg-type]

    return play


@cache
def opening(index: int, seed: int) -> Snapshot:
    """Deal ``index`` of the run from ``seed``: its ruleset, cards and, in tribute, tribute."""
    spec = RULESETS[index % len(RULESETS)]
    ruleset = ruleset_of(spec)
    deal_seed = seed * 100_003 + index
    dealt = deal(ruleset, deal_seed, deal_seed % 5)
    if ruleset.tribute:
        before = playout(opening_snapshot(spec, deal(ruleset, deal_seed + 7919, index % 5)))
        positions = score(before).positions
        if not before.void and positions is not None:
            finished = sorted(range(5), key=lambda seat: positions[seat])
            previous = PreviousDeal(
                mode=before.mode, emperor=before.emperor, finished=finished, guard=before.guard
            )
            paid = tribute(spec, previous, dealt.hands)
            dealt = Dealt(hands=paid.hands, crown=dealt.crown)
    return opening_snapshot(spec, dealt)


def role_of(end: Snapshot, seat: int) -> str:
    if end.mode == "team":
        if seat == end.emperor:
            return "emperor"
        return "guard" if seat == end.guard else "rebel"
    return "solo" if seat == end.emperor else "solo rebel"


def play_game(
    start: Snapshot, players: list[Player], seed: int, *, until_play: bool = False
) -> tuple[Snapshot, list[float]]:
    """The deal played out (or, ``until_play``, only its questions before play); the time each
    seat spent deciding. The moves depend on the deal and ``seed`` only, so a game stopped at
    its first play and one played out agree up to there."""
    state, history, spent, step = start, [], [0.0] * 5, 0
    while not state.over and not (until_play and state.phase == "play"):
        seat = state.turn
        begun = time.perf_counter()
        move = players[seat](state, history, seed * 1000 + step)
        spent[seat] += time.perf_counter() - begun
        state, events = apply_move(state, move)  # an illegal move stops the run
        history.extend(acts_of(events))
        step += 1
    return state, spent


def seats_of(index: int, base_end: Snapshot, args: argparse.Namespace) -> list[int]:
    """A's seats in deal ``index``: rotated, where the baseline's emperor sat, beside a
    baseline emperor who went alone, or among the rebels of a baseline team."""
    if args.seat_of == "emperor":
        return [] if base_end.emperor is None else [base_end.emperor]
    if args.seat_of == "solo-rebels":
        if base_end.mode == "team" or base_end.emperor is None:
            return []
        others = [seat for seat in range(5) if seat != base_end.emperor]
        return [others[index % len(others)]]  # one seat a deal: the games stay independent
    if args.seat_of == "rebels":
        if base_end.mode != "team" or base_end.emperor is None or base_end.guard is None:
            return []
        rebels = [seat for seat in range(5) if seat not in (base_end.emperor, base_end.guard)]
        return [rebels[index % len(rebels)]]
    return [(index + offset) % 5 for offset in range(args.seats)]


def alone_at_play(start: Snapshot, player: Player, index: int) -> bool:
    """Whether the baseline's emperor goes alone: the mode is settled before the first play
    (G-1), so the solo-rebels runs skip the nine deals in ten that are team play without
    playing them out."""
    at_play, _ = play_game(start, [player] * 5, index, until_play=True)
    return not at_play.void and at_play.mode != "team" and at_play.emperor is not None


def run_pairing(name: str, players: dict[str, Player], args: argparse.Namespace, out: Path) -> None:
    mine, theirs = name.split(":")
    with out.open("a") as sink:
        for index in range(args.first, args.first + args.deals):
            if BASES[index % len(BASES)] not in args.bases:
                continue
            start = opening(index, args.seed)
            if args.seat_of == "solo-rebels" and not alone_at_play(start, players[theirs], index):
                continue
            base_end, _ = play_game(start, [players[theirs]] * 5, index)
            base = score(base_end).scores or [0] * 5
            for seat in seats_of(index, base_end, args):
                seated = [players[mine] if s == seat else players[theirs] for s in range(5)]
                end, spent = play_game(start, seated, index)
                scores = score(end).scores or [0] * 5
                line = {
                    "pairing": name,
                    "deal": index,
                    "seed": args.seed,
                    "ruleset": BASES[index % len(BASES)],
                    "seat": seat,
                    "role": role_of(end, seat),
                    "void": end.void,
                    "score": scores[seat],
                    "baseline": base[seat],
                    "gain": scores[seat] - base[seat],
                    "seconds": round(spent[seat], 4),
                }
                sink.write(json.dumps(line) + "\n")
                sink.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairings", default="heuristic:greedy")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first deal's index")
    parser.add_argument("--seats", type=int, default=5, choices=range(1, 6))
    parser.add_argument(
        "--seat-of",
        choices=("rotation", "emperor", "solo-rebels", "rebels"),
        default="rotation",
        help="A's seats: rotated over --seats seats, the baseline emperor's, or, in the deals "
        "the baseline's emperor played alone, one of the four others; or, in the deals the "
        "baseline played as a team, one of its three rebels",
    )
    parser.add_argument(
        "--bases",
        nargs="+",
        choices=BASES,
        default=BASES,
        help="play only the deals of these rulesets (a deal's ruleset is its index mod 4)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--out", type=Path, default=Path("ladder.jsonl"))
    parser.add_argument("--report", nargs="*", type=Path, help="report on these jsonl files")
    args = parser.parse_args()
    if args.report:
        lines = [json.loads(line) for path in args.report for line in path.read_text().splitlines()]
        sys.stdout.write(report(lines, random.Random(args.seed)))
        return
    iterations = None if args.budget_ms is not None else args.iterations
    players: dict[str, Player] = {
        "random": random_player,
        "greedy": greedy_player,
        "t10": t10_player,
        "heuristic": level_player("heuristic", None, None),
        "search": level_player("search", args.budget_ms, iterations),
    }
    for name in args.pairings.split(","):
        run_pairing(name, players, args, args.out)


if __name__ == "__main__":
    main()
