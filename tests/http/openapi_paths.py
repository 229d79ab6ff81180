"""The operations of a served OpenAPI document, for the tests that walk it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

VERBS = {"get", "put", "post", "delete", "patch"}


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each operation as ``(path, verb, operation)``, in the document's order."""
    for path, item in document["paths"].items():
        for verb, operation in item.items():
            if verb in VERBS:
                yield path, verb, operation
