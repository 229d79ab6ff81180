"""Request examples by ``(path template, method)``: each is a real request (see ``__init__``)."""

from __future__ import annotations

from .dealing import COMMITTED_DEAL, ENTROPY
from .positions import (
    DEAL_REQUEST,
    PLAY_JACKS,
    REPLAY_MOVES,
    SEAT_VIEW,
    SNAPSHOT,
    SUGGEST_HISTORY,
    TRIBUTE_REQUEST,
    Examples,
    one,
)

REQUESTS: dict[tuple[str, str], Examples] = {
    ("/v1/combos/classify", "post"): one(
        "A triple of 9s with a small joker", {"cards": ["SJ", "9S", "9H", "9C"]}
    ),
    ("/v1/combos/compare", "post"): one(
        "Two big jokers and three jacks over two small jokers and three 9s",
        {"previous": ["SJ", "SJ", "9S", "9H", "9C"], "candidate": ["BJ", "BJ", "JS", "JH", "JC"]},
    ),
    ("/v1/combos/compare-batch", "post"): one(
        "Three comparisons under classic rules",
        {
            "ruleset": "classic",
            "pairs": [
                {"previous": ["7S"], "candidate": ["8S"]},
                {"previous": ["7S", "7H"], "candidate": ["8S"]},
                {"previous": ["KS"], "candidate": ["QS"]},
            ],
        },
    ),
    ("/v1/kaopai/resolve", "post"): one(
        "A 烤牌 stack: 大王 covers 小王, two 大王 cover a 大王 (K-1, K-7)",
        {
            "ruleset": {"base": "lianzhong-classic", "kaopai": True},
            "plays": [
                ["SJ", "7S", "7H", "7C"],
                ["BJ", "8S", "8H", "8C"],
                ["BJ", "BJ", "9S", "9H", "9C"],
            ],
        },
    ),
    ("/v1/moves/validate", "post"): one(
        "The guard (seat 3) plays two jacks on a pair of 9s",
        {"snapshot": SNAPSHOT, "move": PLAY_JACKS},
    ),
    ("/v1/moves/legal", "post"): one("Seat 3 to act on a pair of 9s", {"snapshot": SNAPSHOT}),
    ("/v1/bots/suggest", "post"): one(
        "The guard, seat 3, on the rebel's pair of 9s",
        {"view": SEAT_VIEW, "history": SUGGEST_HISTORY, "level": "heuristic"},
    ),
    ("/v1/moves/auto", "post"): one("Seat 3 to act on a pair of 9s", {"snapshot": SNAPSHOT}),
    ("/v1/moves/replay", "post"): one(
        "Five moves, the last of which is illegal", {"snapshot": SNAPSHOT, "moves": REPLAY_MOVES}
    ),
    ("/v1/scores", "post"): {
        "finished": {
            "summary": "From roles and a finishing order: the emperor and the guard finish first and second",
            "value": {
                "ruleset": "classic",
                "mode": "team",
                "emperor": 0,
                "guard": 3,
                "guard_revealed": True,
                "rebellion_succeeded": False,
                "finished": [0, 3],
            },
        },
        "snapshot": {
            "summary": "From a snapshot: a deal in play has no final score yet",
            "value": {"snapshot": SNAPSHOT},
        },
    },
    ("/v1/deal", "post"): one("Deal from seed 20260101, seat 0 dealing", DEAL_REQUEST),
    ("/v1/tribute", "post"): one(
        "The rebels finished 1st and 2nd: the emperor and the guard pay tribute", TRIBUTE_REQUEST
    ),
    ("/v1/tables/{table_id}", "put"): {
        **one("A new table from a snapshot", {"snapshot": SNAPSHOT}),
        "committed": {
            "summary": "A new table whose first deal the service deals, committed",
            "value": {"deal": COMMITTED_DEAL},
        },
    },
    ("/v1/tables/{table_id}/seats/{seat}/entropy", "post"): one(
        "Seat 1 adds its entropy to the committed deal", {"entropy": ENTROPY}
    ),
    ("/v1/tables/{table_id}/seats/{seat}/trustee", "post"): one(
        "Seat 1 asks for 托管", {"on": True, "version": 2}
    ),
    ("/v1/tables/{table_id}/seats/{seat}/bot", "post"): one(
        "The platform seats a heuristic bot at seat 1", {"level": "heuristic", "version": 2}
    ),
    ("/v1/tables/{table_id}/seats/{seat}/leave", "post"): one(
        "Seat 1 leaves the table", {"version": 2}
    ),
    ("/v1/tables/{table_id}/clock", "post"): {
        "example": {
            "summary": "Start the clock once every seat is there, at version 2",
            "value": {"clock": {"turn_seconds": 30, "before_play_seconds": 20}, "version": 2},
        },
        "stop": {"summary": "Stop the clock (at the current version)", "value": {"clock": None}},
    },
    ("/v1/tables/{table_id}/deals", "post"): {
        **one("The next deal, from a seed", {"version": 41, "seed": 20260102}),
        "committed": {
            "summary": "The next deal, committed, the seats adding entropy for 20 s",
            "value": {"version": 41, "committed": True, "entropy_seconds": 20},
        },
    },
    ("/v1/tables/{table_id}/seats/{seat}/token", "post"): one(
        "A new token for seat 1, at version 2 (the body may be left out)", {"version": 2}
    ),
    ("/v1/tables/{table_id}/spectator-token", "post"): one(
        "A new spectator token, at version 2 (the body may be left out)", {"version": 2}
    ),
    ("/v1/tables/{table_id}/moves/check", "post"): one(
        "Would seat 3's two jacks be applied at version 1?", {"move": PLAY_JACKS, "version": 1}
    ),
    ("/v1/tables/{table_id}/moves", "post"): one(
        "Seat 3 plays against version 1", {"move": PLAY_JACKS, "version": 1}
    ),
}
