"""Per-request cost of the metrics, in-process: the ASGI app called directly, no server, no socket.

    .venv/bin/python bench/asgi_bench.py [--rounds 9 --requests 2000]

The HTTP runs (http_bench.py metrics) are the end-to-end figure, but on a shared 2-CPU machine
their noise (+-20 %) is larger than the 10 % budget they must resolve. Here each variant of
bench/bench_apps.py is called as ``await app(scope, receive, send)`` for ``--requests`` requests
per sample, variants interleaved round-robin within each round, so drift hits all alike; the
result is the median us per request, and each variant's extra us over ``bare`` (no metrics at
all) with the ratio per round. ``bare`` here is ``unwrapped`` with the engine metrics switched off
around its samples (the same app object; see bench_apps.engine_metrics_off).
Requests: GET /healthz, and POST /v1/combos/compare rotating over the 500 bodies of http_bench.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from time import perf_counter_ns
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import uvloop

import bench_apps
from quiet import wait_for_quiet

BODIES = Path(__file__).resolve().parent / "out" / "compare_bodies.jsonl"


def scope_for(method: str, path: str, body: bytes) -> dict[str, Any]:
    headers = [(b"host", b"127.0.0.1:8000")]
    if body:
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }


async def run_requests(app: Any, requests: list[tuple[str, str, bytes]], n: int) -> float:
    status = [0]

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status[0] = message["status"]

    start = perf_counter_ns()
    for i in range(n):
        method, path, body = requests[i % len(requests)]
        sent = False

        async def receive(body: bytes = body) -> dict[str, Any]:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await app(scope_for(method, path, body), receive, send)
        if status[0] != 200:
            raise RuntimeError(f"{path}: status {status[0]}")
    return (perf_counter_ns() - start) / n / 1e3


async def main_async(args: argparse.Namespace) -> None:
    if not BODIES.exists():
        from http_bench import write_bodies

        write_bodies()
    bodies = [line.encode() for line in BODIES.read_text().splitlines() if line]
    workloads = {
        "healthz": [("GET", "/healthz", b"")],
        "compare": [("POST", "/v1/combos/compare", b) for b in bodies],
    }
    apps = {name: bench_apps.VARIANTS[name]() for name in ("unwrapped", "lean", "plugin")}
    apps = {"bare": apps["unwrapped"], **apps}
    for app in {id(a): a for a in apps.values()}.values():  # lifespan startup
        await app._call_lifespan_handlers(app.on_startup) if hasattr(
            app, "_call_lifespan_handlers"
        ) else None
    results: dict[str, Any] = {}
    for workload, requests in workloads.items():
        per: dict[str, list[float]] = {v: [] for v in apps}
        for app in apps.values():  # warm-up
            await run_requests(app, requests, 500)
        for _ in range(args.rounds):
            wait_for_quiet(max_wait=args.quiet, say=False)
            for name, app in apps.items():
                if name == "bare":
                    with bench_apps.engine_metrics_off():
                        per[name].append(await run_requests(app, requests, args.requests))
                else:
                    per[name].append(await run_requests(app, requests, args.requests))
        base = per["bare"]
        results[workload] = {}
        for name, values in per.items():
            extra = [v - b for v, b in zip(values, base, strict=True)]
            ratio = [b / v for v, b in zip(values, base, strict=True)]  # throughput ratio
            results[workload][name] = {
                "us_per_request": statistics.median(values),
                "extra_us_over_bare": statistics.median(extra),
                "throughput_ratio_to_bare": statistics.median(ratio),
                "samples": values,
            }
            r = results[workload][name]
            print(
                f"{workload:<8}{name:<10}{r['us_per_request']:>8.1f} us/request   "
                f"+{r['extra_us_over_bare']:>5.1f} us over bare   throughput "
                f"{r['throughput_ratio_to_bare']:.1%} of bare",
                flush=True,
            )
    out = Path(__file__).resolve().parent / "out" / "asgi.json"
    out.write_text(json.dumps(results, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--quiet", type=float, default=10.0)
    args = parser.parse_args()
    uvloop.run(main_async(args))


if __name__ == "__main__":
    main()
