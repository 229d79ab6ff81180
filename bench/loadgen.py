"""What the HTTP benchmarks share: request bodies, the server under test, wrk, /metrics readings.

The server runs in a subprocess of its own process group (uvicorn, one worker, the production
factory), stopped by its pid; wrk runs in another, both pinned to a CPU each where there are two.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from quiet import group_cpu_seconds, wait_for_quiet

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
VENV_BIN = ROOT / ".venv" / "bin"
LUA = BENCH / "wrk" / "bench.lua"

FACTORY = "baohuang.http.app:create_app"
COMPARE_BODIES = OUT / "compare_bodies.jsonl"
BATCH_BODY = OUT / "batch_10k.jsonl"
KAOPAI_BATCH_BODY = OUT / "batch_10k_kaopai.jsonl"


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
    for path, base, kaopai in (
        (BATCH_BODY, "classic", False),
        (KAOPAI_BATCH_BODY, "lianzhong-classic", True),
    ):
        pairs = [{"previous": p, "candidate": c} for p, c in batch_pairs(10_000, base, kaopai)]
        ruleset = {"base": base, "kaopai": True} if kaopai else base
        batch = json.dumps({"pairs": pairs, "ruleset": ruleset}, separators=(",", ":"))
        if len(batch) > 1024 * 1024:
            raise SystemExit(f"batch body is {len(batch)} bytes, over the 1 MiB limit")
        path.write_text(batch + "\n")


@contextlib.contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """``revision`` checked out in a temporary git worktree (removed afterwards): its ``service/``
    put first on ``PYTHONPATH`` runs that version beside the working tree, in the same run."""
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "before"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "-q", "--detach", str(tree), revision], check=True)
        try:
            yield tree
        finally:
            subprocess.run([*git, "remove", "--force", str(tree)], check=True)


# --------------------------------------------------------------------------- servers


def server_command(target: str, port: int) -> list[str]:
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


def baohuang_serve(port: int) -> list[str]:
    """``baohuang serve`` as the Dockerfile runs it (uvicorn's own lines at warning)."""
    return [
        str(VENV_BIN / "python"),
        "-m",
        "baohuang.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]


def alternate(script: str, runs: int, before: str | None, *args: str) -> dict[str, list[str]]:
    """``script --child args`` ``runs`` times with the working tree and, when ``before`` names a
    git revision, as often with that revision (a :func:`worktree`, its ``service/`` first on
    ``PYTHONPATH``), alternately, in child processes: each run's last printed line, by version
    (``before``, ``after``)."""
    with contextlib.ExitStack() as stack:
        versions: dict[str, Path | None] = {"after": None}
        if before:
            versions = {"before": stack.enter_context(worktree(before)) / "service", **versions}
        lines: dict[str, list[str]] = {name: [] for name in versions}
        for run in range(runs):
            for name, service in versions.items():
                env = dict(os.environ)
                if service is not None:
                    env["PYTHONPATH"] = f"{service}{os.pathsep}{env.get('PYTHONPATH', '')}"
                command = [sys.executable, script, "--child", *args]
                out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
                lines[name].append(out.stdout.strip().splitlines()[-1])
                print(f"run {run + 1} {name}: {lines[name][-1]}", flush=True)
    return lines


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
    """A server subprocess (own process group), stopped by its pid on exit: uvicorn on the app
    factory ``target``, or ``command`` as given (e.g. ``baohuang serve``)."""

    def __init__(
        self,
        target: str,
        port: int,
        pin: str | None,
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
    ) -> None:
        name = "uvicorn" if command is None else target
        command = command or server_command(target, port)
        if pin is not None:
            command = ["taskset", "-c", pin, *command]
        env = os.environ | {"PYTHONPATH": str(BENCH), "LOG_LEVEL": "WARNING"} | (env or {})
        self.name, self.port = name, port
        self.log = open(OUT / f"server-{port}.log", "w")  # noqa: SIM115
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
    also: int | list[int] | None = None,
) -> dict[str, Any]:
    """One wrk run. With ``quiet`` > 0, first wait up to that many seconds for an idle machine;
    with ``server``, also record the share of one CPU the server process group got (and with
    ``also``, the share of other process groups, e.g. redis-servers, added up)."""
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
    others = [also] if isinstance(also, int) else list(also or ())
    other0 = sum(map(group_cpu_seconds, others))
    result = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=duration + 30, check=True
    )
    cpu1, wall1 = (group_cpu_seconds(server.process.pid), time.monotonic()) if server else (0, 1)
    other1 = sum(map(group_cpu_seconds, others))
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
    if others:
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


def http_request(method: str, url: str, body: bytes | None = None) -> tuple[int, bytes]:
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


def report(label: str, rep: int, data: dict[str, Any]) -> None:
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


def summarise(runs: dict[str, list[dict[str, Any]]], base: str) -> dict[str, Any]:
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
