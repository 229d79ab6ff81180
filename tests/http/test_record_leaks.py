"""Hidden information in deal records of committed deals (docs/records.md "Who sees what"): over
random committed deals of every ruleset, at random points — waiting for entropy, before play, in
play, over — every caller's record of each deal (``GET /deals/{deal}``) and the list of deals
(``GET /deals``) show it only what it may see, by the oracle of tests/http/test_table_leaks.py:
its own hand and what the table made public, no seed before the end. Once a committed deal is
over its seed is public, and with the entropy deals every hand to anyone: then every caller's
record is the platform's, whole, and verifies with nothing but the package.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from baohuang.engine import Snapshot, legal_moves
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.records import decode_record, verify

from .test_table_leaks import CARD, _check_view, _known_cards

KEY = "record-leak-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
RULESETS = ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    app = create_app(Settings(api_keys=(KEY,), token_secret="record-leaks"))
    with TestClient(app) as test_client:
        yield test_client


def _table(client: TestClient[Any], tid: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/tables/{tid}", headers=PLATFORM).json()
    return answer


def _advance(client: TestClient[Any], tid: str, steps: int, rng: random.Random) -> None:
    """Random legal moves by the platform for the seat to act; a few seats in 托管."""
    for _ in range(steps):
        table = _table(client, tid)
        view = table["view"]
        if view["over"] or view["phase"] == "deal":
            return
        moves = legal_moves(msgspec.convert(view, Snapshot))
        move = msgspec.to_builtins(rng.choice(moves))
        body = {"move": move, "version": table["version"]}
        assert (
            client.post(f"/v1/tables/{tid}/moves", json=body, headers=PLATFORM).status_code == 200
        )


def _finish(client: TestClient[Any], tid: str) -> None:
    """Every seat in 托管: the deal is played out (unscored, T-11), over a few writes of the
    service's clock."""
    for seat in range(5):
        version = _table(client, tid)["version"]
        body: dict[str, Any] = {"on": True, "version": version}
        client.post(f"/v1/tables/{tid}/seats/{seat}/trustee", json=body, headers=PLATFORM)
    for _ in range(200):
        if _table(client, tid)["view"]["over"]:
            return
        time.sleep(0.05)
    raise AssertionError("托管 did not play the deal out")


def _check_records(
    client: TestClient[Any], tid: str, callers: list[tuple[int | None, dict[str, str]]]
) -> None:
    table = _table(client, tid)
    number = table["table"]["deal"]
    whole = client.get(f"/v1/tables/{tid}/deals/{number}", headers=PLATFORM).json()
    listed = client.get(f"/v1/tables/{tid}/deals", headers=PLATFORM).json()
    dealing = whole["dealing"]
    committed = dealing["method"] == "committed"
    revealed = committed and dealing.get("seed") is not None
    if committed:
        assert revealed == table["view"]["over"]  # the seed, exactly once the deal is over
    played = sorted(
        {card for act in whole["acts"] for card in act.get("move", {}).get("cards", [])}
        | {act["move"]["card"] for act in whole["acts"] if "card" in act.get("move", {})}
    )
    for seat, headers in callers:
        theirs = client.get(f"/v1/tables/{tid}/deals/{number}", headers=headers)
        assert theirs.status_code == 200, theirs.text
        assert client.get(f"/v1/tables/{tid}/deals", headers=headers).json() == listed
        shown = theirs.json()
        if revealed:
            assert shown == whole  # everyone may deal it again: nothing is hidden any more
            assert verify(decode_record(theirs.content)).valid
            continue
        assert shown["record"] == ("seat" if seat is not None else "public")
        assert "hands" not in theirs.text
        if committed:
            assert shown["dealing"] == dealing  # the commitment and entropy, no seed yet
        else:
            assert "seed" not in shown["dealing"]  # the platform's seed deals every hand
        _check_view(shown["opening"], whole["opening"], seat)
        known = _known_cards(whole["opening"], seat, played)
        tribute = whole.get("tribute") or {"transfers": []}
        known |= {t["card"] for t in tribute["transfers"] if seat in (t["from"], t["to"])}
        leaked = set(CARD.findall(theirs.text)) - known
        assert not leaked, (seat, leaked)
        mine = (shown.get("tribute") or {"transfers": []})["transfers"]
        assert all(seat in (t["from"], t["to"]) for t in mine)


THOROUGH = settings().max_examples >= settings.get_profile("ci").max_examples
"""Each example plays up to two deals out over HTTP: a few in the quick loop, 40 in CI's run."""


@settings(
    max_examples=40 if THOROUGH else 4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    ruleset=st.sampled_from(RULESETS),
    dealer=st.integers(0, 4),
    adding=st.sets(st.integers(0, 4)),
    steps=st.one_of(st.integers(0, 10), st.integers(0, 150)),
    second=st.sampled_from([None, "committed", "seed"]),
    pick=st.integers(0, 2**16),
)
def test_a_committed_deals_record_shows_each_caller_only_what_it_may_see(
    client: TestClient[Any],
    ruleset: str,
    dealer: int,
    adding: set[int],
    steps: int,
    second: str | None,
    pick: int,
) -> None:
    rng = random.Random(pick)
    tid = f"record-leak-{uuid.uuid4().hex}"
    deal = {"ruleset": ruleset, "dealer": dealer, "entropy_seconds": 600}
    created = client.put(f"/v1/tables/{tid}", json={"deal": deal}, headers=PLATFORM).json()
    seats = [{"Authorization": f"Bearer {token}"} for token in created["seat_tokens"]]
    callers: list[tuple[int | None, dict[str, str]]] = [*enumerate(seats)]
    callers.append((None, {"Authorization": f"Bearer {created['spectator_token']}"}))
    for seat in sorted(adding):
        body = {"entropy": rng.randbytes(8).hex()}
        added = client.post(
            f"/v1/tables/{tid}/seats/{seat}/entropy", json=body, headers=seats[seat]
        )
        assert added.status_code == 200, added.text
    _check_records(client, tid, callers)  # waiting, or dealt when all five added
    if len(adding) < 5:
        for seat in sorted(set(range(5)) - adding):  # the rest add theirs: the cards are dealt
            body = {"entropy": rng.randbytes(4).hex()}
            client.post(f"/v1/tables/{tid}/seats/{seat}/entropy", json=body, headers=seats[seat])
    _advance(client, tid, steps, rng)
    _check_records(client, tid, callers)
    _finish(client, tid)
    _check_records(client, tid, callers)
    if second:  # the next deal (tribute under `tribute`): committed, dealt at once, or seeded
        version = _table(client, tid)["version"]
        next_deal: dict[str, Any] = {"version": version}
        next_deal |= {"entropy_seconds": 0} if second == "committed" else {"seed": pick}
        started = client.post(f"/v1/tables/{tid}/deals", json=next_deal, headers=PLATFORM)
        assert started.status_code == 200, started.text
        _advance(client, tid, steps, rng)
        _check_records(client, tid, callers)
        _finish(client, tid)
        _check_records(client, tid, callers)
        first = client.get(f"/v1/tables/{tid}/deals/1", headers=seats[0]).json()
        assert first["record"] == "full"  # the finished deal's seed is out: whole for all
