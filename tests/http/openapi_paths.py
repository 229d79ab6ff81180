"""The operations and the nodes of a served OpenAPI document, for the tests that walk it."""

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


def walk(node: Any) -> Iterator[Any]:
    """Every node of a JSON document, depth first, the document itself first."""
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)
