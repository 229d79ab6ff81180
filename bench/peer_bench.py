"""The engine's verdict from card codes beside qqbot2's algorithm and the parse floor, one run.

    flock /tmp/bench.lock .venv/bin/python bench/peer_bench.py [--runs 3] [--before REV]

Two sets of pairs of the normal rules (no 烤牌: qqbot2 has none), 20,000 each:
  random  bench/pairs.py's ``mixed_pairs`` across three rulesets and both decks (seed 2025): any
          combo against any, codes shuffled, so ~33,000 distinct plays
  real    pairs met in play (:func:`real_pairs`): deals of classic, lianzhong-classic and
          lianzhong-simple played by bench/snapshots.py's random agent; at every turn that
          follows a top play, the top against each legal play of the seat (they beat) and
          against as many plays drawn from what the seat could lead (mostly refused), in the
          order the deals meet them
and two ways to hold the lists:
  kept    the same list objects every time (their strings' hashes cached after the first pass)
  fresh   decoded from JSON (msgspec) before each timing, untimed, as a server has them: new
          strings, hot in cache, hashes not yet computed
Per run (a child process; with ``--before`` the older revision's engine alternates with the
tree's), samples of 100 pairs, every figure of a sample in a shuffled order, thread CPU time
(``time.thread_time_ns``), GC paused, warm (one pass first, as a serving process has it).
Figures, ns per pair:
  floor     ruleset.cards.parse of both lists (merely reading the codes into card ids)
  qqbot2    bench/peers.py's re-creation of qqbot2's judge (verdict only)
  verdict   engine verdict()
  compare   engine compare(): verdict and K-6 cover
and the verdict's steps (kept lists), each a function doing the verdict's first steps only:
  loop      the loop over the pairs, calling nothing
  call      calling a Python function of three arguments that returns None
  find      + the ruleset's memo of plays (the dict the verdict looks plays up in)
  keys      + tuple() of both lists
  lookups   + both dict lookups (the whole verdict but its last arithmetic)
Every pair's qqbot2 verdict is checked to agree with the engine's, and every version's verdicts
are checked to agree with one another (a digest per set). Memo counts: the plays each set holds,
the memo's misses on one ordered pass from empty, and what a memo per pair of plays (two
generations of 16,384) would hit on that pass.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from time import thread_time_ns
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "engine"))  # play_support: the tests' dealer
from loadgen import alternate  # noqa: E402

SETS = ("random", "real")
REAL_RULESETS = ("classic", "lianzhong-classic", "lianzhong-simple")
PAIR_MEMO_GENERATION = 16_384


def real_pairs(n: int, seed: int = 2025) -> list[tuple[str, list[str], list[str]]]:
    """``n`` (ruleset name, top, candidate) triples met in play (the module's docstring)."""
    import msgspec
    from play_support import deal

    from baohuang.engine import PlayMove, apply_move, legal_moves, validate_snapshot
    from baohuang.engine.rulesets import resolve_ruleset
    from baohuang.engine.snapshot import Trick
    from snapshots import choose

    rng = random.Random(seed)
    out: list[tuple[str, list[str], list[str]]] = []
    deals = 0
    while len(out) < n:
        name = REAL_RULESETS[deals % len(REAL_RULESETS)]
        deals += 1
        snapshot = validate_snapshot(deal(rng, resolve_ruleset(name), "team"))
        moves_made = 0
        while not snapshot.over and moves_made < 400 and len(out) < n:
            moves = legal_moves(snapshot)
            if not moves:
                break
            top = snapshot.trick.top
            if top is not None:
                beating = [m.cards for m in moves if isinstance(m, PlayMove)]
                leading = msgspec.structs.replace(snapshot, trick=Trick())
                leads = [m.cards for m in legal_moves(leading) if isinstance(m, PlayMove)]
                others = rng.sample(leads, min(len(leads), max(len(beating), 1)))
                out.extend((name, list(top.cards), list(cards)) for cards in beating + others)
            snapshot, _ = apply_move(snapshot, choose(rng, moves))
            moves_made += 1
    return out[:n]


def pair_sets(pairs: int) -> dict[str, list[tuple[str, list[str], list[str]]]]:
    from pairs import mixed_pairs

    return {
        "random": mixed_pairs(pairs, seed=2025, kaopai_share=0.0),
        "real": real_pairs(pairs),
    }


def pair_memo_hits(named: list[tuple[str, list[str], list[str]]]) -> float:
    """What share of one ordered pass a memo per pair of plays (two generations) would hit."""
    young: set[tuple[object, ...]] = set()
    old: set[tuple[object, ...]] = set()
    hits = 0
    for name, previous, candidate in named:
        key = (name, tuple(previous), tuple(candidate))
        if key in young:
            hits += 1
            continue
        if key in old:
            hits += 1
            old.discard(key)
        if len(young) >= PAIR_MEMO_GENERATION:
            old, young = young, set()
        young.add(key)
    return hits / len(named)


def memo_counts(triples: list[Any], verdict: Callable[..., Any]) -> dict[str, float]:
    """Plays in the memo after one ordered pass from empty, and the pass's misses."""
    from baohuang.engine import known_plays

    plays = known_plays.PLAYS_BY_RULES
    memos = {id(p): p for p in plays.values()}.values()
    for p in memos:
        p.memo.clear()
    learned = 0
    learn = known_plays.KnownPlays.learn

    def counting(self: Any, key: Any, where: str) -> Any:
        nonlocal learned
        learned += 1
        return learn(self, key, where)

    known_plays.KnownPlays.learn = counting  # type: ignore[method-assign]
    try:
        for ruleset, previous, candidate in triples:
            verdict(previous, candidate, ruleset)
    finally:
        known_plays.KnownPlays.learn = learn  # type: ignore[method-assign]
    return {
        "plays_kept": sum(len(p.memo) for p in memos),
        "misses": learned,
        "hit_rate": 1 - learned / (2 * len(triples)),
    }


def step_functions() -> dict[str, Callable[[Any, Any, Any], Any]]:
    """The verdict's first steps (the module's docstring), each as this version's verdict
    writes it (inlined, as there: one more call would cost more than some steps)."""
    from baohuang.engine import known_plays

    def call(previous: Any, candidate: Any, ruleset: Any) -> None:
        return None

    known_by_rules = getattr(known_plays, "KNOWN_BY_RULES", None)
    if known_by_rules is not None:  # after: [deck][guard_by], subscripts

        def find(previous: Any, candidate: Any, ruleset: Any) -> None:
            known_by_rules[ruleset.deck][ruleset.guard_by]

        def keys(previous: Any, candidate: Any, ruleset: Any) -> None:
            known_by_rules[ruleset.deck][ruleset.guard_by]
            tuple(previous)
            tuple(candidate)

        def lookups(previous: Any, candidate: Any, ruleset: Any) -> None:
            known = known_by_rules[ruleset.deck][ruleset.guard_by]
            known[tuple(previous)]
            known[tuple(candidate)]

    else:  # before: the young generation behind the memo object, .get()
        plays_by_rules = known_plays.PLAYS_BY_RULES

        def find(previous: Any, candidate: Any, ruleset: Any) -> None:
            plays_by_rules[ruleset.deck, ruleset.guard_by].memo.young  # noqa: B018 (the step itself)

        def keys(previous: Any, candidate: Any, ruleset: Any) -> None:
            plays_by_rules[ruleset.deck, ruleset.guard_by].memo.young  # noqa: B018
            tuple(previous)
            tuple(candidate)

        def lookups(previous: Any, candidate: Any, ruleset: Any) -> None:
            young = plays_by_rules[ruleset.deck, ruleset.guard_by].memo.young
            young.get(tuple(previous))
            young.get(tuple(candidate))

    return {"call": call, "find": find, "keys": keys, "lookups": lookups}


def child(pairs: int) -> None:
    import msgspec

    from baohuang.engine import judging
    from pairs import ruleset_named
    from peers import qqbot2_beats

    compare = judging.compare
    verdict = judging.verdict
    named_sets = pair_sets(pairs)
    sets = {
        label: [(ruleset_named(name), previous, candidate) for name, previous, candidate in named]
        for label, named in named_sets.items()
    }
    result: dict[str, Any] = {}
    for label, triples in sets.items():
        counts = memo_counts(triples, verdict)
        codes = [
            reason and reason.code
            for reason in (verdict(p, c, r) for r, p, c in triples)  # warm now
        ]
        result[f"{label}.disagree"] = sum(
            qqbot2_beats(p, c) != (code is None)
            for (_, p, c), code in zip(triples, codes, strict=True)
        )
        result[f"{label}.digest"] = hashlib.sha256(json.dumps(codes).encode()).hexdigest()[:16]
        result[f"{label}.beats"] = codes.count(None) / len(codes)
        result |= {f"{label}.{key}": value for key, value in counts.items()}

    def floor(part: list[Any]) -> None:
        for ruleset, previous, candidate in part:
            parse = ruleset.cards.parse
            parse(previous)
            parse(candidate)

    def qqbot2(part: list[Any]) -> None:
        for _, previous, candidate in part:
            qqbot2_beats(previous, candidate)

    def over(fn: Callable[[Any, Any, Any], Any]) -> Callable[[list[Any]], None]:
        def run(part: list[Any]) -> None:
            for ruleset, previous, candidate in part:
                fn(previous, candidate, ruleset)

        return run

    def loop(part: list[Any]) -> None:
        for _ruleset, _previous, _candidate in part:
            pass

    figures: dict[str, Callable[[list[Any]], None]] = {
        "floor": floor,
        "qqbot2": qqbot2,
        "verdict": over(verdict),
        "compare": over(compare),
    }
    steps = {"loop": loop} | {name: over(fn) for name, fn in step_functions().items()}
    encode = msgspec.json.encode
    decode = msgspec.json.decode
    shuffler = random.Random(1)
    for label, triples in sets.items():
        chunks = [triples[i : i + 100] for i in range(0, len(triples), 100)]
        blobs = [encode([(p, c) for _, p, c in part]) for part in chunks]
        rulesets = [[r for r, _, _ in part] for part in chunks]
        timed: dict[str, tuple[Callable[[list[Any]], None], bool]] = {
            **{f"{name}.kept": (fn, False) for name, fn in figures.items()},
            **{f"{name}.fresh": (fn, True) for name, fn in figures.items()},
            **{f"step.{name}": (fn, False) for name, fn in steps.items()},
        }
        for part in chunks:  # warm
            for fn, _ in timed.values():
                fn(part)
        samples: dict[str, list[float]] = {name: [] for name in timed}
        order = list(timed)
        gc.disable()
        for sample in range(2 * len(chunks)):
            index = sample % len(chunks)
            shuffler.shuffle(order)  # no figure always follows the same one
            for name in order:
                fn, fresh = timed[name]
                if fresh:  # new lists of new strings, as a request body decodes to
                    part = [
                        (r, p, c)
                        for r, (p, c) in zip(rulesets[index], decode(blobs[index]), strict=True)
                    ]
                else:
                    part = chunks[index]
                start = thread_time_ns()
                fn(part)
                samples[name].append((thread_time_ns() - start) / len(part))
        gc.enable()
        for name, values in samples.items():
            result[f"{label}.{name}"] = statistics.median(values)
        for lists in ("kept", "fresh"):
            at = f"{label}.{{}}.{lists}".format
            result[f"{label}.qqbot2/verdict.{lists}"] = result[at("qqbot2")] / result[at("verdict")]
            result[f"{label}.verdict/floor.{lists}"] = result[at("verdict")] / result[at("floor")]
            result[f"{label}.compare/floor.{lists}"] = result[at("compare")] / result[at("floor")]
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--before", help="a git revision to run alternately with the tree")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.child:
        child(args.pairs)
        return
    lines = alternate(__file__, args.runs, args.before, "--pairs", str(args.pairs))
    runs = {name: [json.loads(line) for line in found] for name, found in lines.items()}
    medians = {
        name: {
            key: statistics.median(r[key] for r in found)
            for key in found[0]
            if not key.endswith(".digest")
        }
        for name, found in runs.items()
    }
    digests = {r[f"{s}.digest"] for found in runs.values() for r in found for s in SETS}
    agree = len(digests) == len(SETS)  # one digest per set across every run and version
    pair_memo = {s: pair_memo_hits(named) for s, named in pair_sets(args.pairs).items()}
    print("verdicts agree across versions and runs:", agree)
    print("a pair memo would hit, one ordered pass:", pair_memo)
    for name, figures in medians.items():
        print(name, " ".join(f"{key}={value:.2f}" for key, value in figures.items()))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        summary = {"runs": runs, "medians": medians, "agree": agree, "pair_memo_hits": pair_memo}
        args.json.write_text(json.dumps(summary, indent=2))
    if not agree:
        sys.exit("the versions' verdicts differ")


if __name__ == "__main__":
    main()
