"""The two test loops: a quick one by default, the thorough one CI runs.

Hypothesis profiles: ``dev`` (the default) tries a few examples per property test, so a local
``pytest`` takes well under a minute; ``ci`` tries each test's full count (:func:`thorough.examples`)
and prints a reproduction blob on failure. ``.ci/run`` selects it with ``HYPOTHESIS_PROFILE=ci``;
``pytest --hypothesis-profile=ci`` does the same by hand.

Tests marked ``slow`` (fuzzing, real sockets) run under the ``ci`` profile, with ``--run-slow``,
or when ``-m`` names them; otherwise they are skipped, saying so, and a module whose every test
is slow is not collected at all (the run's summary counts them).

Every run ends with a check that no server it started is still alive (:mod:`stray_processes`):
a ``baohuang serve``, ``redis-server`` or ``redis-sentinel`` left behind by a test or a failed
start fails the run, and is killed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import bytecode_ahead
import stray_processes
from redis_server import RedisServer

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", help="run the tests marked slow (CI always does)"
    )


_RUN_MARK = pytest.StashKey[str]()
"""This run's mark on the processes it starts (the controller's; xdist's workers have none)."""
_BYTECODE = pytest.StashKey[list[Path]]()
"""The bytecode the controller made for the workers (:mod:`bytecode_ahead`), removed at the end."""


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller, before any xdist worker starts
        config.stash[_RUN_MARK] = stray_processes.mark_this_run()
        config.stash[_BYTECODE] = bytecode_ahead.make(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    bytecode_ahead.remove(config.stash.get(_BYTECODE, []))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a server it started outlived it (every xdist worker is done by now)."""
    mark = session.config.stash.get(_RUN_MARK, None)
    if mark is None:
        return
    found = stray_processes.strays_after_grace(mark)
    if not found:
        return
    stray_processes.kill(found)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("=", "servers the tests started outlived them (now killed)", red=True)
        for stray in found:
            reporter.write_line(f"{stray.pid}: {stray.command}")
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _thorough(config: pytest.Config) -> bool:
    return settings().max_examples >= settings.get_profile("ci").max_examples or bool(
        config.getoption("--run-slow")
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than the CPUs in the quick loop, xdist's own count (one a
    CPU) in the thorough run. A third of the quick loop's time is spent waiting on the
    processes its tests start (servers, Redis, a replica cut off, the documents' shells),
    which a spare worker fills: 62 s against 71 s on two quiet cores (bench/RESULTS.md section
    27). The thorough run's failover tests start Redis Clusters and Sentinels that need their
    CPU on time, so it keeps one worker a CPU."""
    if _thorough(config):
        return None  # xdist's default
    return len(os.sched_getaffinity(0)) + 1


LONGEST_FIRST = (
    "tests/test_repository.py",  # mypy over everything (CI): ~25 s on a fresh clone
    "tests/http/test_suggestion_isolation.py",
    "tests/http/test_workers.py",
    "tests/test_docs_run.py",
    "tests/http/test_table_leaks.py",
    "tests/http/test_seat_client_doc.py",
    "tests/http/test_table_legal_replicas.py",
    "tests/store/test_redis_modes.py",  # writes whose WAIT times out, a replica cut off
    "tests/bots/test_ladder.py",
    "tests/tables/test_acks_through_promotion.py",  # three Redis nodes, a promotion, waits
    "tests/http/test_record_leaks.py",
    # CI's longest single tests (slow, or long at the thorough count): 30-140 s each
    "tests/ship/test_image.py",  # builds the image first
    "tests/ship/test_fuzz.py",
    "tests/bots/test_worlds.py",
    "tests/browser/test_play_live.py",
    "tests/http/test_failover_drill.py",
    "tests/http/test_bot_tables_live.py",
    "tests/http/test_redis_failover.py",
    "tests/tables/test_fault_walk.py",
)
"""Modules whose tests take seconds each, run first (whole, so their module fixtures are made
once): the two xdist workers then share out the many short tests at the end instead of one
waiting for the other's long test (longest-first scheduling)."""


def _runs_slow(config: pytest.Config) -> bool:
    return _thorough(config) or "slow" in (config.getoption("markexpr") or "")


_ALL_SLOW = re.compile(r"^pytestmark = .*\bpytest\.mark\.slow\b", re.MULTILINE)
"""A module whose every test is slow says so in one line (``pytestmark = pytest.mark.slow``,
or a list with it), read without importing the module."""


def _all_slow(path: Path) -> bool:
    return (
        path.name.startswith("test_")
        and path.suffix == ".py"
        and bool(_ALL_SLOW.search(path.read_text(encoding="utf-8")))
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The quick loop does not collect a module whose every test is slow: it would only skip
    them all, after every worker had rewritten and imported it (about a second of CPU a worker
    for the browser, failover, image and live modules). A module named on the command line is
    collected all the same, and its tests are skipped, saying why."""
    if not _runs_slow(config) and _all_slow(collection_path):
        return True
    return None


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    if _runs_slow(config) or hasattr(config, "workerinput"):
        return
    modules = [
        path for path in sorted((config.rootpath / "tests").rglob("test_*.py")) if _all_slow(path)
    ]
    if modules:
        terminalreporter.write_line(
            f"not collected: {len(modules)} modules whose every test is slow "
            "(HYPOTHESIS_PROFILE=ci or --run-slow runs them)"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(LONGEST_FIRST))  # stable
    if _runs_slow(config):
        return
    skip = pytest.mark.skip(reason="slow: runs under HYPOTHESIS_PROFILE=ci (CI) or --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def anyio_backend() -> str:
    """The async tests (``pytest.mark.anyio``) run on asyncio, as the service does."""
    return "asyncio"


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    """A Redis for the module's tests: ``REDIS_URL``'s, or a ``redis-server`` of its own."""
    with RedisServer.from_environment() as server:
        yield server
