"""``baohuang serve --workers 2`` on a real Redis (docs/deploy.md "Workers"): connections land on
both workers, a table's moves stay one sequence whichever worker judges them, a stream on one
worker carries what the other commits, ``/metrics`` from either adds both up, one probe port
serves them both, SIGTERM stops every process within a bound; without Redis it is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec
import pytest

from baohuang.engine import Snapshot, deal, legal_moves, opening_snapshot, ruleset_of
from baohuang.http.settings import Settings
from followers import Stream
from live_server import START_SECONDS, ProcessServer, free_port
from redis_server import RedisServer

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

KEY = "workers-platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
MOVES = 40
SHUTDOWN_SECONDS = 2
STOP_BOUND = SHUTDOWN_SECONDS + 5 + 5  # graceful shutdown, the supervisor's kill, start-up slack
_WORKER = re.compile(r'^baohuang_worker_requests\{pid="(\d+)"\} (\S+)$', re.M)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with RedisServer.from_environment() as server:
        yield server.url


def _per_worker(metrics: str) -> dict[int, float]:
    return {int(pid): float(value) for pid, value in _WORKER.findall(metrics)}


def _sample(metrics: str, name: str, **labels: str) -> float:
    """The value of one series of ``metrics`` (0 when absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in metrics.splitlines():
        series, _, value = line.rpartition(" ")
        if series.startswith(name + "{") or series == name:
            shown = series[len(name) :].strip("{}")
            if ",".join(sorted(shown.split(","))) == wanted:
                return float(value)
    return 0.0


async def _metrics(base: str) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=5, trust_env=False) as fresh:
        answer = await fresh.get("/metrics")
    assert answer.status_code == 200
    return answer.text


async def _published(base: str, check: object, timeout: float = START_SECONDS) -> str:
    """``/metrics`` once ``check(text)`` holds (the workers publish their counts every second)."""
    async with asyncio.timeout(timeout):
        while True:
            text = await _metrics(base)
            if check(text):  # type: ignore[operator]
                return text
            await asyncio.sleep(0.2)


def _multiproc_dir(pid: int) -> Path:
    """The metrics directory a worker was started with."""
    variables = Path(f"/proc/{pid}/environ").read_bytes().split(b"\x00")
    [directory] = [v.partition(b"=")[2] for v in variables if v.startswith(b"PROMETHEUS_MULTIPROC")]
    return Path(directory.decode())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return "Z"


async def test_two_workers_share_tables_streams_metrics_and_the_probe_port(
    redis_url: str,
) -> None:
    probe_port = free_port()
    server = ProcessServer(
        {
            "REDIS_URL": redis_url,
            "BAOHUANG_API_KEYS": KEY,
            "BAOHUANG_PROBE_PORT": str(probe_port),
            "BAOHUANG_SHUTDOWN_SECONDS": str(SHUTDOWN_SECONDS),
            "BAOHUANG_STREAM_HEARTBEAT_SECONDS": "1",
            "NO_PROXY": "127.0.0.1",
        },  # no BAOHUANG_TOKEN_SECRET: the workers must still accept each other's tokens
        arguments=("--workers", "2"),
    )
    await server.start()
    probes = f"http://127.0.0.1:{probe_port}"
    workers: list[int] = []
    try:
        # Both workers are up: each publishes its own series.
        text = await _published(probes, lambda t: len(_per_worker(t)) == 2, timeout=START_SECONDS)
        workers = sorted(_per_worker(text))
        assert server.pid not in workers  # the parent serves nothing itself
        directory = _multiproc_dir(workers[0])
        assert directory.is_dir() and directory == _multiproc_dir(workers[1])

        tid = f"workers-{uuid.uuid4().hex}"
        snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 20261201, 0))
        async with httpx.AsyncClient(base_url=server.url, timeout=10, trust_env=False) as c:
            put = await c.put(
                f"/v1/tables/{tid}",
                json={"snapshot": msgspec.to_builtins(snapshot)},
                headers=PLATFORM,
            )
            assert put.status_code == 201, put.text
            created = put.json()
        seat_tokens = created["seat_tokens"]

        async with httpx.AsyncClient(
            base_url=server.url, timeout=httpx.Timeout(10, read=30), trust_env=False
        ) as streams:
            stream = Stream(streams, f"/v1/tables/{tid}/events", PLATFORM)
            await stream.wait_for(lambda s: bool(s.frames))
            await asyncio.sleep(1.2)  # everything before this is in the published counts
            before = _per_worker(await _metrics(probes))
            versions = []
            for n in range(MOVES):
                # A connection of its own per move. The kernel would pick the worker, and may
                # pick one for all: the first half of the moves goes to the first worker (the
                # other is stopped, SIGSTOP, and accepts nothing), the second half to the other.
                if n in (0, MOVES // 2):
                    _serving_alone(workers[n > 0], workers)
                async with httpx.AsyncClient(
                    base_url=server.url, timeout=10, trust_env=False
                ) as fresh:
                    table = (await fresh.get(f"/v1/tables/{tid}", headers=PLATFORM)).json()
                    moves = legal_moves(msgspec.convert(table["view"], Snapshot))
                    if not moves:
                        break
                    move = moves[n % len(moves)]
                    seat = table["view"]["turn"]
                    # The seat's token, made by whichever worker created the table.
                    answer = await fresh.post(
                        f"/v1/tables/{tid}/moves",
                        json={"move": msgspec.to_builtins(move), "version": table["version"]},
                        headers={"Authorization": f"Bearer {seat_tokens[seat]}"},
                    )
                    assert answer.status_code == 200, answer.text
                    versions.append(answer.json()["version"])
            _serving_alone(None, workers)
            played = len(versions)
            assert played >= 20
            # One sequence of versions: no move judged twice, none lost, whichever worker.
            assert versions == list(range(2, 2 + played))
            # The stream (on one worker) carried every committed move, in order, once.
            await stream.wait_for(
                lambda s: sum(1 for f in s.frames if f.get("event") == "move") == played
            )
            seqs = [f["data"]["seq"] for f in stream.frames if "seq" in (f.get("data") or {})]
            assert seqs == sorted(set(seqs))
            assert [f["data"]["version"] for f in stream.frames if f.get("event") == "move"] == (
                versions
            )

            # Each worker answered some of the move loop's requests (2 per move). The counts
            # come every second and every scrape is a request too: k scrapes counted so far.
            scrapes = 1  # the one that read ``before``
            async with asyncio.timeout(20):
                while True:
                    await asyncio.sleep(1.2)
                    after = _per_worker(await _metrics(probes))
                    if sum(after.values()) - sum(before.values()) == 2 * played + scrapes:
                        break
                    scrapes += 1
            served = {pid: after[pid] - before.get(pid, 0) for pid in after}
            assert sorted(served) == workers
            assert min(served.values()) > scrapes, (served, scrapes)
            # The counter, incremented on both workers, is their sum.
            text = await _metrics(server.url)
            route = {"method": "POST", "route": "/v1/tables/{table_id}/moves", "status": "200"}
            assert _sample(text, "baohuang_http_requests_total", **route) == played
            assert _sample(text, "baohuang_stream_followers") == 1  # a gauge: the live workers'
            # The probes, on the service's port and on the one probe port.
            for base in (server.url, probes):
                async with httpx.AsyncClient(base_url=base, timeout=5, trust_env=False) as fresh:
                    for path in ("/healthz", "/readyz", "/metrics"):
                        assert (await fresh.get(path)).status_code == 200, (base, path)
            async with httpx.AsyncClient(base_url=probes, timeout=5, trust_env=False) as fresh:
                answer = await fresh.get("/v1/rulesets")
                assert answer.status_code == 404
                assert answer.headers["content-type"] == "application/problem+json"

            # SIGTERM to the parent with the stream still open: every process ends in time.
            started = time.monotonic()
            status = await server.terminate(timeout=STOP_BOUND)
            assert status == 0
            assert time.monotonic() - started < STOP_BOUND
            await stream.stop()
        assert not [pid for pid in workers if _alive(pid)]  # no orphan
        assert not directory.exists()  # the metrics directory is the parent's, removed
    finally:
        _serving_alone(None, workers)
        await server.stop()


def _serving_alone(serving: int | None, workers: list[int]) -> None:
    """Stop every worker but ``serving`` (``None``: let them all go on)."""
    for pid in workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT if serving in (None, pid) else signal.SIGSTOP)


@pytest.mark.parametrize(
    ("arguments", "environment"),
    [(("--workers", "2"), {}), ((), {"BAOHUANG_WORKERS": "2"})],
    ids=["flag", "environment"],
)
def test_more_than_one_worker_without_redis_is_refused(
    arguments: tuple[str, ...], environment: dict[str, str]
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "baohuang.cli", "serve", "--port", str(free_port()), *arguments],
        env={**env, **environment},
        capture_output=True,
        text=True,
        timeout=START_SECONDS,  # it stops at start-up; only a stall takes this long
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "needs REDIS_URL" in done.stderr and "in-memory store" in done.stderr


async def test_a_killed_worker_is_replaced_and_workers_stop_when_their_parent_is_killed(
    redis_url: str, tmp_path: Path
) -> None:
    """A worker killed outright is replaced; its live series leave ``/metrics``, what it counted
    stays. SIGKILL leaves the parent no time to stop its workers: they see it gone and stop."""
    log = tmp_path / "serve.log"
    server = ProcessServer(
        {"REDIS_URL": redis_url, "BAOHUANG_TOKEN_SECRET": "workers", "NO_PROXY": "127.0.0.1"},
        arguments=("--workers", "2"),
        log=log,
    )
    await server.start()
    workers: list[int] = []
    directory: Path | None = None
    try:
        text = await _published(
            server.url, lambda t: len(_per_worker(t)) == 2, timeout=START_SECONDS
        )
        workers = sorted(_per_worker(text))
        async with httpx.AsyncClient(base_url=server.url, timeout=5, trust_env=False) as c:
            for _ in range(20):
                assert (await c.get("/v1/rulesets")).status_code == 200
        route = {"method": "GET", "route": "/v1/rulesets", "status": "200"}
        text = await _published(
            server.url, lambda t: _sample(t, "baohuang_http_requests_total", **route) == 20
        )
        os.kill(workers[0], signal.SIGKILL)
        text = await _published(
            server.url,
            lambda t: len(_per_worker(t)) == 2 and workers[0] not in _per_worker(t),
            timeout=START_SECONDS,
        )
        assert _sample(text, "baohuang_http_requests_total", **route) == 20  # still counted
        workers = sorted(_per_worker(text))
        directory = _multiproc_dir(workers[0])
        os.kill(server.pid, signal.SIGKILL)
        try:
            async with asyncio.timeout(STOP_BOUND):
                while [pid for pid in workers if _alive(pid)]:
                    await asyncio.sleep(0.1)
        except TimeoutError:
            raise AssertionError(log.read_text()[-3000:]) from None
    finally:
        await server.stop()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if directory is not None:  # a parent killed outright leaves it (the pod's /tmp)
            shutil.rmtree(directory, ignore_errors=True)


def test_the_worker_settings_are_positive_whole_numbers() -> None:
    assert Settings.from_env({}).workers == 1
    assert Settings.from_env({"BAOHUANG_WORKERS": "3"}).workers == 3
    for name in ("BAOHUANG_WORKERS", "BAOHUANG_SHUTDOWN_SECONDS", "BAOHUANG_SUGGEST_PER_CALLER"):
        for wrong in ("0", "-2", "1.5", "two"):
            with pytest.raises(ValueError, match=name):
                Settings.from_env({name: wrong})
