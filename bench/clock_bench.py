"""Clocks: 2,000 tables with 5-second turn clocks on one process, and nobody moving.

    .venv/bin/python bench/clock_bench.py                     # 2,000 clocked tables, 3 reps
    .venv/bin/python bench/clock_bench.py --tables 500 --reps 1
    .venv/bin/python bench/clock_bench.py --before 93277c4 --reps 1   # REV, then the tree

One ``baohuang serve`` (uvicorn, one worker, pinned to CPU 0) on our own redis-server (the
tests' launcher, a free port); the bench, its follower process and wrk on CPU 1.

Each repetition, on a timeline:

* t = 0: wrk starts moves on 2,000 *other* tables, unclocked (``bench/wrk/tables.lua``, ``-t2
  -c32``; the deals of overload_bench), and runs until the end of the repetition. A sampler
  reads ``/metrics`` every second: ``baohuang_timeouts_total`` and the 200 answers of
  ``/v1/tables/{id}/moves``, i.e. timeouts applied and other tables' moves per second.
* t = 15 s: ``--tables`` tables are PUT with ``{"snapshot": …, "clock": {"turn_seconds": 5,
  "before_play_seconds": 5}}``, each snapshot from ``POST /v1/deal`` (classic, seed k, dealer
  k mod 5; phase crown). Nobody moves them: every seat's first turn runs out, 托管 takes the
  seat (T-11) and plays it, and the seat stays in 托管; the fifth timeout of a table puts its
  last seat in 托管, which then plays the deal to its end (in that one write before the play-out
  was spread over writes; over writes of ``flow.PLAYOUT_MOVES`` moves after). So a table times
  out five times and is over (a void deal, S-10). The first ``--sample`` tables are followed
  over NDJSON (platform, ``?after=0``) from just after their PUT.
* The repetition waits until every table timed out five times and every play-out finished
  (the Redis indexes ``deadlines`` and ``playouts`` are empty: the other tables are unclocked;
  or nothing changed for 15 s; at most ``--max-seconds`` after the first PUT), reads every
  clocked table's first events and its last (the ``deal_over``), DELETEs the clocked tables,
  waits 15 s more and stops wrk.
* ``--before REV``: each repetition runs REV (a git worktree, its ``service/`` first on
  ``PYTHONPATH``) and then the working tree, each on a fresh redis-server and server.

Figures: timeouts per second (from the samples); lateness past the deadline, observed: for each
``trustee`` event with cause ``timeout`` on a followed table, its arrival time minus the
deadline of the table's last ``clock`` event (includes the stream's delivery); lateness as the
server applied it, for every table: the ``at`` of each timeout's ``trustee`` event (the time
its write was judged at) minus the deadline before it, read back from each table's event log
afterwards; other tables' moves per second
before the clocked tables, while they time out (from the last PUT to the end of the wait) and
after they are deleted; "during" is from the last PUT until the play-outs finished, split at the
last timeout into "timeouts" and "play-outs"; the play-outs' time, per table from its fifth
timeout to its ``deal_over``, and for all from the first PUT to the last ``deal_over``.
``--connections 0`` runs the clocks alone, without wrk.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live import (
    BENCH,
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
    serve,
)
from loadgen import worktree
from overload_bench import TABLES_LUA, create_tables, write_deals

CLOCK = {"turn_seconds": 5, "before_play_seconds": 5}
TIMEOUTS_PER_TABLE = 5
OTHER_TABLES = 2000
"""Enough deals for wrk's whole run: a table is retired when its deal has no moves left (about
350 each), and at ~4,000 moves/s 400 tables ran out in about 35 s, before the clocks did."""
PREFIX = "baohuang:table:"
"""The store's default key prefix (``redis_core.DEFAULT_KEY_PREFIX``): its indexes' keys."""
MOVES_200 = (
    r'baohuang_http_requests_total\{[^}]*route="/v1/tables/\{table_id\}/moves",status="200"\}'
)


async def _deals(port: int, count: int) -> list[bytes]:
    """``count`` first snapshots from ``POST /v1/deal`` (8 connections)."""
    snapshots: list[bytes] = [b""] * count
    todo = list(range(count))

    async def worker() -> None:
        connection = Connection(port)
        while todo:
            k = todo.pop()
            body = json.dumps({"ruleset": "classic", "seed": k, "dealer": k % 5}).encode()
            status, answer = await connection.request("POST", "/v1/deal", body)
            assert status == 200, answer
            snapshot = json.loads(answer)["snapshot"]
            snapshots[k] = json.dumps({"snapshot": snapshot, "clock": CLOCK}).encode()
        await connection.close()

    await asyncio.gather(*(worker() for _ in range(8)))
    return snapshots


async def _get(connection: Connection, path: str) -> Any:
    """GET ``path``, again after a moment while the server answers 503 (a Redis round trip that
    timed out on the loaded machine; at most 20 times): the JSON answer."""
    for _ in range(20):
        status, answer = await connection.request("GET", path)
        if status != 503:
            break
        await asyncio.sleep(0.5)
    assert status == 200, answer
    return json.loads(answer)


async def _event_logs(port: int, count: int) -> list[list[dict[str, Any]]]:
    """The first 60 logged events of every clocked table (enough for its five timeouts)."""
    logs: list[list[dict[str, Any]]] = [[] for _ in range(count)]
    todo = list(range(count))

    async def worker() -> None:
        connection = Connection(port)
        while todo:
            k = todo.pop()
            logs[k] = (await _get(connection, f"/v1/tables/clock-{k}/events?limit=60"))["events"]
        await connection.close()

    await asyncio.gather(*(worker() for _ in range(8)))
    return logs


async def _deal_ends(port: int, count: int) -> list[float | None]:
    """The ``at`` of every clocked table's ``deal_over`` (``None``: not over), from its last
    events."""
    ends: list[float | None] = [None] * count
    todo = list(range(count))

    async def worker() -> None:
        connection = Connection(port)
        while todo:
            k = todo.pop()
            last = (await _get(connection, f"/v1/tables/clock-{k}"))["last_seq"]
            page = await _get(connection, f"/v1/tables/clock-{k}/events?after={max(0, last - 5)}")
            for event in page["events"]:
                if event["type"] == "deal_over":
                    ends[k] = event["at"]
        await connection.close()

    await asyncio.gather(*(worker() for _ in range(8)))
    return ends


def indexed(redis_port: int) -> int:
    """Tables in the clocks' indexes (``deadlines`` and, since the play-out is spread,
    ``playouts``): 0 once every clocked deal is over."""
    import redis  # the service's own client library

    client = redis.Redis(port=redis_port)
    try:
        return int(client.zcard(f"{PREFIX}deadlines")) + int(client.zcard(f"{PREFIX}playouts"))
    finally:
        client.close()


async def _delete_tables(port: int, count: int) -> None:
    """DELETE every clocked table (which takes it off the clocks' index)."""
    todo = list(range(count))

    async def worker() -> None:
        connection = Connection(port)
        while todo:
            status, answer = await connection.request("DELETE", f"/v1/tables/clock-{todo.pop()}")
            assert status == 204, answer
        await connection.close()

    await asyncio.gather(*(worker() for _ in range(8)))


def sampler(
    port: int, pid: int, samples: list[tuple[float, float, float, float]], stop: Any
) -> None:
    """Every second: (time, timeouts applied, other tables' moves answered 200, server CPU s)."""
    while not stop.wait(1.0):
        timeouts = metric(port, r"baohuang_timeouts_total ")
        moves = metric(port, MOVES_200)
        samples.append((time.time(), timeouts, moves, cpu_seconds(pid)))


def observed_lateness(records: list[list[Any]]) -> dict[int, list[float]]:
    """Per timeout number (1–5): arrival of each timeout's trustee event minus the deadline of
    its table's last clock event."""
    deadline: dict[int, float] = {}
    count: dict[int, int] = {}
    late: dict[int, list[float]] = {k: [] for k in range(1, TIMEOUTS_PER_TABLE + 1)}
    for _, table, _, arrived, frame in records:
        if not frame:
            continue
        event = json.loads(frame)
        if event["type"] == "clock" and event["deadline"] is not None:
            deadline[table] = event["deadline"]
        elif event["type"] == "trustee" and event.get("cause") == "timeout" and table in deadline:
            count[table] = count.get(table, 0) + 1
            late.setdefault(count[table], []).append(arrived - deadline[table])
    return late


def applied_lateness(logs: list[list[dict[str, Any]]]) -> tuple[dict[int, list[float]], list[int]]:
    """Per timeout number (1–5): when the server judged it (the ``at`` of its ``trustee`` event,
    the time its write was judged at) minus the deadline of the clock event before it; and each
    table's number of timeouts."""
    late: dict[int, list[float]] = {k: [] for k in range(1, TIMEOUTS_PER_TABLE + 1)}
    counts = []
    for events in logs:
        deadline, count = None, 0
        for event in events:
            if event["type"] == "clock":
                deadline = event["deadline"]
            elif event["type"] == "trustee" and event.get("cause") == "timeout":
                count += 1
                if deadline is not None:
                    late.setdefault(count, []).append(event["at"] - deadline)
        counts.append(count)
    return late, counts


def overdue(logs: list[list[dict[str, Any]]], at: float) -> list[float]:
    """For each table whose clock ran out before ``at`` and whose timeout is not applied yet:
    how long it has been waiting."""
    waiting = []
    for events in logs:
        last = [e for e in events if e["type"] in ("clock", "trustee")]
        if last and last[-1]["type"] == "clock" and (last[-1]["deadline"] or at) < at:
            waiting.append(at - last[-1]["deadline"])
    return waiting


def run(
    args: argparse.Namespace,
    server: Any,
    redis_port: int,
    snapshots: list[bytes],
    bodies: list[bytes],
    rep: int,
) -> dict[str, Any]:
    tables_file = OUT / "clock-other-tables.txt"
    if args.connections:
        create_tables(server.port, "other", OTHER_TABLES, bodies, tables_file)
    samples: list[tuple[float, float, float, float]] = []
    stop = threading.Event()
    thread = threading.Thread(target=sampler, args=(server.port, server.process.pid, samples, stop))
    command = [
        "wrk",
        "-t2",
        f"-c{args.connections}",
        f"-d{args.max_seconds + 4 * args.lead + 120:g}s",
        "--timeout=10s",
        "-s",
        str(TABLES_LUA),
        server.url("/"),
    ]
    if args.other_cpu is not None:
        command = ["taskset", "-c", args.other_cpu, *command]
    env = os.environ | {"TABLES": str(tables_file), "MOVES": str(args.moves), "THREADS": "2"}
    load = (
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        if args.connections
        else None
    )
    thread.start()
    followers = None
    try:
        time.sleep(args.lead)
        created = time.time()
        ids = [(f"clock-{k}", snapshots[k]) for k in range(args.tables)]
        asyncio.run(put_tables(server.port, ids[: args.sample], concurrency=8))
        plan = [
            [k, k, f"/v1/tables/clock-{k}/events?after=0", {"accept": "application/x-ndjson"}]
            for k in range(args.sample)
        ]
        followers = Followers(
            "clocks", server.port, plan, args.other_cpu, keep=['"type":"clock"', '"type":"trustee"']
        )
        asyncio.run(put_tables(server.port, ids[args.sample :], concurrency=16))
        created_all = time.time()
        target = samples[-1][1] + TIMEOUTS_PER_TABLE * args.tables if samples else 0
        last_change, last = time.time(), (-1.0, -1)
        timed_out: float | None = None
        while time.time() < created + args.max_seconds:
            time.sleep(1.0)
            now = (samples[-1][1], indexed(redis_port))
            if now != last:
                last_change, last = time.time(), now
            if now[0] >= target and timed_out is None:
                timed_out = time.time()
            if (now[0] >= target and now[1] == 0) or time.time() - last_change > 15:
                break
        finished = time.time()
        if timed_out is None:
            timed_out = finished
        logs = asyncio.run(_event_logs(server.port, args.tables))
        ends = asyncio.run(_deal_ends(server.port, args.tables))
        asyncio.run(_delete_tables(server.port, args.tables))  # their clocks stop
        deleted = time.time()
        time.sleep(args.lead)
    finally:
        out = ""
        if load is not None:
            load.send_signal(signal.SIGINT)  # wrk stops and prints its summary
            out, _ = load.communicate(timeout=30)
        stop.set()
        thread.join()
        records = followers.stop()["records"] if followers is not None else []
    found = re.search(r"^WRK_JSON (.*)$", out, re.M)
    wrk_json = json.loads(found.group(1)) if found else None
    applied, counts = applied_lateness(logs)
    pending = overdue(logs, finished)
    observed = observed_lateness(records)
    every_applied = [x for values in applied.values() for x in values]
    every_observed = [x for values in observed.values() for x in values]
    one_seat = [x for k, values in applied.items() if k < TIMEOUTS_PER_TABLE for x in values]
    # per-second rates from consecutive samples
    rates = [
        (t1, (k1 - k0) / (t1 - t0), (m1 - m0) / (t1 - t0), (c1 - c0) / (t1 - t0))
        for (t0, k0, m0, c0), (t1, k1, m1, c1) in itertools.pairwise(samples)
    ]
    timed = [r for r in rates if r[1] > 0]
    first_timeout = timed[0][0] if timed else finished
    last_timeout = timed[-1][0] if timed else finished
    before = [r[2] for r in rates if r[0] < created]
    during = [r[2] for r in rates if created_all <= r[0] <= finished]
    during_timeouts = [r[2] for r in rates if created_all <= r[0] <= last_timeout]
    during_playouts = [r[2] for r in rates if last_timeout < r[0] <= finished]
    after = [r[2] for r in rates if r[0] > deleted + 1]
    fifth = fifth_at(logs)
    playout_s = [end - at for at, end in zip(fifth, ends, strict=True) if at and end]
    over = [end for end in ends if end is not None]
    result = {
        "rep": rep,
        "tables": args.tables,
        "creation_s": created_all - created,
        "timeouts": sum(counts),
        "tables_with_5": sum(1 for c in counts if c == TIMEOUTS_PER_TABLE),
        "first_timeout_after_s": first_timeout - created,
        "last_timeout_after_s": last_timeout - created,
        "timeouts_per_s_median": med(r[1] for r in rates if first_timeout <= r[0] <= last_timeout),
        "timeouts_per_s_max": max((r[1] for r in rates), default=0.0),
        # the deadlines come in waves (a table's come 5 s apart): the median second with any
        "timeouts_per_s_busy_median": med(r[1] for r in rates if r[1] > 0),
        "timeouts_per_s_mean": sum(counts) / max(last_timeout - first_timeout + 1.0, 1.0),
        "moves_before": med(before),
        "moves_during": med(during),
        "moves_after": med(after),
        "moves_during_timeouts": med(during_timeouts),
        "moves_during_playouts": med(during_playouts),
        "tables_over": len(over),
        "last_deal_over_after_s": (max(over) - created) if over else float("nan"),
        "all_timed_out_after_s": timed_out - created,
        "playout_s": {
            "p50": pct(playout_s, 50),
            "p99": pct(playout_s, 99),
            "max": max(playout_s, default=float("nan")),
        },
        "server_cpu_during": med(r[3] for r in rates if created_all <= r[0] <= finished),
        "window_s": finished - created,
        "applied_lateness_ms": {
            k: {"p50": 1e3 * pct(v, 50), "p99": 1e3 * pct(v, 99), "n": len(v)}
            for k, v in applied.items()
        },
        "observed_lateness_ms": {
            k: {"p50": 1e3 * pct(v, 50), "p99": 1e3 * pct(v, 99), "n": len(v)}
            for k, v in observed.items()
        },
        "applied_all_ms": {
            "p50": 1e3 * pct(every_applied, 50),
            "p99": 1e3 * pct(every_applied, 99),
            "max": 1e3 * max(every_applied, default=float("nan")),
        },
        "observed_all_ms": {
            "p50": 1e3 * pct(every_observed, 50),
            "p99": 1e3 * pct(every_observed, 99),
            "max": 1e3 * max(every_observed, default=float("nan")),
        },
        # the timeouts after which a seat is still to play, apart from the fifth, which plays
        # the rest of the deal in its write and costs far more
        "applied_1_to_4_ms": {
            "p50": 1e3 * pct(one_seat, 50),
            "p99": 1e3 * pct(one_seat, 99),
            "max": 1e3 * max(one_seat, default=float("nan")),
        },
        "applied_within_1s": sum(1 for x in every_applied if x <= 1.0) / max(len(every_applied), 1),
        "applied_5_ms": {
            "p50": 1e3 * pct(applied[TIMEOUTS_PER_TABLE], 50),
            "p99": 1e3 * pct(applied[TIMEOUTS_PER_TABLE], 99),
            "max": 1e3 * max(applied[TIMEOUTS_PER_TABLE], default=float("nan")),
        },
        "overdue_at_end": {
            "tables": len(pending),
            "p50_ms": 1e3 * pct(pending, 50),
            "p99_ms": 1e3 * pct(pending, 99),
        },
        "wrk": wrk_json,
        "timeline": [
            (round(t - created, 1), round(k, 1), round(m, 1), round(c, 2)) for t, k, m, c in rates
        ],
    }
    return result


def fifth_at(logs: list[list[dict[str, Any]]]) -> list[float | None]:
    """The ``at`` of each table's fifth timeout (``None``: it has none)."""
    found: list[float | None] = []
    for events in logs:
        timeouts = [
            e["at"] for e in events if e["type"] == "trustee" and e.get("cause") == "timeout"
        ]
        found.append(
            timeouts[TIMEOUTS_PER_TABLE - 1] if len(timeouts) >= TIMEOUTS_PER_TABLE else None
        )
    return found


def report(r: dict[str, Any]) -> None:
    print(
        f"  {r.get('version', '')} rep {r['rep']}: {r['tables']} tables created in {r['creation_s']:.1f} s; {r['timeouts']} timeouts"
        f" ({r['tables_with_5']} tables with all 5) from {r['first_timeout_after_s']:.1f} s to"
        f" {r['last_timeout_after_s']:.1f} s; {r['timeouts_per_s_median']:.0f}/s median,"
        f" {r['timeouts_per_s_max']:.0f}/s max, {r['timeouts_per_s_busy_median']:.0f}/s median of"
        f" seconds with any, {r['timeouts_per_s_mean']:.0f}/s mean; lateness applied p50"
        f" {r['applied_all_ms']['p50']:.0f} p99 {r['applied_all_ms']['p99']:.0f} max"
        f" {r['applied_all_ms']['max']:.0f} ms, observed p50 {r['observed_all_ms']['p50']:.0f}"
        f" p99 {r['observed_all_ms']['p99']:.0f} max {r['observed_all_ms']['max']:.0f} ms; other moves/s before {r['moves_before']:.0f},"
        f" during {r['moves_during']:.0f}, after {r['moves_after']:.0f}; server cpu during"
        f" {r['server_cpu_during']:.0%}; at the end {r['overdue_at_end']['tables']} tables"
        f" overdue, p50 {r['overdue_at_end']['p50_ms']:.0f} p99 {r['overdue_at_end']['p99_ms']:.0f} ms",
        flush=True,
    )
    print(
        f"    moves/s during the timeouts {r['moves_during_timeouts']:.0f}, during the play-outs"
        f" after them {r['moves_during_playouts']:.0f}; {r['tables_over']} deals over, the last"
        f" {r['last_deal_over_after_s']:.1f} s after the first PUT (all timed out after"
        f" {r['all_timed_out_after_s']:.1f} s); play-out from the fifth timeout to deal_over p50"
        f" {r['playout_s']['p50']:.2f} p99 {r['playout_s']['p99']:.2f} max"
        f" {r['playout_s']['max']:.2f} s",
        flush=True,
    )
    for k in range(1, TIMEOUTS_PER_TABLE + 1):
        a = r["applied_lateness_ms"].get(k, {"p50": float("nan"), "p99": float("nan"), "n": 0})
        o = r["observed_lateness_ms"].get(k, {"p50": float("nan"), "p99": float("nan"), "n": 0})
        print(
            f"    timeout {k}: applied p50 {a['p50']:.0f} p99 {a['p99']:.0f} ms (n {a['n']});"
            f" observed p50 {o['p50']:.0f} p99 {o['p99']:.0f} ms (n {o['n']})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--sample", type=int, default=100, help="clocked tables followed")
    parser.add_argument(
        "--connections", type=int, default=32, help="wrk's on other tables (0: no other load)"
    )
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--lead", type=float, default=15.0, help="seconds of load before/after")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="per repetition")
    parser.add_argument("--port", type=int, default=18600)
    parser.add_argument("--no-pin", action="store_true")
    parser.add_argument("--json", type=Path, default=OUT / "clocks.json")
    parser.add_argument("--before", help="a git revision run before the tree in each repetition")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the server is stopped
    OUT.mkdir(parents=True, exist_ok=True)
    files = raise_open_files()
    pin = not args.no_pin and (os.cpu_count() or 1) >= 2
    args.server_cpu, args.other_cpu = ("0", "1") if pin else (None, None)
    print(f"{machine_line()}; open files {files}", flush=True)
    args.moves = OUT / "overload-moves.txt"
    bodies = write_deals(args.moves)
    started = time.time()
    results: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        versions: dict[str, Path | None] = {"after": None}
        if args.before:
            versions = {"before": stack.enter_context(worktree(args.before)), **versions}
        for rep in range(1, args.reps + 1):
            for name, tree in versions.items():
                env = (
                    {} if tree is None else {"PYTHONPATH": f"{tree / 'service'}{os.pathsep}{BENCH}"}
                )
                redis = own_redis(args.other_cpu)
                try:
                    with serve(args.port, redis.url, args.server_cpu, **env) as server:
                        snapshots = asyncio.run(_deals(server.port, args.tables))
                        result = run(args, server, redis.port, snapshots, bodies, rep)
                finally:
                    redis.close()
                results.append({"version": name, **result})
                report(results[-1])
                partial = {"machine": machine_line(), "command": sys.argv, "runs": results}
                args.json.write_text(json.dumps(partial, indent=2))  # kept if a later run fails
    summaries = {
        name: summarise(args, [r for r in results if r["version"] == name])
        for name in dict.fromkeys(r["version"] for r in results)
    }
    for name, summary in summaries.items():
        print(f"summary {name} " + json.dumps(summary))
    record = {
        "machine": machine_line(),
        "command": sys.argv,
        "started": started,
        "summary": summaries,
        "runs": results,
    }
    args.json.write_text(json.dumps(record, indent=2))
    print(f"wrote {args.json}")


def summarise(args: argparse.Namespace, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the repetitions of one version."""
    keys = (
        "timeouts_per_s_median",
        "timeouts_per_s_max",
        "timeouts_per_s_busy_median",
        "timeouts_per_s_mean",
        "moves_before",
        "moves_during",
        "moves_after",
        "moves_during_timeouts",
        "moves_during_playouts",
        "last_deal_over_after_s",
        "all_timed_out_after_s",
    )
    summary: dict[str, Any] = {key: med(r[key] for r in results) for key in keys}
    for q in ("p50", "p99", "max"):
        summary[f"applied_5_{q}_ms"] = med(r["applied_5_ms"][q] for r in results)
        summary[f"playout_{q}_s"] = med(r["playout_s"][q] for r in results)
    for kind in ("applied", "observed"):
        for q in ("p50", "p99", "max"):
            summary[f"{kind}_{q}_ms"] = med(r[f"{kind}_all_ms"][q] for r in results)
    for q in ("p50", "p99", "max"):
        summary[f"applied_1_to_4_{q}_ms"] = med(r["applied_1_to_4_ms"][q] for r in results)
    summary["applied_within_1s"] = med(r["applied_within_1s"] for r in results)
    if args.connections:
        summary["during_vs_before"] = med(
            r["moves_during"] / r["moves_before"] for r in results if r["moves_before"]
        )
        summary["during_vs_after"] = med(
            r["moves_during"] / r["moves_after"] for r in results if r["moves_after"]
        )
        summary["during_vs_before_min"] = min(
            (r["moves_during"] / r["moves_before"] for r in results if r["moves_before"]),
            default=float("nan"),
        )
    summary["applied_within_1s_min"] = min(r["applied_within_1s"] for r in results)
    summary["tables_over_min"] = min(r["tables_over"] for r in results)
    return summary


if __name__ == "__main__":
    main()
