"""Overload on one process: live-table moves from wrk at 50, 200, 500 and 1,000 connections.

    .venv/bin/python bench/overload_bench.py                      # 50,200,500,1000 x 3 reps
    .venv/bin/python bench/overload_bench.py --levels 500,1000 --reps 1 --duration 15
    .venv/bin/python bench/overload_bench.py --env REDIS_MAX_CONNECTIONS=128   # try a setting

One ``baohuang serve`` (uvicorn, one worker, pinned to CPU 0) on our own redis-server (the
tests' launcher, a free port; pinned to CPU 1 with wrk and the prober). Load: ``wrk -t2 -cN
-d15s`` with ``bench/wrk/tables.lua``: every request is a move on a table no other request is
using, against the version its last answer gave (a real compare-and-set in Redis, events
appended). Tables: max(400, 2N) per level, PUT again before each run (a new instance), each the
first snapshot of one of 64 random deals (``bench/snapshots.py``'s agent, seeds 2000–2063,
every third with kaopai), whose moves the script plays in order; a thread plays its idle tables
last in, first out, so about N tables are in play and the rest are spares (see the script); no
API keys (platform caller).

Per run: requests/s, latency p50/p99 (wrk, --timeout 10s so slow answers are measured, not
dropped), answers by status and 503 code (OVERLOADED / STORE_UNAVAILABLE), and ``/readyz``
probed every 200 ms from a separate process on a new connection each time (timeout 3 s, the
Helm chart's readiness timeout): probes not answering 200 and the probe p99. Also the server's
CPU share, Redis connections it holds afterwards and ``baohuang_store_overloaded_total``.
Levels are interleaved within each repetition; medians over repetitions are reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_bench import wrk
from live import (
    BENCH,
    OUT,
    cpu_seconds,
    finish_prober,
    machine_line,
    med,
    metric,
    own_redis,
    put_tables,
    raise_open_files,
    redis_clients_by_process,
    serve,
    start_prober,
)
from quiet import wait_for_quiet

TABLES_LUA = BENCH / "wrk" / "tables.lua"
DEALS = 64


def write_deals(path: Path) -> list[bytes]:
    """The 64 deals' moves for tables.lua, and each deal's PUT body (its first snapshot)."""
    from snapshots import game

    lines, bodies = [], []
    for n in range(DEALS):
        steps = game(2000 + n, kaopai=n % 3 == 2)
        bodies.append(msgspec.json.encode({"snapshot": steps[0][0]}))
        lines += [f"{n}\t{msgspec.json.encode(move).decode()}" for _, move in steps]
    path.write_text("\n".join(lines) + "\n")
    return bodies


def create_tables(port: int, prefix: str, count: int, bodies: list[bytes], path: Path) -> None:
    """PUT ``count`` tables (a new instance each) and write tables.lua's TABLES file."""
    wanted = [(f"{prefix}-{k}", bodies[k % DEALS]) for k in range(count)]
    answers = asyncio.run(put_tables(port, wanted, concurrency=16))
    rows = [
        f"{tid}\t{answers[tid]['instance']}\t{answers[tid]['version']}\t{k % DEALS}"
        for k, (tid, _) in enumerate(wanted)
    ]
    path.write_text("\n".join(rows) + "\n")


def run_level(
    args: argparse.Namespace, server: Any, redis: Any, level: int, bodies: list[bytes]
) -> dict[str, Any]:
    tables_file = OUT / f"overload-tables-{level}.txt"
    create_tables(server.port, f"ov{level}", max(400, 2 * level), bodies, tables_file)
    overloaded0 = metric(server.port, r"baohuang_store_overloaded_total")
    busy = wait_for_quiet(max_wait=args.quiet) if args.quiet > 0 else None
    prober = start_prober(server.url("/readyz"), args.duration, args.wrk_cpu)  # wrk's window
    redis_cpu = cpu_seconds(redis.pid)
    data = wrk(
        server.url("/"),
        args.duration,
        level,
        None,
        args.wrk_cpu,
        timeout=10.0,
        server=server,
        lua=TABLES_LUA,
        threads=2,
        env={"TABLES": str(tables_file), "MOVES": str(args.moves), "THREADS": "2"},
    )
    data["redis_cpu_share"] = (cpu_seconds(redis.pid) - redis_cpu) / args.duration
    data["busy_before"] = busy
    data["probe"] = finish_prober(prober)
    data["store_overloaded"] = metric(server.port, r"baohuang_store_overloaded_total") - overloaded0
    data["redis_connections"] = redis_clients_by_process(
        redis.port, {"server": server.process.pid}
    )["server"]
    answers = data["answers"]
    total = max(data["requests"], 1)
    data["share_503"] = sum(v for k, v in answers.items() if k.startswith("503")) / total
    data["share_other_non2xx"] = (answers["409"] + answers["422"] + answers["other"]) / total
    return data


def report(level: int, rep: int, d: dict[str, Any]) -> None:
    a, p = d["answers"], d["probe"]
    print(
        f"  rep {rep} c={level:<5} {d['rps']:>7.0f} req/s  p50 {d['latency_us']['p50'] / 1e3:7.1f} ms"
        f"  p99 {d['latency_us']['p99'] / 1e3:7.1f} ms  503 {d['share_503']:.2%}"
        f" (OVERLOADED {a['503 OVERLOADED']}, STORE_UNAVAILABLE {a['503 STORE_UNAVAILABLE']},"
        f" other {a['503 other']})  other non-2xx {d['share_other_non2xx']:.2%}"
        f"  wrk timeouts {d['errors']['timeout']}  readyz not-200 {p['not_200']}/{p['probes']}"
        f" p99 {p['p99_ms']:.0f} ms  [server cpu {d['server_cpu_share']:.0%}, redis cpu"
        f" {d['redis_cpu_share']:.0%}, redis conns {d['redis_connections']}, busy before"
        f" {d['busy_before'] or 0:.0%}]",
        flush=True,
    )


def summarise(runs: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    summary = {}
    for level, values in runs.items():
        summary[level] = {
            "rps": med(v["rps"] for v in values),
            "rps_range": [min(v["rps"] for v in values), max(v["rps"] for v in values)],
            "p50_ms": med(v["latency_us"]["p50"] / 1e3 for v in values),
            "p99_ms": med(v["latency_us"]["p99"] / 1e3 for v in values),
            "p99_ms_range": [
                min(v["latency_us"]["p99"] / 1e3 for v in values),
                max(v["latency_us"]["p99"] / 1e3 for v in values),
            ],
            "share_503": med(v["share_503"] for v in values),
            "answers_503": {
                code: sum(v["answers"][code] for v in values)
                for code in ("503 OVERLOADED", "503 STORE_UNAVAILABLE", "503 other")
            },
            "share_other_non2xx": med(v["share_other_non2xx"] for v in values),
            "wrk_timeouts": sum(v["errors"]["timeout"] for v in values),
            "readyz_not_200": sum(v["probe"]["not_200"] for v in values),
            "readyz_probes": sum(v["probe"]["probes"] for v in values),
            "readyz_p99_ms": med(v["probe"]["p99_ms"] for v in values),
            "readyz_max_ms": max(v["probe"]["max_ms"] for v in values),
            "server_cpu_share": med(v["server_cpu_share"] for v in values),
            "redis_connections": max(v["redis_connections"] for v in values),
        }
        s = summary[level]
        print(
            f"c={level:<5} {s['rps']:.0f} req/s ({s['rps_range'][0]:.0f}-{s['rps_range'][1]:.0f})"
            f"  p50 {s['p50_ms']:.1f} ms  p99 {s['p99_ms']:.1f} ms  503 {s['share_503']:.2%}"
            f" {s['answers_503']}  other non-2xx {s['share_other_non2xx']:.2%}"
            f"  readyz not-200 {s['readyz_not_200']}/{s['readyz_probes']} p99"
            f" {s['readyz_p99_ms']:.0f} ms (max {s['readyz_max_ms']:.0f})",
            flush=True,
        )
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="50,200,500,1000")
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--port", type=int, default=18400)
    parser.add_argument(
        "--quiet", type=float, default=20.0, help="wait up to this for an idle machine"
    )
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    parser.add_argument("--no-pin", action="store_true")
    parser.add_argument("--json", type=Path, default=OUT / "overload.json")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the servers are stopped
    if shutil.which("wrk") is None:
        raise SystemExit("wrk not found: apt-get install -y wrk")
    OUT.mkdir(parents=True, exist_ok=True)
    files = raise_open_files()
    pin = not args.no_pin and (os.cpu_count() or 1) >= 2
    args.server_cpu, args.wrk_cpu = ("0", "1") if pin else (None, None)
    env = dict(item.split("=", 1) for item in args.env)
    levels = [int(n) for n in args.levels.split(",")]
    print(f"{machine_line()}; open files {files}; server env {env or 'defaults'}", flush=True)
    args.moves = OUT / "overload-moves.txt"
    bodies = write_deals(args.moves)
    redis = own_redis(args.wrk_cpu)
    runs: dict[int, list[dict[str, Any]]] = {level: [] for level in levels}
    started = time.time()
    try:
        with serve(args.port, redis.url, args.server_cpu, **env) as server:
            warm = OUT / "overload-tables-warm.txt"
            create_tables(server.port, "warm", 200, bodies, warm)
            wrk(server.url("/"), 3, 50, None, args.wrk_cpu, lua=TABLES_LUA, threads=2,
                env={"TABLES": str(warm), "MOVES": str(args.moves), "THREADS": "2"})  # fmt: skip
            for rep in range(1, args.reps + 1):
                for level in levels:
                    data = run_level(args, server, redis, level, bodies)
                    runs[level].append(data)
                    report(level, rep, data)
    finally:
        redis.close()
    summary = summarise(runs)
    record = {
        "machine": machine_line(),
        "command": sys.argv,
        "started": started,
        "env": env,
        "summary": summary,
        "runs": runs,
    }
    args.json.write_text(json.dumps(record, indent=2))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
