"""The ladder (bench/ladder.py), run as a reader of bench/RESULTS.md would run it, tiny."""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LADDER = ROOT / "bench" / "ladder.py"
ROLES = {"emperor", "guard", "rebel", "solo", "solo rebel"}


def _ladder(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(LADDER), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_tiny_ladder_writes_one_line_a_game_and_reports_gains_and_ratings(
    tmp_path: Path,
) -> None:
    out = tmp_path / "ladder.jsonl"
    pairings = "heuristic:heuristic,heuristic:greedy,search:t10,random:greedy"
    _ladder(
        "--pairings", pairings, "--deals", "4", "--first", "3", "--seats", "2",
        "--iterations", "2", "--seed", "5", "--out", str(out),
    )  # fmt: skip
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 4 * 4 * 2
    for line in lines:
        assert line["role"] in ROLES
        assert line["gain"] == line["score"] - line["baseline"]
        assert line["seed"] == 5
    # Seats rotate with the deal: deal d puts the player in seats d and d + 1.
    assert {(line["deal"], line["seat"]) for line in lines} == {
        (deal, (deal + offset) % 5) for deal in range(3, 7) for offset in range(2)
    }
    assert {line["ruleset"] for line in lines} == {
        "classic",
        "tribute",
        "lianzhong-classic",
        "lianzhong-simple",
    }
    # The same player in the seat as in the baseline plays the same game: no gain at all.
    assert all(line["gain"] == 0 for line in lines if line["pairing"] == "heuristic:heuristic")
    report = _ladder("--report", str(out))
    for pairing in pairings.split(","):
        assert f"| {pairing} | 4 | 8 |" in report
    assert "| heuristic | " in report and "| random | 0 |" in report


def test_ratings_order_players_by_their_results() -> None:
    spec = importlib.util.spec_from_file_location("ladder_report", ROOT / "bench/ladder_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fit = module.fit
    outcomes = [("strong", "random", 1.0)] * 9 + [("strong", "random", 0.0)]
    outcomes += [("middle", "random", 1.0)] * 6 + [("middle", "random", 0.0)] * 4
    ratings = fit(outcomes, ["middle", "random", "strong"])
    assert ratings["random"] == 0
    assert ratings["strong"] > ratings["middle"] > 0
    # 9 wins in 10: 400 log10(9) ≈ 382 Elo points.
    assert abs(ratings["strong"] - 400 * math.log10(9)) < 1


def test_seat_of_emperor_puts_the_player_where_the_baseline_crowned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--seat-of emperor`` (bench/RESULTS.md section 31): with the baseline's own player in
    that seat the game is the baseline's, so every game is the emperor's, alone or in a team;
    a seat chosen any other way would be a rebel's or the guard's in most deals."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("ladder", LADDER)
    assert spec is not None and spec.loader is not None
    ladder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ladder)
    out = tmp_path / "emperor.jsonl"
    args = argparse.Namespace(first=0, deals=5, seats=1, seat_of="emperor", seed=5)
    players = {"heuristic": ladder.level_player("heuristic", None, None)}
    ladder.run_pairing("heuristic:heuristic", players, args, out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 5
    assert {line["role"] for line in lines} <= {"emperor", "solo"}
    assert all(line["gain"] == 0 for line in lines)
    assert len({line["seat"] for line in lines}) > 1  # the emperor's seat changes with the deal
