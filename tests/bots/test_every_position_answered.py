"""Every legal position is answered: ``POST /v1/bots/suggest`` at every level and in every
ruleset, with the whole record, one lagging the view by 1, 2 or 5 acts, or none, and with
seats finished, gives 200 and a legal move, never a 4xx or a 5xx (docs/clients.md "Bots": a
lagging or partial history is allowed). 1,000 positions per level and ruleset under the
thorough profile."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from baohuang.bots import LEVELS, Level
from baohuang.engine import Move, seat_view, verify_move
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from thorough import examples

from .deals import RULESETS, walk

MOVE = msgspec.json.Decoder(Move)
LAGS = (0, 1, 2, 5, None)  # None: no record at all


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    with TestClient(create_app(Settings())) as test_client:
        yield test_client


@pytest.mark.parametrize("ruleset_index", range(len(RULESETS)))
@pytest.mark.parametrize("level", LEVELS)
def test_every_legal_position_is_answered_with_a_legal_move(
    client: TestClient[Any], level: Level, ruleset_index: int
) -> None:
    @settings(max_examples=examples(1000), deadline=None)
    @given(
        st.integers(0, 2**32 - 1),
        st.integers(0, 400),
        st.sampled_from((0.0, 0.5, 0.9)),
        st.sampled_from(LAGS),
    )
    def answered(seed: int, moves: int, by_bots: float, lag: int | None) -> None:
        snapshot, history = walk(seed, ruleset_index, moves, settle=seed % 3 == 0, by_bots=by_bots)
        record = [] if lag is None else history[: len(history) - lag]
        body = {
            "view": msgspec.to_builtins(seat_view(snapshot, snapshot.turn)),
            "history": msgspec.to_builtins(record),
            "level": level,
            "budget_ms": 5,
            "seed": seed,
        }
        response = client.post("/v1/bots/suggest", json=body)
        assert response.status_code == 200, (seed, moves, by_bots, lag, response.text)
        move = MOVE.decode(msgspec.json.encode(response.json()["move"]))
        assert verify_move(snapshot, move) is None, (seed, moves, by_bots, lag, move)

    answered()
