"""Deal records: how big they are, what reading one back costs, what verifying one costs.

    flock /tmp/bench.lock .venv/bin/python bench/records_bench.py [--tables 8] [--runs 3]

Tables of every ruleset through the table service over the in-memory store, time moved by the
bench, three deals each, in two modes:

* ``moves``: every move of the deal made by its seat (seeded random legal moves, plays preferred),
  each 1–20 s after the one before, so that every act has a time of its own;
* ``trustee``: the five seats put in 托管 one after the other; 托管 plays the deal out.

For each finished deal: the compact record the table keeps in ``:deals`` (zlib), with its acts'
times (now: ``started`` and tenths of a second between them) and without them (as before this
change: compressed alike); the
record as ``GET /deals/{deal}`` sends it (JSON, one act a line) and gzipped; the time to read it
back through the service (``TableService.deal_record``: the history read, the compact record
decoded, the record built and cut) and to verify it (``baohuang.records.verify`` on the decoded
JSON), beside the baseline measured in the same run: the deal's moves applied by the engine
(``apply_move``), which verifying must do anyway. Medians over the deals of each run, then the
median (min–max) of the runs' medians.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from quiet import wait_for_quiet  # noqa: E402

RULESETS = ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]


class Time:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _play(service: Any, clock: Time, table_id: str, mode: str, rng: random.Random) -> None:
    from baohuang.engine import PlayMove, legal_moves
    from baohuang.tables.callers import PLATFORM

    if mode == "trustee":
        for seat in range(5):
            read = await service.read(table_id, PLATFORM)
            if not read.view.over:
                clock.now += rng.uniform(1, 20)
                await service.set_trustee(table_id, PLATFORM, seat, True, read.version)
        while not (await service.read(table_id, PLATFORM)).view.over:
            await service.tick()
        return
    while True:
        read = await service.read(table_id, PLATFORM)
        if read.view.over:
            return
        moves = legal_moves(read.view)
        plays = [move for move in moves if isinstance(move, PlayMove)]
        move = rng.choice(plays if plays and rng.random() < 0.7 else moves)
        clock.now += rng.uniform(1, 20)
        await service.move(table_id, PLATFORM, move, read.version)


async def run(tables: int, seed: int) -> dict[str, dict[str, list[float]]]:
    import msgspec

    from baohuang.engine import apply_move
    from baohuang.records import MoveAct, decode_record, encode_record, verify
    from baohuang.store import MemoryTableStore
    from baohuang.tables import Authority, TableService
    from baohuang.tables.callers import PLATFORM
    from baohuang.tables.dealing import CommittedDeal
    from baohuang.tables.deals import decode_deal

    rng = random.Random(seed)
    figures: dict[str, dict[str, list[float]]] = {}
    for mode in ("moves", "trustee"):
        clock = Time()
        service = TableService(MemoryTableStore(), Authority((), "bench"), clock=clock)
        found = figures.setdefault(mode, {})
        for number in range(tables):
            table_id = f"{mode}-{number}"
            ruleset = RULESETS[number % len(RULESETS)]
            await service.create(table_id, CommittedDeal(ruleset, number % 5, 0), PLATFORM)
            for _ in range(3):
                await _play(service, clock, table_id, mode, rng)
                read = await service.read(table_id, PLATFORM)
                await service.next_deal(table_id, PLATFORM, read.version, None)
            page = await service.store.read_events(table_id, 0, 1, with_deals=True)
            for data in page.deals:
                kept = decode_deal(data)
                untimed = msgspec.structs.replace(kept, started=None, times=[])
                found.setdefault("compact_bytes", []).append(len(data))
                untimed_bytes = len(zlib.compress(msgspec.json.encode(untimed), 6))
                found.setdefault("compact_bytes_untimed", []).append(untimed_bytes)
                started = time.perf_counter()
                record = await service.deal_record(table_id, PLATFORM, kept.deal)
                found.setdefault("export_ms", []).append((time.perf_counter() - started) * 1e3)
                sent = encode_record(record)
                found.setdefault("record_bytes", []).append(len(sent))
                found.setdefault("record_gzip_bytes", []).append(len(gzip.compress(sent)))
                found.setdefault("acts", []).append(len(record.acts))
                started = time.perf_counter()
                verdict = verify(decode_record(sent))
                found.setdefault("verify_ms", []).append((time.perf_counter() - started) * 1e3)
                assert verdict.valid, verdict.failure
                snapshot, moves = (
                    record.opening,
                    [a.move for a in record.acts if isinstance(a, MoveAct)],
                )
                started = time.perf_counter()
                for move in moves:
                    snapshot, _ = apply_move(snapshot, move)
                found.setdefault("replay_ms", []).append((time.perf_counter() - started) * 1e3)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    runs = []
    for index in range(args.runs):
        busy = wait_for_quiet(max_wait=60)
        figures = asyncio.run(run(args.tables, seed=index))
        runs.append(figures)
        medians = {
            mode: {name: statistics.median(values) for name, values in found.items()}
            for mode, found in figures.items()
        }
        print(f"run {index + 1} (busy before {busy:.0%}): {json.dumps(medians)}", flush=True)
    print("\nmedian (min–max) of the runs' medians")
    for mode in runs[0]:
        for name in runs[0][mode]:
            per_run = [statistics.median(run[mode][name]) for run in runs]
            print(
                f"  {mode:8} {name:22} {statistics.median(per_run):10.1f} ({min(per_run):.1f}–{max(per_run):.1f})"
            )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(runs))


if __name__ == "__main__":
    main()
