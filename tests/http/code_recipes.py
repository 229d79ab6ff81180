"""What a recipe of tests/http/test_codes_sent.py is: a small function that makes the request(s)
after which the service answers with one registered code, and returns the answer(s).

Most recipes send to one shared in-process app on the defaults (no keys, no Redis). The codes
only a limit or a secret produces are sent to :data:`TIGHT`, an app with small limits that a
recipe starts in an event loop of its own (:meth:`Senders.on_tight`), so that it may hold
requests open while it sends another. Store faults are planted on the shared app's store for one
table id, with pytest's ``monkeypatch`` (undone after the recipe).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from baohuang.http.settings import Settings

KEY = "codes-sent-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
TIGHT = Settings(
    api_keys=(KEY,),
    token_secret="codes-sent",
    webhook_secret="codes-sent-hooks",
    body_timeout_seconds=0.2,
    max_in_flight=2,
    max_streams_per_table=1,
    suggest_per_caller=1,
    rate_limit_auth_failures="1/hour",
    access_log=False,
)
"""Limits a recipe reaches with a request or two: a body due within 0.2 s, two requests with a
body at once, one open stream per table, one search suggestion per caller, one failed
authentication per address an hour; keys on, webhooks on."""

Answer = httpx.Response
T = TypeVar("T")


class Senders:
    """What a recipe sends with."""

    def __init__(self, client: TestClient[Any], tight: Litestar, mp: pytest.MonkeyPatch) -> None:
        self.client = client
        """The shared in-process app on the defaults."""
        self.tight = tight
        """The app of :data:`TIGHT`, started by :meth:`on_tight`."""
        self.monkeypatch = mp

    @property
    def store(self) -> Any:
        """The shared app's table store (faults are planted on it)."""
        return self.client.app.state.store

    def on_tight(self, body: Callable[[Litestar, httpx.AsyncClient], Awaitable[T]]) -> T:
        """``body(app, client)`` in an event loop of its own with :data:`TIGHT`'s app started;
        the client's requests run concurrently in that loop (an ``asyncio`` task each)."""
        app = self.tight

        async def run() -> T:
            transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
            async with (
                app.lifespan(),
                httpx.AsyncClient(transport=transport, base_url="http://codes") as client,
            ):
                return await body(app, client)

        return asyncio.run(run())


Recipe = Callable[[Senders], Answer | Sequence[Answer]]


class Recipes(dict[str, Recipe]):
    """Recipes by the code they send; :meth:`sends` registers one."""

    def sends(self, code: str) -> Callable[[Recipe], Recipe]:
        def register(recipe: Recipe) -> Recipe:
            assert code not in self, f"two recipes send {code}"
            self[code] = recipe
            return recipe

        return register


def table(client: TestClient[Any], body: dict[str, Any], tid: str) -> dict[str, Any]:
    """A new table under ``tid`` on the shared app (``body``: its snapshot or deal); the 201."""
    client.delete(f"/v1/tables/{tid}")
    created = client.put(f"/v1/tables/{tid}", json=body)
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer
