"""What every problem document must hold (docs/clients.md)."""

from __future__ import annotations

import re
from typing import Any

from baohuang.http.catalogue import BY_CODE, problem_type

# One path style (docs/errors.md): body fields from the root, then $.path.*, $.query.* and
# $.headers.* with lower-case header names.
PATH = re.compile(r"^\$(?:\.headers\.[a-z0-9-]+|(?!\.headers\b)(?:\.[A-Za-z_]\w*|\[\d+\])*)$")


def assert_problem(
    response: Any, status: int, code: str, path: str | None = None
) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    document: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "instance", "errors"} <= document.keys()
    assert document["status"] == status
    # RFC 9457 ``instance``: this answer's request id, the one in its X-Request-ID header.
    assert document["instance"] == f"urn:request:{response.headers['x-request-id']}", document
    error = document["errors"][0]
    assert {"code", "rule", "path", "message"} <= error.keys()
    assert error["code"] == code, document
    assert code in BY_CODE, f"{code} is not registered in service/baohuang/http/catalogue.py"
    assert status in BY_CODE[code].statuses, document
    assert document["type"] == problem_type(code), document
    assert PATH.match(error["path"]), document
    if path is not None:
        assert error["path"] == path, document
    return document
