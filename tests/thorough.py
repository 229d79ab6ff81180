"""How many examples a property test tries: its full count under the ``ci`` profile, a
fiftieth of it (at least ten) in the quick default (see tests/conftest.py)."""

from __future__ import annotations

from hypothesis import settings


def examples(full: int) -> int:
    if settings().max_examples >= settings.get_profile("ci").max_examples:
        return full
    return max(10, full // 50)
