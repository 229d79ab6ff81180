"""The list of planted bugs (bench/planted.py, bench/PLANTED.md) can still be run: each bug's
text is in the code exactly once, each catching test exists, and the two lists agree. Running
the bugs themselves is bench/planted.py's job (minutes): here, only that it could."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _planted() -> ModuleType:
    spec = importlib.util.spec_from_file_location("planted", ROOT / "bench" / "planted.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("planted", module)
    spec.loader.exec_module(module)
    return module


planted = _planted()


def test_the_bugs_have_keys_of_their_own() -> None:
    keys = [bug.key for bug in planted.BUGS]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("bug", planted.BUGS, ids=lambda bug: bug.key)
def test_each_bug_can_be_planted_and_its_test_is_there(bug: Any) -> None:
    path = ROOT / bug.path
    assert path.is_file(), bug
    found = path.read_text(encoding="utf-8").count(bug.find)
    assert found == 1, f"bug {bug.key}'s text is in {bug.path} {found} times, not once"
    assert bug.find != bug.replace
    if not bug.pending:
        assert planted.test_exists(bug), f"no test {bug.test}"


@pytest.mark.parametrize("bug", planted.BUGS, ids=lambda bug: bug.key)
def test_the_list_in_planted_md_is_the_one_that_runs(bug: Any) -> None:
    text = (ROOT / "bench" / "PLANTED.md").read_text(encoding="utf-8")
    assert f"## ({bug.key}) " in text
    assert f"Caught by `{bug.test}`." in text
    for line in bug.find.splitlines():
        assert f"-{line}\n" in text, line
    for line in bug.replace.splitlines():
        assert f"+{line}\n" in text, line
