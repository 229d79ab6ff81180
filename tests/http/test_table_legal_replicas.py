"""A seat's legal moves on a live table, through two replicas on one Redis (docs/clients.md "A
seat client"), against the stateless routes as the oracle.

On random deals of every ruleset, at random points of the crown, guard and play phases and
after the end: ``GET /v1/tables/{id}/legal-moves`` answers each seat exactly the legal moves
``/v1/moves/legal`` gives that seat on the stored snapshot (the seat to act; any other seat only
an out-of-turn grab that ``/v1/moves/validate`` accepts), naming only that seat's cards; every
listed move is legal by the dry run and applied by ``POST /moves``; and a move outside the list
gets from the dry run the verdict ``/v1/moves/validate`` gives, and from ``POST /moves`` the 422
with the same reason. Replicas alternate request by request.

The quick profile runs two app instances in this process on one Redis; the slow one, two
``baohuang serve`` processes.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from caller_support import bearer
from live_server import START_SECONDS, free_port
from redis_server import RedisServer
from table_support import advanced_position, put_table
from thorough import examples

KEY = "platform-key"
SECRET = "legal-replicas"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
RULESETS = ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]
ACTIONS = ["pass", "yield", "jiefeng", "decline", "accept", "declare_solo", "grab", "reveal"]
ACTIONS += ["rebel"]
APPLIED_PER_EXAMPLE = 2


Client = Any
"""A Litestar test client or an ``httpx.Client``: both answer ``get``, ``post`` and ``put``."""


def _shape(move: dict[str, Any]) -> tuple[Any, ...]:
    """What a move is, suits aside (D-2): its action, and for a play its ranks and jokers."""
    if move["action"] != "play":
        return (move["action"], move.get("card"))
    cards = [card.rstrip("*") for card in move["cards"]]
    ranks = sorted(card[0] for card in cards if card not in ("SJ", "BJ"))
    return ("play", tuple(ranks), cards.count("SJ"), cards.count("BJ"))


def _candidates(snapshot: dict[str, Any], seat: int, rng: random.Random) -> list[dict[str, Any]]:
    """Moves a client might send for ``seat``: every answer and before-play action, calls, and
    plays of random cards from its hand (and one card it does not hold)."""
    hand = snapshot["hands"][seat]
    moves: list[dict[str, Any]] = [{"seat": seat, "action": action} for action in ACTIONS]
    for card in rng.sample(hand, min(2, len(hand))):
        moves.append({"seat": seat, "action": "call", "card": card.rstrip("*")})
    for _ in range(6):
        if hand:
            moves.append({"seat": seat, "action": "play", "cards": rng.sample(hand, rng.randint(1, min(4, len(hand))))})  # fmt: skip
    held = Counter(hand)
    missing = [card for card in ("3S", "6D", "KH", "2C", "SJ", "9H", "TC", "BJ") if not held[card]]
    moves += [{"seat": seat, "action": "play", "cards": [card]} for card in missing[:1]]
    return moves


def _expected(oracle: Client, snapshot: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The stateless routes' legal moves of ``seat`` on ``snapshot``."""
    listed = oracle.post("/v1/moves/legal", json={"snapshot": snapshot}).json()
    if listed["seat"] == seat:
        moves: list[dict[str, Any]] = listed["moves"]
        return moves
    grab = {"seat": seat, "action": "grab"}
    verdict = oracle.post("/v1/moves/validate", json={"snapshot": snapshot, "move": grab})
    return [grab] if verdict.json()["legal"] else []


def check_example(
    replicas: list[Client],
    oracle: Client,
    ruleset: str,
    seed: int,
    dealer: int,
    steps: int,
    pick: int,
) -> None:
    rng = random.Random(pick)
    position = msgspec.to_builtins(advanced_position(ruleset, seed, dealer, steps, rng))
    tid, table = put_table(replicas[0], position, PLATFORM, "legal")
    turn = iter(range(10**6))

    def replica() -> Client:
        return replicas[next(turn) % len(replicas)]

    stored = replica().get(f"/v1/tables/{tid}", headers=PLATFORM).json()
    snapshot, version = stored["view"], stored["version"]
    expected_of: dict[int, list[dict[str, Any]]] = {}  # asked once a seat: the table stays
    for seat in range(5):
        token = bearer(table["seat_tokens"][seat])
        answer = replica().get(f"/v1/tables/{tid}/legal-moves", headers=token)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        expected = expected_of[seat] = _expected(oracle, snapshot, seat)
        assert body == {
            "version": version,
            "instance": table["instance"],
            "seat": seat,
            "moves": expected,
        }
        asked = replica().get(f"/v1/tables/{tid}/legal-moves?seat={seat}", headers=PLATFORM)
        assert asked.json()["moves"] == expected
        hand = Counter(snapshot["hands"][seat])
        for move in body["moves"]:
            assert move["seat"] == seat
            assert not Counter(move.get("cards", [])) - hand, (move, hand)  # its own cards only
            check = replica().post(
                f"/v1/tables/{tid}/moves/check", json={"move": move, "version": version}, headers=token
            )  # fmt: skip
            assert check.json() == {
                "legal": True,
                "version": version,
                "instance": table["instance"],
            }
        listed = {_shape(move) for move in body["moves"]}
        for move in _candidates(snapshot, seat, rng):
            verdict = oracle.post("/v1/moves/validate", json={"snapshot": snapshot, "move": move})
            if verdict.status_code != 200:  # cards that cannot exist here: bad input alike
                check = replica().post(f"/v1/tables/{tid}/moves/check", json={"move": move, "version": version}, headers=token)  # fmt: skip
                assert check.status_code == verdict.status_code, (check.text, verdict.text)
                continue
            legal = verdict.json()["legal"]
            held = not Counter(move.get("cards", [])) - hand
            assert legal == (_shape(move) in listed and held), (move, verdict.json())
            check = replica().post(
                f"/v1/tables/{tid}/moves/check", json={"move": move, "version": version}, headers=token
            )  # fmt: skip
            assert check.status_code == 200, check.text
            assert check.json()["legal"] is legal
            if not legal:
                reason = verdict.json()["reason"]
                assert check.json()["reason"] == reason
                refused = replica().post(
                    f"/v1/tables/{tid}/moves", json={"move": move, "version": version}, headers=token
                )  # fmt: skip
                assert refused.status_code == 422, refused.text
                assert refused.json()["errors"][0]["code"] == reason["code"]
        # nothing above changed the table
        assert replica().get(f"/v1/tables/{tid}", headers=PLATFORM).json()["version"] == version
    # listed moves are applied by POST /moves: a few, each on a fresh table of the same deal
    every = [(seat, move) for seat in range(5) for move in expected_of[seat]]
    for seat, move in rng.sample(every, min(APPLIED_PER_EXAMPLE, len(every))):
        fresh, created = put_table(replica(), position, PLATFORM, "legal")
        applied = replica().post(
            f"/v1/tables/{fresh}/moves",
            json={"move": move, "version": 1},
            headers=bearer(created["seat_tokens"][seat]),
        )
        assert applied.status_code == 200, (move, applied.text)


PROPERTY = settings(
    max_examples=examples(60),  # each a whole table, every seat asked: 60 take CI ~20 s
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PROCESSES = settings(PROPERTY, max_examples=examples(50))  # the same, over real sockets
DEALS = {
    "ruleset": st.sampled_from(RULESETS),
    "seed": st.integers(0, 2**32),
    "dealer": st.integers(0, 4),
    "steps": st.one_of(st.integers(0, 12), st.integers(0, 400)),
    "pick": st.integers(0, 2**16),
}


@pytest.fixture(scope="module")
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


@pytest.fixture(scope="module")
def oracle() -> Iterator[TestClient[Any]]:
    with TestClient(create_app(Settings())) as client:
        yield client


@pytest.fixture(scope="module")
def in_process(redis_url: str) -> Iterator[list[TestClient[Any]]]:
    config = Settings(redis_url=redis_url, api_keys=(KEY,), token_secret=SECRET)
    with TestClient(create_app(config)) as first, TestClient(create_app(config)) as second:
        yield [first, second]


@PROPERTY
@given(**DEALS)
def test_a_seats_legal_moves_are_the_stateless_ones_through_two_replicas(
    in_process: list[TestClient[Any]],
    oracle: TestClient[Any],
    ruleset: str,
    seed: int,
    dealer: int,
    steps: int,
    pick: int,
) -> None:
    check_example(in_process, oracle, ruleset, seed, dealer, steps, pick)


def _serve(port: int, environment: dict[str, str]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "baohuang.cli", "serve", "--port", str(port)],
        env={**os.environ, **environment},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + START_SECONDS
    try:
        while True:
            assert process.poll() is None, f"baohuang serve exited with {process.returncode}"
            assert time.monotonic() < deadline, "baohuang serve did not start"
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    return process
            time.sleep(0.05)
    except BaseException:  # a start that failed stops what it started
        process.kill()
        process.wait(timeout=10)
        raise


@pytest.fixture(scope="module")
def processes(redis_url: str) -> Iterator[list[httpx.Client]]:
    environment = {
        "REDIS_URL": redis_url,
        "BAOHUANG_API_KEYS": KEY,
        "BAOHUANG_TOKEN_SECRET": SECRET,
    }
    ports = [free_port(), free_port()]
    servers: list[subprocess.Popen[bytes]] = []
    clients = [httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) for port in ports]
    try:
        for port in ports:  # one at a time: the first is stopped if the second fails
            servers.append(_serve(port, environment))
        yield clients
    finally:
        for client in clients:
            client.close()
        for server in servers:
            server.kill()
            server.wait(timeout=10)


@pytest.mark.slow  # two `baohuang serve` processes
@PROCESSES
@given(**DEALS)
def test_a_seats_legal_moves_are_the_stateless_ones_through_two_serve_processes(
    processes: list[httpx.Client],
    oracle: TestClient[Any],
    ruleset: str,
    seed: int,
    dealer: int,
    steps: int,
    pick: int,
) -> None:
    check_example(processes, oracle, ruleset, seed, dealer, steps, pick)
