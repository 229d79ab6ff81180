"""The ladder (bench/ladder.py), run as a reader of bench/RESULTS.md would run it, tiny."""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

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
        "--iterations", "1", "--seed", "5", "--out", str(out),
    )  # fmt: skip
    # One iteration a decision: this test is about the ladder's lines, seats and report; the
    # search's answers are tests/bots/test_search.py's (two iterations cost 0.8 s more CPU).
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


def _heuristic_against_itself(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    seat_of: str,
    seed: int,
    first: int,
    deals: int,
    bases: tuple[str, ...] | None = None,
) -> list[dict[str, Any]]:
    """The ladder's lines of heuristic:heuristic with ``--seat-of``, run in this process."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("ladder", LADDER)
    assert spec is not None and spec.loader is not None
    ladder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ladder)
    out = tmp_path / "ladder.jsonl"
    args = argparse.Namespace(
        first=first, deals=deals, seats=1, seat_of=seat_of, seed=seed, bases=bases or ladder.BASES
    )
    players = {"heuristic": ladder.level_player("heuristic", None, None)}
    ladder.run_pairing("heuristic:heuristic", players, args, out)
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_seat_of_emperor_puts_the_player_where_the_baseline_crowned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--seat-of emperor`` (bench/RESULTS.md section 31): with the baseline's own player in
    that seat the game is the baseline's, so every game is the emperor's, alone or in a team;
    a seat chosen any other way would be a rebel's or the guard's in most deals."""
    lines = _heuristic_against_itself(monkeypatch, tmp_path, "emperor", 5, 0, 5)
    assert len(lines) == 5
    assert {line["role"] for line in lines} <= {"emperor", "solo"}
    assert all(line["gain"] == 0 for line in lines)
    assert len({line["seat"] for line in lines}) > 1  # the emperor's seat changes with the deal


def test_seat_of_solo_rebels_plays_only_beside_a_baseline_emperor_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--seat-of solo-rebels``: deal 35 of seed 7 is a team deal in the baseline (no game),
    deal 36 a 明独 of seat 3 (one game, in the first of the seats 0, 1, 2, 4: 36 mod 4 = 0)."""
    lines = _heuristic_against_itself(monkeypatch, tmp_path, "solo-rebels", 7, 35, 2)
    assert [(line["deal"], line["seat"], line["role"]) for line in lines] == [(36, 0, "solo rebel")]
    assert lines[0]["gain"] == 0


def test_bases_keep_only_their_deals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bases``: a deal's ruleset is its index mod 4, so only deals 3 and 7 of 0-7 are
    ``lianzhong-simple`` deals."""
    lines = _heuristic_against_itself(
        monkeypatch, tmp_path, "rotation", 7, 0, 8, bases=("lianzhong-simple",)
    )
    assert [(line["deal"], line["ruleset"]) for line in lines] == [
        (3, "lianzhong-simple"),
        (7, "lianzhong-simple"),
    ]


def test_seat_of_rebels_plays_a_rebel_of_a_baseline_team(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--seat-of rebels``: with the baseline's own player in that seat every game is a team
    deal's rebel's, and the seat changes with the deal."""
    lines = _heuristic_against_itself(monkeypatch, tmp_path, "rebels", 7, 0, 8)
    assert len(lines) >= 4  # most deals are team play
    assert {line["role"] for line in lines} == {"rebel"}
    assert all(line["gain"] == 0 for line in lines)
    assert len({line["seat"] for line in lines}) > 1
