"""The service's bytecode and the test modules' rewritten asserts, made once a run for every
xdist worker, instead of once in each.

This environment sets ``PYTHONDONTWRITEBYTECODE``, so each worker compiled the service and had
pytest rewrite the asserts of the ~130 test modules on its own: about 3 s of CPU a worker, paid
three times in the quick loop (bench/RESULTS.md section 34). The controller writes both, before
the workers start, where the workers look for them: the service's ``.pyc`` files (``py_compile``),
and pytest's rewritten test modules in their ``__pycache__`` (each worker's import hook reads a
valid one even when it may not write, and checks it against the source's hash). Every file is
written whole and renamed into place, so another run at the same moment never reads half of one.
When the run ends, the controller removes what it wrote (:func:`remove`): the environment asked
for no bytecode in the tree, and a test module's rewritten bytecode holds its strings, which
read as citations to a scan of the tree's files.

The rewrite goes through pytest's private helpers (``_pytest.assertion.rewrite``); if a pytest
release moves them, nothing is made ahead and the run is as before, only slower.
"""

from __future__ import annotations

import contextlib
import importlib.util
import py_compile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICE = ROOT / "service"
TESTS = ROOT / "tests"


def make(config: pytest.Config) -> list[Path]:
    """Make the bytecode, in the controller, before the workers start: about 2 s on one core,
    against about 3 s of CPU that each of the three workers then does not spend (started beside
    them, a thread finished after the workers had rewritten the modules for themselves). The
    files it wrote, for :func:`remove`."""
    if config.getoption("assertmode") != "rewrite":
        return []
    written = _compile_service()  # the workers import it first
    return written + _rewrite_tests(config)


def remove(written: list[Path]) -> None:
    """Remove the files :func:`make` wrote, and the ``__pycache__`` folders they leave empty."""
    for path in written:
        path.unlink(missing_ok=True)
    for folder in sorted({path.parent for path in written}, reverse=True):
        with contextlib.suppress(OSError):  # not empty: another run's files are in it
            folder.rmdir()


def _compile_service() -> list[Path]:
    written: list[Path] = []
    for source in sorted(SERVICE.rglob("*.py")):
        pyc = Path(importlib.util.cache_from_source(str(source)))
        if pyc.exists():
            continue  # an earlier run's or a user's: left as found
        try:
            py_compile.compile(str(source), str(pyc), doraise=True)
        except (OSError, py_compile.PyCompileError):
            continue  # the worker compiles it for itself, and reports what is wrong
        written.append(pyc)
    return written


def _rewrite_tests(config: pytest.Config) -> list[Path]:
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
            try_makedirs,
        )
    except ImportError:
        return []
    state = config.stash.get(assertstate_key, None)
    if state is None:
        return []
    written: list[Path] = []
    for source in sorted(TESTS.rglob("*.py")):
        if not (source.name.startswith("test_") or source.name == "conftest.py"):
            continue  # the modules pytest rewrites (python_files and conftest.py)
        cache = get_cache_dir(source)
        pyc = cache / (source.name[:-3] + PYC_TAIL)
        if _read_pyc(source, pyc) is not None:
            continue  # an earlier run's: left as found
        if not try_makedirs(cache):
            break  # a read-only tree: the workers rewrite for themselves
        source_hash, code = _rewrite_test(source, config)
        if _write_pyc(state, code, source_hash, pyc):
            written.append(pyc)
    return written
