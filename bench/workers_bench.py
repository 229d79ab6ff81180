"""``baohuang serve --workers 1`` against ``--workers 2``: stateless validate and live-table moves
through Redis, side by side in one run (bench/RESULTS.md section 21).

    flock /tmp/bench.lock .venv/bin/python bench/workers_bench.py [--reps 3 --duration 8]

Both servers are up at once, each on its own port and its own Redis database of one
redis-server (so their tables never meet), with production settings (``baohuang serve`` as the
Dockerfile runs it, access log on). Per repetition, alternately for 1 and 2 workers: wrk against
``POST /v1/moves/validate`` and ``POST /v1/tables/{id}/moves`` with the same (snapshot, move)
sequences (``bench/wrk/seq.lua``, each connection owning its own tables, recreated each
repetition), then every table is checked to hold exactly the state its deal reaches. Nothing is
pinned: two workers need both CPUs, and wrk and redis-server share them with the servers, as
they share a node's. Reported: req/s, p50/p99, the share of a CPU each server's process group
got (parent and workers), medians over repetitions with min–max, and the 2-to-1 ratio per
repetition. The moves counted from ``/metrics`` (summed over the workers) must match wrk's.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from http_bench import SEQ_LUA, _check_tables, _games, _table_files
from loadgen import OUT, Server, baohuang_serve, med, per_request_ms, scrape_route, wrk
from redis_server import RedisServer

CONFIGS = {"1 worker": 1, "2 workers": 2}
ROUTES = {
    "validate": ("validate", "/v1/moves/validate"),
    "tables": ("table_move", "/v1/tables/{table_id}/moves"),
}


def _serve(port: int, workers: int, redis_url: str) -> Server:
    env = {
        "REDIS_URL": redis_url,
        "BAOHUANG_API_KEYS": "",
        "BAOHUANG_TOKEN_SECRET": "workers-bench",
    }
    command = [*baohuang_serve(port), "--workers", str(workers)]
    return Server(f"baohuang serve --workers {workers}", port, None, env, command=command)


def _spread(values: list[float]) -> str:
    return f"{med(values):,.0f} ({min(values):,.0f}–{max(values):,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=8.0, help="seconds per wrk run")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--tables-per-connection", type=int, default=8)
    parser.add_argument("--port", type=int, default=18180)
    parser.add_argument("--quiet", type=float, default=20.0, help="wait up to this for quiet")
    parser.add_argument("--json", type=Path, default=OUT / "workers.json")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `with Server` stops them
    OUT.mkdir(parents=True, exist_ok=True)
    games = _games(args)
    conns = args.connections
    print(f"{len(games)} tables, {sum(map(len, games))} moves in all; {conns} connections")
    redis = RedisServer.from_environment(own_session=True)
    redis.start()
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        config: {route: [] for route in ROUTES} for config in CONFIGS
    }
    wrong: dict[str, list[int]] = {config: [] for config in CONFIGS}
    started = time.time()
    servers: dict[str, Server] = {}
    try:
        for n, (config, workers) in enumerate(CONFIGS.items()):
            url = redis.url.rsplit("/", 1)[0] + f"/{n}"
            servers[config] = _serve(args.port + n, workers, url)
        for server in servers.values():  # warm-up: every worker imports and connects
            tables_dir, validate_dir, _ = _table_files(server, games, args, 0)
            for folder in (validate_dir, tables_dir):
                wrk(server.url("/"), args.warmup, conns, None, None, lua=SEQ_LUA,
                    threads=conns, env={"SEQ_DIR": str(folder)})  # fmt: skip
        for rep in range(1, args.reps + 1):
            for config, server in servers.items():
                tables_dir, validate_dir, created = _table_files(server, games, args, rep)
                for route, (operation, template) in ROUTES.items():
                    folder = validate_dir if route == "validate" else tables_dir
                    before = scrape_route(server, operation, template)
                    data = wrk(
                        server.url("/"),
                        args.duration,
                        conns,
                        None,
                        None,
                        server=server,
                        quiet=args.quiet,
                        lua=SEQ_LUA,
                        threads=conns,
                        env={"SEQ_DIR": str(folder)},
                        also=redis.pid,
                    )
                    data["server"] = per_request_ms(
                        before, scrape_route(server, operation, template)
                    )
                    runs[config][route].append(data)
                    print(
                        f"  rep {rep} {config:<9} {route:<8} {data['rps']:>8,.0f} req/s  "
                        f"p50 {data['latency_us']['p50'] / 1e3:.2f} ms  p99 "
                        f"{data['latency_us']['p99'] / 1e3:.2f} ms  server cpu "
                        f"{data['server_cpu_share']:.0%}  redis cpu "
                        f"{data['other_cpu_share']:.0%}  /metrics counted "
                        f"{data['server']['count']:.0f} of {data['requests']}, exhausted "
                        f"{data.get('exhausted_threads')} "
                        f"[busy before {data['busy_before'] or 0:.0%}]",
                        flush=True,
                    )
                wrong[config].append(_check_tables(server, games, created))
    finally:
        for server in servers.values():
            server.stop()
        redis.close()
    summary: dict[str, Any] = {}
    for route in ROUTES:
        one, two = runs["1 worker"][route], runs["2 workers"][route]
        ratios = [b["rps"] / a["rps"] for a, b in zip(one, two, strict=True)]
        summary[route] = {
            config: {
                "rps": med([r["rps"] for r in runs[config][route]]),
                "rps_all": [r["rps"] for r in runs[config][route]],
                "p50_ms": med([r["latency_us"]["p50"] / 1e3 for r in runs[config][route]]),
                "p99_ms": med([r["latency_us"]["p99"] / 1e3 for r in runs[config][route]]),
                "server_cpu_share": med([r["server_cpu_share"] for r in runs[config][route]]),
                "redis_cpu_share": med([r["other_cpu_share"] for r in runs[config][route]]),
                "non200": sum(
                    r.get("non200", 0) + r["errors"]["status"] for r in runs[config][route]
                ),
                "metrics_counted": [r["server"]["count"] for r in runs[config][route]],
                "wrk_requests": [r["requests"] for r in runs[config][route]],
            }
            for config in CONFIGS
        }
        summary[route]["ratio_2_to_1"] = {"median": med(ratios), "all": ratios}
        print(
            f"{route:<8} 1 worker {_spread([r['rps'] for r in one])} req/s, 2 workers "
            f"{_spread([r['rps'] for r in two])} req/s: ×{med(ratios):.2f} "
            f"({min(ratios):.2f}–{max(ratios):.2f})"
        )
    summary["wrong_tables"] = wrong
    print(f"tables holding a wrong state afterwards: {wrong}")
    from engine_bench import machine

    record = {"machine": machine(), "command": sys.argv, "started": started, "summary": summary}
    args.json.write_text(json.dumps({**record, "runs": runs}, indent=2))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
