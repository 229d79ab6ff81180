"""Planted bugs: each one breaks one guarantee, and a quick-loop test must fail on it.

Each bug is one edit of the service's code (:class:`Planted`: in a file, a text found exactly
once, replaced). For each, this script copies the tree to a temporary directory, plants the bug
there (the tree itself is never touched), runs the test named to catch it with the quick
profile, and checks that the test fails. Before any bug, the same tests must pass on the copy
as it is. bench/PLANTED.md says what each bug breaks and why its test sees it.

    .venv/bin/python bench/planted.py            # every bug
    .venv/bin/python bench/planted.py e g1 g2    # some of them

It prints one line a bug — ``caught``, ``MISSED`` (the test passed with the bug planted),
``CANNOT PLANT`` (the code moved: this list needs updating), ``pending`` (the test that is to
catch it is not in this tree yet) — and exits with 1 unless every bug was caught or pending.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED_WITHOUT = (".git", ".venv", "node_modules", ".mypy_cache", ".pytest_cache", ".hypothesis")
TEST_SECONDS = 600
"""How long one test run may take in the copy (a stall; the quick tests take seconds)."""


@dataclass(frozen=True)
class Planted:
    key: str
    breaks: str
    path: str
    find: str
    replace: str
    test: str
    pending: bool = False
    """The catching test comes with another change: a missing test is reported, not failed."""


BUGS: tuple[Planted, ...] = (
    Planted(
        "a",
        "a replay is answered without WAIT: an answer the replica may not hold is given as 200",
        "service/baohuang/store/redis_core.py",
        "        durable = self._wait_replicas > 0\n",
        '        durable = self._wait_replicas > 0 and operation != "replay"\n',
        "tests/store/test_redis_modes.py::test_a_replay_proves_its_record_and_waits_on_one_connection",
    ),
    Planted(
        "b",
        "a rolled-back event is kept: the token of a reader's last event is ignored",
        "service/baohuang/tables/positions.py",
        "    return at.seq > 0 and at.token is not None and page.anchor != at.token\n",
        "    return False\n",
        "tests/tables/test_fault_walk.py::test_every_step_with_every_fault_keeps_every_200",
    ),
    Planted(
        "c",
        "a feed channel's generation is not bumped on a rollback: a follower past the log's new "
        "end is never reset",
        "service/baohuang/tables/feed.py",
        "                    self.generation += 1\n",
        "                    pass\n",
        "tests/tables/test_feed_rollbacks.py::"
        "test_a_follower_past_the_rolled_back_log_is_reset_before_any_new_write",
    ),
    Planted(
        "d",
        "a webhook attempt has no overall deadline: a receiver that never answers holds it",
        "service/baohuang/tables/webhooks.py",
        "            async with asyncio.timeout(self._deadline):\n"
        "                status = await self._send(url, body, headers)\n",
        "            status = await self._send(url, body, headers)\n",
        "tests/tables/test_webhooks.py::"
        "test_an_attempt_that_never_ends_is_cut_at_its_deadline_and_retried_later",
    ),
    Planted(
        "e",
        "at the connection cap, a connection whose handler is running is evicted",
        "service/baohuang/http/bounds.py",
        "                and cycle.more_body\n",
        "",
        "tests/http/test_connection_eviction.py::"
        "test_only_a_connection_still_receiving_a_body_is_evicted_never_one_being_handled",
    ),
    Planted(
        "f",
        "a caller may have one search more in flight than its cap",
        "service/baohuang/http/suggestions.py",
        "        return self._in_flight[caller] >= self.per_caller\n",
        "        return self._in_flight[caller] > self.per_caller\n",
        "tests/http/test_suggestion_isolation.py::"
        "test_a_caller_has_exactly_its_cap_of_searches_in_flight_and_others_still_get_theirs",
    ),
    Planted(
        "g1",
        "a play-out write plays PLAYOUT_MOVES + 1 托管 moves",
        "service/baohuang/tables/flow.py",
        "    for _ in range(PLAYOUT_MOVES if limit is None else limit):\n",
        "    for _ in range(PLAYOUT_MOVES + 1 if limit is None else limit):\n",
        "tests/tables/test_playout_limits.py::"
        "test_T_11_a_timeout_plays_exactly_its_limit_and_each_playout_write_exactly_its_own",
    ),
    Planted(
        "g2",
        "a timeout's write plays TIMEOUT_MOVES + 1 托管 moves",
        "service/baohuang/tables/flow.py",
        "events, now, limit=TIMEOUT_MOVES)\n",
        "events, now, limit=TIMEOUT_MOVES + 1)\n",
        "tests/tables/test_playout_limits.py::"
        "test_T_11_a_timeout_plays_exactly_its_limit_and_each_playout_write_exactly_its_own",
    ),
    Planted(
        "h",
        "a play found in the memo's old generation stays there as well as in the young one",
        "service/baohuang/engine/known_plays.py",
        "        found = memo.old.pop(key, None)\n",
        "        found = memo.old.get(key)\n",
        "tests/engine/test_known_plays.py::"
        "test_a_remembered_play_is_in_exactly_one_generation_and_the_memo_stays_bounded",
    ),
    Planted(
        "i",
        "a table's bot is handed its seat's view with the hidden guard in it",
        "service/baohuang/tables/bot_turns.py",
        "    view = seat_view(snapshot, snapshot.turn)\n",
        "    import msgspec; view = msgspec.structs.replace(seat_view(snapshot, snapshot.turn), "
        "guard=snapshot.guard)\n",
        "tests/bots/test_hidden_information.py::"
        "test_a_table_bot_is_handed_the_same_whatever_it_cannot_see",
    ),
    Planted(
        "j",
        "the search leaves the heuristic's move for one that did worse",
        "service/baohuang/bots/search.py",
        "        edge.gains.append((scores[seat] - kept) / SCORE_UNIT)\n",
        "        edge.gains.append((kept - scores[seat]) / SCORE_UNIT)\n",
        "tests/bots/test_search.py::"
        "test_the_search_finds_the_lead_that_wins_where_the_heuristic_loses",
    ),
    Planted(
        "k",
        "the ladder's baseline is played on the next deal, not the same one",
        "bench/ladder.py",
        "            base_end, _ = play_game(start, [players[theirs]] * 5, index)\n",
        "            base_end, _ = play_game(opening(index + 1, args.seed), [players[theirs]] * 5, "
        "index)\n",
        "tests/bots/test_ladder.py::"
        "test_a_tiny_ladder_writes_one_line_a_game_and_reports_gains_and_ratings",
    ),
)


def test_file(bug: Planted) -> Path:
    return ROOT / bug.test.partition("::")[0]


def test_exists(bug: Planted, root: Path = ROOT) -> bool:
    """Whether the test ``bug`` names is defined in its file (by name, parameters aside)."""
    path = root / bug.test.partition("::")[0]
    name = bug.test.rpartition("::")[2].partition("[")[0]
    return path.is_file() and f"def {name}(" in path.read_text(encoding="utf-8")


def plant(bug: Planted, root: Path) -> bool:
    """Plant ``bug`` in the tree at ``root``; ``False`` if its text is not found exactly once."""
    path = root / bug.path
    if not path.is_file():
        return False
    text = path.read_text(encoding="utf-8")
    if text.count(bug.find) != 1:
        return False
    path.write_text(text.replace(bug.find, bug.replace), encoding="utf-8")
    return True


def _copy(into: Path) -> Path:
    tree = into / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(*COPIED_WITHOUT, "__pycache__"))
    return tree


def _pytest(tree: Path, tests: list[str]) -> subprocess.CompletedProcess[str]:
    """The quick profile's run of ``tests`` in ``tree``, importing the service from ``tree``
    (the venv's editable install points at the original tree: the copy goes first)."""
    environment = {
        **os.environ,
        "PYTHONPATH": str(tree / "service"),
        "HYPOTHESIS_PROFILE": "dev",
    }
    environment.pop("CI", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
    return subprocess.run(
        [*command, "-n", "0", "-x", *tests],
        cwd=tree,
        env=environment,
        capture_output=True,
        text=True,
        timeout=TEST_SECONDS,
        check=False,
    )


def run(keys: list[str]) -> int:
    chosen = [bug for bug in BUGS if not keys or bug.key in keys]
    runnable = [bug for bug in chosen if test_exists(bug)]
    with tempfile.TemporaryDirectory(prefix="baohuang-planted-") as scratch:
        tree = _copy(Path(scratch))
        baseline = _pytest(tree, sorted({bug.test for bug in runnable}))
        if baseline.returncode != 0:
            print("the named tests fail without any bug planted:\n" + baseline.stdout[-3000:])
            return 1
        failures = 0
        for bug in chosen:
            if not test_exists(bug):
                state = "pending" if bug.pending else "MISSING TEST"
                failures += not bug.pending
            else:
                planted_tree = Path(scratch) / f"bug-{bug.key}"
                shutil.copytree(tree, planted_tree)
                if not plant(bug, planted_tree):
                    state = "CANNOT PLANT (the code moved: update bench/planted.py)"
                    failures += 1
                else:
                    result = _pytest(planted_tree, [bug.test])
                    caught = result.returncode == 1 and " failed" in result.stdout
                    state = "caught" if caught else "MISSED"
                    failures += not caught
                shutil.rmtree(planted_tree, ignore_errors=True)
            print(f"{bug.key:3} {state:8} {bug.breaks}\n    {bug.test}", flush=True)
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
