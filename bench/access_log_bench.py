"""The access log's cost on GET /healthz: the same server with the log on and off, two ways.

    flock /tmp/bench.lock .venv/bin/python bench/access_log_bench.py http [--reps 6 --duration 10]
    flock /tmp/bench.lock .venv/bin/python bench/access_log_bench.py callgrind [--requests 4000]

Both run ``baohuang serve`` (uvicorn, one worker, the production settings) with the access log
on (``BAOHUANG_ACCESS_LOG=on``, ``LOG_LEVEL=INFO``, ``LOG_FORMAT=json``, the default) and off
(``BAOHUANG_ACCESS_LOG=off``, the same otherwise). The server's stdout, where the log writer
puts its lines, is a real file in ``bench/out/`` (as a container's stdout is a pipe or a file,
not nothing), and its lines are counted: one access line per request served.

``http``: both servers run side by side, pinned to CPU 0; wrk (``bench/wrk/bench.lua``, GET,
``-t1 -c32``) pinned to CPU 1 alternates between them, the order swapped every repetition
(on, off / off, on / …), each run after waiting (bounded) for an idle machine. Per run: req/s,
the share of a CPU the server got (``bench/quiet.py``) and **capacity = req/s ÷ that share**
(requests per server CPU-second), with the load average before it. Reported: medians, and the
per-repetition ratio on ÷ off, whose median is the figure.

``callgrind``: the cost in instructions, which a shared machine does not disturb. Each run
starts one server under ``valgrind --tool=callgrind`` (every thread counted, the log writer's
included), waits for its port without sending a request, sends ``--requests`` GETs of /healthz
over 32 keep-alive connections (exactly ``requests / 32`` each, from this process, outside
valgrind), closes them and stops the server with SIGTERM. A run with 0 requests (the same 32
connections opened and closed) is subtracted, so start-up and shutdown cancel:
instructions per served request = (Ir(N) − Ir(0)) / N. Runs alternate off, on, for
``--rounds`` rounds.

Everything is bounded (wrk ``-d``, a fixed request count, timeouts); servers run in their own
process group and are stopped by their pid; traffic goes to 127.0.0.1 only. Results:
bench/RESULTS.md section 11.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadgen import LUA, OUT, ROOT, baohuang_serve, med, stop_group, wrk

MODES = ("on", "off")
CONNECTIONS = 32
REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: access-log-bench\r\n\r\n"


def server_env(mode: str) -> dict[str, str]:
    """The environment of a server with the access log ``mode`` ("on" or "off"): production
    defaults otherwise, and no Redis (/healthz never touches it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BAOHUANG_", "REDIS_"))}
    return env | {
        "LOG_LEVEL": "INFO",
        "LOG_FORMAT": "json",
        "BAOHUANG_ACCESS_LOG": mode,
        "PYTHONPATH": str(ROOT / "service"),
    }


def access_lines(path: Path) -> int:
    """Access lines in a server's stdout (JSON lines from the ``baohuang.access`` logger)."""
    with path.open("rb") as lines:
        return sum(1 for line in lines if b'"logger":"baohuang.access"' in line)


class Serve:
    """One ``baohuang serve`` in its own process group; stdout to ``<name>.stdout`` (the log
    lines), stderr to ``<name>.stderr``. ``wrapper`` goes in front (taskset, valgrind)."""

    def __init__(
        self,
        name: str,
        mode: str,
        port: int,
        wrapper: list[str],
        env: dict[str, str] | None = None,
    ) -> None:
        self.name, self.mode, self.port = name, mode, port
        OUT.mkdir(parents=True, exist_ok=True)
        self.stdout_path = OUT / f"{name}.stdout"
        self.stdout = self.stdout_path.open("w")
        self.log: IO[str] = (OUT / f"{name}.stderr").open("w")
        self.process = subprocess.Popen(
            [*wrapper, *baohuang_serve(port)],
            env=server_env(mode) | (env or {}),
            stdout=self.stdout,
            stderr=self.log,
            start_new_session=True,
            cwd=ROOT,
        )

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def wait_listening(self, seconds: float) -> None:
        """Until the port accepts a connection; no request is sent (the callgrind runs count
        every instruction). The one connection accepted is closed at once, in every run."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.5)
        raise RuntimeError(f"{self.name} not listening within {seconds} s")

    def wait_healthy(self, seconds: float = 60.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url("/healthz"), timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"{self.name} not healthy within {seconds} s")

    def terminate(self, seconds: float) -> int:
        """SIGTERM to the group we started (uvicorn shuts down cleanly, the log writer flushes,
        callgrind writes its counts), then wait; SIGKILL only if it hangs."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            code = self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            code = self.process.wait(timeout=10)
        self.stdout.close()
        self.log.close()
        return code

    def stop(self) -> None:
        self.stdout.close()
        stop_group(self.process, self.log)


# --------------------------------------------------------------------------- over HTTP


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_http(args: argparse.Namespace) -> dict[str, Any]:
    pin = (os.cpu_count() or 1) >= 2 and shutil.which("taskset") is not None and not args.no_pin
    server_cpu, wrk_cpu = ("0", "1") if pin else (None, None)
    wrapper = ["taskset", "-c", server_cpu] if server_cpu else []
    runs: dict[str, list[dict[str, Any]]] = {mode: [] for mode in MODES}
    servers = {
        mode: Serve(f"access-http-{mode}", mode, args.port + i, wrapper)
        for i, mode in enumerate(MODES)
    }
    try:
        for server in servers.values():
            server.wait_healthy()
        for server in servers.values():  # warm-up, not recorded
            wrk(server.url("/healthz"), args.warmup, args.connections, None, wrk_cpu, lua=LUA)
        for rep in range(1, args.reps + 1):
            order = MODES if rep % 2 else MODES[::-1]
            for mode in order:
                server = servers[mode]
                load = loadavg()
                data = wrk(
                    server.url("/healthz"),
                    args.duration,
                    args.connections,
                    None,
                    wrk_cpu,
                    server=server,  # type: ignore[arg-type]  # duck-typed: .process, .url
                    quiet=args.quiet,
                )
                data["loadavg_before"] = load
                runs[mode].append(data)
                print(
                    f"  rep {rep} {mode:<3} {data['rps']:>9.1f} req/s  capacity "
                    f"{data['capacity']:>8.0f}  p50 {data['latency_us']['p50'] / 1e3:.2f} ms"
                    f"  [server cpu {data['server_cpu_share']:.0%}, busy before "
                    f"{data['busy_before'] or 0:.0%}, load {load[0]:.2f}]",
                    flush=True,
                )
    finally:
        for server in servers.values():
            server.stop()
    served = {mode: access_lines(servers[mode].stdout_path) for mode in MODES}
    print(f"access lines written: on {served['on']:,}, off {served['off']:,}", flush=True)
    on, off = runs["on"], runs["off"]
    rps_ratios = [a["rps"] / b["rps"] for a, b in zip(on, off, strict=True)]
    capacity_ratios = [a["capacity"] / b["capacity"] for a, b in zip(on, off, strict=True)]
    summary: dict[str, Any] = {
        mode: {
            "rps": med([r["rps"] for r in runs[mode]]),
            "capacity": med([r["capacity"] for r in runs[mode]]),
            "server_cpu_share": med([r["server_cpu_share"] for r in runs[mode]]),
            "p50_ms": med([r["latency_us"]["p50"] / 1e3 for r in runs[mode]]),
            "p99_ms": med([r["latency_us"]["p99"] / 1e3 for r in runs[mode]]),
            "capacity_range": [
                min(r["capacity"] for r in runs[mode]),
                max(r["capacity"] for r in runs[mode]),
            ],
        }
        for mode in MODES
    }
    summary |= {
        "rps_ratio_on_off": med(rps_ratios),
        "rps_ratios": rps_ratios,
        "capacity_ratio_on_off": med(capacity_ratios),
        "capacity_ratios": capacity_ratios,
        "cpu_us_per_request": {m: 1e6 / summary[m]["capacity"] for m in MODES},
        "access_lines": served,
        "loadavg": [r["loadavg_before"][0] for m in MODES for r in runs[m]],
    }
    print(
        f"-> capacity on {summary['on']['capacity']:.0f}, off {summary['off']['capacity']:.0f} "
        f"req per CPU-s; on ÷ off {summary['capacity_ratio_on_off']:.3f} "
        f"(reps {', '.join(f'{r:.3f}' for r in capacity_ratios)}); raw req/s ratio "
        f"{summary['rps_ratio_on_off']:.3f}",
        flush=True,
    )
    return {"summary": summary, "runs": runs}


# --------------------------------------------------------------------------- callgrind


async def _one_connection(port: int, count: int) -> int:
    """``count`` GETs of /healthz, one after another, on one keep-alive connection; returns the
    number of 200 answers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    ok = 0
    try:
        for _ in range(count):
            writer.write(REQUEST)
            head = await reader.readuntil(b"\r\n\r\n")
            match = re.search(rb"\r\ncontent-length: *(\d+)", head, re.I)
            if match is None:
                raise RuntimeError(f"no content-length in {head!r}")
            await reader.readexactly(int(match.group(1)))
            ok += head.startswith(b"HTTP/1.1 200 ")
    finally:
        writer.close()
        await writer.wait_closed()
    return ok


async def drive(port: int, requests: int, connections: int) -> int:
    """Exactly ``requests`` GETs of /healthz over ``connections`` connections (all of them
    opened even when ``requests`` is 0, so the 0-request run opens and closes the same)."""
    share, extra = divmod(requests, connections)
    counts = [share + (i < extra) for i in range(connections)]
    return sum(await asyncio.gather(*(_one_connection(port, n) for n in counts)))


def callgrind_threads(out: Path) -> list[int]:
    """Instructions (Ir) per thread, main thread first, from the ``summary:`` lines of the
    per-thread files ``<out>-01``, ``<out>-02``, … (``--separate-threads=yes``)."""
    totals = []
    for path in sorted(out.parent.glob(f"{out.name}-*")):
        for line in path.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                totals.append(int(line.split()[1]))
                break
        else:
            raise RuntimeError(f"no summary line in {path}")
    if not totals:
        raise RuntimeError(f"no callgrind output {out}-*")
    return totals


def callgrind_run(mode: str, requests: int, port: int, tag: str) -> dict[str, Any]:
    out = OUT / f"callgrind-{tag}-{mode}-{requests}.out"
    for stale in out.parent.glob(f"{out.name}-*"):
        stale.unlink()
    wrapper = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        "--separate-threads=yes",  # the log writer's thread apart from the event loop's
        "--dump-instr=no",
        "--compress-strings=no",
    ]
    started = time.monotonic()
    # A fixed hash seed: set and dict orders (and so instruction counts) alike in every run.
    env = {"PYTHONHASHSEED": "0"}
    server = Serve(f"access-cg-{tag}-{mode}-{requests}", mode, port, wrapper, env)
    try:
        server.wait_listening(600)
        served_ok = asyncio.run(drive(port, requests, CONNECTIONS))
    finally:
        code = server.terminate(600)
    wall = time.monotonic() - started
    if served_ok != requests:
        raise RuntimeError(f"{served_ok} of {requests} answers were 200")
    lines = access_lines(server.stdout_path)
    expected = requests if mode == "on" else 0
    if lines != expected:
        raise RuntimeError(f"{lines} access lines for {requests} requests with the log {mode}")
    threads = callgrind_threads(out)
    total = sum(threads)
    print(
        f"  {tag} log {mode:<3} {requests:>6} requests: {total:>15,} Ir, main thread "
        f"{threads[0]:,}, others {total - threads[0]:,} ({lines} access lines, {wall:.0f} s, "
        f"load {loadavg()[0]:.2f})",
        flush=True,
    )
    return {
        "mode": mode,
        "requests": requests,
        "ir": total,
        "ir_threads": threads,
        "wall_s": wall,
        "exit": code,
    }


def run_callgrind(args: argparse.Namespace) -> dict[str, Any]:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind not found: apt-get install -y valgrind")
    runs: list[dict[str, Any]] = []
    per_request: dict[str, list[float]] = {mode: [] for mode in MODES}
    main_thread: dict[str, list[float]] = {mode: [] for mode in MODES}
    for round_ in range(1, args.rounds + 1):
        for mode in ("off", "on"):
            zero = callgrind_run(mode, 0, args.port, f"r{round_}")
            full = callgrind_run(mode, args.requests, args.port, f"r{round_}")
            runs += [zero, full]
            per = (full["ir"] - zero["ir"]) / args.requests
            main = (full["ir_threads"][0] - zero["ir_threads"][0]) / args.requests
            per_request[mode].append(per)
            main_thread[mode].append(main)
            print(
                f"  round {round_} log {mode}: {per:,.0f} Ir per served request "
                f"(main thread {main:,.0f}, others {per - main:,.0f})",
                flush=True,
            )
    on, off = med(per_request["on"]), med(per_request["off"])
    pairs = [a / b - 1 for a, b in zip(per_request["on"], per_request["off"], strict=True)]
    summary = {
        "requests": args.requests,
        "ir_per_request": {"on": on, "off": off},
        "ir_per_request_runs": per_request,
        "main_thread_ir_per_request": {m: med(main_thread[m]) for m in MODES},
        "log_ir_per_request": on - off,
        "cost": on / off - 1,
        "cost_per_round": pairs,
    }
    main_on, main_off = med(main_thread["on"]), med(main_thread["off"])
    print(
        f"-> Ir per served /healthz: off {off:,.0f}, on {on:,.0f}; the log {on - off:,.0f} "
        f"(+{on / off - 1:.2%}; rounds {', '.join(f'{p:+.2%}' for p in pairs)}); of which "
        f"the event loop's thread {main_on - main_off:,.0f}, the writer's "
        f"{(on - main_on) - (off - main_off):,.0f}",
        flush=True,
    )
    return {"summary": summary, "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", choices=("http", "callgrind"))
    parser.add_argument("--duration", type=float, default=10.0, help="http: seconds per wrk run")
    parser.add_argument("--warmup", type=float, default=3.0, help="http: unrecorded seconds")
    parser.add_argument("--reps", type=int, default=6, help="http: on/off pairs")
    parser.add_argument("--connections", type=int, default=32, help="http: wrk -c")
    parser.add_argument(
        "--quiet", type=float, default=30.0, help="http: wait up to this many s for idle"
    )
    parser.add_argument("--no-pin", action="store_true", help="http: do not taskset")
    parser.add_argument("--requests", type=int, default=8000, help="callgrind: per run")
    parser.add_argument("--rounds", type=int, default=2, help="callgrind: off/on rounds")
    parser.add_argument("--port", type=int, default=18190)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `finally` stops the servers
    if args.suite == "http" and shutil.which("wrk") is None:
        raise SystemExit("wrk not found: apt-get install -y wrk")
    from engine_bench import machine

    started = time.time()
    results = run_http(args) if args.suite == "http" else run_callgrind(args)
    record = {
        "machine": machine(),
        "command": sys.argv,
        "started": started,
        "loadavg_after": loadavg(),
        "args": {k: str(v) for k, v in vars(args).items()},
        "results": results,
    }
    path = args.json or OUT / f"access-log-{args.suite}.json"
    path.write_text(json.dumps(record, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
