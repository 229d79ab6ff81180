"""Stream fan-out at 1,000, 5,000 and 10,000 followers on one process, beside a bare-Litestar
SSE broadcast measured in the same run (the anchor).

    flock /tmp/bench.lock .venv/bin/python bench/fanout_bench.py                 # anchor, after
    flock /tmp/bench.lock .venv/bin/python bench/fanout_bench.py --targets anchor,before

Set-up: our own redis-server (the tests' launcher, a free port); the process under test pinned
to CPU 0, everything else (replica B, Redis, the driver, the follower processes) on CPU 1.

Targets, one after the other, each with the same tables, moves, followers and schedule:

* ``anchor``: a bare Litestar app (``python bench/fanout_bench.py anchor``; uvicorn, one worker,
  uvloop, httptools, as ``baohuang serve``): ``GET /t/{table}/{kind}`` is an SSE stream fed
  from an ``asyncio.Queue`` of its own; ``POST /t/{table}/publish`` takes the table's next
  move and puts each of its frames, built once per event and kind, in the queue of every
  follower of that kind. The frames are as long as the service's own for that move and kind
  (the sizes are worked out in-process beforehand, on the in-memory store, from the same deals
  and moves), so the anchor costs what broadcasting the same bytes costs with Litestar and
  nothing else: no store, no second replica, no cut.
* ``after`` (the working tree) and ``before`` (``--before``, main by default, in a git worktree
  of its own): replica A, ``baohuang serve``, serves the followers; replica B takes the moves;
  both on that Redis with the same token secret, so every event reaches A's followers through
  Redis (the log and A's one Pub/Sub subscription). A's stream limits are raised through its
  settings (``BAOHUANG_MAX_STREAMS_PER_*``, ``BAOHUANG_MAX_CONNECTIONS``).

Tables: ``--tables`` (100), PUT through B, each the first snapshot of a random full-deck deal
(``bench/snapshots.py``'s agent, seeds 3000–, every third with kaopai). Followers: SSE streams
spread evenly over the tables and, within a table, over the seven kinds of caller in turn
(platform, spectator, seats 0–4), opened in follower processes of raw asyncio sockets (uvloop
protocols, no HTTP client) 50 at a time: 1,000 first, then 4,000 more, then 5,000 more. After
each step the driver (its own process) plays ``--seconds`` of moves, ``--rate`` a second per
table (each table on its own connection, a random phase), through B (the anchor: publishes
them on the anchor) and keeps, for every event of every answer, ``(table, seq) → time sent``;
a follower keeps ``(table, seq, time received)`` for every SSE frame with an ``id``. Delivery
= received − sent, which includes B's handling of the move before its commit (the anchor: its
own handling of the publish). All times are ``time.time()`` on one machine.

Sampled every second during each step: the RSS of the process under test and the Redis
connections A and B hold (``CLIENT LIST`` of our Redis, each client attributed to the process
owning its socket). RSS per follower = (RSS at N − RSS with no follower, after a warm-up) / N.
Frames expected: each event times the followers of its table whose kind sees it (a platform
every event; a seat or spectator all but the deal's and the moves' records).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import msgspec
from litestar import Litestar, get, post
from litestar.response import Stream

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live import (
    OUT,
    Connection,
    Followers,
    cpu_seconds,
    machine_line,
    med,
    own_redis,
    pct,
    put_tables,
    raise_open_files,
    redis_clients_by_process,
    rss_bytes,
    serve,
)
from loadgen import BENCH, Server, worktree
from quiet import wait_for_quiet

KINDS = ("platform", "spectator", "seat0", "seat1", "seat2", "seat3", "seat4")
STEPS = (1000, 5000, 10000)
OPEN_AT_ONCE = 50
PLATFORM_ONLY = {"dealt", "move"}
"""Event types only a platform sees (``tables/views.py``'s ``PLATFORM_EVENTS``)."""
RAISED_LIMITS = {
    "BAOHUANG_STREAM_HEARTBEAT_SECONDS": "300",  # no heartbeat bursts from an idle target
    "BAOHUANG_MAX_CONNECTIONS": "16000",
    "BAOHUANG_MAX_STREAMS_PER_TABLE": "2000",
    "BAOHUANG_MAX_STREAMS_PER_CREDENTIAL": "2000",
    "BAOHUANG_MAX_STREAMS_PER_ADDRESS": "20000",
}


# --------------------------------------------------------------------------- the anchor


def anchor_app(plan_path: Path) -> Any:
    """The bare Litestar broadcast: a queue per follower, frames built once per event and kind."""
    plan: list[list[list[Any]]] = json.loads(plan_path.read_bytes())
    followers: dict[tuple[int, str], set[asyncio.Queue[bytes]]] = defaultdict(set)
    played = [0] * len(plan)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

    @get("/t/{table:int}/{kind:str}")
    async def follow(table: int, kind: str) -> Stream:
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        followers[(table, kind)].add(queue)

        async def frames() -> Any:
            try:
                yield b": opened\r\n\r\n"
                while True:
                    yield await queue.get()
            finally:
                followers[(table, kind)].discard(queue)

        return Stream(frames(), media_type="text/event-stream", headers=headers)

    @post("/t/{table:int}/publish", status_code=200)
    async def publish(table: int) -> list[list[Any]]:
        index, played[table] = played[table], played[table] + 1
        published = []
        for seq, kind_name, sizes in plan[table][index]:
            for kind, size in sizes.items():
                head = b'id: %d.anchor\r\nevent: %s\r\ndata: {"p":"' % (seq, kind_name.encode())
                tail = b'"}\r\n\r\n'
                frame = head + b"x" * max(0, size - len(head) - len(tail)) + tail
                for queue in followers.get((table, kind), ()):
                    queue.put_nowait(frame)
            published.append([seq, kind_name])
        return published

    @get("/healthz")
    async def healthz() -> str:
        return "ok"

    return Litestar([follow, publish, healthz], logging_config=None, debug=False)


def run_anchor(port: int, plan_path: Path) -> None:
    import uvicorn

    uvicorn.run(
        anchor_app(plan_path),
        host="127.0.0.1",
        port=port,
        loop="uvloop",
        http="httptools",
        log_level="warning",
        access_log=False,
        server_header=False,
        ws="none",
        backlog=4096,
    )


def _sse_frame(event: Any) -> bytes:
    """An event's SSE frame as the service writes it (and Litestar's ``ServerSentEventMessage``
    before it): ``id``, ``event``, one ``data`` line, CRLF line ends."""
    tag = type(event).__struct_config__.tag
    data = msgspec.json.encode(event)
    return b"id: %s\r\nevent: %s\r\ndata: %s\r\n\r\n" % (event.id.encode(), tag.encode(), data)


def frame_sizes(games: list[Any], moves: int) -> list[list[list[Any]]]:
    """For each table and each of its first ``moves`` moves: ``[seq, type, {kind: size}]`` of
    every event, ``size`` the length of the SSE frame the service sends that kind of caller
    (the working tree's encoding), played in-process on the in-memory store."""
    from baohuang.store import MemoryTableStore
    from baohuang.tables import Authority, Caller, TableService
    from baohuang.tables.callers import PLATFORM
    from baohuang.tables.views import cut_event

    callers = {"platform": PLATFORM, "spectator": Caller("spectator")}
    callers |= {f"seat{s}": Caller("seat", s) for s in range(5)}

    async def play() -> list[list[list[Any]]]:
        service = TableService(MemoryTableStore(), Authority((), "s"))
        plan = []
        for n, steps in enumerate(games):
            created, _ = await service.create(f"t{n}", steps[0][0], PLATFORM)
            version, table = created.version, []
            for _, move in steps[:moves]:
                answer = await service.move(f"t{n}", PLATFORM, move, version)
                version = answer.version
                events = []
                for event in answer.events:
                    sizes = {}
                    for kind, caller in callers.items():
                        cut = cut_event(event, caller)
                        if cut is not None:
                            sizes[kind] = len(_sse_frame(cut))
                    events.append([event.seq, type(event).__struct_config__.tag, sizes])
                table.append(events)
            plan.append(table)
        return plan

    return asyncio.run(play())


# --------------------------------------------------------------------------- the driver


async def _drive(
    port: int, tables: list[dict[str, Any]], anchor: bool, rate: float, seconds: float, out: Path
) -> None:
    """Each table's next moves through ``port``, ``rate`` a second per table, for ``seconds``:
    ``(table, seq, sent, type)`` for every event of every answer."""
    records: list[tuple[int, int, float, str]] = []
    statuses: Counter[int] = Counter()
    decode = msgspec.json.Decoder(Any).decode
    start = time.time()
    end = start + seconds

    async def play(table: int, row: dict[str, Any]) -> None:
        connection = Connection(port)
        try:
            if not anchor:
                path = f"/v1/tables/{row['id']}"
                _, body = await connection.request("GET", path)
                version = decode(body)["version"]
            due = start + random.random() / rate
            while due < end:
                await asyncio.sleep(max(0.0, due - time.time()))
                due += 1 / rate
                sent = time.time()
                if anchor:
                    status, body = await connection.request("POST", f"/t/{table}/publish", b"")
                    statuses[status] += 1
                    records.extend((table, seq, sent, kind) for seq, kind in decode(body))
                    continue
                move = row["moves"][version - row["first"]]
                status, body = await connection.request(
                    "POST", path + "/moves", b'{"move":%s,"version":%d}' % (move, version)
                )
                statuses[status] += 1
                if status == 200:
                    answer = decode(body)
                    version = answer["version"]
                    records.extend((table, e["seq"], sent, e["type"]) for e in answer["events"])
                else:  # read the table again and go on
                    _, body = await connection.request("GET", path)
                    version = decode(body)["version"]
        finally:
            await connection.close()

    await asyncio.gather(*(play(n, row) for n, row in enumerate(tables)))
    out.write_bytes(msgspec.json.encode({"records": records, "statuses": statuses}))


def drive(
    port: int, anchor: bool, args: argparse.Namespace, name: str, seconds: float | None = None
) -> dict[str, Any]:
    out = OUT / "fanout-driver.json"
    seconds = args.seconds if seconds is None else seconds
    command = [
        sys.executable,
        __file__,
        "drive",
        str(port),
        str(OUT / f"fanout-tables-{name}.json"),
    ]
    command += [str(out), "anchor" if anchor else "tables", f"{args.rate:g}", f"{seconds:g}"]
    if args.other_cpu is not None:
        command = ["taskset", "-c", args.other_cpu, *command]
    subprocess.run(command, check=True, timeout=seconds + 120)
    result: dict[str, Any] = json.loads(out.read_bytes())
    return result


# --------------------------------------------------------------------------- followers

_ID = re.compile(rb"\nid: (\d+)[.\r]")
_CLOSED = b"\nevent: closed"


class _Follower(asyncio.Protocol):
    """One SSE stream on a raw socket: the seq of every ``id:`` line and when it arrived."""

    def __init__(self, n: int, table: int, request: bytes, records: list[Any]) -> None:
        self.n, self.table, self.request, self.records = n, table, request, records
        self.opened: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.tail = b""
        self.closed = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.time()
        if not self.opened.done():
            status = data[9:12]
            self.opened.set_result("ok" if status == b"200" else data[:300].decode("latin-1"))
        data = self.tail + data
        end = 0
        for match in _ID.finditer(data):
            self.records.append((self.n, self.table, int(match.group(1)), now))
            end = match.end()
        if _CLOSED in data:
            self.closed = True
        self.tail = data[max(end, len(data) - 200) :]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_result(f"connection lost: {exc}")


async def _follow(port: int, plan: list[list[Any]], out: Path) -> None:
    """Open a stream per row of ``plan`` (``[follower, table, path, headers]``),
    ``OPEN_AT_ONCE`` at a time; print ``READY <open> <failed> <first failure>``; keep the
    records until stdin closes; then write them to ``out``."""
    loop = asyncio.get_running_loop()
    records: list[Any] = []
    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    protocols: list[_Follower] = []
    failures: list[str] = []

    async def one(row: list[Any]) -> None:
        n, table, path, headers = row
        lines = [
            f"GET {path} HTTP/1.1",
            "host: 127.0.0.1",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode()
        async with gate:
            try:
                _, protocol = await loop.create_connection(
                    lambda: _Follower(n, table, request, records), "127.0.0.1", port
                )
                answer = await asyncio.wait_for(protocol.opened, 60)
            except (OSError, TimeoutError) as exc:
                failures.append(repr(exc))
                return
        if answer == "ok":
            protocols.append(protocol)
        else:
            failures.append(answer)

    await asyncio.gather(*(one(row) for row in plan))
    print(f"READY {len(protocols)} {len(failures)} {failures[:1]!r}", flush=True)
    await loop.run_in_executor(None, sys.stdin.read)
    ended = sum(p.closed for p in protocols)
    for protocol in protocols:
        if protocol.transport is not None:
            protocol.transport.close()
    out.write_bytes(msgspec.json.encode({"records": records, "ended": ended}))


def followers(name: str, port: int, plan: list[list[Any]], cpu: str | None) -> Followers:
    """A follower process of this bench's raw-socket followers (:func:`_follow`)."""
    return Followers(f"fanout-{name}", port, plan, cpu, script=__file__)


# --------------------------------------------------------------------------- one target


def sampler(pids: dict[str, int], redis_port: int | None, samples: list[Any], stop: Any) -> None:
    """Every second until ``stop``: RSS of the process under test (``pids["A"]``) and the Redis
    connections of each of ``pids``."""
    while not stop.wait(1.0):
        sample: dict[str, Any] = {"rss": rss_bytes(pids["A"])}
        if redis_port is not None:
            sample["redis"] = dict(redis_clients_by_process(redis_port, pids))
        samples.append(sample)


def settle(pid: int, most: float) -> None:
    """Wait until the process under test is idle (under 10 % of a CPU for half a second: what
    it still had to send is sent), ``most`` seconds at most."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(0.5)
        if cpu_seconds(pid) - before < 0.05:
            return


def measure_step(target: Any, n: int, args: argparse.Namespace) -> dict[str, Any]:
    """One repetition at ``n`` followers: drive ``target`` while sampling it, then wait until
    it has sent what it had to."""
    busy = wait_for_quiet(max_wait=args.quiet) if args.quiet else None
    samples: list[Any] = []
    stop = threading.Event()
    thread = threading.Thread(target=sampler, args=(target.pids, target.redis_port, samples, stop))
    pid = target.a.process.pid
    cpu0, wall0 = cpu_seconds(pid), time.time()
    thread.start()
    try:
        driven = drive(target.drive_port, target.anchor, args, target.name)
        settle(pid, args.settle)
    finally:
        stop.set()
        thread.join()
    wall1 = time.time()
    redis = {}
    if target.redis_port is not None:
        for name in target.pids:
            held = [s["redis"].get(name, 0) for s in samples]
            redis[name] = [min(held), max(held)]
    return {
        "followers": n,
        "busy_before": busy,
        "cpu_seconds": cpu_seconds(pid) - cpu0,
        "cpu_share": (cpu_seconds(pid) - cpu0) / (wall1 - wall0),
        "rss_mb": med(s["rss"] for s in samples) / 2**20,
        "redis": redis,
        "driven": driven,
    }


def delivery(
    driven: dict[str, Any], parts: list[dict[str, Any]], present: list[list[Any]]
) -> dict[str, Any]:
    """Delays of the frames of ``driven``'s events; frames expected of the followers
    ``present`` (rows ``[follower, table, path, headers, kind]``)."""
    sent = {(t, seq): s for t, seq, s, _ in driven["records"]}
    kinds: Counter[tuple[int, str]] = Counter((row[1], row[4]) for row in present)
    delays, frames, seen = [], 0, set()
    duplicates = 0
    for part in parts:
        for follower, table, seq, arrived in part.get("records", []):
            at = sent.get((table, seq))
            if at is None:
                continue
            frames += 1
            if (follower, seq) in seen:
                duplicates += 1
            seen.add((follower, seq))
            delays.append(1e3 * (arrived - at))
    expected = 0
    for table, _, _, kind in driven["records"]:
        expected += kinds[(table, "platform")]
        if kind not in PLATFORM_ONLY:
            expected += sum(kinds[(table, k)] for k in KINDS[1:])
    return {
        "frames": frames,
        "frames_expected": expected,
        "duplicates": duplicates,
        "events": len(driven["records"]),
        "requests": sum(driven["statuses"].values()),
        "statuses": driven["statuses"],
        "p50_ms": pct(delays, 50),
        "p99_ms": pct(delays, 99),
        "max_ms": max(delays, default=float("nan")),
    }


class Target:
    """A version under test, its servers started: ``a`` serves the followers, moves go to
    ``drive_port``; ``pids``: whose Redis connections to count."""

    def __init__(
        self, name: str, args: argparse.Namespace, redis: Any, before: Path | None,
        port: int, stack: contextlib.ExitStack,
    ) -> None:  # fmt: skip
        self.name, self.anchor = name, name == "anchor"
        if self.anchor:
            command = [
                sys.executable,
                __file__,
                "anchor",
                str(port),
                str(OUT / "fanout-frames.json"),
            ]
            self.a = stack.enter_context(Server("anchor", port, args.server_cpu, command=command))
            self.drive_port, self.pids, self.redis_port = port, {"A": self.a.process.pid}, None
            return
        env = dict(RAISED_LIMITS)
        if name == "before":
            assert before is not None
            env["PYTHONPATH"] = f"{before}{os.pathsep}{BENCH}"
        self.a = stack.enter_context(serve(port, redis.url, args.server_cpu, **env))
        b = stack.enter_context(serve(port + 1, redis.url, args.other_cpu, **env))
        self.drive_port, self.redis_port = b.port, redis.port
        self.pids = {"A": self.a.process.pid, "B": b.process.pid}


def make_tables(port: int, games: list[Any], prefix: str) -> list[dict[str, Any]]:
    """PUT the tables through ``port``: each table's id, first version, tokens and moves."""
    bodies = [
        (f"{prefix}-{n}", msgspec.json.encode({"snapshot": g[0][0]})) for n, g in enumerate(games)
    ]
    answers = asyncio.run(put_tables(port, bodies))
    return [
        {
            "id": tid,
            "first": answers[tid]["version"],
            "seat_tokens": answers[tid]["seat_tokens"],
            "spectator_token": answers[tid]["spectator_token"],
            "moves": [msgspec.json.encode(m).decode() for _, m in g],
        }
        for (tid, _), g in zip(bodies, games, strict=True)
    ]


def rows_for(target: str, tables: list[dict[str, Any]], count: int) -> list[list[Any]]:
    """``count`` followers spread over the tables and, within a table, over the kinds:
    ``[follower, table, path, headers, kind]``."""
    rows = []
    for n in range(count):
        table, kind = n % len(tables), KINDS[(n // len(tables)) % len(KINDS)]
        if target == "anchor":
            rows.append([n, table, f"/t/{table}/{kind}", {}, kind])
            continue
        row = tables[table]
        headers = {"accept": "text/event-stream"}
        if kind == "spectator":
            headers["authorization"] = f"Bearer {row['spectator_token']}"
        elif kind != "platform":
            headers["authorization"] = f"Bearer {row['seat_tokens'][int(kind[-1])]}"
        rows.append([n, table, f"/v1/tables/{row['id']}/events", headers, kind])
    return rows


def run(args: argparse.Namespace, redis: Any, games: list[Any], before: Path | None) -> Any:
    """Every target's servers at once; at each step, its followers opened on every target,
    then the repetitions, the targets taking turns (the machine is shared: a change of load
    then falls on all of them alike)."""
    results: dict[str, dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        targets = []
        for n, name in enumerate(args.targets):
            target = Target(name, args, redis, before, args.port + 2 * n, stack)
            if target.anchor:
                target.tables = [{} for _ in games]
            else:
                prefix = f"fanout-{name}-{int(time.time())}"
                target.tables = make_tables(target.drive_port, games, prefix)
            (OUT / f"fanout-tables-{name}.json").write_bytes(msgspec.json.encode(target.tables))
            target.rows = rows_for(name, target.tables, max(args.steps))
            targets.append(target)
        for target in targets:  # warm-up: 100 followers, a few seconds of moves
            warm = followers(
                f"{target.name}-warm",
                target.a.port,
                [r[:4] for r in target.rows[:100]],
                args.other_cpu,
            )
            drive(target.drive_port, target.anchor, args, target.name, seconds=4)
            warm.stop()
        time.sleep(3)
        for target in targets:
            readings = []
            for _ in range(3):
                time.sleep(0.5)
                readings.append(rss_bytes(target.a.process.pid))
            results[target.name] = {
                "target": target.name,
                "rss0_mb": med(readings) / 2**20,
                "steps": [],
            }
            target.groups = []
        opened = 0
        for n, reps in zip(args.steps, args.reps, strict=True):
            for target in targets:
                began = time.time()
                plan = [r[:4] for r in target.rows[opened:n]]
                target.groups.append(
                    followers(f"{target.name}-{n}", target.a.port, plan, args.other_cpu)
                )
                print(f"  {target.name}: {sum(g.open for g in target.groups)} followers open"
                      f" ({time.time() - began:.0f} s)", flush=True)  # fmt: skip
            opened = n
            for rep in range(reps):
                turn = targets[rep % len(targets) :] + targets[: rep % len(targets)]
                for target in turn:
                    step = measure_step(target, n, args)
                    step["rep"] = rep
                    step["opened"] = sum(g.open for g in target.groups)
                    results[target.name]["steps"].append(step)
                    print(f"  {target.name} at {n}, rep {rep + 1}: driven", flush=True)
        for target in targets:
            target.parts = [g.stop() for g in target.groups]
    for target in targets:
        result = results[target.name]
        for step in result["steps"]:
            present = target.rows[: step["followers"]]
            step["delivery"] = delivery(step.pop("driven"), target.parts, present)
            step["rss_per_follower_kb"] = (
                (step["rss_mb"] - result["rss0_mb"]) * 1024 / step["followers"]
            )
            d = step["delivery"]
            step["cpu_us_per_frame"] = 1e6 * step["cpu_seconds"] / max(1, d["frames"])
            print(
                f"  {target.name:>6} {step['followers']:>6} rep {step['rep'] + 1}: p50"
                f" {d['p50_ms']:.1f} ms, p99 {d['p99_ms']:.1f} ms, max {d['max_ms']:.0f} ms;"
                f" frames {d['frames']} of {d['frames_expected']} (dup {d['duplicates']});"
                f" {d['requests']} moves; cpu {step['cpu_share']:.0%}"
                f" ({step['cpu_us_per_frame']:.1f} us/frame); RSS {step['rss_mb']:.1f}"
                f" MiB ({step['rss_per_follower_kb']:.1f} KiB/follower); Redis {step['redis']};"
                f" busy before {step['busy_before'] or 0:.0%}",
                flush=True,
            )
        result["ended_early"] = sum(p.get("ended", 0) for p in target.parts)
        result["opened"] = sum(g.open for g in target.groups)
    return list(results.values())


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ("anchor", "drive", "follow"):
        import uvloop

        if sys.argv[1] == "anchor":
            run_anchor(int(sys.argv[2]), Path(sys.argv[3]))
        elif sys.argv[1] == "drive":
            port, tables, out, mode, rate, seconds = sys.argv[2:8]
            rows = json.loads(Path(tables).read_bytes())
            for row in rows:
                row["moves"] = [m.encode() for m in row.get("moves", [])]
            uvloop.run(
                _drive(int(port), rows, mode == "anchor", float(rate), float(seconds), Path(out))
            )
        else:
            raise_open_files()
            plan = json.loads(Path(sys.argv[3]).read_text())
            uvloop.run(_follow(int(sys.argv[2]), plan, Path(sys.argv[4])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--targets", default="anchor,after", help="anchor, after, before")
    parser.add_argument("--before", default="93277c4", help="the git revision of 'before'")
    parser.add_argument("--steps", default=",".join(map(str, STEPS)))
    parser.add_argument("--reps", default="2,2,1", help="repetitions at each step")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1.0, help="moves a second per table")
    parser.add_argument("--seconds", type=float, default=20.0, help="driving per step")
    parser.add_argument("--settle", type=float, default=30.0, help="wait after driving, at most")
    parser.add_argument("--port", type=int, default=18600)
    parser.add_argument("--quiet", type=float, default=20.0, help="wait up to this for quiet")
    parser.add_argument("--no-pin", action="store_true")
    parser.add_argument(
        "--nice", type=int, default=10, help="run everything this much ahead of other work"
    )
    parser.add_argument("--json", type=Path, default=OUT / "fanout.json")
    args = parser.parse_args()
    args.steps = [int(s) for s in args.steps.split(",")]
    args.reps = [int(r) for r in args.reps.split(",")]
    args.targets = args.targets.split(",")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the servers are stopped
    if args.nice:
        with contextlib.suppress(OSError):  # only root may; every child inherits it
            os.nice(-args.nice)
    OUT.mkdir(parents=True, exist_ok=True)
    files = raise_open_files()
    pin = not args.no_pin and (os.cpu_count() or 1) >= 2
    args.server_cpu, args.other_cpu = ("0", "1") if pin else (None, None)
    print(f"{machine_line()}; open files {files}", flush=True)
    started = time.time()
    from snapshots import game

    games = [game(3000 + n, kaopai=n % 3 == 2) for n in range(args.tables)]
    moves = int(args.rate * (args.seconds + 1) * (sum(args.reps) + 1)) + 20
    if "anchor" in args.targets:
        (OUT / "fanout-frames.json").write_text(json.dumps(frame_sizes(games, moves)))
    redis = own_redis(args.other_cpu)
    try:
        with contextlib.ExitStack() as stack:
            before = None
            if "before" in args.targets:
                before = stack.enter_context(worktree(args.before)) / "service"
            results = run(args, redis, games, before)
    finally:
        redis.close()
    print(f"took {time.time() - started:.0f} s")
    record = {
        "machine": machine_line(),
        "command": sys.argv,
        "started": started,
        "results": results,
    }
    args.json.write_text(json.dumps(record, indent=2))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
