"""The service's bytecode and the test modules' rewritten asserts, made once a run for every
xdist worker, instead of once in each.

This environment sets ``PYTHONDONTWRITEBYTECODE``, so each worker compiled the service and had
pytest rewrite the asserts of the ~130 test modules on its own: about 3 s of CPU a worker, paid
three times in the quick loop (bench/RESULTS.md section 34). The controller writes both, before
the workers start, where the workers look for them: the service's ``.pyc`` files (``compileall``), and
pytest's rewritten test modules in their ``__pycache__`` (each worker's import hook reads a valid
one even when it may not write, and checks it against the source's hash). Every file is written
whole and renamed into place, pytest's own way, so another run at the same moment never reads
half of one. Git ignores ``__pycache__``.

The rewrite goes through pytest's private helpers (``_pytest.assertion.rewrite``); if a pytest
release moves them, nothing is made ahead and the run is as before, only slower.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICE = ROOT / "service"
TESTS = ROOT / "tests"


def make(config: pytest.Config) -> None:
    """Make the bytecode, in the controller, before the workers start: about 2 s on one core,
    against about 3 s of CPU that each of the three workers then does not spend (started beside
    them, a thread finished after the workers had rewritten the modules for themselves)."""
    if config.getoption("assertmode") != "rewrite":
        return
    compileall.compile_dir(SERVICE, quiet=2, workers=1)  # the workers import it first
    _rewrite_tests(config)


def _rewrite_tests(config: pytest.Config) -> None:
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
        return
    state = config.stash.get(assertstate_key, None)
    if state is None:
        return
    for source in sorted(TESTS.rglob("*.py")):
        if not (source.name.startswith("test_") or source.name == "conftest.py"):
            continue  # the modules pytest rewrites (python_files and conftest.py)
        cache = get_cache_dir(source)
        pyc = cache / (source.name[:-3] + PYC_TAIL)
        if _read_pyc(source, pyc) is not None:
            continue  # made by an earlier run, or by a worker already
        if not try_makedirs(cache):
            return  # a read-only tree: the workers rewrite for themselves
        source_hash, code = _rewrite_test(source, config)
        _write_pyc(state, code, source_hash, pyc)
