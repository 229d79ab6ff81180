"""HTTP benchmark: the service in a subprocess on loopback, load from wrk in a second process.

    .venv/bin/python bench/http_bench.py combos [--duration 10 --reps 3] [--before REV]
    .venv/bin/python bench/http_bench.py play
    .venv/bin/python bench/http_bench.py tables                 # starts its own redis-server

``combos``: one server process (uvicorn[standard]: uvloop + httptools, the production factory
``baohuang.http.app:create_app``, one worker); then, interleaved per repetition, wrk against
``GET /healthz``, ``POST /v1/combos/compare`` (rotating over 500 realistic bodies: both decks,
every joker mix, 30 % kaopai) and ``POST /v1/combos/compare-batch`` with 10,000 pairs, classic
and lianzhong-classic with kaopai (one connection, so its latency is the service time).
``--before REV`` serves that revision too (a temporary git worktree, its own port, the same CPU),
interleaved with the working tree repetition by repetition. Ratios to /healthz are per repetition, same
server, same run; medians are reported. The batch's server time is also read from /metrics
(deltas of ``baohuang_engine_seconds{operation="batch"}`` and
``baohuang_http_request_duration_seconds{route="/v1/combos/compare-batch"}``).

``play``: /healthz against /v1/moves/validate on mid-deal snapshots. ``tables``: live-table
moves through Redis against stateless validate, the same moves. Results: bench/RESULTS.md.

With 2 CPUs the server is pinned to CPU 0 and wrk to CPU 1 (``taskset``; ``--no-pin`` to turn
off): one worker on one core, as in production (one uvicorn worker per pod, limit 1 CPU).
Everything is bounded: wrk runs ``--duration`` seconds, servers are stopped by their pid.
Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
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
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from loadgen import (
    BATCH_BODY,
    BENCH,
    COMPARE_BODIES,
    FACTORY,
    KAOPAI_BATCH_BODY,
    LUA,
    OUT,
    Server,
    http_request,
    med,
    per_request_ms,
    report,
    scrape,
    scrape_route,
    summarise,
    worktree,
    write_bodies,
    wrk,
)
from redis_server import RedisServer  # the tests' launcher: one way to run a redis-server

# --------------------------------------------------------------------------- suites


ENDPOINTS = {
    "healthz": ("/healthz", None),
    "compare": ("/v1/combos/compare", COMPARE_BODIES),
    "batch": ("/v1/combos/compare-batch", BATCH_BODY),
    "kaopai": ("/v1/combos/compare-batch", KAOPAI_BATCH_BODY),
}
BATCHES = ("batch", "kaopai")  # one connection each, so that latency is the service time


def run_combos(args: argparse.Namespace) -> dict[str, Any]:
    """Per repetition, each version's server in turn (the working tree, and ``--before``'s
    worktree when given, both up on their own ports and pinned to the same CPU), each endpoint."""
    with contextlib.ExitStack() as stack:
        versions: dict[str, Server] = {}
        if args.before:
            tree = stack.enter_context(worktree(args.before))
            env = {"PYTHONPATH": f"{tree / 'service'}{os.pathsep}{BENCH}"}
            versions["before"] = stack.enter_context(
                Server(FACTORY, args.port + 1, args.server_cpu, env)
            )
        versions["after"] = stack.enter_context(Server(FACTORY, args.port, args.server_cpu))
        runs = {name: {e: [] for e in ENDPOINTS} for name in versions}
        metrics: dict[str, dict[str, list[dict[str, float]]]] = {
            name: {e: [] for e in BATCHES} for name in versions
        }
        for server in versions.values():  # warm-up, not recorded
            for endpoint, (path, body) in ENDPOINTS.items():
                conns = 1 if endpoint in BATCHES else args.connections
                wrk(server.url(path), args.warmup, conns, body, args.wrk_cpu)
        for rep in range(args.reps):
            for name, server in versions.items():
                for endpoint, (path, body) in ENDPOINTS.items():
                    data = _combos_run(args, server, endpoint, path, body)
                    runs[name][endpoint].append(data)
                    extra = ""
                    if endpoint in BATCHES:
                        metrics[name][endpoint].append(data["server"])
                        extra = (
                            f"  p50 {data['latency_us']['p50'] / 1e3:.1f} ms, server "
                            f"{data['server']['http_ms']:.1f} ms, engine "
                            f"{data['server']['engine_ms']:.1f} ms"
                        )
                    print(
                        f"  rep {rep + 1} {name:<6} {endpoint:<8} {data['rps']:>9.1f} req/s"
                        f"{extra}  [server cpu {data['server_cpu_share']:.0%}, machine busy "
                        f"before {data['busy_before'] or 0:.0%}]",
                        flush=True,
                    )
    results = {name: _combos_summary(runs[name], metrics[name]) for name in versions}
    for name, result in results.items():
        summary = result["summary"]
        print(
            f"  -> {name}: healthz {summary['healthz_rps']:.0f}/s, compare "
            f"{summary['compare_rps']:.0f}/s ({summary['compare_ratio']:.1%} of healthz; "
            f"capacity {summary['compare_capacity_ratio']:.1%}), batch server "
            f"{summary['batch_server_ms']:.1f} ms (engine {summary['batch_engine_ms']:.1f} ms), "
            f"kaopai batch server {summary['kaopai_server_ms']:.1f} ms (engine "
            f"{summary['kaopai_engine_ms']:.1f} ms)",
            flush=True,
        )
    return results


def _combos_run(
    args: argparse.Namespace, server: Server, endpoint: str, path: str, body: Path | None
) -> dict[str, Any]:
    """One wrk run; for a batch, its server and engine time per request from /metrics."""
    batch = endpoint in BATCHES
    before = scrape(server) if batch else None
    conns = 1 if batch else args.connections
    data = wrk(
        server.url(path), args.duration, conns, body, args.wrk_cpu, server=server, quiet=args.quiet
    )
    if before is not None:
        after = scrape(server)
        delta = {k: after[k] - before[k] for k in after}
        data["server"] = {
            "engine_ms": 1e3 * delta["engine_sum"] / max(delta["engine_count"], 1),
            "http_ms": 1e3 * delta["http_sum"] / max(delta["http_count"], 1),
            "count": delta["http_count"],
        }
    return data


def _combos_summary(
    runs: dict[str, list[dict[str, Any]]], metrics: dict[str, list[dict[str, float]]]
) -> dict[str, Any]:
    """Medians over repetitions; ratios to /healthz per repetition (same server, same run)."""

    def ratios(endpoint: str, key: str) -> list[float]:
        pairs = zip(runs[endpoint], runs["healthz"], strict=True)
        return [run[key] / healthz[key] for run, healthz in pairs]

    summary: dict[str, Any] = {
        "healthz_capacity": med([r["capacity"] for r in runs["healthz"]]),
        "compare_capacity": med([r["capacity"] for r in runs["compare"]]),
        "compare_capacity_ratio": med(ratios("compare", "capacity")),
        "compare_capacity_ratios": ratios("compare", "capacity"),
        "compare_ratio": med(ratios("compare", "rps")),
        "compare_ratios": ratios("compare", "rps"),
    }
    for endpoint in ENDPOINTS:
        summary[f"{endpoint}_rps"] = med([r["rps"] for r in runs[endpoint]])
        summary[f"{endpoint}_p50_ms"] = med([r["latency_us"]["p50"] / 1e3 for r in runs[endpoint]])
    for endpoint in BATCHES:
        summary[f"{endpoint}_p99_ms"] = med([r["latency_us"]["p99"] / 1e3 for r in runs[endpoint]])
        summary[f"{endpoint}_server_ms"] = med([m["http_ms"] for m in metrics[endpoint]])
        summary[f"{endpoint}_server_runs_ms"] = [m["http_ms"] for m in metrics[endpoint]]
        summary[f"{endpoint}_engine_ms"] = med([m["engine_ms"] for m in metrics[endpoint]])
    return {"summary": summary, "runs": runs}


# --------------------------------------------------------------------------- play and tables


SEQ_LUA = BENCH / "wrk" / "seq.lua"
VALIDATE_SAMPLE = OUT / "validate_sample.jsonl"


def _games(args: argparse.Namespace) -> list[list[Any]]:
    from snapshots import game

    count = args.connections * args.tables_per_connection
    return [game(1000 + n, kaopai=n % 3 == 2) for n in range(count)]


def run_play(args: argparse.Namespace) -> dict[str, Any]:
    """The play phase: GET /healthz vs POST /v1/moves/validate (full-deck snapshots mid-deal, each with a
    legal move), same server, interleaved, wrk -t1 -c32 rotating over the bodies."""
    import random as _random

    from snapshots import validate_body

    games = _games(args)
    pairs = [step for steps in games for step in steps]
    sample = _random.Random(5).sample(pairs, min(args.bodies, len(pairs)))
    VALIDATE_SAMPLE.write_bytes(b"\n".join(validate_body(s, m) for s, m in sample) + b"\n")
    print(f"{len(sample)} validate bodies of {len(pairs)} moves in {len(games)} deals", flush=True)
    endpoints = {"healthz": ("/healthz", None), "validate": ("/v1/moves/validate", VALIDATE_SAMPLE)}
    runs: dict[str, list[dict[str, Any]]] = {e: [] for e in endpoints}
    env = {"REDIS_URL": ""}
    with Server(FACTORY, args.port, args.server_cpu, env) as server:
        for path, body in endpoints.values():
            wrk(server.url(path), args.warmup, args.connections, body, args.wrk_cpu)
        for rep in range(1, args.reps + 1):
            for name, (path, body) in endpoints.items():
                before = scrape_route(server, "validate", path)
                data = wrk(
                    server.url(path),
                    args.duration,
                    args.connections,
                    body,
                    args.wrk_cpu,
                    server=server,
                    quiet=args.quiet,
                )
                if name == "validate":
                    data["server"] = per_request_ms(before, scrape_route(server, "validate", path))
                runs[name].append(data)
                report(name, rep, data)
    return {"summary": summarise(runs, "healthz"), "runs": runs}


def _table_files(
    server: Server, games: list[list[Any]], args: argparse.Namespace, rep: int
) -> tuple[Path, Path, list[tuple[str, int]]]:
    """(Re)create every table from its deal's first snapshot (PUT), then write, per connection,
    the moves of its own tables interleaved round-robin with the right versions (tables/), and
    the same (snapshot, move) pairs as validate bodies in the same order (validate/)."""
    from snapshots import table_move_body, validate_body

    tables_dir, validate_dir = OUT / f"seq-tables-{rep}", OUT / f"seq-validate-{rep}"
    for folder in (tables_dir, validate_dir):
        folder.mkdir(parents=True, exist_ok=True)
    created: list[tuple[str, int]] = []
    per = args.tables_per_connection
    for conn in range(args.connections):
        table_lines, validate_lines = [], []
        mine = []
        for k in range(per):
            table_id = f"bench-{conn}-{k}"
            steps = games[conn * per + k]
            body = msgspec.json.encode({"snapshot": steps[0][0]})
            _status, answer = http_request("PUT", server.url(f"/v1/tables/{table_id}"), body)
            version = json.loads(answer)["version"]
            created.append((table_id, version))
            mine.append((table_id, version, steps))
        for index in range(max(len(steps) for _, _, steps in mine)):
            for table_id, version, steps in mine:
                if index < len(steps):
                    snapshot, move = steps[index]
                    path = f"/v1/tables/{table_id}/moves"
                    table_lines.append(f"{path}\t{table_move_body(move, version + index).decode()}")
                    body = validate_body(snapshot, move).decode()
                    validate_lines.append(f"/v1/moves/validate\t{body}")
        (tables_dir / f"{conn}.txt").write_text("\n".join(table_lines) + "\n")
        (validate_dir / f"{conn}.txt").write_text("\n".join(validate_lines) + "\n")
    return tables_dir, validate_dir, created


def _check_tables(server: Server, games: list[list[Any]], created: list[tuple[str, int]]) -> int:
    """Every table must hold exactly the state its deal reaches after the moves it took."""
    from baohuang.engine import Snapshot, apply_move

    decoder = msgspec.json.Decoder(dict[str, Any])
    wrong = 0
    for (table_id, first), steps in zip(created, games, strict=True):
        _, answer = http_request("GET", server.url(f"/v1/tables/{table_id}"))
        table = decoder.decode(answer)
        taken = table["version"] - first
        expected = steps[taken][0] if taken < len(steps) else apply_move(*steps[-1])[0]
        got = msgspec.convert(table["view"], Snapshot)  # a platform's view: the whole deal
        if msgspec.json.encode(got) != msgspec.json.encode(expected):
            wrong += 1
    return wrong


def run_tables(args: argparse.Namespace) -> dict[str, Any]:
    """Live tables: POST /v1/tables/{id}/moves through Redis vs stateless POST /v1/moves/validate with
    the same (snapshot, move) sequence, same server (REDIS_URL set), same run, same client:
    wrk -tN -cN with bench/wrk/seq.lua, each connection owning its own tables."""
    games = _games(args)
    moves = sum(map(len, games))
    print(f"{len(games)} tables (deals), {moves} moves in all", flush=True)
    wrap = ("taskset", "-c", args.wrk_cpu) if args.wrk_cpu is not None else ()
    redis = RedisServer.from_environment(wrap=wrap, own_session=True)
    redis.start()
    runs: dict[str, list[dict[str, Any]]] = {"healthz": [], "validate": [], "tables": []}
    wrong_tables: list[int] = []
    conns = args.connections
    try:
        env = {"REDIS_URL": redis.url, "BAOHUANG_API_KEYS": ""}
        with Server(FACTORY, args.port, args.server_cpu, env) as server:
            tables_dir, validate_dir, created = _table_files(server, games, args, 0)
            wrk(server.url("/healthz"), args.warmup, conns, None, args.wrk_cpu)
            for folder, lua in ((validate_dir, SEQ_LUA), (tables_dir, SEQ_LUA)):
                wrk(
                    server.url("/"),
                    args.warmup,
                    conns,
                    None,
                    args.wrk_cpu,
                    lua=lua,
                    threads=conns,
                    env={"SEQ_DIR": str(folder)},
                )
            for rep in range(1, args.reps + 1):
                tables_dir, validate_dir, created = _table_files(server, games, args, rep)
                plan = (
                    ("healthz", "/healthz", LUA, 1, {}, "validate", "/healthz"),
                    (
                        "validate",
                        "/",
                        SEQ_LUA,
                        conns,
                        {"SEQ_DIR": str(validate_dir)},
                        "validate",
                        "/v1/moves/validate",
                    ),
                    (
                        "tables",
                        "/",
                        SEQ_LUA,
                        conns,
                        {"SEQ_DIR": str(tables_dir)},
                        "table_move",
                        "/v1/tables/{table_id}/moves",
                    ),
                )
                for name, path, lua, threads, extra, operation, route in plan:
                    before = scrape_route(server, operation, route)
                    data = wrk(
                        server.url(path),
                        args.duration,
                        conns,
                        None,
                        args.wrk_cpu,
                        server=server,
                        quiet=args.quiet,
                        lua=lua,
                        threads=threads,
                        env=extra,
                        also=redis.pid,
                    )
                    if name != "healthz":
                        data["server"] = per_request_ms(
                            before, scrape_route(server, operation, route)
                        )
                    runs[name].append(data)
                    report(name, rep, data)
                wrong = _check_tables(server, games, created)
                wrong_tables.append(wrong)
                print(f"  rep {rep} tables holding a wrong state afterwards: {wrong}", flush=True)
    finally:
        redis.close()
    summary = summarise(runs, "healthz")
    tables, validate = runs["tables"], runs["validate"]
    summary["tables_vs_validate"] = {
        "ratio": med([t["rps"] / v["rps"] for t, v in zip(tables, validate, strict=True)]),
        "ratios": [t["rps"] / v["rps"] for t, v in zip(tables, validate, strict=True)],
        "capacity_ratio": med(
            [t["capacity"] / v["capacity"] for t, v in zip(tables, validate, strict=True)]
        ),
        "redis_cpu_share": med([t["other_cpu_share"] for t in tables]),
        "wrong_tables": wrong_tables,
    }
    print("tables/validate " + json.dumps(summary["tables_vs_validate"]))
    return {"summary": summary, "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", choices=("combos", "play", "tables"))
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per wrk run")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of unrecorded warm-up")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--bodies", type=int, default=2000, help="play: validate bodies")
    parser.add_argument(
        "--tables-per-connection", type=int, default=4, help="play/tables: deals per connection"
    )
    parser.add_argument(
        "--quiet",
        type=float,
        default=60.0,
        help="before each measured run wait up to this many s for an idle machine",
    )
    parser.add_argument("--no-pin", action="store_true", help="do not taskset server and wrk")
    parser.add_argument("--before", help="combos: also serve this git revision, interleaved")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `with Server` stops the server
    if shutil.which("wrk") is None:
        raise SystemExit("wrk not found: apt-get install -y wrk")
    pin = not args.no_pin and (os.cpu_count() or 1) >= 2 and shutil.which("taskset")
    args.server_cpu, args.wrk_cpu = ("0", "1") if pin else (None, None)
    write_bodies()
    from engine_bench import machine

    started = time.time()
    suites = {"combos": run_combos, "play": run_play, "tables": run_tables}
    results = suites[args.suite](args)
    record = {
        "machine": machine(),
        "command": sys.argv,
        "started": started,
        "args": {k: str(v) for k, v in vars(args).items()},
        "results": results,
    }
    path = args.json or OUT / f"http-{args.suite}.json"
    path.write_text(json.dumps(record, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
