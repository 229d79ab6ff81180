"""Every legal position is answered: ``POST /v1/bots/suggest`` at every level and in every
ruleset, with the whole record, one lagging the view by 1, 2 or 5 acts, or none, and with
seats finished, gives 200 and a legal move, never a 4xx or a 5xx (docs/clients.md "Bots": a
lagging or partial history is allowed). Under the thorough profile, ``POSITIONS`` per level
and ruleset: 100 in every CI run; the full 1,000 of docs/bots-service.md with
``POSITIONS_PER_LEVEL_AND_RULESET=1000`` (about 15 minutes on two cores)."""

from __future__ import annotations

import os
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
POSITIONS = int(os.environ.get("POSITIONS_PER_LEVEL_AND_RULESET", "100"))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    with TestClient(create_app(Settings())) as test_client:
        # Whether an answer is legal, not when it comes: pacing to the level's floor (50 ms a
        # heuristic answer) has its own test (tests/bots/test_pacing.py) and here would only
        # make the run wait.
        test_client.app.state.thinkers.paced = False
        yield test_client


@pytest.mark.parametrize("ruleset_index", range(len(RULESETS)))
@pytest.mark.parametrize("level", LEVELS)
def test_every_legal_position_is_answered_with_a_legal_move(
    client: TestClient[Any], level: Level, ruleset_index: int
) -> None:
    @settings(max_examples=examples(POSITIONS), deadline=None)
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
