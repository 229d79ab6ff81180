"""What every problem document must hold (docs/clients.md)."""

from __future__ import annotations

from typing import Any


def assert_problem(
    response: Any, status: int, code: str, path: str | None = None
) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    document: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "errors"} <= document.keys()
    assert document["status"] == status
    error = document["errors"][0]
    assert {"code", "rule", "path", "message"} <= error.keys()
    assert error["code"] == code, document
    if path is not None:
        assert error["path"] == path, document
    return document
