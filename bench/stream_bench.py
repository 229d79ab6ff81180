"""Streams across replicas: 1,000 SSE followers on one process while another one commits moves.

    .venv/bin/python bench/stream_bench.py                          # 100, then 1,000 followers
    .venv/bin/python bench/stream_bench.py --rate 2 --seconds 20 --reps 3

Set-up: our own redis-server (the tests' launcher, a free port). Replica A, ``baohuang serve``
pinned to CPU 0, serves the followers; replica B, a second ``baohuang serve``, takes the
driver's moves; both on that Redis with the same token secret, so every event reaches A's
followers through Redis (the log and A's one Pub/Sub subscription). Everything else (B, Redis,
the driver and follower processes, wrk) runs on CPU 1.

Tables: 50, PUT through B, each the first snapshot of a random full-deck deal
(``bench/snapshots.py``'s agent, seeds 3000–3049, every third with kaopai). Followers:
``GET /v1/tables/{id}/events`` with ``Accept: text/event-stream`` and a seat token from the PUT,
4 per seat per table (50 × 5 × 4 = 1,000), in two follower processes: the first 100 (follower 0
of seats 0 and 1 of every table), then the other 900, opened 50 at a time. The driver (its own
process) plays each table's moves in order through B, ``--rate`` moves per second per table
(each table on its own connection, a random phase), and keeps, for every event of every answer,
``(table, seq) → (time sent, time answered)``; a follower keeps ``(table, seq, time received)``
for every SSE frame with an ``id``. Delay = received − sent (the upper bound: it includes B's
own handling of the move before its commit) and received − answered (may be negative: A can
deliver before B's answer reaches the driver). All times are ``time.time()`` on one machine.

Stages: warm-up (driver, and 20 followers for a few seconds); RSS of A with no follower; then
with 100 and with 1,000 followers, ``--seconds`` of driving each, sampling every second A's RSS
and the Redis connections of A and B (``CLIENT LIST`` of our Redis, each client attributed to
the process owning its socket). RSS per follower = (RSS at 1,000 − RSS at 0) / 1,000.

Last, with the followers gone: table moves (with their event append) against stateless
``/v1/moves/validate`` on A, as in RESULTS.md section 7 (``http_bench``'s seq.lua, ``-t32
-c32``, 128 tables), interleaved, ``--reps`` repetitions of ``--tp-seconds``; the ratio per
repetition and its median.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_bench import SEQ_LUA, _table_files, wrk
from live import (
    OUT,
    Connection,
    Followers,
    cpu_seconds,
    machine_line,
    med,
    metric,
    own_redis,
    pct,
    put_tables,
    raise_open_files,
    redis_clients_by_process,
    rss_bytes,
    serve,
)

TABLES, SEATS, PER_SEAT = 50, 5, 4


# --------------------------------------------------------------------------- children


async def _drive(port: int, plan: dict[str, Any], rate: float, seconds: float, out: Path) -> None:
    """Play each table's moves in order through ``port``, ``rate`` a second per table, for
    ``seconds``; write ``(table, seq, sent, answered)`` for every event of every answer."""
    records: list[tuple[int, int, float, float, str]] = []
    statuses: Counter[int] = Counter()
    decode = msgspec.json.Decoder(dict[str, Any]).decode
    start = time.time()
    end = start + seconds

    async def play(table: int, row: dict[str, Any]) -> None:
        connection = Connection(port)
        path = f"/v1/tables/{row['id']}"
        moves = plan["moves"][row["deal"]]
        try:
            _, body = await connection.request("GET", path)
            version = decode(body)["version"]
            due = start + random.random() / rate
            while True:
                index = version - row["first"]
                if index >= len(moves) or due >= end:
                    return
                await asyncio.sleep(max(0.0, due - time.time()))
                due += 1 / rate
                move = b'{"move":' + moves[index].encode() + b',"version":%d}' % version
                sent = time.time()
                status, body = await connection.request("POST", path + "/moves", move)
                answered = time.time()
                statuses[status] += 1
                if status == 200:
                    answer = decode(body)
                    version = answer["version"]
                    records.extend(
                        (table, e["seq"], sent, answered, e["type"]) for e in answer["events"]
                    )
                else:  # read the table again and go on
                    _, body = await connection.request("GET", path)
                    version = decode(body)["version"]
        finally:
            await connection.close()

    await asyncio.gather(*(play(n, row) for n, row in enumerate(plan["tables"])))
    out.write_bytes(msgspec.json.encode({"records": records, "statuses": dict(statuses)}))


def child(argv: list[str]) -> None:
    """``drive PORT PLAN OUT RATE SECONDS`` (run by the bench in its own process)."""
    import uvloop

    port, plan_path, out = int(argv[1]), Path(argv[2]), Path(argv[3])
    plan = json.loads(plan_path.read_text())
    uvloop.run(_drive(port, plan, float(argv[4]), float(argv[5]), out))


# --------------------------------------------------------------------------- the bench


def drive(
    port: int, plan_path: Path, rate: float, seconds: float, cpu: str | None
) -> dict[str, Any]:
    out = OUT / "stream-driver.json"
    command = [
        sys.executable,
        __file__,
        "drive",
        str(port),
        str(plan_path),
        str(out),
        f"{rate:g}",
        f"{seconds:g}",
    ]
    if cpu is not None:
        command = ["taskset", "-c", cpu, *command]
    subprocess.run(command, check=True, timeout=seconds + 60)
    result: dict[str, Any] = json.loads(out.read_bytes())
    return result


def sse(table: dict[str, Any], seat: int) -> dict[str, str]:
    """A follower's request headers: SSE, with the seat's token from the PUT answer."""
    token = table["seat_tokens"][seat]
    return {"accept": "text/event-stream", "authorization": f"Bearer {token}"}


def make_tables(port: int) -> tuple[Path, list[dict[str, Any]]]:
    """PUT the 50 tables through ``port``; write the driver's plan; the PUT answers."""
    from snapshots import game

    games = [game(3000 + n, kaopai=n % 3 == 2) for n in range(TABLES)]
    bodies = [
        (f"stream-{n}", msgspec.json.encode({"snapshot": g[0][0]})) for n, g in enumerate(games)
    ]
    answers = asyncio.run(put_tables(port, bodies))
    tables = [
        {"id": tid, "first": answers[tid]["version"], "deal": n}
        for n, (tid, _) in enumerate(bodies)
    ]
    moves = [[msgspec.json.encode(m).decode() for _, m in g] for g in games]
    path = OUT / "stream-driver-plan.json"
    path.write_text(json.dumps({"tables": tables, "moves": moves}))
    return path, [answers[tid] for tid, _ in bodies]


def delays(
    driven: dict[str, Any],
    followed: list[dict[str, Any]],
    window: tuple[float, float],
    followers_per_table: Counter[int],
) -> dict[str, Any]:
    """Delay of every frame received in ``window`` whose event the driver committed; and the
    frames expected: each event a seat may see (all but ``move``, in play) times the followers
    of its table."""
    sent = {(t, seq): (s, a) for t, seq, s, a, _ in driven["records"]}
    from_sent, from_answer, unknown = [], [], 0
    for part in followed:
        for _, table, seq, arrived, _ in part["records"]:
            if not window[0] <= arrived <= window[1] + 5:
                continue
            times = sent.get((table, seq))
            if times is None:
                unknown += 1
                continue
            from_sent.append(1e3 * (arrived - times[0]))
            from_answer.append(1e3 * (arrived - times[1]))
    visible = [t for t, _, _, _, kind in driven["records"] if kind != "move"]
    return {
        "frames": len(from_sent),
        "frames_expected": sum(followers_per_table[t] for t in visible),
        "unmatched_frames": unknown,
        "events_committed": len(driven["records"]),
        "moves": sum(driven["statuses"].values()),
        "driver_statuses": driven["statuses"],
        "p50_ms": pct(from_sent, 50),
        "p99_ms": pct(from_sent, 99),
        "max_ms": max(from_sent, default=float("nan")),
        "p50_from_answer_ms": pct(from_answer, 50),
        "p99_from_answer_ms": pct(from_answer, 99),
    }


def sample(a: Any, b: Any, redis: Any, samples: list[dict[str, Any]], stop: Any) -> None:
    """Every second until ``stop`` is set: RSS of A; the Redis connections A and B hold, and
    how many of them are Pub/Sub subscriptions."""
    pids = {"A": a.process.pid, "B": b.process.pid}
    while not stop.wait(1.0):
        held = redis_clients_by_process(redis.port, pids)
        subs = redis_clients_by_process(redis.port, pids, subscribers=True)
        samples.append(
            {
                "t": time.time(),
                "rss_a": rss_bytes(a.process.pid),
                "redis_a": held["A"],
                "redis_b": held["B"],
                "subs_a": subs["A"],
                "subs_b": subs["B"],
            }
        )


def stage(
    name: str,
    args: argparse.Namespace,
    a: Any,
    b: Any,
    redis: Any,
    plan_path: Path,
) -> dict[str, Any]:
    """Drive for ``args.seconds`` while sampling A's RSS and both replicas' Redis connections."""

    samples: list[dict[str, Any]] = []
    stop = threading.Event()
    sampler = threading.Thread(target=sample, args=(a, b, redis, samples, stop))
    followers_gauge = metric(a.port, r"baohuang_stream_followers ")
    cpu0, wall0 = cpu_seconds(a.process.pid), time.time()
    sampler.start()
    try:
        driven = drive(b.port, plan_path, args.rate, args.seconds, args.other_cpu)
    finally:
        stop.set()
        sampler.join()
    wall1 = time.time()
    result = {
        "stage": name,
        "followers": followers_gauge,
        "a_cpu_share": (cpu_seconds(a.process.pid) - cpu0) / (wall1 - wall0),
        "rss_a_mb": med(s["rss_a"] for s in samples) / 2**20,
        "redis_a": [min(s["redis_a"] for s in samples), max(s["redis_a"] for s in samples)],
        "redis_b": [min(s["redis_b"] for s in samples), max(s["redis_b"] for s in samples)],
        "subs_a": max(s["subs_a"] for s in samples),
        "subs_b": max(s["subs_b"] for s in samples),
        "window": (wall0, wall1),
        "driven": driven,
    }
    return result


def throughput(args: argparse.Namespace, server: Any) -> dict[str, Any]:
    """Section 7's comparison on ``server``: seq.lua, -t32 -c32, 128 tables, interleaved."""
    from snapshots import game

    shape = argparse.Namespace(connections=32, tables_per_connection=4)
    games = [game(1000 + n, kaopai=n % 3 == 2) for n in range(128)]
    runs: dict[str, list[dict[str, Any]]] = {"validate": [], "tables": []}
    for rep in range(args.reps + 1):  # rep 0: warm-up, not recorded
        tables_dir, validate_dir, _ = _table_files(server, games, shape, rep)
        for name, folder in (("validate", validate_dir), ("tables", tables_dir)):
            data = wrk(
                server.url("/"),
                args.tp_seconds if rep else 2,
                32,
                None,
                args.other_cpu,
                server=server if rep else None,
                quiet=args.quiet if rep else 0,
                lua=SEQ_LUA,
                threads=32,
                env={"SEQ_DIR": str(folder)},
            )
            if rep:
                runs[name].append(data)
                print(
                    f"  rep {rep} {name:<9}{data['rps']:>8.0f} req/s  p50"
                    f" {data['latency_us']['p50'] / 1e3:.1f} ms  p99"
                    f" {data['latency_us']['p99'] / 1e3:.1f} ms  non-200 {data['non200']}"
                    f"  [server cpu {data['server_cpu_share']:.0%}, busy before"
                    f" {data['busy_before'] or 0:.0%}]",
                    flush=True,
                )
    pairs = list(zip(runs["tables"], runs["validate"], strict=True))
    return {
        "validate_rps": med(v["rps"] for v in runs["validate"]),
        "tables_rps": med(t["rps"] for t in runs["tables"]),
        "validate_p99_ms": med(v["latency_us"]["p99"] / 1e3 for v in runs["validate"]),
        "tables_p99_ms": med(t["latency_us"]["p99"] / 1e3 for t in runs["tables"]),
        "ratios": [t["rps"] / v["rps"] for t, v in pairs],
        "ratio": med(t["rps"] / v["rps"] for t, v in pairs),
        "capacity_ratio": med(t["capacity"] / v["capacity"] for t, v in pairs),
        "non200": sum(r["non200"] for r in runs["tables"] + runs["validate"]),
        "runs": runs,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "drive":
        child(sys.argv[1:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=2.0, help="moves a second per table")
    parser.add_argument("--seconds", type=float, default=20.0, help="driving per stage")
    parser.add_argument("--reps", type=int, default=3, help="throughput repetitions")
    parser.add_argument("--tp-seconds", type=float, default=8.0, help="seconds per wrk run")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--port", type=int, default=18500)
    parser.add_argument("--quiet", type=float, default=20.0, help="wait up to this for quiet")
    parser.add_argument("--no-pin", action="store_true")
    parser.add_argument("--json", type=Path, default=OUT / "streams.json")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the servers are stopped
    OUT.mkdir(parents=True, exist_ok=True)
    files = raise_open_files()
    pin = not args.no_pin and (os.cpu_count() or 1) >= 2
    args.server_cpu, args.other_cpu = ("0", "1") if pin else (None, None)
    print(f"{machine_line()}; open files {files}", flush=True)
    started = time.time()
    redis = own_redis(args.other_cpu)
    try:
        with (
            serve(args.port, redis.url, args.server_cpu) as a,
            serve(args.port + 1, redis.url, args.other_cpu) as b,
        ):
            plan_path, answers = make_tables(b.port)
            rows = [
                [n, table, f"/v1/tables/{answers[table]['id']}/events", sse(answers[table], seat)]
                for n, (_, seat, table) in enumerate(
                    (f, s, t) for f in range(PER_SEAT) for s in range(SEATS) for t in range(TABLES)
                )
            ]
            warm = Followers("warm", a.port, rows[:20], args.other_cpu)
            drive(b.port, plan_path, args.rate, 5, args.other_cpu)
            warm.stop()
            time.sleep(2)
            stages = [stage("0", args, a, b, redis, plan_path)]
            first = Followers("first", a.port, rows[:100], args.other_cpu)
            stages.append(stage("100", args, a, b, redis, plan_path))
            rest = Followers("rest", a.port, rows[100:], args.other_cpu)
            stages.append(stage("1000", args, a, b, redis, plan_path))
            opened = first.open + rest.open
            parts = [first.stop(), rest.stop()]
            for s, present in zip(stages, ([], rows[:100], rows), strict=True):
                per_table = Counter(row[1] for row in present)
                s["delivery"] = delays(s.pop("driven"), parts, s["window"], per_table)
            tp = None if args.skip_throughput else throughput(args, a)
    finally:
        redis.close()
    rss0 = stages[0]["rss_a_mb"]
    for s in stages:
        d = s["delivery"]
        count = int(s["stage"])
        per = f", {(s['rss_a_mb'] - rss0) * 1024 / count:.1f} KiB per follower" if count else ""
        print(
            f"{s['stage']:>5} followers (gauge {s['followers']:.0f}): {d['moves']} moves, "
            f"{d['frames']} frames; delay from send p50 {d['p50_ms']:.1f} ms, p99 {d['p99_ms']:.1f}"
            f" ms (max {d['max_ms']:.0f}); from answer p50 {d['p50_from_answer_ms']:.1f}, p99"
            f" {d['p99_from_answer_ms']:.1f} ms; A: cpu {s['a_cpu_share']:.0%}, RSS"
            f" {s['rss_a_mb']:.1f} MiB{per}, Redis connections {s['redis_a']} of which Pub/Sub"
            f" {s['subs_a']} (B: {s['redis_b']}, {s['subs_b']}); received"
            f" {d['frames']} of {d['frames_expected']} visible",
            flush=True,
        )
    print(f"followers opened {opened} of {len(rows)}; ended early {sum(p['ended'] for p in parts)}")
    if tp:
        print(
            f"validate {tp['validate_rps']:.0f} req/s, tables {tp['tables_rps']:.0f} req/s, "
            f"tables/validate {tp['ratio']:.2f} {[round(r, 2) for r in tp['ratios']]}, "
            f"capacity {tp['capacity_ratio']:.2f}, non-200 {tp['non200']}"
        )
    record = {"machine": machine_line(), "command": sys.argv, "started": started,
              "stages": stages, "throughput": tp}  # fmt: skip
    args.json.write_text(json.dumps(record, indent=2))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
