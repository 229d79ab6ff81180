"""A Litestar test client on the embedded defaults (no Redis, no keys)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:  # type: ignore[type-arg]
    with TestClient(create_app(Settings())) as test_client:
        yield test_client
