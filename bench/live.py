"""Shared pieces of the live-table benchmarks (overload_bench, stream_bench, clock_bench).

* :func:`own_redis`: our own ``redis-server`` on a free loopback port, from the tests' launcher
  (``tests/redis_server.py``), never the shared one; :func:`serve`: ``baohuang serve`` (uvicorn,
  one worker) through ``loadgen.Server``, stopped by its pid.
* :class:`Connection`, :func:`stream`: a small HTTP/1.1 client on asyncio streams (keep-alive
  requests; chunked streams read as they arrive), light enough to hold a thousand streams in one
  process.
* :func:`redis_clients_by_process`: ``CLIENT LIST`` of our Redis, each client attributed to the
  process that owns its socket (all replicas name their connections ``baohuang-rules``).
* ``python bench/live.py probe URL --seconds S``: a readiness prober in its own process, one new
  connection per probe every 200 ms (as a kubelet does), printing one JSON line at the end.
* :class:`Followers` (``python bench/live.py follow …``): a process holding many table streams
  (SSE or NDJSON), recording when each event arrived.

Loopback only; every loop is bounded by a count or a deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(BENCH))

from loadgen import Server, baohuang_serve  # noqa: E402
from redis_server import RedisServer, find_redis_server  # noqa: E402

TOKEN_SECRET = "bench-secret-shared-by-the-replicas"
"""Every replica must share it, so a seat token from one is accepted by the others."""


# --------------------------------------------------------------------------- processes


def raise_open_files() -> int:
    """Lift this process's soft open-files limit to the hard one (wrk and the followers hold a
    thousand sockets and more; children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def pin(pid: int, cpu: str | None) -> None:
    """Move a process we started onto ``cpu`` (``taskset -p``); nothing when ``cpu`` is None."""
    if cpu is not None:
        subprocess.run(["taskset", "-p", "-c", cpu, str(pid)], capture_output=True, check=True)


def own_redis(cpu: str | None = None) -> RedisServer:
    """Our own redis-server (no persistence) on a free port, started; ``close()`` stops it."""
    binary = find_redis_server()
    if binary is None:
        raise SystemExit("no redis-server (apt-get install redis-server)")
    server = RedisServer(binary)
    server.start()
    assert server.pid is not None
    pin(server.pid, cpu)
    return server


def serve(port: int, redis_url: str, cpu: str | None, **env: str) -> Server:
    """``baohuang serve`` on 127.0.0.1:``port`` with our Redis, no API keys, a shared token
    secret; ``env`` adds settings (e.g. ``REDIS_MAX_CONNECTIONS="128"``)."""
    settings = {
        "REDIS_URL": redis_url,
        "BAOHUANG_API_KEYS": "",
        "BAOHUANG_TOKEN_SECRET": TOKEN_SECRET,
    }
    return Server("baohuang", port, cpu, settings | env, command=baohuang_serve(port))


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    """user+system CPU seconds of one process."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_line() -> str:
    """`nproc`, the CPU model and the load, as RESULTS.md gives them."""
    model = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    load = Path("/proc/loadavg").read_text().split()[:3]
    return f"nproc {os.cpu_count()}, {model}, load average {' '.join(load)}"


# --------------------------------------------------------------------------- Redis clients


def _resp_command(port: int, *words: str) -> bytes:
    """One command over a raw socket (no client library, no event loop): a bulk-string reply."""
    payload = f"*{len(words)}\r\n" + "".join(f"${len(w)}\r\n{w}\r\n" for w in words)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(payload.encode())
        data = b""
        while b"\r\n" not in data:
            data += sock.recv(65536)
        header, _, rest = data.partition(b"\r\n")
        if not header.startswith(b"$"):
            raise RuntimeError(f"redis answered {header!r}")
        size = int(header[1:])
        while len(rest) < size + 2:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return rest[:size]


def _socket_ports(pid: int, redis_port: int) -> set[int]:
    """Local ports of ``pid``'s TCP connections to 127.0.0.1:``redis_port``."""
    inodes = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    for fd in fd_dir.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if inode in inodes and int(remote.split(":")[1], 16) == redis_port:
            ports.add(int(local.split(":")[1], 16))
    return ports


def redis_clients_by_process(
    redis_port: int, pids: dict[str, int], *, subscribers: bool = False
) -> Counter[str]:
    """``CLIENT LIST`` of our Redis, counted by the process owning each client's socket
    (``pids``: name → pid); clients of no such process count as ``other`` (this probe itself
    included). With ``subscribers``, only the connections in Pub/Sub mode (``sub=`` > 0)."""
    owners = {port: name for name, pid in pids.items() for port in _socket_ports(pid, redis_port)}
    text = _resp_command(redis_port, "CLIENT", "LIST").decode()
    counts: Counter[str] = Counter()
    for line in text.splitlines():
        match = re.search(r"\baddr=[^ ]*:(\d+) .*\bsub=(\d+) ", line)
        if match is None or (subscribers and match.group(2) == "0"):
            continue
        counts[owners.get(int(match.group(1)), "other")] += 1
    return counts


# --------------------------------------------------------------------------- HTTP client


class Connection:
    """One kept-alive HTTP/1.1 connection to 127.0.0.1:``port``; requests one at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        if self._writer is None or self._writer.is_closing():
            self._reader, self._writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self._reader is not None
        lines = [f"{method} {path} HTTP/1.1", "host: 127.0.0.1"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body is not None:
            lines += ["content-type: application/json", f"content-length: {len(body)}"]
        self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        status, head = await read_head(self._reader)
        length = int(head.get("content-length", "0"))
        data = await self._reader.readexactly(length) if length else b""
        if head.get("connection") == "close":
            await self.close()
        return status, data

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()
        self._reader = self._writer = None


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    first, *rest = raw.decode("latin-1").split("\r\n")
    head = {}
    for line in rest:
        if ":" in line:
            name, _, value = line.partition(":")
            head[name.strip().lower()] = value.strip()
    return int(first.split()[1]), head


async def stream(
    port: int, path: str, headers: dict[str, str], opened: asyncio.Event | None = None
) -> AsyncIterator[tuple[float, bytes]]:
    """GET a stream (chunked): yields ``(time.time() on arrival, chunk)`` until the server ends
    it or the caller stops iterating (the connection is then closed)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        lines = [
            f"GET {path} HTTP/1.1",
            "host: 127.0.0.1",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        status, head = await read_head(reader)
        if status != 200 or head.get("transfer-encoding") != "chunked":
            body = await reader.read(2000)
            raise RuntimeError(f"stream {path}: {status} {head} {body[:300]!r}")
        if opened is not None:
            opened.set()
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                return
            chunk = await reader.readexactly(size + 2)
            yield time.time(), chunk[:-2]
    finally:
        writer.close()


async def put_tables(
    port: int, bodies: Sequence[tuple[str, bytes]], concurrency: int = 8
) -> dict[str, dict[str, Any]]:
    """PUT ``(table id, body)`` pairs, ``concurrency`` at a time: the answers by table id."""
    answers: dict[str, dict[str, Any]] = {}
    queue = list(reversed(bodies))

    async def worker() -> None:
        connection = Connection(port)
        try:
            while queue:
                table_id, body = queue.pop()
                status, data = await connection.request("PUT", f"/v1/tables/{table_id}", body)
                if status not in (200, 201):
                    raise RuntimeError(f"PUT {table_id}: {status} {data[:300]!r}")
                answers[table_id] = json.loads(data)
        finally:
            await connection.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return answers


def metric(port: int, pattern: str) -> float:
    """Sum of the /metrics samples whose line matches ``pattern`` (a regex on the name and
    labels; the value is the last field)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    total = 0.0
    for line in text.splitlines():
        if not line.startswith("#") and re.match(pattern, line):
            total += float(line.rsplit(" ", 1)[1])
    return total


# --------------------------------------------------------------------------- followers

FOLLOW_AT_ONCE = 50
"""Streams a follower process opens at a time."""
_SEQ = re.compile(rb'^id: (\d+)|"seq":(\d+)')


async def follow_streams(
    port: int, plan: list[list[Any]], keep: list[str], out: Path, max_seconds: float
) -> None:
    """Open a stream per row of ``plan`` ([follower, table, path, headers]),
    ``FOLLOW_AT_ONCE`` at a time; print ``READY <open> <failed>``; record ``(follower, table,
    seq, time received, frame or "")`` for every SSE frame with an ``id`` or NDJSON line with a
    ``seq`` (the frame itself when it contains one of ``keep``) until stdin closes (at most
    ``max_seconds``); then write the records to ``out``."""
    records: list[tuple[int, int, int, float, str]] = []
    gate = asyncio.Semaphore(FOLLOW_AT_ONCE)
    wanted = [k.encode() for k in keep]

    async def consume(follower: int, table: int, path: str, headers: Any, opened: Any) -> None:
        async for arrived, chunk in stream(port, path, headers, opened):
            for frame in chunk.split(b"\n") if chunk[:1] == b"{" else [chunk]:
                match = _SEQ.match(frame) or _SEQ.search(frame)
                if match:
                    kept = frame.decode() if any(w in frame for w in wanted) else ""
                    seq = int(match.group(1) or match.group(2))
                    records.append((follower, table, seq, arrived, kept))

    async def one(row: list[Any]) -> asyncio.Task[None]:
        opened = asyncio.Event()
        async with gate:
            consumer = asyncio.create_task(consume(*row, opened))
            waiter = asyncio.create_task(opened.wait())
            await asyncio.wait([consumer, waiter], timeout=30, return_when="FIRST_COMPLETED")
            waiter.cancel()
        return consumer

    consumers = await asyncio.gather(*(one(row) for row in plan))
    failed = sum(1 for c in consumers if c.done())
    print(f"READY {len(consumers) - failed} {failed}", flush=True)
    loop = asyncio.get_running_loop()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(loop.run_in_executor(None, sys.stdin.read), max_seconds)
    ended = sum(1 for c in consumers if c.done())
    for consumer in consumers:
        consumer.cancel()
    import msgspec

    out.write_bytes(msgspec.json.encode({"records": records, "ended": ended}))


class Followers:
    """A follower process (``live.py follow``): started with its plan, back once its streams
    are open, stopped by closing its stdin, when it writes what it received."""

    def __init__(
        self,
        name: str,
        port: int,
        plan: list[list[Any]],
        cpu: str | None,
        keep: Sequence[str] = (),
        script: str = __file__,
    ) -> None:
        """``script``: the one whose ``follow PORT PLAN OUT`` runs the process (this one's by
        default; ``fanout_bench.py`` has its own, on raw sockets)."""
        self.plan_path, self.out = OUT / f"follow-{name}-plan.json", OUT / f"follow-{name}.json"
        self.plan_path.write_text(json.dumps(plan))
        self.out.unlink(missing_ok=True)
        command = [
            sys.executable,
            script,
            "follow",
            str(port),
            str(self.plan_path),
            str(self.out),
        ]
        command += [arg for k in keep for arg in ("--keep", k)]
        if cpu is not None:
            command = ["taskset", "-c", cpu, *command]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().split(maxsplit=3)  # each stream has 30 s to open
        if not line or line[0] != "READY":
            self.stop()
            raise RuntimeError(f"follower process {name} did not start: {line}")
        self.open, self.failed = int(line[1]), int(line[2])
        if self.failed and len(line) > 3:  # the first refusal, when the process says
            print(f"  {name}: {self.failed} streams failed to open, first {line[3]}", flush=True)

    def stop(self) -> dict[str, Any]:
        """Close the streams; what they received (``records``, ``ended``: streams the server
        ended before)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, 9)  # the process group we started, by its id
            self.process.wait()
        result: dict[str, Any] = json.loads(self.out.read_bytes()) if self.out.exists() else {}
        return result


# --------------------------------------------------------------------------- statistics


def pct(values: Iterable[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``; NaN when empty."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def med(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")


# --------------------------------------------------------------------------- readiness prober


def start_prober(url: str, seconds: float, cpu: str | None) -> subprocess.Popen[str]:
    """The prober (below) in its own process; ``finish_prober`` collects its JSON."""
    command = [sys.executable, str(Path(__file__)), "probe", url, "--seconds", f"{seconds:g}"]
    if cpu is not None:
        command = ["taskset", "-c", cpu, *command]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)


def finish_prober(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = process.communicate(timeout=60)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def probe(url: str, seconds: float, every: float, timeout: float) -> dict[str, Any]:
    """GET ``url`` on a new connection every ``every`` seconds for ``seconds``: statuses (or the
    error) and latencies. ``timeout`` is the readiness probe's (the Helm chart's: 3 s)."""
    match = re.match(r"http://([^:/]+):(\d+)(/.*)", url)
    assert match, url
    host, port, path = match.group(1), int(match.group(2)), match.group(3)
    statuses: Counter[str] = Counter()
    latencies: list[float] = []
    failed: list[tuple[float, str, float]] = []  # (seconds into the run, status, latency)
    start = time.monotonic()
    count = int(seconds / every)
    for n in range(count):
        wait = start + n * every - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        began = time.monotonic()
        try:
            connection = http.client.HTTPConnection(host, port, timeout=timeout)
            connection.request("GET", path)
            status = str(connection.getresponse().status)
            connection.close()
        except (OSError, http.client.HTTPException) as exc:
            status = type(exc).__name__
        latencies.append(time.monotonic() - began)
        statuses[status] += 1
        if status != "200":
            failed.append((round(began - start, 2), status, round(latencies[-1], 3)))
    return {
        "probes": count,
        "statuses": dict(statuses),
        "not_200": count - statuses["200"],
        "p50_ms": 1e3 * pct(latencies, 50),
        "p99_ms": 1e3 * pct(latencies, 99),
        "max_ms": 1e3 * max(latencies, default=float("nan")),
        "failed": failed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="the prober and follower processes")
    commands = parser.add_subparsers(dest="command", required=True)
    prober = commands.add_parser("probe")
    prober.add_argument("url")
    prober.add_argument("--seconds", type=float, default=15.0)
    prober.add_argument("--every", type=float, default=0.2)
    prober.add_argument("--timeout", type=float, default=3.0)
    follower = commands.add_parser("follow")
    follower.add_argument("port", type=int)
    follower.add_argument("plan", type=Path)
    follower.add_argument("out", type=Path)
    follower.add_argument("--keep", action="append", default=[])
    follower.add_argument("--max-seconds", type=float, default=900.0)
    args = parser.parse_args()
    if args.command == "probe":
        print(json.dumps(probe(args.url, args.seconds, args.every, args.timeout)), flush=True)
    else:
        import uvloop

        plan = json.loads(args.plan.read_text())
        uvloop.run(follow_streams(args.port, plan, args.keep, args.out, args.max_seconds))


if __name__ == "__main__":
    main()
