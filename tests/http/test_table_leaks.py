"""Hidden information (G-8, docs/clients.md "Callers"): over random deals, at random points of the crown,
guard and play phases, every table route answers each kind of caller only what it may see — in
its views, its events, its deal records and its error documents; seating a bot is the
platform's alone, and a seat's suggestion (``/v1/bots/suggest``) names no card the seat does not
hold. (Committed deals, whose records everyone reads whole once the seed is revealed:
tests/http/test_record_leaks.py.)

The oracle here is written from the rules, not from the service's cutting code: a seat sees its
own hand, every seat's count, the trick, and the guard only once it is revealed (明保 or two
造反), the deal is over, or it is the guard itself; a hidden solo (暗独) looks like team play; a
spectator sees the same without any hand; only a platform sees the whole snapshot.
"""

from __future__ import annotations

import random
import re
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
from table_support import advanced_position
from thorough import examples

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
RULESETS = ["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]
CARD = re.compile(r"\b(?:[3-9TJQKA2][SHCD]|[SB]J\*?)(?![A-Za-z0-9])")
PUBLIC_EVENT_TYPES = {
    "played", "passed", "yielded", "jiefeng", "trick_won", "finished", "deal_over",
    "crown_passed", "crown_forced", "accepted", "declined", "grabbed", "called",
    "solo_declared", "revealed", "rebelled", "deal_void", "phase", "clock", "trustee", "left",
    "deal_started", "token_rotated",
}  # fmt: skip


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    app = create_app(Settings(api_keys=(KEY,), token_secret="leak-test"))
    with TestClient(app) as test_client:
        yield test_client


def _guard_shown(snapshot: dict[str, Any], seat: int | None) -> bool:
    return bool(
        snapshot.get("guard_revealed")
        or snapshot.get("over")
        or len(snapshot.get("rebellion", [])) >= 2
        or (seat is not None and seat == snapshot.get("guard"))
    )


def _check_view(view: dict[str, Any], snapshot: dict[str, Any], seat: int | None) -> None:
    """The oracle: exactly what ``seat`` (``None``: a spectator) may see of ``snapshot``."""
    assert "hands" not in view
    assert view["counts"] == [len(hand) for hand in snapshot["hands"]]
    if seat is None:
        assert "hand" not in view and "seat" not in view
    else:
        assert view["seat"] == seat and view["hand"] == snapshot["hands"][seat]
    shown = _guard_shown(snapshot, seat)
    assert view["guard"] == (snapshot["guard"] if shown else None)
    mode = snapshot["mode"]
    assert view["mode"] == ("team" if mode == "solo_hidden" and not shown else mode)
    for field in ("trick", "turn", "finished", "emperor", "over", "phase", "called", "crown"):
        assert view.get(field) == snapshot.get(field), field


def _known_cards(snapshot: dict[str, Any], seat: int | None, sent: list[str]) -> set[str]:
    """Card codes a caller may meet in an answer: its hand, what is on the table or travels
    face up with the crown, the called card, and the cards it sent itself."""
    known = set(sent)
    if seat is not None:
        known.update(snapshot["hands"][seat])
    top = (snapshot.get("trick") or {}).get("top")
    if top:
        known.update(top["cards"])
    crown = snapshot.get("crown") or {}
    known.update(crown.get("pile") or [])
    if snapshot.get("called"):
        known.add(snapshot["called"])
    return known


def _check_answer(
    response: Any, caller: str, seat: int | None, before: dict[str, Any], sent: list[str]
) -> None:
    """Whatever the status: no hands, a view as the oracle says, only public events, and no
    card the caller could not know (before the move or after it). ``audience`` names the
    kind of caller that asked, and nothing more."""
    text = response.text
    body = response.json() if text else {}
    if response.status_code == 200 and "view" in body:
        expected = (
            "platform" if caller == "platform" else "seat" if seat is not None else "spectator"
        )
        assert body["audience"] == expected, (caller, seat, body.get("audience"))
    if caller == "platform":
        return
    assert "hands" not in text, (caller, text[:300])
    after = None
    if response.status_code == 200 and "view" in body:
        after = body["view"]
        for event in body.get("events", []):
            assert event["type"] in PUBLIC_EVENT_TYPES
    elif response.status_code == 200 and "counts" in body:  # a bare seat view
        after = body
    known = _known_cards(before, seat, sent)
    if after is not None:
        known |= set(after.get("hand", []))
        top = (after.get("trick") or {}).get("top")
        known |= set(top["cards"]) if top else set()
        known |= set(((after.get("crown") or {}).get("pile")) or [])
        for event in body.get("events", []):
            known |= set(event.get("cards", [])) | {
                event.get("card") or "",
                event.get("added") or "",
            }
    leaked = set(CARD.findall(text)) - known
    assert not leaked, (caller, response.status_code, leaked, text[:300])


@settings(
    max_examples=examples(25),  # 25 positions in CI, 10 in the quick loop (a table each)
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    dealer=st.integers(0, 4),
    steps=st.one_of(st.integers(0, 12), st.integers(0, 400)),
    pick=st.integers(0, 2**16),
)
def test_no_table_route_shows_a_caller_what_it_may_not_see(
    client: TestClient[Any], ruleset: str, seed: int, dealer: int, steps: int, pick: int
) -> None:
    snapshot = advanced_position(ruleset, seed, dealer, steps, random.Random(pick))
    tid = f"leak-{uuid.uuid4().hex}"
    created = client.put(
        f"/v1/tables/{tid}", json={"snapshot": msgspec.to_builtins(snapshot)}, headers=PLATFORM
    )
    assert created.status_code == 201, created.text
    table = created.json()
    callers: list[tuple[str, int | None, dict[str, str]]] = [
        ("seat", seat, {"Authorization": f"Bearer {token}"})
        for seat, token in enumerate(table["seat_tokens"])
    ]
    callers.append(("spectator", None, {"Authorization": f"Bearer {table['spectator_token']}"}))
    callers.append(("platform", None, PLATFORM))  # last: its PUT makes a new instance
    rng = random.Random(pick)
    # A seat changes hands first: every caller reads the logged rotation, and that seat plays
    # on with its new token.
    changed = rng.randrange(5)
    rotated = client.post(f"/v1/tables/{tid}/seats/{changed}/token", headers=PLATFORM)
    assert rotated.status_code == 200, rotated.text
    callers[changed] = ("seat", changed, {"Authorization": f"Bearer {rotated.json()['token']}"})
    for kind, seat, headers in callers:
        current = client.get(f"/v1/tables/{tid}", headers=PLATFORM).json()
        before, version = current["view"], current["version"]
        answer = client.get(f"/v1/tables/{tid}", headers=headers)
        assert answer.status_code == 200
        if kind != "platform":
            _check_view(answer.json()["view"], before, seat)
        _check_answer(answer, kind, seat, before, [])
        log = client.get(f"/v1/tables/{tid}/events", headers=headers)
        assert log.status_code == 200
        for event in log.json()["events"]:
            assert kind == "platform" or event["type"] in PUBLIC_EVENT_TYPES
        played = {card for event in log.json()["events"] for card in event.get("cards", [])}
        _check_answer(log, kind, seat, before, sorted(played))
        # the deal's record: the platform gave the snapshot, so no seed reveals it; a seat sees
        # its own view of the opening, a spectator the public one, as the oracle says
        listed = client.get(f"/v1/tables/{tid}/deals", headers=headers)
        assert listed.status_code == 200
        _check_answer(listed, kind, seat, before, [])
        record = client.get(f"/v1/tables/{tid}/deals/1", headers=headers)
        assert record.status_code == 200
        whole = client.get(f"/v1/tables/{tid}/deals/1", headers=PLATFORM).json()
        # what was public when the table was created (the trick on it, the crown's pile, the
        # called card) is public in the record too
        public_then = _known_cards(whole["opening"], None, sorted(played))
        _check_answer(record, kind, seat, before, sorted(public_then))
        if kind != "platform":
            shown = record.json()
            assert shown["record"] == ("seat" if seat is not None else "public")
            _check_view(shown["opening"], whole["opening"], seat)
            assert "seed" not in shown["dealing"]
        for other in range(5):
            _check_answer(
                client.get(f"/v1/tables/{tid}/seats/{other}", headers=headers),
                kind,
                seat,
                before,
                [],
            )
        # legal moves: its own (without a seat, and naming each seat)
        for asked in (None, *range(5)):
            query = "" if asked is None else f"?seat={asked}"
            listed = client.get(f"/v1/tables/{tid}/legal-moves{query}", headers=headers)
            _check_answer(listed, kind, seat, before, [])
            if kind == "spectator" or (kind == "seat" and asked not in (None, seat)):
                assert listed.status_code == 403, listed.text
            else:
                assert listed.status_code == 200, listed.text
                wanted = asked if asked is not None else seat
                if wanted is None:  # a platform without a seat: the seat to act
                    wanted = None if before["over"] else before["turn"]
                assert listed.json()["seat"] == wanted
                assert all(move["seat"] == wanted for move in listed.json()["moves"])
        # issuing tokens and setting the clock are the platform's
        if kind != "platform":
            for url in (
                f"/v1/tables/{tid}/seats/{rng.randrange(5)}/token",
                f"/v1/tables/{tid}/spectator-token",
            ):
                issued = client.post(url, headers=headers)
                assert issued.status_code == 403
                _check_answer(issued, kind, seat, before, [])
            clock = {"turn_seconds": 60, "before_play_seconds": 60}
            bodies: list[dict[str, Any]] = [{"clock": clock, "version": version}, {"clock": None}]
            for clocked in bodies:
                refused = client.post(f"/v1/tables/{tid}/clock", json=clocked, headers=headers)
                assert refused.status_code == 403
                _check_answer(refused, kind, seat, before, [])
        # bots: only a platform seats one (a no-op here, so that no bot moves during the test);
        # a seat's suggestion, from its own view, names no card it does not hold
        for other in range(1 if kind == "platform" else 5):
            level = None if kind == "platform" else "heuristic"
            seated = client.post(
                f"/v1/tables/{tid}/seats/{other}/bot",
                json={"level": level, "version": version},
                headers=headers,
            )
            assert seated.status_code == (200 if kind == "platform" else 403), seated.text
            _check_answer(seated, kind, seat, before, [])
        if kind == "platform":
            version = client.get(f"/v1/tables/{tid}", headers=PLATFORM).json()["version"]
        if kind == "seat":
            view = answer.json()["view"]
            suggested = client.post("/v1/bots/suggest", json={"view": view})
            assert suggested.status_code in (200, 422), suggested.text
            _check_answer(suggested, kind, seat, before, [])
        # moves: a legal one of the seat to act, an illegal play, a stale version, another seat
        actor = before["turn"]
        legal = legal_moves(msgspec.convert(before, Snapshot))
        attempts: list[dict[str, Any]] = []
        if legal:
            attempts.append({"move": msgspec.to_builtins(rng.choice(legal)), "version": version})
        mover = seat if seat is not None else actor
        random_cards = rng.sample(["3S", "7H", "BJ", "SJ", "2D", "AS", "KC", "6S"], 2)
        attempts.append(
            {"move": {"seat": mover, "action": "play", "cards": random_cards}, "version": version}
        )
        attempts.append({"move": {"seat": mover, "action": "pass"}, "version": version + 7})
        attempts.append({"move": {"seat": (mover + 1) % 5, "action": "pass"}, "version": version})
        for attempt in attempts:
            sent = list(attempt["move"].get("cards", []))
            checked = client.post(f"/v1/tables/{tid}/moves/check", json=attempt, headers=headers)
            _check_answer(checked, kind, seat, before, sent)
            response = client.post(f"/v1/tables/{tid}/moves", json=attempt, headers=headers)
            if response.status_code == 200 and kind != "platform":
                now = client.get(f"/v1/tables/{tid}", headers=PLATFORM).json()["view"]
                _check_view(response.json()["view"], now, seat)
            _check_answer(response, kind, seat, before, sent)
            if response.status_code == 200:
                current = client.get(f"/v1/tables/{tid}", headers=PLATFORM).json()
                before, version = current["view"], current["version"]
        for method in ("PUT", "DELETE"):
            body = {"snapshot": msgspec.to_builtins(snapshot)} if method == "PUT" else None
            response = client.request(method, f"/v1/tables/{tid}", json=body, headers=headers)
            if kind == "platform":
                assert response.status_code in (200, 204)
                if method == "DELETE":
                    client.put(
                        f"/v1/tables/{tid}",
                        json={"snapshot": msgspec.to_builtins(snapshot)},
                        headers=PLATFORM,
                    )
            else:
                assert response.status_code == 403
            _check_answer(response, kind, seat, before, [])
    # a platform's PUT made a new instance: every earlier token is now refused, and says nothing
    # (the revoked one too)
    revoked = ("seat", changed, {"Authorization": f"Bearer {table['seat_tokens'][changed]}"})
    for _, seat, headers in [*callers[:-1], revoked]:
        stale = client.get(f"/v1/tables/{tid}", headers=headers)
        assert stale.status_code == 401
        _check_answer(stale, "seat", seat, before, [])
