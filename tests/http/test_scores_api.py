"""``/v1/scores`` from roles and a finishing order: where the deal ends (T-9) and 造反 (S-4, S-6).

``finished`` lists the seats in finishing order: up to the deal's end (T-9), or on past it in
any order that leaves the better places to the side that finished, which is scored as the cut
order and placed as given; a seat of the other side listed before one of the side that finished
is refused. 造反 has one meaning whichever field carries it:
it succeeded when two or more rebels declared it and the rebels' side won (S-4, S-6), and only then
doubles the score. ``rebellion`` gives the declarers and the service decides; ``rebellion_succeeded``
states the outcome, and is refused where the finishing order contradicts it.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from typing import Any

import pytest

from .problem_checks import assert_problem

Client = Any
SIMPLE = "lianzhong-simple"


def scores(client: Client, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/scores", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


class Asked:
    """``/v1/scores`` for one test's loop over every order: the route is stateless, so a
    question asked again (every order sharing a prefix asks its prefix) is sent once and
    answered as it was the first time."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self._answers: dict[str, dict[str, Any]] = {}

    def __call__(self, **body: Any) -> dict[str, Any]:
        key = json.dumps(body, sort_keys=True)
        if key not in self._answers:
            self._answers[key] = scores(self.client, **body)
        return copy.deepcopy(self._answers[key])


def refused(client: Client, status: int, code: str, path: str, **body: Any) -> dict[str, Any]:
    document = assert_problem(client.post("/v1/scores", json=body), status, code, path)
    error: dict[str, Any] = document["errors"][0]
    return error


# ---------------------------------------------------------------------------------------------
# T-9: nobody finishes after the deal's end


RULESETS = ["classic", "tribute", "lianzhong-classic", SIMPLE]
MODES: dict[str, dict[str, Any]] = {
    "team": {"mode": "team", "emperor": 0, "guard": 3},
    "solo_hidden": {"mode": "solo_hidden", "emperor": 2},
    "solo_open": {"mode": "solo_open", "emperor": 2},
    "grab": {"mode": "grab", "emperor": 3},
}


def finished_side(mode: str, emperor: int, guard: int | None, ended: list[int]) -> set[int]:
    """The oracle's reading of T-9's "the side that finished": the side whose finishing ended the
    deal. Team: the side that has entirely finished. Solo and grab: the emperor once he has
    finished, else the rebels (the deal ended because his place could no longer improve)."""
    emperor_side = {emperor} if guard is None or mode != "team" else {emperor, guard}
    return emperor_side if emperor_side <= set(ended) else set(range(5)) - emperor_side


def first_against_t9(order: list[int], end: int, side: set[int]) -> int | None:
    """The first entry after the end that T-9 refuses, by brute force: a seat of the other side
    listed while a seat of the side that finished (listed later, or not at all) is still to come."""
    for index in range(end, len(order)):
        still_to_come = side - set(order[: index + 1])
        if order[index] not in side and still_to_come:
            return index
    return None


def end_of(ask: Asked, roles: dict[str, Any], order: list[int]) -> int:
    """Where the deal ended: the shortest prefix whose score is final (T-9, S-7, S-8; the
    moment itself is held to the rules in tests/engine/test_scoring.py)."""
    return next(k for k in range(1, 6) if ask(**roles, finished=order[:k])["final"])


def positions_of(order: list[int]) -> list[int]:
    return [order.index(seat) + 1 for seat in range(5)]


def test_T_9_a_complete_ranking_answers_like_its_prefix(client: Client) -> None:
    """A platform keeping a full ranking: seat 0 is listed fifth, where the convention puts it
    anyway once 4, 3, 1, 2 finished."""
    roles = {"ruleset": "classic", "mode": "team", "emperor": 1, "guard": 0}
    complete = scores(client, **roles, finished=[4, 3, 1, 2, 0])
    assert complete == scores(client, **roles, finished=[4, 3, 1, 2])
    assert complete["final"] is True and complete["positions"] == [5, 3, 4, 2, 1]


def test_T_9_the_unfinished_ranked_by_the_platform_score_as_the_cut_order(client: Client) -> None:
    """The rebels finished; the emperor's side still holds cards and the platform ranks it by
    cards left, guard before emperor: scored as the cut order, placed as given."""
    roles = {"ruleset": "lianzhong-classic", "mode": "team", "emperor": 0, "guard": 3}
    cut = scores(client, **roles, finished=[1, 2, 4])
    ranked = scores(client, **roles, finished=[1, 2, 4, 3, 0])
    assert cut["positions"] == [4, 1, 2, 5, 3]  # the convention: seat order after seat 4
    assert ranked["positions"] == [5, 1, 2, 4, 3]  # as the platform ranks them
    assert {**ranked, "positions": None} == {**cut, "positions": None}


@pytest.mark.parametrize(
    ("roles", "finished", "index", "ahead"),
    [
        # S-8 grab: over at the first finisher, a rebel; the rebels hold the better places
        ({"mode": "grab", "emperor": 3}, [1, 3], 1, "seats 0, 2 and 4"),
        # S-5 (lianzhong 明独): over at the first finisher, a rebel
        (
            {"ruleset": "lianzhong-classic", "mode": "solo_open", "emperor": 2},
            [0, 1, 2],
            2,
            "seats 3 and 4",
        ),
        # S-6 (lianzhong 暗独): over once two others have finished; the emperor comes last
        (
            {"ruleset": "lianzhong-classic", "mode": "solo_hidden", "emperor": 2},
            [0, 1, 3, 2],
            3,
            "seat 4",
        ),
    ],
)
def test_T_9_an_unfinished_emperor_listed_before_a_rebel_is_422(
    client: Client, roles: dict[str, Any], finished: list[int], index: int, ahead: str
) -> None:
    error = refused(client, 422, "DEAL_OVER", f"$.finished[{index}]", **roles, finished=finished)
    assert error["rule"] == "T-9"
    assert f"seat {finished[index]} is listed in position {index + 1}" in error["message"]
    assert f"{ahead} must come before seat {finished[index]}" in error["message"]
    # Up to the offending entry the same order is scored.
    assert scores(client, **roles, finished=finished[:index])["final"] is True


@pytest.mark.parametrize(
    ("finished", "status", "code", "path"),
    [
        ([0, 3, 0], 422, "INVALID_FINISHED", "$.finished[2]"),
        ([4, 3, 1, 2, 0, 1], 400, "INVALID_FIELD", "$.finished"),  # more than five
        ([0, 7], 422, "INVALID_SEAT", "$.finished[1]"),  # no seat (T-1)
        ([0, "7"], 400, "INVALID_FIELD", "$.finished[1]"),  # no integer
    ],
)
def test_T_9_a_seat_twice_or_out_of_range_is_refused_at_its_entry(
    client: Client, finished: list[int], status: int, code: str, path: str
) -> None:
    refused(client, status, code, path, mode="team", emperor=0, guard=3, finished=finished)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("mode", list(MODES))
def test_T_9_every_order_agreeing_with_t9_is_scored_as_its_cut_order(
    client: Client, ruleset: str, mode: str
) -> None:
    """Every complete order of five, for every ruleset and mode, against the brute-force oracle:
    an order whose seats after the deal's end leave the better places to the side that finished
    is accepted, complete or stopped anywhere after the end, with the figures of the cut order
    (the prefix up to the end) and the places as given; any other order is refused at the first
    entry the oracle refuses."""
    roles = {"ruleset": ruleset, **MODES[mode]}
    emperor, guard = roles["emperor"], roles.get("guard")
    ask = Asked(client)
    accepted = 0
    for permutation in itertools.permutations(range(5)):
        order = list(permutation)
        end = end_of(ask, roles, order)
        cut = ask(**roles, finished=order[:end])
        side = finished_side(mode, emperor, guard, order[:end])
        wrong = first_against_t9(order, end, side)
        # The complete order, and the order stopped one seat after the end (or after the
        # entry the oracle refuses): listing on past the end is all or nothing per seat.
        if wrong is None:
            accepted += 1
            for listed in sorted({min(end + 1, 5), 5}):
                answer = ask(**roles, finished=order[:listed])
                assert {**answer, "positions": None} == {**cut, "positions": None}, order
                assert [answer["positions"][seat] for seat in order[:listed]] == list(
                    range(1, listed + 1)
                ), order
            assert answer["positions"] == positions_of(order)
        else:
            for listed in sorted({wrong + 1, 5}):
                refused(client, 422, "DEAL_OVER", f"$.finished[{wrong}]", **roles,
                        finished=order[:listed])  # fmt: skip
    assert accepted > 0


# ---------------------------------------------------------------------------------------------
# 造反: one meaning for `rebellion` and `rebellion_succeeded`

TEAM = {"ruleset": SIMPLE, "mode": "team", "emperor": 0, "guard": 1}  # rebels 2, 3, 4
REBELS_WON = [2, 3, 4]  # the rebels' side finished first
EMPEROR_WON = [0, 1]


def test_S_4_a_declared_rebellion_that_won_doubles_the_score(client: Client) -> None:
    plain = scores(client, **TEAM, finished=REBELS_WON)
    assert plain["winner"] == "rebels" and plain["multiplier"] == 1
    by_seats = scores(client, **TEAM, finished=REBELS_WON, rebellion=[2, 3])
    by_flag = scores(client, **TEAM, finished=REBELS_WON, rebellion_succeeded=True)
    both = scores(client, **TEAM, finished=REBELS_WON, rebellion=[3, 2], rebellion_succeeded=True)
    assert by_seats == by_flag == both
    assert by_seats["multiplier"] == 2
    assert by_seats["scores"] == [2 * s for s in plain["scores"]]


def test_S_4_rebellion_succeeded_is_refused_when_the_emperor_won(client: Client) -> None:
    assert scores(client, **TEAM, finished=EMPEROR_WON)["winner"] == "emperor"
    error = refused(
        client,
        422,
        "REBELLION_MISMATCH",
        "$.rebellion_succeeded",
        **TEAM,
        finished=EMPEROR_WON,
        rebellion_succeeded=True,
    )
    assert error["rule"] == "S-4"
    # Declared by two rebels, lost: no success, no doubling, and no contradiction.
    lost = scores(client, **TEAM, finished=EMPEROR_WON, rebellion=[2, 3])
    assert lost["multiplier"] == 1 and lost == scores(client, **TEAM, finished=EMPEROR_WON)


def test_S_4_before_the_end_nothing_has_succeeded_yet(client: Client) -> None:
    for body in ({"rebellion_succeeded": True}, {"rebellion": [2, 3]}):
        result = scores(client, **TEAM, finished=[2], **body)
        assert result["final"] is False and result["multiplier"] == 1, body


def test_S_4_the_two_fields_must_agree(client: Client) -> None:
    # Two rebels declared and the rebels won: it succeeded, so `false` contradicts it.
    refused(
        client,
        422,
        "REBELLION_MISMATCH",
        "$.rebellion_succeeded",
        **TEAM,
        finished=REBELS_WON,
        rebellion=[2, 3],
        rebellion_succeeded=False,
    )
    # One declarer is no rebellion that can succeed.
    refused(
        client,
        422,
        "REBELLION_MISMATCH",
        "$.rebellion_succeeded",
        **TEAM,
        finished=REBELS_WON,
        rebellion=[2],
        rebellion_succeeded=True,
    )
    # Agreeing fields are fine either way.
    assert scores(client, **TEAM, finished=EMPEROR_WON, rebellion=[2, 3], rebellion_succeeded=False)
    assert scores(client, **TEAM, finished=REBELS_WON, rebellion=[2], rebellion_succeeded=False)


@pytest.mark.parametrize(
    ("rebellion", "index"), [([0, 2], 0), ([2, 1], 1), ([2, 2], 1), ([3, 4, 3], 2)]
)
def test_G_8_only_rebels_declare_and_each_once(
    client: Client, rebellion: list[int], index: int
) -> None:
    error = refused(
        client,
        422,
        "INVALID_REBELLION",
        f"$.rebellion[{index}]",
        **TEAM,
        finished=REBELS_WON,
        rebellion=rebellion,
    )
    assert error["rule"] == "G-8"


@pytest.mark.parametrize(
    "roles",
    [
        {"ruleset": "classic", "mode": "team", "emperor": 0, "guard": 1},
        {"ruleset": "lianzhong-classic", "mode": "team", "emperor": 0, "guard": 1},
        {"ruleset": SIMPLE, "mode": "solo_open", "emperor": 0},
        {"ruleset": SIMPLE, "mode": "grab", "emperor": 0},
    ],
)
def test_G_8_no_rebellion_where_there_is_none(client: Client, roles: dict[str, Any]) -> None:
    for field, value in (("rebellion", [2, 3]), ("rebellion_succeeded", True)):
        error = refused(
            client, 422, "NO_REBELLION", f"$.{field}", **roles, finished=[2], **{field: value}
        )
        assert error["rule"] == "G-8"
    assert scores(client, **roles, finished=[2], rebellion=[], rebellion_succeeded=False)


def test_S_6_rebellion_in_a_hidden_solo(client: Client) -> None:
    solo = {"ruleset": SIMPLE, "mode": "solo_hidden", "emperor": 0, "guard": 0}
    plain = scores(client, **solo, finished=[1, 2])  # the emperor is third or worse: rebels win
    assert plain["winner"] == "rebels" and plain["scores"] == [-12, 3, 3, 3, 3]
    doubled = scores(client, **solo, finished=[1, 2], rebellion=[1, 2])
    assert doubled == scores(client, **solo, finished=[1, 2], rebellion_succeeded=True)
    assert doubled["scores"] == [-24, 6, 6, 6, 6] and doubled["multiplier"] == 2
    error = refused(
        client,
        422,
        "REBELLION_MISMATCH",
        "$.rebellion_succeeded",
        **solo,
        finished=[0],
        rebellion_succeeded=True,
    )
    assert error["rule"] == "S-6"


def test_every_finishing_order_scores_the_flag_as_the_declared_rebellion(client: Client) -> None:
    """Wherever ``rebellion_succeeded: true`` is accepted it scores exactly as two declarers do;
    where it is refused, two declarers do not double anything."""
    for order in itertools.permutations(range(5), 3):
        finished = list(order)
        if scores(client, **TEAM, finished=finished[:2])["final"]:
            finished = finished[:2]
        declared = scores(client, **TEAM, finished=finished, rebellion=[3, 4])
        response = client.post(
            "/v1/scores", json={**TEAM, "finished": finished, "rebellion_succeeded": True}
        )
        if response.status_code == 200:
            assert response.json() == declared
        else:
            assert_problem(response, 422, "REBELLION_MISMATCH", "$.rebellion_succeeded")
            assert declared["multiplier"] == 1 and declared["winner"] != "rebels"


def test_a_snapshot_takes_no_roles_or_flags_beside_it(client: Client) -> None:
    snapshot = {
        "mode": "team",
        "emperor": 0,
        "guard": 3,
        "hands": [["7S"], ["8S"], ["9S"], ["TS"], ["JS"]],
        "turn": 0,
    }
    for field, value in (("rebellion_succeeded", True), ("guard_revealed", False)):
        refused(client, 400, "INVALID_FIELD", f"$.{field}", snapshot=snapshot, **{field: value})


def tribute(client: Client, previous: dict[str, Any], hands: list[list[str]]) -> Any:
    body = {"ruleset": "tribute", "previous": previous, "hands": hands}
    return client.post("/v1/tribute", json=body)


def test_T_9_the_previous_deal_of_a_tribute_follows_the_order_given(client: Client) -> None:
    """A grab (paid as 明独, two cards to each other, the earliest finisher taking the two
    highest, P-4 *(reading)*) that ended when seat 1 finished first: the rebels still holding
    cards take places 2–4 in the order the platform gives, and are paid in that order; the
    grabber is last, and listing him before a rebel is refused."""
    hands = client.post("/v1/deal", json={"ruleset": "tribute", "seed": 5, "dealer": 0}).json()
    grab = {"mode": "grab", "emperor": 3}
    document = assert_problem(
        tribute(client, {**grab, "finished": [1, 3, 0, 2, 4]}, hands["hands"]),
        422,
        "DEAL_OVER",
        "$.previous.finished[1]",
    )
    assert document["errors"][0]["rule"] == "T-9"

    def takers(finished: list[int]) -> list[int]:
        answer = tribute(client, {**grab, "finished": finished}, hands["hands"])
        assert answer.status_code == 200, answer.text
        transfers = answer.json()["transfers"]
        assert {transfer["from"] for transfer in transfers} == {3}
        return [transfer["to"] for transfer in transfers]  # highest card first

    assert takers([1]) == [1, 1, 2, 2, 4, 4, 0, 0]  # the convention: seat order after seat 1
    assert takers([1, 0, 4, 2, 3]) == [1, 1, 0, 0, 4, 4, 2, 2]  # the platform's ranking
    assert takers([1, 4]) == [1, 1, 4, 4, 0, 0, 2, 2]  # listed so far, then the convention
    assert_problem(
        tribute(
            client,
            {"mode": "team", "emperor": 0, "guard": None, "finished": [0, 1]},
            hands["hands"],
        ),
        422,
        "GUARD_REQUIRED",
        "$.previous.guard",
    )


@pytest.mark.parametrize("mode", list(MODES))
def test_T_9_a_tribute_follows_every_order_agreeing_with_t9(client: Client, mode: str) -> None:
    """P after T-9: under ``tribute`` (the one ruleset that pays it), every complete order the
    oracle accepts pays what the cut order's places pay, place by place (what the k-th place
    receives, and every payer's cards, are the same; who holds the k-th place is the order
    given); every other order is refused at the entry the oracle names."""
    hands = client.post("/v1/deal", json={"ruleset": "tribute", "seed": 11, "dealer": 0}).json()
    roles = {"ruleset": "tribute", **MODES[mode]}
    previous = {key: value for key, value in roles.items() if key != "ruleset"}
    emperor, guard = roles["emperor"], roles.get("guard")

    def by_place(order: list[int], answer: dict[str, Any]) -> tuple[Any, ...]:
        transfers = answer["transfers"]
        received = [sorted(t["card"] for t in transfers if t["to"] == seat) for seat in order]
        paid = [sorted(t["card"] for t in transfers if t["from"] == seat) for seat in range(5)]
        for seat in range(5):  # each hand is its old one, less what it paid, plus what it got
            held = Counter(hands["hands"][seat]) + Counter(received[order.index(seat)])
            assert Counter(answer["hands"][seat]) == held - Counter(paid[seat]), seat
        return received, paid

    ask = Asked(client)
    for permutation in itertools.permutations(range(5)):
        order = list(permutation)
        end = end_of(ask, roles, order)
        wrong = first_against_t9(order, end, finished_side(mode, emperor, guard, order[:end]))
        answer = tribute(client, {**previous, "finished": order}, hands["hands"])
        if wrong is not None:
            assert_problem(answer, 422, "DEAL_OVER", f"$.previous.finished[{wrong}]")
            continue
        assert answer.status_code == 200, answer.text
        cut = order[:end]
        placed = ask(**roles, finished=cut)["positions"]
        convention = sorted(range(5), key=lambda seat: placed[seat])
        expected = tribute(client, {**previous, "finished": cut}, hands["hands"]).json()
        assert by_place(order, answer.json()) == by_place(convention, expected), order
