"""Recipes for the refusals and the void reasons (docs/errors.md, "Refusals", "Void deals"): a
"no" about the game is a 200 verdict on the stateless routes — most sent through
``/v1/moves/replay`` from a seeded deal (``/v1/deal``), the moves before the refused one found
once by playing the engine's legal moves — and a 422 "Illegal move" on a live table."""

from __future__ import annotations

from typing import Any

import msgspec

from caller_support import bearer
from table_support import SMALL_BODY, near_end

from .code_recipes import Answer, Recipes, Senders, table
from .test_void_deals_api import decline_until_void, nobody_can_call

RECIPES = Recipes()
sends = RECIPES.sends

SOLO_BY_SEAT_2: list[dict[str, Any]] = [{"seat": 2, "action": "declare_solo"}]
"""Classic, seed 5: seat 2 takes the crown and plays alone, then leads."""
CALLED: list[dict[str, Any]] = [{"seat": 0, "action": "call", "card": "3C"}]
"""Classic, seed 0: the emperor (seat 0) calls 3C; the guard phase goes on."""


def _move(seat: int, action: str, **more: Any) -> dict[str, Any]:
    return {"seat": seat, "action": action, **more}


def _replayed(senders: Senders, ruleset: Any, seed: int, moves: list[dict[str, Any]]) -> Answer:
    """``moves`` replayed from the deal ``/v1/deal`` gives for ``ruleset`` and ``seed`` (seat 0
    deals); the last one is refused."""
    dealt = senders.client.post("/v1/deal", json={"ruleset": ruleset, "seed": seed, "dealer": 0})
    assert dealt.status_code == 200, dealt.text
    body = {"snapshot": dealt.json()["snapshot"], "moves": moves}
    replayed = senders.client.post("/v1/moves/replay", json=body)
    if replayed.status_code == 200 and replayed.json()["failed"] is not None:
        # the refused move is the last one, not a move of the way there
        assert replayed.json()["failed"]["index"] == len(moves) - 1, replayed.text
    return replayed


def _validate(senders: Senders, snapshot: dict[str, Any], move: dict[str, Any]) -> Answer:
    return senders.client.post("/v1/moves/validate", json={"snapshot": snapshot, "move": move})


def _compare(senders: Senders, previous: list[str], candidate: list[str], **more: Any) -> Answer:
    body = {"previous": previous, "candidate": candidate, **more}
    return senders.client.post("/v1/combos/compare", json=body)


# -- plays (C, N, K, B rules) --------------------------------------------------------------------


@sends("EMPTY_PLAY")
def a_play_holding_no_card(senders: Senders) -> list[Answer]:
    """A verdict (200), and as ``previous`` of a compare, 422."""
    return [
        senders.client.post("/v1/combos/classify", json={"cards": []}),
        _compare(senders, [], ["7S"]),
    ]


@sends("MIXED_RANKS")
def a_play_mixing_ranks(senders: Senders) -> list[Answer]:
    """A verdict (200), and as ``previous`` of a compare, 422."""
    return [
        senders.client.post("/v1/combos/classify", json={"cards": ["7S", "8S"]}),
        _compare(senders, ["7S", "8S"], ["9S"]),
    ]


@sends("SIZE_MISMATCH")
def not_as_many_cards_as_the_play_it_beats(senders: Senders) -> Answer:
    return _compare(senders, ["7S", "7H"], ["8S"])


@sends("NOT_HIGHER")
def a_card_that_beats_no_card_of_the_play_below(senders: Senders) -> Answer:
    return _compare(senders, ["9S"], ["8S"])


@sends("BIG_JOKER_UNBEATABLE")
def a_play_holding_a_big_joker_is_never_beaten(senders: Senders) -> Answer:
    return _compare(senders, ["BJ"], ["BJ"])


@sends("NO_COVER")
def cards_that_cannot_cover_the_play_below_under_kaopai(senders: Senders) -> Answer:
    lead = ["BJ*", "BJ", "SJ", "TS", "TS", "TH"]
    moves = [_move(1, "accept"), _move(1, "declare_solo"), _move(1, "play", cards=lead)]
    kaopai = {"base": "lianzhong-classic", "kaopai": True}
    return _replayed(senders, kaopai, 5, [*moves, _move(2, "play", cards=["BJ"])])


@sends("SIX_HELD_BACK")
def a_six_played_before_the_seats_final_play(senders: Senders) -> Answer:
    bie6 = {"base": "classic", "bie6": True}
    return _replayed(senders, bie6, 5, [*SOLO_BY_SEAT_2, _move(2, "play", cards=["6H"])])


# -- turns (T rules) -----------------------------------------------------------------------------


@sends("NOT_YOUR_TURN")
def another_seats_turn(senders: Senders) -> list[Answer]:
    """A verdict (200), and the same reason in a live table's 422."""
    move = _move(1, "pass")
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-turn")
    return [
        _validate(senders, SMALL_BODY, move),
        senders.client.post("/v1/tables/codes-turn/moves", json={"move": move, "version": 1}),
    ]


@sends("CARDS_NOT_IN_HAND")
def a_play_of_cards_the_seat_does_not_hold(senders: Senders) -> Answer:
    return _validate(senders, SMALL_BODY, _move(0, "play", cards=["8S"]))


@sends("LEADER_CANNOT_PASS")
def the_seat_leading_a_trick_passes(senders: Senders) -> Answer:
    return _validate(senders, SMALL_BODY, _move(0, "pass"))


@sends("YIELD_NOT_ALLOWED")
def a_yield_where_the_ruleset_has_none(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 5, [*SOLO_BY_SEAT_2, _move(2, "yield")])


@sends("JIEFENG_NOT_ALLOWED")
def jiefeng_not_on_a_final_play(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 5, [*SOLO_BY_SEAT_2, _move(2, "jiefeng")])


@sends("PLAYER_FINISHED")
def a_seat_that_has_finished_acts(senders: Senders) -> Answer:
    hands = [*SMALL_BODY["hands"][:4], []]
    finished = {**SMALL_BODY, "hands": hands, "finished": [4]}
    return _validate(senders, finished, _move(4, "pass"))


@sends("DEAL_OVER")
def a_move_after_the_deal_is_over(senders: Senders) -> Answer:
    over: dict[str, Any] = msgspec.to_builtins(near_end(3, 0))
    assert over["over"] is True
    return _validate(senders, over, _move(0, "pass"))


# -- before play (G rules) -----------------------------------------------------------------------


@sends("WRONG_PHASE")
def an_action_of_another_phase(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [_move(0, "pass")])


@sends("NOT_CROWN_HOLDER")
def a_seat_not_holding_the_crown_answers_it(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [_move(1, "accept")])


@sends("ACCEPT_BY_CALLING")
def accepting_the_crown_in_classic(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [_move(0, "accept")])


@sends("CANNOT_ACCEPT")
def accepting_without_three_of_one_card_to_call(senders: Senders) -> Answer:
    return _replayed(senders, "lianzhong-classic", 2, [_move(1, "accept")])


@sends("MUST_ACCEPT")
def declining_again_after_a_full_round(senders: Senders) -> Answer:
    declines = [_move(seat, "decline") for seat in (0, 4, 3, 2, 1, 0)]
    return _replayed(senders, "lianzhong-classic", 0, declines)


@sends("MUST_CALL")
def declining_when_the_seat_must_call(senders: Senders) -> Answer:
    return _replayed(senders, "tribute", 0, [_move(0, "accept"), _move(0, "decline")])


@sends("CANNOT_CALL")
def calling_a_card_the_emperor_holds_fewer_than_three_of(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [_move(0, "call", card="BJ")])


@sends("CALL_CARD_NOT_ALLOWED")
def calling_a_card_the_ruleset_does_not_let_be_called(senders: Senders) -> Answer:
    return _replayed(senders, "tribute", 0, [_move(0, "accept"), _move(0, "call", card="BJ")])


@sends("GRAB_NOT_ALLOWED")
def grabbing_where_there_is_no_grab(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [_move(0, "grab")])


@sends("SOLO_NOT_ALLOWED")
def a_solo_declared_by_a_seat_that_is_not_the_emperor(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [*CALLED, _move(1, "declare_solo")])


@sends("REVEAL_NOT_ALLOWED")
def a_reveal_by_a_seat_that_is_not_the_guard(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [*CALLED, _move(1, "reveal")])


@sends("REBEL_NOT_ALLOWED")
def a_rebellion_outside_lianzhong_simple(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [*CALLED, _move(1, "rebel")])


@sends("ACTION_NOT_AVAILABLE")
def a_call_at_a_step_that_takes_none(senders: Senders) -> Answer:
    return _replayed(senders, "classic", 0, [*CALLED, _move(1, "call", card="BJ")])


# -- a live table's own (422 only) ---------------------------------------------------------------


@sends("DEAL_NOT_OVER")
def the_next_deal_before_this_one_is_over(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-next")
    return senders.client.post("/v1/tables/codes-next/deals", json={"version": 1})


def _trustee(senders: Senders, tid: str, seat: int, on: bool, version: int) -> Answer:
    body = {"on": on, "version": version}
    return senders.client.post(f"/v1/tables/{tid}/seats/{seat}/trustee", json=body)


@sends("TRUSTEE_LOCKED")
def leaving_tuoguan_after_entering_it_four_times(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-locked")
    version = 1
    for on in (True, False, True, False, True, False, True):
        switched = _trustee(senders, "codes-locked", 2, on, version)
        assert switched.status_code == 200, switched.text
        version = switched.json()["version"]
    return _trustee(senders, "codes-locked", 2, False, version)


@sends("SEAT_LEFT")
def a_seat_that_left_the_table_leaves_tuoguan(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-left")
    left = senders.client.post("/v1/tables/codes-left/seats/2/leave", json={"version": 1})
    assert left.status_code == 200, left.text
    return _trustee(senders, "codes-left", 2, False, left.json()["version"])


COMMITTED = {"deal": {"ruleset": "classic", "dealer": 1, "entropy_seconds": 600}}
"""A table whose first deal the service commits to and deals once the seats added entropy."""


@sends("NOT_DEALT")
def a_move_before_the_committed_deal_is_dealt(senders: Senders) -> Answer:
    created = table(senders.client, COMMITTED, "codes-undealt")
    move = {"move": _move(1, "decline"), "version": created["version"]}
    return senders.client.post("/v1/tables/codes-undealt/moves", json=move)


@sends("ENTROPY_CLOSED")
def entropy_where_no_committed_deal_waits_for_it(senders: Senders) -> Answer:
    token = table(senders.client, {"snapshot": SMALL_BODY}, "codes-closed")["seat_tokens"][2]
    url = "/v1/tables/codes-closed/seats/2/entropy"
    return senders.client.post(url, json={"entropy": "beef"}, headers=bearer(token))


@sends("ENTROPY_ADDED")
def a_seat_adding_other_entropy_a_second_time(senders: Senders) -> Answer:
    token = table(senders.client, COMMITTED, "codes-added")["seat_tokens"][2]
    url = "/v1/tables/codes-added/seats/2/entropy"
    added = senders.client.post(url, json={"entropy": "beef"}, headers=bearer(token))
    assert added.status_code == 200, added.text
    return senders.client.post(url, json={"entropy": "beee"}, headers=bearer(token))


# -- void deals (S-10) ---------------------------------------------------------------------------


@sends("NO_EMPEROR")
def nobody_became_emperor(senders: Senders) -> Answer:
    void, _ = decline_until_void(senders.client, nobody_can_call("classic"))
    return senders.client.post("/v1/scores", json={"snapshot": void})


@sends("ALL_TRUSTEE")
def every_seat_in_tuoguan_when_the_deal_ended(senders: Senders) -> Answer:
    table(senders.client, {"snapshot": SMALL_BODY}, "codes-all-trustee")
    version = 1
    for seat in range(5):
        switched = _trustee(senders, "codes-all-trustee", seat, True, version)
        assert switched.status_code == 200, switched.text
        version = switched.json()["version"]
    return senders.client.get("/v1/tables/codes-all-trustee")
