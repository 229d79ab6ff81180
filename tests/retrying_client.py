"""A table client as docs/clients.md tells one to behave through a failover: every write is sent
again, with the same ``Idempotency-Key`` and the same body, on every 503 and every timeout or
dropped connection, to whichever replica answers, until the answer is definite (any status but
503). Each definite answer is written down in a :class:`Ledger` for the audit
(:mod:`log_audit`): what the service acknowledged is what it promised to keep.

Loopback only; every loop is bounded by a deadline.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

REQUEST_TIMEOUT = httpx.Timeout(5.0)
"""One attempt; a timeout counts as "outcome unknown" and the write is sent again."""
PATIENCE = 90.0
"""How long one write may stay without a definite answer (a failover takes seconds; a 3+3
cluster refuses a shard's writes until its dead node is back, ~20 s here)."""


@dataclass(frozen=True)
class Acknowledged:
    """A 200 to a write: the events it reported (cut to the platform: all of them)."""

    table: str
    key: str | None
    version: int
    events: tuple[dict[str, Any], ...]
    replayed: bool
    attempts: int
    unknown_before: bool
    """Whether an earlier attempt of the same write got 503 ``OUTCOME_UNKNOWN`` or timed out."""


@dataclass
class Ledger:
    """Every definite answer, and how the attempts before it ended."""

    acknowledged: list[Acknowledged] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    ack_times: dict[str, list[float]] = field(default_factory=dict)
    """table -> monotonic times of its 200s (the gaps are the unavailability a player sees)."""

    def count(self, response: httpx.Response | None, error: BaseException | None) -> str:
        if response is None:
            label = f"no answer ({type(error).__name__})"
        elif response.status_code >= 400:
            label = f"{response.status_code} {_code(response)}"
        else:
            label = str(response.status_code)
        self.statuses[label] += 1
        return label

    @property
    def replayed(self) -> int:
        return sum(1 for ack in self.acknowledged if ack.replayed)


def _code(response: httpx.Response) -> str:
    try:
        return str(response.json()["errors"][0]["code"])
    except (ValueError, KeyError, IndexError, TypeError):
        return "?"


class RetryingClient:
    """Writes and reads through ``servers`` (base URLs of replicas), moving on to the next replica
    after a failed attempt."""

    def __init__(self, client: httpx.AsyncClient, servers: list[str], ledger: Ledger) -> None:
        self.client = client
        self.servers = servers
        self.ledger = ledger
        self._turn = 0

    def _next_server(self) -> str:
        self._turn += 1
        return self.servers[self._turn % len(self.servers)]

    async def write(
        self,
        table: str,
        path: str,
        body: dict[str, Any],
        headers: dict[str, str],
        *,
        idempotent: bool = True,
    ) -> httpx.Response:
        """POST ``body`` until a definite answer. With ``idempotent`` one key rides with every
        attempt; without (``/deals`` takes none), only a refused connection is retried: a write
        whose outcome is unknown is left to the caller to re-read."""
        key = uuid.uuid4().hex if idempotent else None
        sent = {**headers, **({"Idempotency-Key": key} if key else {})}
        deadline = time.monotonic() + PATIENCE
        attempts, unknown = 0, False
        base = self.servers[self._turn % len(self.servers)]
        while time.monotonic() < deadline:
            attempts += 1
            response: httpx.Response | None = None
            error: BaseException | None = None
            try:
                response = await self.client.post(
                    base + path, json=body, headers=sent, timeout=REQUEST_TIMEOUT
                )
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                error = exc
            label = self.ledger.count(response, error)
            if response is not None and response.status_code != 503:
                if response.status_code == 200:
                    self._acknowledge(table, key, response, attempts, unknown)
                return response
            if response is None or label == "503 OUTCOME_UNKNOWN":
                unknown = True
            if not idempotent and response is not None:
                return response
            base = self._next_server()
            await asyncio.sleep(0.05 if response is None else 0.1)
        raise AssertionError(f"{table}: no definite answer to {path} within {PATIENCE:g} s")

    def _acknowledge(
        self, table: str, key: str | None, response: httpx.Response, attempts: int, unknown: bool
    ) -> None:
        answer = response.json()
        self.ledger.acknowledged.append(
            Acknowledged(
                table,
                key,
                answer["version"],
                tuple(answer["events"]),
                bool(answer.get("replayed", False)),
                attempts,
                unknown,
            )
        )
        self.ledger.ack_times.setdefault(table, []).append(time.monotonic())

    async def read(self, path: str, headers: dict[str, str]) -> httpx.Response:
        """GET until an answer other than 503 (or a dropped connection)."""
        deadline = time.monotonic() + PATIENCE
        base = self.servers[self._turn % len(self.servers)]
        while time.monotonic() < deadline:
            try:
                response = await self.client.get(base + path, headers=headers)
            except (httpx.TimeoutException, httpx.TransportError):
                response = None
            if response is not None and response.status_code != 503:
                return response
            base = self._next_server()
            await asyncio.sleep(0.1)
        raise AssertionError(f"no answer to GET {path} within {PATIENCE:g} s")
