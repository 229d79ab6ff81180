"""Every code the service answers with, in one registry: docs/errors.md and ``/problems/…``.

A code is one of three kinds:

* ``problem``: a problem document (RFC 9457) for a request the referee cannot judge, or cannot
  serve now; its ``type`` is ``/problems/<slug>``, a page this service answers (``GET
  /problems/unknown-card``), so the URI dereferences as RFC 9457 asks;
* ``refusal``: the ``reason`` of a "no" about the game: a 200 verdict on the stateless routes,
  and on a live table a 422 problem document titled "Illegal move" that carries the same
  ``reason`` (and its code in ``errors[0].code``);
* ``void``: why a finished deal is not scored (``score.void``).

Adding a code is one line in :data:`CODES` and a recipe in tests/http/recipes_*.py that sends
it. ``baohuang errors > docs/errors.md`` regenerates the catalogue. The tests fail, naming the
code, when a code the source can send is missing here or the page is stale
(tests/http/test_problem_catalogue.py), and when the service answers a code otherwise than
registered here (tests/http/test_codes_sent.py).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Kind = Literal["problem", "refusal", "void"]

PROBLEMS_PATH = "/problems"


def slug(code: str) -> str:
    """``UNKNOWN_CARD`` → ``unknown-card``: the last segment of the code's ``type`` URI."""
    return code.lower().replace("_", "-")


def problem_type(code: str) -> str:
    """The ``type`` of a problem document with this code: a page of this service."""
    return f"{PROBLEMS_PATH}/{slug(code)}"


class Code(NamedTuple):
    """One registered code: what it is, the statuses it comes with, and what it means."""

    code: str
    kind: Kind
    statuses: tuple[int, ...]
    meaning: str


def _problem(code: str, status: int | tuple[int, ...], meaning: str) -> Code:
    return Code(code, "problem", status if isinstance(status, tuple) else (status,), meaning)


def _refusal(code: str, meaning: str, *, statuses: tuple[int, ...] = (200, 422)) -> Code:
    return Code(code, "refusal", statuses, meaning)


def _void(code: str, meaning: str) -> Code:
    return Code(code, "void", (200,), meaning)


_TABLE = (422,)  # refused by a live table only: no stateless route asks about it

CODES: tuple[Code, ...] = (
    # The request itself: its body, parameters and headers.
    _problem("INVALID_FIELD", 400, "A field or parameter has the wrong JSON type, is unknown, missing or out of range; `path` names it."),
    _problem("INVALID_JSON", 400, "The body is not JSON in UTF-8, or is nested more than 64 levels deep."),
    _problem("DUPLICATE_KEY", 400, "An object of the body names a key twice (`{\"version\": 1, \"version\": 2}`); `path` names the second."),
    _problem("BODY_TOO_LARGE", 413, "The body is over the 1 MiB limit."),
    _problem("UNSUPPORTED_MEDIA_TYPE", 415, "The body is sent as something other than JSON (`Content-Type`)."),
    _problem("REQUEST_TIMEOUT", 408, "The body did not arrive within `BAOHUANG_BODY_TIMEOUT_SECONDS`; the connection is closed."),
    _problem("NOT_FOUND", 404, "No route answers this path."),
    _problem("METHOD_NOT_ALLOWED", 405, "The route exists but not with this method."),
    _problem("HTTP_ERROR", (400, 500), "An error of the HTTP framework that has no code of its own: 400 for a request it cannot read (a `Host` header that names no host), 500 for a failure inside it; `detail` says what."),
    # Input the referee cannot judge (422 unless said otherwise).
    _problem("UNKNOWN_CARD", 422, "A card code that does not exist (D-3)."),
    _problem("TOO_MANY_COPIES", 422, "More copies of a card than the ruleset's decks hold (D-5)."),
    _problem("UNKNOWN_RULESET", (404, 422), "A ruleset name or option that does not exist (R); 404 from `GET /v1/rulesets/{name}`."),
    _problem("INVALID_SNAPSHOT", 422, "A snapshot that contradicts itself; `path` and `rule` say where and why."),
    _problem("INVALID_SEAT", 422, "A seat that is not 0–4 (T-1), in the body, the path or the query; `path` names it (a seat that is no integer is 400 `INVALID_FIELD`)."),
    _problem("INVALID_MODE", 422, "A mode that is not `team`, `solo_hidden`, `solo_open` or `grab` (G-1); `path` names it (a mode that is no string is 400 `INVALID_FIELD`)."),
    _problem("GUARD_REQUIRED", 422, "A team deal without a guard (G-1)."),
    _problem("GUARD_IS_EMPEROR", 422, "A team deal whose guard is the emperor (G-1)."),
    _problem("UNEXPECTED_GUARD", 422, "A solo or grab deal that names a guard (G-1)."),
    _problem("INVALID_FINISHED", 422, "A finishing order with a seat twice or more than five seats (T-7, T-8)."),
    _problem("INVALID_REBELLION", 422, "A 造反 declared by a seat that is no rebel, or twice (G-8)."),
    _problem("NO_REBELLION", 422, "A rebellion claimed where the ruleset and mode have none (G-8)."),
    _problem("REBELLION_MISMATCH", 422, "`rebellion_succeeded: true` although the finishing order says the rebels did not win (S-4, S-6)."),
    _problem("NO_TRIBUTE", 422, "Tribute asked for under a ruleset that has none (P)."),
    _problem("PREVIOUS_NOT_OVER", 422, "Tribute asked for after a deal whose score can still change (T-9)."),
    _problem("CANNOT_PAY_TRIBUTE", 422, "A seat holds fewer payable cards than its tribute (P-2)."),
    # Live tables.
    _problem("UNAUTHORIZED", 401, "A table route without a valid credential: no platform key where keys are set, or a token of another table or instance."),
    _problem("TOKEN_REVOKED", 401, "A seat or spectator token the platform replaced with a newer one (the seat changed hands); ask the platform for the new token."),
    _problem("FORBIDDEN", 403, "The credential may not do this: a seat token acting for another seat, a spectator writing, a token creating a table."),
    _problem("TABLE_NOT_FOUND", 404, "No table under this id (never created, deleted or expired)."),
    _problem("VERSION_CONFLICT", 409, "The move names a version (or instance) that is not the table's current one; `current_version` says which is."),
    _problem("DUPLICATE_SEAT", 422, "A table's `bots` name one seat twice."),
    _problem("NOT_TO_ACT", 422, "A bot was asked for a move by a seat that is not to act (T-1)."),
    _problem("INVALID_VIEW", 422, "A seat view given to a bot contradicts itself (card counts, hand, roles); `path` names the field."),
    _problem("INVALID_HISTORY", 422, "A bot's public history does not fit the view it comes with; `path` names the entry."),
    _problem("IDEMPOTENCY_KEY_REUSED", 422, "The `Idempotency-Key` was sent before with a different request."),
    _problem("WEBHOOKS_OFF", 422, "A table names a webhook on a service without `BAOHUANG_WEBHOOK_SECRET`."),
    _problem("SNAPSHOT_OR_DEAL", 422, "`PUT` a table with either a `snapshot` or a `deal` for the service to deal, not both, not neither."),
    _problem("SEED_AND_COMMITTED", 422, "The next deal is dealt from the platform's `seed` or committed by the service (docs/dealing.md), not both."),
    _problem("DEAL_NOT_KEPT", 404, "The table keeps no record of this deal: not played yet, or older than the `BAOHUANG_DEALS_KEPT` it keeps."),
    # The service.
    _problem("TOO_MANY_STREAMS", 429, "This credential, table or address holds as many open streams as a replica serves it; close one, or retry after `Retry-After` (`path` names the limit)."),
    _problem("WEBHOOK_URL_REFUSED", 422, "A webhook URL that may not be used: not http(s), with credentials or control characters, or naming an internal address."),
    _problem("TOO_MANY_SUGGESTIONS", 429, "This credential (or address) has as many search-level bot suggestions in flight as one caller may (`BAOHUANG_SUGGEST_PER_CALLER`); retry after `Retry-After`."),
    _problem("RATE_LIMITED", 429, "This credential (or address) spent its request budget, or this address its budget of failed authentications; retry after `Retry-After`."),
    _problem("INTERNAL_ERROR", 500, "The referee failed; the error is logged under the `instance` request id."),
    _problem("STORE_UNAVAILABLE", 503, "The live table store is unreachable; the outcome of a write is unknown, retry with the same `Idempotency-Key`."),
    _problem("OUTCOME_UNKNOWN", 503, "A write was not confirmed by enough Redis replicas in time; re-read the table before deciding."),
    _problem("OVERLOADED", 503, "This replica has more requests in flight than it serves; nothing was applied, retry after `Retry-After`."),
    # Refusals: a verdict's reason (C, N, K, B, T rules).
    _refusal("EMPTY_PLAY", "A play holds no card (C-1); as `previous` of a compare, 422."),
    _refusal("MIXED_RANKS", "A play mixes ranks (C-1); as `previous` of a compare, 422."),
    _refusal("SIZE_MISMATCH", "Not as many cards as the play it beats (N-1)."),
    _refusal("NOT_HIGHER", "Not every card beats a distinct card of the play below (N-2)."),
    _refusal("BIG_JOKER_UNBEATABLE", "A play holding a big joker is never beaten under normal rules (N-3)."),
    _refusal("NO_COVER", "The cards cannot cover the play below under 烤牌 (K-2)."),
    _refusal("SIX_HELD_BACK", "Sixes go out only in a seat's final play, all at once (B-1)."),
    _refusal("NOT_YOUR_TURN", "It is another seat's turn (T-1)."),
    _refusal("CARDS_NOT_IN_HAND", "The play uses cards the seat does not hold (T-3)."),
    _refusal("LEADER_CANNOT_PASS", "The seat leading a trick must play (T-3)."),
    _refusal("YIELD_NOT_ALLOWED", "让牌 outside the first circle, or where the ruleset has none (T-6)."),
    _refusal("JIEFENG_NOT_ALLOWED", "接风 by a seat other than the next one holding cards, or not on a final play (T-7)."),
    _refusal("PLAYER_FINISHED", "The seat has finished and never acts again (T-8)."),
    _refusal("DEAL_OVER", "The deal is over (T-9); in `/v1/scores` and `/v1/tribute`, a seat listed after the end before a seat of the side that finished is 422."),
    # Refusals before play (G rules).
    _refusal("WRONG_PHASE", "The action belongs to another phase of the deal (G-8)."),
    _refusal("NOT_CROWN_HOLDER", "Only the seat holding the crown answers it (G-5)."),
    _refusal("ACCEPT_BY_CALLING", "In classic the crown is taken by calling a card, not by `accept` (G-5)."),
    _refusal("CANNOT_ACCEPT", "Accepting the crown needs three of one card to call (G-2)."),
    _refusal("MUST_ACCEPT", "After a full round the holder must accept the crown (G-7)."),
    _refusal("MUST_CALL", "This seat must call a card now (G-5)."),
    _refusal("CANNOT_CALL", "The emperor calls a card of which he holds three or four (G-2)."),
    _refusal("CALL_CARD_NOT_ALLOWED", "This card cannot be called under the ruleset (G-2, G-3)."),
    _refusal("GRAB_NOT_ALLOWED", "No 抢庄 or 抢独 here (G-5, G-6, G-7)."),
    _refusal("SOLO_NOT_ALLOWED", "Only the emperor declares 明独, when he settles the guard (G-8)."),
    _refusal("REVEAL_NOT_ALLOWED", "Only the guard of a team deal reveals itself, before the first play (G-8)."),
    _refusal("REBEL_NOT_ALLOWED", "Only a rebel declares 造反, in lianzhong-simple, before the first play (G-8)."),
    _refusal("ACTION_NOT_AVAILABLE", "The action is not open to this seat at this step (G-8)."),
    # Refusals of a live table only.
    _refusal("DEAL_NOT_OVER", "The next deal starts only once this one is over (T-9).", statuses=_TABLE),
    _refusal("TRUSTEE_LOCKED", "A seat that entered 托管 more than three times in a deal may not leave it (T-11).", statuses=_TABLE),
    _refusal("SEAT_LEFT", "The seat left the table; 托管 plays for it (S-9).", statuses=_TABLE),
    _refusal("NOT_DEALT", "The cards of the table's committed deal are not dealt yet: the seats may add entropy until they are (G-4).", statuses=_TABLE),
    _refusal("ENTROPY_CLOSED", "No committed deal waits for entropy: its cards are dealt, or its window closed (G-4).", statuses=_TABLE),
    _refusal("ENTROPY_ADDED", "The seat added other entropy to this deal already: a seat adds once (G-4).", statuses=_TABLE),
    # Why a deal is void.
    _void("NO_EMPEROR", "Nobody became emperor: the deal is not scored and is dealt again (G-5, G-6, G-7)."),
    _void("ALL_TRUSTEE", "Every seat was in 托管 when the deal ended: the deal is not scored (T-11)."),
)  # fmt: skip

BY_CODE: dict[str, Code] = {entry.code: entry for entry in CODES}
BY_SLUG: dict[str, Code] = {slug(entry.code): entry for entry in CODES}
