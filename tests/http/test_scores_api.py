"""``/v1/scores`` from roles and a finishing order: where the deal ends (T-9) and 造反 (S-4, S-6).

``finished`` lists the seats in finishing order: up to the deal's end (T-9), or on past it with
each seat where T-9 puts it, which is scored the same; a seat listed after the end where T-9
does not put it is refused. 造反 has one meaning whichever field carries it:
it succeeded when two or more rebels declared it and the rebels' side won (S-4, S-6), and only then
doubles the score. ``rebellion`` gives the declarers and the service decides; ``rebellion_succeeded``
states the outcome, and is refused where the finishing order contradicts it.
"""

from __future__ import annotations

import itertools
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


def t9_order(mode: str, emperor: int, prefix: list[int]) -> list[int]:
    """The oracle, from T-9 as docs/rules.md reads it: after the deal's end the seats still
    holding cards take the remaining positions in seat order from the seat after the last
    finisher, an unfinished emperor of a solo or grab deal last."""
    start = prefix[-1] + 1
    rest = [(start + i) % 5 for i in range(5) if (start + i) % 5 not in prefix]
    if mode != "team" and emperor in rest:
        rest = [seat for seat in rest if seat != emperor] + [emperor]
    return prefix + rest


def test_T_9_a_complete_ranking_answers_like_its_prefix(client: Client) -> None:
    """A platform keeping a full ranking: seat 0 is listed fifth, where T-9 puts it anyway once
    4, 3, 1, 2 finished."""
    roles = {"ruleset": "classic", "mode": "team", "emperor": 1, "guard": 0}
    complete = scores(client, **roles, finished=[4, 3, 1, 2, 0])
    assert complete == scores(client, **roles, finished=[4, 3, 1, 2])
    assert complete["final"] is True and complete["positions"] == [5, 3, 4, 2, 1]


@pytest.mark.parametrize(
    ("roles", "finished", "index", "position"),
    [
        # team: the emperor's side has finished; T-9 puts seat 4 third, not seat 1
        ({"mode": "team", "emperor": 0, "guard": 3}, [0, 3, 1, 2], 2, 4),
        # S-8 grab: over at the first finisher, and the unfinished emperor is last
        ({"mode": "grab", "emperor": 3}, [1, 3], 1, 5),
        # S-5 (lianzhong 明独): over at the first finisher, seat 0 comes fourth
        ({"ruleset": "lianzhong-classic", "mode": "solo_open", "emperor": 2}, [2, 0], 1, 4),
        # S-6 (lianzhong 暗独): over once two others have finished; the emperor is last
        ({"ruleset": "lianzhong-classic", "mode": "solo_hidden", "emperor": 2}, [0, 1, 2], 2, 5),
    ],
)
def test_T_9_a_seat_listed_after_the_end_where_t9_does_not_put_it_is_422(
    client: Client, roles: dict[str, Any], finished: list[int], index: int, position: int
) -> None:
    error = refused(client, 422, "DEAL_OVER", f"$.finished[{index}]", **roles, finished=finished)
    assert error["rule"] == "T-9"
    assert f"seat {finished[index]} is listed in position {index + 1}" in error["message"]
    assert f"in position {position}:" in error["message"]
    # Up to the end the same order is scored.
    assert scores(client, **roles, finished=finished[:index])["final"] is True


@pytest.mark.parametrize(
    ("finished", "status", "code", "path"),
    [
        ([0, 3, 0], 422, "INVALID_FINISHED", "$.finished[2]"),
        ([4, 3, 1, 2, 0, 1], 400, "INVALID_FIELD", "$.finished"),  # more than five
        ([0, 7], 400, "INVALID_FIELD", "$.finished[1]"),  # the schema's seat: 0–4
    ],
)
def test_T_9_a_seat_twice_or_out_of_range_is_refused_at_its_entry(
    client: Client, finished: list[int], status: int, code: str, path: str
) -> None:
    refused(client, status, code, path, mode="team", emperor=0, guard=3, finished=finished)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("mode", list(MODES))
def test_T_9_every_order_agreeing_with_the_end_is_scored_like_its_prefix(
    client: Client, ruleset: str, mode: str
) -> None:
    """Every complete order of five, for every ruleset and mode: the prefix up to the deal's
    end is scored; the complete order, and every order between the two, answers the same when
    the seats after the end stand where T-9 puts them, and is refused at the first one that
    does not otherwise."""
    roles = {"ruleset": ruleset, **MODES[mode]}
    emperor = roles["emperor"]
    for order in itertools.permutations(range(5)):
        end = next(
            k for k in range(1, 6) if scores(client, **roles, finished=list(order[:k]))["final"]
        )
        prefix = list(order[:end])
        expected = scores(client, **roles, finished=prefix)
        agreeing = t9_order(mode, emperor, prefix)
        assert [agreeing.index(s) + 1 for s in range(5)] == expected["positions"]
        if list(order) == agreeing:
            for cut in range(end + 1, 6):
                assert scores(client, **roles, finished=agreeing[:cut]) == expected
        else:
            wrong = next(i for i in range(end, 5) if order[i] != agreeing[i])
            refused(client, 422, "DEAL_OVER", f"$.finished[{wrong}]", **roles, finished=list(order))


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


def test_T_9_the_previous_deal_of_a_tribute_agrees_with_its_end_too(client: Client) -> None:
    hands = client.post("/v1/deal", json={"ruleset": "tribute", "seed": 5, "dealer": 0}).json()
    previous = {"mode": "team", "emperor": 0, "guard": 1, "finished": [2, 3, 4, 1, 0]}
    body = {"ruleset": "tribute", "previous": previous, "hands": hands["hands"]}
    document = assert_problem(
        client.post("/v1/tribute", json=body), 422, "DEAL_OVER", "$.previous.finished[3]"
    )
    assert document["errors"][0]["rule"] == "T-9"
    body["previous"] = {**previous, "finished": [2, 3, 4]}
    cut = client.post("/v1/tribute", json=body)
    assert cut.status_code == 200
    body["previous"] = {**previous, "finished": [2, 3, 4, 0, 1]}
    assert client.post("/v1/tribute", json=body).json() == cut.json()
    body["previous"] = {**previous, "guard": None}
    assert_problem(client.post("/v1/tribute", json=body), 422, "GUARD_REQUIRED", "$.previous.guard")


@pytest.mark.parametrize("mode", list(MODES))
def test_T_9_a_tribute_from_a_complete_order_is_the_tribute_from_its_prefix(
    client: Client, mode: str
) -> None:
    """P after T-9: under ``tribute`` (the one ruleset that pays it), every complete order that
    agrees with the deal's end pays what its prefix pays; one that does not is refused."""
    hands = client.post("/v1/deal", json={"ruleset": "tribute", "seed": 11, "dealer": 0}).json()
    roles = {"ruleset": "tribute", **MODES[mode]}
    previous = {key: value for key, value in roles.items() if key != "ruleset"}
    for order in itertools.permutations(range(5)):
        end = next(
            k for k in range(1, 6) if scores(client, **roles, finished=list(order[:k]))["final"]
        )
        prefix = list(order[:end])
        agreeing = t9_order(mode, roles["emperor"], prefix)

        def tribute(finished: list[int]) -> Any:
            body = {
                "ruleset": "tribute",
                "previous": {**previous, "finished": finished},
                "hands": hands["hands"],
            }
            return client.post("/v1/tribute", json=body)

        expected = tribute(prefix)
        assert expected.status_code == 200, expected.text
        assert tribute(agreeing).json() == expected.json()
        if list(order) != agreeing:
            wrong = next(i for i in range(end, 5) if order[i] != agreeing[i])
            assert_problem(tribute(list(order)), 422, "DEAL_OVER", f"$.previous.finished[{wrong}]")
