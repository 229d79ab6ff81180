"""docs/clients.md "A seat client": the seat client shown there, run as written, plays a whole
deal for each of the five seats with nothing but its seat token."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from baohuang.engine import deal, opening_snapshot, ruleset_of
from baohuang.http.settings import Settings
from live_server import LiveServer

pytestmark = pytest.mark.anyio

KEY = "platform-key"
CLIENTS_DOC = Path(__file__).resolve().parents[2] / "docs" / "clients.md"


def _seat_client() -> Any:
    """The ``play_seat`` function of the guide, from its text."""
    section = CLIENTS_DOC.read_text(encoding="utf-8").split("### A seat client", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    namespace: dict[str, Any] = {}
    exec(compile(code.group(1), str(CLIENTS_DOC), "exec"), namespace)
    return namespace["play_seat"]


SEEDS = {"classic": 11, "lianzhong-simple": 21}
"""A deal for each ruleset: any deal shows that the client plays it out, and each of its moves
costs every seat a few requests, so these are short ones for the client's way of playing (in
classic about 390 moves; seed 21 there takes 620)."""


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
async def test_the_guides_seat_client_plays_a_whole_deal_with_its_token_alone(
    ruleset: str,
) -> None:
    play_seat = _seat_client()
    settings = Settings(api_keys=(KEY,), token_secret="seat-client")
    dealt = deal(ruleset_of(ruleset), SEEDS[ruleset], 0)
    snapshot = msgspec.to_builtins(opening_snapshot(ruleset, dealt))
    async with (
        LiveServer(settings) as server,
        httpx.AsyncClient(base_url=server.url) as platform,
    ):
        created = await platform.put(
            "/v1/tables/seat-client",
            json={"snapshot": snapshot},
            headers={"Authorization": f"Bearer {KEY}"},
        )
        assert created.status_code == 201, created.text
        tokens = created.json()["seat_tokens"]
        async with asyncio.timeout(120):
            await asyncio.gather(
                *(
                    asyncio.to_thread(play_seat, server.url, "seat-client", token)
                    for token in tokens
                )
            )
        table = (
            await platform.get("/v1/tables/seat-client", headers={"Authorization": f"Bearer {KEY}"})
        ).json()
    assert table["view"]["over"] is True
    [result] = table["table"]["results"]
    assert result["score"]["final"] is True and result["score"]["void"] is None
    assert sorted(result["score"]["positions"]) == [1, 2, 3, 4, 5]  # played out, not 黄庄
    assert not any(seat["trustee"] for seat in table["table"]["seats"])  # the seats played
