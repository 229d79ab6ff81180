"""The garbage collector of ``baohuang serve`` (http/collector.py, docs/deploy.md "The
collector"): thresholds from ``BAOHUANG_GC_THRESHOLDS``, the start-up's objects frozen once, a
bad value refused at start-up."""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from baohuang.http import serving
from baohuang.http.collector import DEFAULT_THRESHOLDS, parse_thresholds, tune_collector
from baohuang.http.settings import Settings
from live_server import START_SECONDS, ProcessServer, free_port


@pytest.fixture
def collector() -> Iterator[None]:
    """This test process's collector as it was, afterwards."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_the_setting_is_three_positive_whole_numbers() -> None:
    assert DEFAULT_THRESHOLDS == (50_000, 20, 10)
    assert Settings.from_env({}).gc_thresholds == DEFAULT_THRESHOLDS
    assert Settings.from_env({"BAOHUANG_GC_THRESHOLDS": ""}).gc_thresholds == DEFAULT_THRESHOLDS
    assert Settings.from_env({"BAOHUANG_GC_THRESHOLDS": " 700, 10 ,10"}).gc_thresholds == (
        700,
        10,
        10,
    )
    for wrong in ("0,10,10", "700,0,10", "700,10", "700,10,10,10", "-1,10,10", "7e3,10,10",
                  "700,10,ten", "²,1,1", "700;10;10"):  # fmt: skip
        with pytest.raises(ValueError, match=r"BAOHUANG_GC_THRESHOLDS=.*three positive whole"):
            Settings.from_env({"BAOHUANG_GC_THRESHOLDS": wrong})
    assert parse_thresholds(None) == parse_thresholds("  ") == DEFAULT_THRESHOLDS


@pytest.mark.usefixtures("collector")
def test_tune_collector_sets_the_thresholds_and_freezes_what_exists() -> None:
    gc.unfreeze()
    kept = [[n] for n in range(1000)]  # tracked objects alive now: frozen
    frozen = tune_collector((12_345, 6, 7))
    assert gc.get_threshold() == (12_345, 6, 7)
    assert frozen == gc.get_freeze_count() >= len(kept)
    assert gc.isenabled()
    # What is made afterwards is not frozen: a cycle of it is still collected.
    cycle: list[object] = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1
    assert gc.get_freeze_count() == frozen


@pytest.mark.usefixtures("collector")
def test_serve_app_tunes_the_collector_last(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int, int]] = []

    def tune(thresholds: tuple[int, int, int]) -> int:
        calls.append(thresholds)
        return 42

    monkeypatch.setattr(serving, "tune_collector", tune)
    monkeypatch.setenv("BAOHUANG_GC_THRESHOLDS", "3000,4,5")
    monkeypatch.delenv("REDIS_URL", raising=False)
    app = serving.serve_app()
    assert calls == [(3000, 4, 5)]
    assert (
        "collector: thresholds 3000,4,5, 42 objects of the start-up frozen"
        in (app.state.startup_notes[-1])
    )


@pytest.mark.anyio
async def test_a_real_serve_process_applies_the_setting(tmp_path: Path) -> None:
    """``baohuang serve`` logs at start-up what its collector was set to (the note is made from
    what :func:`tune_collector` returned, in the process that serves)."""
    log = tmp_path / "serve.log"
    environment = {"BAOHUANG_GC_THRESHOLDS": "12345,6,7", "LOG_LEVEL": "INFO", "REDIS_URL": ""}
    async with ProcessServer(environment, log=log), asyncio.timeout(START_SECONDS):
        while "collector: thresholds" not in log.read_text():  # (a stall is all that fails it)
            await asyncio.sleep(0.05)
    text = log.read_text()
    assert "collector: thresholds 12345,6,7, " in text, text
    frozen = int(text.split("collector: thresholds 12345,6,7, ")[1].split()[0])
    assert frozen > 10_000  # the modules and the app of the start-up


def test_a_bad_value_stops_baohuang_serve() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "baohuang.cli", "serve", "--port", str(free_port())],
        env={**env, "BAOHUANG_GC_THRESHOLDS": "0,10,10"},
        capture_output=True,
        text=True,
        timeout=START_SECONDS,  # it stops at start-up; only a stall takes this long
        check=False,
    )
    assert done.returncode != 0
    assert "BAOHUANG_GC_THRESHOLDS='0,10,10': three positive whole numbers" in done.stderr
    assert "0 would turn the collector off" in done.stderr
