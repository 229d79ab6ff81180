"""S-10: a void deal's result says why it is void (docs/clients.md ``/v1/scores``, ``/v1/moves/replay``).

A deal nobody took the crown of (黄庄, G-5; G-6; 流局, G-7) ends before play with ``void: true`` in
its snapshot. Its score is final with no winner and no positions, every seat 0, and a ``void``
reason naming the rule; a deal that is not void has ``void: null``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from baohuang.engine import opening_snapshot, ruleset_of
from baohuang.engine.before_play.crown import kind_of
from baohuang.engine.before_play.deal import Dealt, canonical_deck
from baohuang.engine.cards import BJ_SCEPTER, CODES
from table_support import SMALL_BODY

Client = Any


def nobody_can_call(ruleset_name: str) -> dict[str, Any]:
    """A deal's first snapshot, seat 0 offered the crown, where no seat holds three of any
    (rank, suit): nobody can call, so declining all the way voids the deal."""
    ruleset = ruleset_of(ruleset_name)
    deck = Counter(canonical_deck(ruleset))
    if ruleset.tribute:
        deck[BJ_SCEPTER] += 1
    hands: list[list[int]] = [[] for _ in range(5)]
    deck[BJ_SCEPTER] -= 1
    hands[0].append(BJ_SCEPTER)
    turn = 0
    for card in sorted(deck):
        for _ in range(deck[card]):
            held = [sum(kind_of(c) == kind_of(card) for c in hand) for hand in hands]
            seat = min(range(5), key=lambda s: (held[s], (s - turn) % 5))
            turn += 1
            hands[seat].append(card)
    laid = [[CODES[c] for c in sorted(hand, reverse=True)] for hand in hands]
    snapshot = opening_snapshot(ruleset_name, Dealt(hands=laid, crown=0))
    encoded: dict[str, Any] = msgspec.to_builtins(snapshot)
    return encoded


def decline_until_void(
    client: Client, snapshot: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    moves: list[dict[str, Any]] = []
    for _ in range(12):
        if snapshot.get("void"):
            return snapshot, moves
        move = {"seat": snapshot["turn"], "action": "decline"}
        body = client.post("/v1/moves/validate", json={"snapshot": snapshot, "move": move}).json()
        assert body["legal"] is True, body
        snapshot = body["snapshot"]
        moves.append(move)
    raise AssertionError("the deal never became void")


@pytest.mark.parametrize(
    ("ruleset", "rule"),
    [
        ("classic", "G-5"),
        ("tribute", "G-6"),
        ("lianzhong-classic", "G-7"),
        ("lianzhong-simple", "G-7"),
    ],
)
def test_S_10_a_void_deal_scores_zero_and_says_why(client: Client, ruleset: str, rule: str) -> None:
    start = nobody_can_call(ruleset)
    void, moves = decline_until_void(client, start)
    assert void["over"] is True and void["void"] is True and void.get("positions") is None
    result = client.post("/v1/scores", json={"snapshot": void}).json()
    assert result["final"] is True
    assert result["winner"] is None and result["positions"] is None
    assert result["scores"] == [0, 0, 0, 0, 0] and result["sides"] == {"emperor": 0, "rebels": 0}
    assert result["multiplier"] == 1
    assert result["void"]["code"] == "NO_EMPEROR" and result["void"]["rule"] == rule
    assert result["void"]["message"]
    # /v1/moves/replay scores the deal it replays to its void end the same way.
    replayed = client.post("/v1/moves/replay", json={"snapshot": start, "moves": moves}).json()
    assert replayed["valid"] is True and replayed["snapshot"]["void"] is True
    assert replayed["scores"] == result


def test_a_deal_that_is_not_void_has_a_null_void(client: Client) -> None:
    finished = {"ruleset": "classic", "mode": "team", "emperor": 0, "guard": 3, "finished": [0, 3]}
    assert client.post("/v1/scores", json=finished).json()["void"] is None
    dealt = client.post("/v1/deal", json={"seed": 7, "dealer": 0}).json()["snapshot"]
    not_yet = client.post("/v1/scores", json={"snapshot": dealt}).json()
    assert not_yet["final"] is False and not_yet["void"] is None


def test_openapi_documents_the_void_reason(client: Client) -> None:
    document = client.get("/schema/openapi.json").json()
    result = document["components"]["schemas"]["ScoreResult"]
    assert "void" in result["required"]
    assert "S-10" in result["description"]


def test_S_10_a_table_deal_every_seat_spent_in_tuoguan_shows_no_positions(
    client: Client,
) -> None:
    """T-11's unscored deal is void (S-10): no positions in its result, nor in the table's view
    of the deal — for the platform, a seat and the spectators alike."""
    tid = "void-by-tuoguan"
    created = client.put(f"/v1/tables/{tid}", json={"snapshot": SMALL_BODY}).json()
    version = created["version"]
    for seat in range(5):
        answer = client.post(
            f"/v1/tables/{tid}/seats/{seat}/trustee", json={"on": True, "version": version}
        )
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
    platform = client.get(f"/v1/tables/{tid}").json()
    [result] = platform["table"]["results"]
    assert result["score"]["void"]["code"] == "ALL_TRUSTEE" and result["score"]["positions"] is None
    seat = client.get(
        f"/v1/tables/{tid}", headers={"Authorization": f"Bearer {created['seat_tokens'][1]}"}
    ).json()
    spectator = client.get(
        f"/v1/tables/{tid}", headers={"Authorization": f"Bearer {created['spectator_token']}"}
    ).json()
    for view in (platform["view"], seat["view"], spectator["view"]):
        assert view["over"] is True and view["void"] is True
        assert view.get("positions") is None, view
    events = client.get(f"/v1/tables/{tid}/events").json()["events"]
    assert [e.get("positions", []) for e in events if e["type"] == "deal_over"] == [[]]
