"""HTTP benchmark: the service in a subprocess on loopback, load from wrk in a second process.

    .venv/bin/python bench/http_bench.py servers [--duration 10 --reps 3]   # uvicorn vs granian
    .venv/bin/python bench/http_bench.py metrics [--server uvicorn]          # metrics overhead

``servers``: for each ASGI server (uvicorn[standard] = uvloop + httptools, and granian
``--interface asgi``), one server process with the production factory
``baohuang.http.app:create_app``, one worker; then, interleaved per repetition, wrk against
``GET /healthz``, ``POST /v1/combos/compare`` (rotating over 500 realistic bodies: both decks,
every joker mix, 30 % kaopai) and ``POST /v1/combos/compare-batch`` with 10,000 pairs (one
connection, so its latency is the service time). Ratios to /healthz are per repetition, same
server, same run; medians are reported. The batch's server time is also read from /metrics
(deltas of ``baohuang_engine_seconds{operation="batch"}`` and
``baohuang_http_request_duration_seconds{route="/v1/combos/compare-batch"}``).

``metrics``: /healthz (and /v1/combos/compare) throughput of the bench-only variants in
bench/bench_apps.py: ``bare`` (no metrics at all), ``unwrapped`` (no HttpMetrics), ``lean``
(production) and ``plugin`` (Litestar's Prometheus plugin instead of HttpMetrics), one server
process per variant per repetition, variants interleaved so drift hits them alike.

With 2 CPUs the server is pinned to CPU 0 and wrk to CPU 1 (``taskset``; ``--no-pin`` to turn
off): one worker on one core, as in production (one uvicorn worker per pod, limit 1 CPU).
Everything is bounded: wrk runs ``--duration`` seconds, servers are stopped by their pid.
Traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from quiet import group_cpu_seconds, wait_for_quiet

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
VENV_BIN = ROOT / ".venv" / "bin"
LUA = BENCH / "wrk" / "bench.lua"

FACTORY = "baohuang.http.app:create_app"
COMPARE_BODIES = OUT / "compare_bodies.jsonl"
BATCH_BODY = OUT / "batch_10k.jsonl"


# --------------------------------------------------------------------------- bodies


def write_bodies() -> None:
    """500 compare bodies (mixed rulesets) and one 10,000-pair classic batch, seeded."""
    from pairs import batch_pairs, mixed_pairs, ruleset_wire

    OUT.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, previous, candidate in mixed_pairs(500, seed=31, kaopai_share=0.3):
        body = {"previous": previous, "candidate": candidate, "ruleset": ruleset_wire(name)}
        lines.append(json.dumps(body, separators=(",", ":")))
    COMPARE_BODIES.write_text("\n".join(lines) + "\n")
    pairs = [{"previous": p, "candidate": c} for p, c in batch_pairs(10_000, "classic", False)]
    batch = json.dumps({"pairs": pairs, "ruleset": "classic"}, separators=(",", ":"))
    if len(batch) > 1024 * 1024:
        raise SystemExit(f"batch body is {len(batch)} bytes, over the 1 MiB limit")
    BATCH_BODY.write_text(batch + "\n")


# --------------------------------------------------------------------------- servers


def server_command(server: str, target: str, port: int) -> list[str]:
    if server == "uvicorn":
        return [
            str(VENV_BIN / "uvicorn"),
            "--factory",
            target,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--loop",
            "uvloop",
            "--http",
            "httptools",
            "--no-access-log",
            "--log-level",
            "warning",
            "--no-server-header",
        ]
    if server == "granian":
        return [
            str(VENV_BIN / "granian"),
            "--interface",
            "asgi",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--runtime-threads",
            "1",
            "--loop",
            "uvloop",
            "--no-access-log",
            "--log-level",
            "warning",
            target,
        ]
    raise ValueError(server)


def stop_group(process: subprocess.Popen[bytes], log: IO[str]) -> None:
    """Stop a child we started in its own session: SIGTERM to its group, SIGKILL if it lingers."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)  # the group we started, by its id
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    log.close()


class Server:
    """A server subprocess (own process group), stopped by its pid on exit."""

    def __init__(
        self,
        server: str,
        target: str,
        port: int,
        pin: str | None,
        env: dict[str, str] | None = None,
    ) -> None:
        command = server_command(server, target, port)
        if pin is not None:
            command = ["taskset", "-c", pin, *command]
        env = os.environ | {"PYTHONPATH": str(BENCH), "LOG_LEVEL": "WARNING"} | (env or {})
        self.name, self.port = server, port
        self.log = open(OUT / f"server-{server}-{port}.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            command,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=ROOT,
        )
        self._wait_ready()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _wait_ready(self, seconds: float = 60.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"{self.name} exited with {self.process.returncode}; see {self.log.name}"
                )
            try:
                with urllib.request.urlopen(self.url("/healthz"), timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{self.name} not ready in {seconds} s")

    def stop(self) -> None:
        stop_group(self.process, self.log)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: Any) -> None:
        self.stop()


# --------------------------------------------------------------------------- wrk


def wrk(
    url: str,
    duration: float,
    connections: int,
    body_file: Path | None,
    pin: str | None,
    timeout: float = 5.0,
    server: Server | None = None,
    quiet: float = 0.0,
    lua: Path = LUA,
    threads: int = 1,
    env: dict[str, str] | None = None,
    also: int | None = None,
) -> dict[str, Any]:
    """One wrk run. With ``quiet`` > 0, first wait up to that many seconds for an idle machine;
    with ``server``, also record the share of one CPU the server process group got (and with
    ``also``, the share of another process group, e.g. a redis-server)."""
    busy_before = wait_for_quiet(max_wait=quiet) if quiet > 0 else None
    command = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{duration:g}s",
        f"--timeout={timeout:g}s",
        "-s",
        str(lua),
        url,
    ]
    if pin is not None:
        command = ["taskset", "-c", pin, *command]
    env = os.environ | {"BODY_FILE": str(body_file) if body_file else ""} | (env or {})
    cpu0, wall0 = (group_cpu_seconds(server.process.pid), time.monotonic()) if server else (0, 0)
    other0 = group_cpu_seconds(also) if also else 0.0
    result = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=duration + 30, check=True
    )
    cpu1, wall1 = (group_cpu_seconds(server.process.pid), time.monotonic()) if server else (0, 1)
    other1 = group_cpu_seconds(also) if also else 0.0
    match = re.search(r"^WRK_JSON (.*)$", result.stdout, re.M)
    if not match:
        raise RuntimeError(f"no WRK_JSON in wrk output:\n{result.stdout}\n{result.stderr}")
    data: dict[str, Any] = json.loads(match.group(1))
    data["first_bad"] = re.findall(r"^FIRST_BAD (.*)$", result.stdout, re.M)[:5]
    for line in data["first_bad"]:
        print(f"  first non-200: {line}", file=sys.stderr)
    data["rps"] = data["requests"] / (data["duration_us"] / 1e6)
    data["busy_before"] = busy_before
    if server is not None:
        data["server_cpu_share"] = (cpu1 - cpu0) / (wall1 - wall0)
        data["capacity"] = data["rps"] / max(data["server_cpu_share"], 1e-9)
    if also:
        data["other_cpu_share"] = (other1 - other0) / (wall1 - wall0)
    bad = sum(data["errors"].values())
    if bad:
        print(f"  WARNING {url}: errors {data['errors']}", file=sys.stderr)
    return data


def scrape(server: Server) -> dict[str, float]:
    """The batch route's histogram sums and counts from /metrics."""
    with urllib.request.urlopen(server.url("/metrics"), timeout=10) as response:
        text = response.read().decode()
    wanted = {
        "engine_sum": r'^baohuang_engine_seconds_sum\{operation="batch"\} (\S+)$',
        "engine_count": r'^baohuang_engine_seconds_count\{operation="batch"\} (\S+)$',
        "http_sum": r"^baohuang_http_request_duration_seconds_sum\{[^}]*"
        r'route="/v1/combos/compare-batch",status="200"\} (\S+)$',
        "http_count": r"^baohuang_http_request_duration_seconds_count\{[^}]*"
        r'route="/v1/combos/compare-batch",status="200"\} (\S+)$',
    }
    found = {}
    for key, pattern in wanted.items():
        match = re.search(pattern, text, re.M)
        found[key] = float(match.group(1)) if match else 0.0
    return found


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# --------------------------------------------------------------------------- suites


ENDPOINTS = {
    "healthz": ("/healthz", None),
    "compare": ("/v1/combos/compare", COMPARE_BODIES),
    "batch": ("/v1/combos/compare-batch", BATCH_BODY),
}


def run_servers(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for offset, name in enumerate(args.servers):
        port = args.port + offset
        print(f"== {name} (port {port})", flush=True)
        runs: dict[str, list[dict[str, Any]]] = {e: [] for e in ENDPOINTS}
        metrics: list[dict[str, float]] = []
        with Server(name, FACTORY, port, args.server_cpu) as server:
            for endpoint, (path, body) in ENDPOINTS.items():  # warm-up, not recorded
                conns = 1 if endpoint == "batch" else args.connections
                wrk(server.url(path), args.warmup, conns, body, args.wrk_cpu)
            for rep in range(args.reps):
                for endpoint, (path, body) in ENDPOINTS.items():
                    conns = 1 if endpoint == "batch" else args.connections
                    before = scrape(server) if endpoint == "batch" else None
                    data = wrk(
                        server.url(path),
                        args.duration,
                        conns,
                        body,
                        args.wrk_cpu,
                        server=server,
                        quiet=args.quiet,
                    )
                    if before is not None:
                        after = scrape(server)
                        delta = {k: after[k] - before[k] for k in after}
                        data["server"] = {
                            "engine_ms": 1e3 * delta["engine_sum"] / max(delta["engine_count"], 1),
                            "http_ms": 1e3 * delta["http_sum"] / max(delta["http_count"], 1),
                            "count": delta["http_count"],
                        }
                        metrics.append(data["server"])
                    runs[endpoint].append(data)
                    extra = ""
                    if endpoint == "batch":
                        extra = (
                            f"  p50 {data['latency_us']['p50'] / 1e3:.1f} ms, server "
                            f"{data['server']['http_ms']:.1f} ms, engine "
                            f"{data['server']['engine_ms']:.1f} ms"
                        )
                    print(
                        f"  rep {rep + 1} {endpoint:<8} {data['rps']:>9.1f} req/s{extra}"
                        f"  [server cpu {data['server_cpu_share']:.0%}, machine busy before "
                        f"{data['busy_before'] or 0:.0%}]",
                        flush=True,
                    )
        ratios_compare = [
            c["rps"] / h["rps"] for c, h in zip(runs["compare"], runs["healthz"], strict=True)
        ]
        ratios_batch = [
            b["rps"] / h["rps"] for b, h in zip(runs["batch"], runs["healthz"], strict=True)
        ]
        capacity_compare = [
            c["capacity"] / h["capacity"]
            for c, h in zip(runs["compare"], runs["healthz"], strict=True)
        ]
        summary = {
            "healthz_capacity": med([r["capacity"] for r in runs["healthz"]]),
            "compare_capacity": med([r["capacity"] for r in runs["compare"]]),
            "compare_capacity_ratio": med(capacity_compare),
            "compare_capacity_ratios": capacity_compare,
            "healthz_rps": med([r["rps"] for r in runs["healthz"]]),
            "compare_rps": med([r["rps"] for r in runs["compare"]]),
            "batch_rps": med([r["rps"] for r in runs["batch"]]),
            "compare_ratio": med(ratios_compare),
            "compare_ratios": ratios_compare,
            "batch_ratio": med(ratios_batch),
            "healthz_p50_ms": med([r["latency_us"]["p50"] / 1e3 for r in runs["healthz"]]),
            "compare_p50_ms": med([r["latency_us"]["p50"] / 1e3 for r in runs["compare"]]),
            "batch_p50_ms": med([r["latency_us"]["p50"] / 1e3 for r in runs["batch"]]),
            "batch_p99_ms": med([r["latency_us"]["p99"] / 1e3 for r in runs["batch"]]),
            "batch_server_ms": med([m["http_ms"] for m in metrics]),
            "batch_engine_ms": med([m["engine_ms"] for m in metrics]),
        }
        results[name] = {"summary": summary, "runs": runs}
        print(
            f"  -> healthz {summary['healthz_rps']:.0f}/s, compare {summary['compare_rps']:.0f}/s"
            f" ({summary['compare_ratio']:.1%} of healthz; capacity "
            f"{summary['compare_capacity_ratio']:.1%}), batch p50 "
            f"{summary['batch_p50_ms']:.1f} ms (server {summary['batch_server_ms']:.1f} ms, "
            f"engine {summary['batch_engine_ms']:.1f} ms)",
            flush=True,
        )
    return results


def run_metrics(args: argparse.Namespace) -> dict[str, Any]:
    endpoints = {"healthz": ENDPOINTS["healthz"]}
    if not args.healthz_only:
        endpoints["compare"] = ENDPOINTS["compare"]
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {
        v: {e: [] for e in endpoints} for v in args.variants
    }
    for rep in range(args.reps):
        for offset, variant in enumerate(args.variants):
            port = args.port + offset
            with Server(args.server, f"bench_apps:{variant}", port, args.server_cpu) as server:
                for path, body in endpoints.values():
                    wrk(server.url(path), args.warmup, args.connections, body, args.wrk_cpu)
                for endpoint, (path, body) in endpoints.items():
                    data = wrk(
                        server.url(path),
                        args.duration,
                        args.connections,
                        body,
                        args.wrk_cpu,
                        server=server,
                        quiet=args.quiet,
                    )
                    runs[variant][endpoint].append(data)
                    print(
                        f"  rep {rep + 1} {variant:<10}{endpoint:<8} {data['rps']:>9.1f} req/s"
                        f"  [server cpu {data['server_cpu_share']:.0%}, machine busy before "
                        f"{data['busy_before'] or 0:.0%}]",
                        flush=True,
                    )
    base = args.variants[0]
    summary: dict[str, Any] = {}
    for variant in args.variants:
        summary[variant] = {}
        for endpoint in endpoints:
            mine = [r["rps"] for r in runs[variant][endpoint]]
            theirs = [r["rps"] for r in runs[base][endpoint]]
            ratios = [v / b for v, b in zip(mine, theirs, strict=True)]
            summary[variant][endpoint] = {
                "rps": med(mine),
                "ratio_to_" + base: med(ratios),
                "ratios": ratios,
                "us_per_request_over_" + base: 1e6 / med(mine) - 1e6 / med(theirs),
                "server_cpu_share": med([r["server_cpu_share"] for r in runs[variant][endpoint]]),
            }
            s = summary[variant][endpoint]
            print(
                f"{variant:<10}{endpoint:<8} {s['rps']:>9.1f} req/s  {s['ratio_to_' + base]:.1%}"
                f" of {base}  (+{s['us_per_request_over_' + base]:.1f} us/request)"
            )
    return {"summary": summary, "runs": runs}


# --------------------------------------------------------------------------- play and tables


SEQ_LUA = BENCH / "wrk" / "seq.lua"
VALIDATE_SAMPLE = OUT / "validate_sample.jsonl"


def _http(method: str, url: str, body: bytes | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, data=body, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


def scrape_route(server: Server, operation: str, route: str) -> dict[str, float]:
    """Sums and counts of the engine histogram for ``operation`` and the http one for ``route``."""
    with urllib.request.urlopen(server.url("/metrics"), timeout=10) as response:
        text = response.read().decode()
    route = re.escape(route)
    found = {}
    for key, pattern in {
        "engine_sum": rf'^baohuang_engine_seconds_sum\{{operation="{operation}"\}} (\S+)$',
        "engine_count": rf'^baohuang_engine_seconds_count\{{operation="{operation}"\}} (\S+)$',
        "http_sum": r"^baohuang_http_request_duration_seconds_sum\{[^}]*"
        rf'route="{route}",status="200"\}} (\S+)$',
        "http_count": r"^baohuang_http_request_duration_seconds_count\{[^}]*"
        rf'route="{route}",status="200"\}} (\S+)$',
        "get_sum": r'^baohuang_store_seconds_sum\{operation="get",outcome="ok"\} (\S+)$',
        "get_count": r'^baohuang_store_seconds_count\{operation="get",outcome="ok"\} (\S+)$',
        "cas_sum": r'^baohuang_store_seconds_sum\{operation="cas",outcome="ok"\} (\S+)$',
        "cas_count": r'^baohuang_store_seconds_count\{operation="cas",outcome="ok"\} (\S+)$',
    }.items():
        match = re.search(pattern, text, re.M)
        found[key] = float(match.group(1)) if match else 0.0
    return found


def per_request_ms(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    d = {k: after[k] - before[k] for k in after}
    return {
        "engine_ms": 1e3 * d["engine_sum"] / max(d["engine_count"], 1),
        "http_ms": 1e3 * d["http_sum"] / max(d["http_count"], 1),
        "count": d["http_count"],
        "store_get_ms": 1e3 * d["get_sum"] / max(d["get_count"], 1),
        "store_cas_ms": 1e3 * d["cas_sum"] / max(d["cas_count"], 1),
    }


def _games(args: argparse.Namespace) -> list[list[Any]]:
    from snapshots import game

    count = args.connections * args.tables_per_connection
    return [game(1000 + n, kaopai=n % 3 == 2) for n in range(count)]


def _report(label: str, rep: int, data: dict[str, Any]) -> None:
    extra = ""
    if "server" in data:
        extra = (
            f", server {data['server']['http_ms']:.2f} ms, engine "
            f"{data['server']['engine_ms']:.2f} ms"
        )
        if data["server"]["store_cas_ms"]:
            extra += (
                f", store get {data['server']['store_get_ms']:.2f} ms,"
                f" cas {data['server']['store_cas_ms']:.2f} ms"
            )
    if "other_cpu_share" in data:
        extra += f", redis cpu {data['other_cpu_share']:.0%}"
    if data.get("non200") or data.get("exhausted_threads"):
        extra += (
            f"  NON-200 {data.get('non200')} (last {data.get('last_bad_status')}),"
            f" exhausted threads {data.get('exhausted_threads')}"
        )
    print(
        f"  rep {rep} {label:<9}{data['rps']:>9.1f} req/s  capacity {data['capacity']:>8.0f}"
        f"  p50 {data['latency_us']['p50'] / 1e3:.2f} ms  p99 {data['latency_us']['p99'] / 1e3:.2f}"
        f" ms{extra}  [server cpu {data['server_cpu_share']:.0%}, busy before "
        f"{data['busy_before'] or 0:.0%}]",
        flush=True,
    )


def _summarise(runs: dict[str, list[dict[str, Any]]], base: str) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for name, values in runs.items():
        entry = {
            "rps": med([r["rps"] for r in values]),
            "capacity": med([r["capacity"] for r in values]),
            "server_cpu_share": med([r["server_cpu_share"] for r in values]),
            "p50_ms": med([r["latency_us"]["p50"] / 1e3 for r in values]),
            "p99_ms": med([r["latency_us"]["p99"] / 1e3 for r in values]),
            "non200": sum(r.get("non200", 0) + r["errors"]["status"] for r in values),
        }
        if values and "server" in values[0]:
            entry["server_ms"] = med([r["server"]["http_ms"] for r in values])
            entry["engine_ms"] = med([r["server"]["engine_ms"] for r in values])
            entry["store_get_ms"] = med([r["server"]["store_get_ms"] for r in values])
            entry["store_cas_ms"] = med([r["server"]["store_cas_ms"] for r in values])
        if name != base:
            raw = [v["rps"] / b["rps"] for v, b in zip(values, runs[base], strict=True)]
            cap = [v["capacity"] / b["capacity"] for v, b in zip(values, runs[base], strict=True)]
            entry |= {f"ratio_to_{base}": med(raw), "ratios": raw}
            entry |= {f"capacity_ratio_to_{base}": med(cap), "capacity_ratios": cap}
        summary[name] = entry
        print(f"{name:<9} " + json.dumps({k: v for k, v in entry.items() if "ratios" not in k}))
    return summary


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
    with Server(args.server, FACTORY, args.port, args.server_cpu, env) as server:
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
                _report(name, rep, data)
    return {"summary": _summarise(runs, "healthz"), "runs": runs}


class RedisServer:
    """Our own redis-server (no persistence) on ``port``, in its own session, stopped by pid."""

    def __init__(self, port: int, pin: str | None) -> None:
        command = [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
        ]
        if pin is not None:
            command = ["taskset", "-c", pin, *command]
        self.log = open(OUT / f"redis-{port}.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.url = f"redis://127.0.0.1:{port}/0"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            ping = subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True, check=False
            )
            if ping.stdout.strip() == "PONG":
                return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"redis-server on {port} not ready")

    def stop(self) -> None:
        stop_group(self.process, self.log)


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
            _status, answer = _http("PUT", server.url(f"/v1/tables/{table_id}"), body)
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
        _, answer = _http("GET", server.url(f"/v1/tables/{table_id}"))
        table = decoder.decode(answer)
        taken = table["version"] - first
        expected = steps[taken][0] if taken < len(steps) else apply_move(*steps[-1])[0]
        got = msgspec.convert(table["snapshot"], Snapshot)
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
    redis = RedisServer(args.redis_port, args.wrk_cpu)
    runs: dict[str, list[dict[str, Any]]] = {"healthz": [], "validate": [], "tables": []}
    wrong_tables: list[int] = []
    conns = args.connections
    try:
        env = {"REDIS_URL": redis.url, "BAOHUANG_API_KEYS": ""}
        with Server(args.server, FACTORY, args.port, args.server_cpu, env) as server:
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
                        also=redis.process.pid,
                    )
                    if name != "healthz":
                        data["server"] = per_request_ms(
                            before, scrape_route(server, operation, route)
                        )
                    runs[name].append(data)
                    _report(name, rep, data)
                wrong = _check_tables(server, games, created)
                wrong_tables.append(wrong)
                print(f"  rep {rep} tables holding a wrong state afterwards: {wrong}", flush=True)
    finally:
        redis.stop()
    summary = _summarise(runs, "healthz")
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
    parser.add_argument("suite", choices=("servers", "metrics", "play", "tables"))
    parser.add_argument("--servers", nargs="+", default=["uvicorn", "granian"])
    parser.add_argument("--server", default="uvicorn", help="metrics suite: which server")
    parser.add_argument(
        "--variants",
        nargs="+",
        default=["bare", "unwrapped", "lean", "plugin"],
        help="metrics suite: bench_apps factories; the first is the baseline",
    )
    parser.add_argument("--healthz-only", action="store_true")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per wrk run")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of unrecorded warm-up")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--bodies", type=int, default=2000, help="play: validate bodies")
    parser.add_argument(
        "--tables-per-connection", type=int, default=4, help="play/tables: deals per connection"
    )
    parser.add_argument("--redis-port", type=int, default=16399, help="tables: our redis-server")
    parser.add_argument(
        "--quiet",
        type=float,
        default=60.0,
        help="before each measured run wait up to this many s for an idle machine",
    )
    parser.add_argument("--no-pin", action="store_true", help="do not taskset server and wrk")
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
    suites = {"servers": run_servers, "metrics": run_metrics, "play": run_play}
    results = (suites | {"tables": run_tables})[args.suite](args)
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
