"""The table's own rules around the deal: clocks, 托管, leaving, deal results, the next deal.

Pure functions over a :class:`~.record.TableRecord` and the time ``now`` (seconds since the Unix
epoch, given by the caller so that tests control it): each returns the new record and the events
of the change, or raises ``MoveRefused`` with the reason. The table service writes the result in
one compare-and-set, like any move.

- T-10/T-11: a seat in 托管 is played at once whenever its turn comes (:func:`settle`); a seat
  whose deadline passed enters 托管 and is played (:func:`time_out`); a seat may ask for 托管
  and leave it again, unless it entered more than three times this deal (:func:`set_trustee`).
  One write plays at most :data:`PLAYOUT_MOVES` 托管 moves: where more are to come (every seat
  to act in 托管, as when the last seat times out), the table is left due at once
  (:func:`playing_out`) and the clock's next write goes on from there, so a deal played out by
  托管 takes several writes, each with its own version, rather than one (T-11's reading).
- S-9: a seat that leaves is charged 40 under ``lianzhong-*`` once the first play was made, and
  plays on under 托管 (:func:`leave`).
- S-10, T-11: a finished deal's result — void, and why, when every seat was in 托管 at its end —
  is added to the totals (:func:`settle`).
- G-4, P: the next deal is dealt from the previous emperor's seat, with tribute under
  ``tribute`` (:func:`next_deal`).
- G-4, committed dealing (docs/dealing.md): a deal the service deals from a seed it commits to
  (:func:`open_committed`, :func:`next_deal`) waits, in phase ``deal``, for the seats' entropy
  (:func:`add_entropy`) until every seat that can add has added or the window ``closes``
  (:func:`time_out`); :func:`settle` then deals it, and reveals the seed once it is over.
- Bots (docs/clients.md "Bots"): a bot seat's turn gets a deadline ``bot_delay`` away and, when
  it falls due, the clock plays the bot's move through the same write as a timeout
  (:func:`time_out`); a seat in 托管 is played by ``trustee_level`` instead of T-10 where the
  platform chose one. A bot sees only its seat's view (:mod:`baohuang.bots`).

This module is the face the table service calls; its parts live beside it: committed dealing in
:mod:`.committing`, dealing a deal with its tribute in :mod:`.deal_start`, the table's deadline
in :mod:`.deadlines`, a finished deal's result in :mod:`.results`, what a bot seat is handed in
:mod:`.bot_turns`.
"""

from __future__ import annotations

import secrets
from typing import Final, Literal

from msgspec.structs import replace

from ..bots import Level
from ..engine import (
    SEATS,
    ClockEvent,
    DealtEvent,
    Event,
    LeftEvent,
    Move,
    MoveEvent,
    MoveRefused,
    PlayedEvent,
    PreviousDeal,
    Reason,
    RulesetField,
    Snapshot,
    TrusteeCause,
    TrusteeEvent,
    apply_move,
    auto_move,
    deal,
    ruleset_of,
    undealt_snapshot,
)
from . import committing
from .bot_turns import BotTurn, bot_due, bot_move, bot_turn
from .committing import DEFAULT_ENTROPY_SECONDS, ENTROPY_ADDED, ENTROPY_CLOSED, SEAT_LEFT
from .deadlines import PLAYOUT_PACE, playing_out, restart_clock, timed
from .deal_start import start
from .record import Clock, Dealing, SeatState, TableRecord, TableState
from .results import record_result

Change = tuple[TableRecord, list[Event]]

LEAVE_PENALTY: Final = 40
"""S-9: 强行退出 … 将被扣去40分."""
TRUSTEE_LIMIT: Final = 3
"""T-11: a seat that entered 托管 more than this often in a deal may not leave it."""
MAX_AUTOMATIC: Final = 1000
"""More 托管 moves than a whole deal has: ``settle(limit=MAX_AUTOMATIC)`` plays a deal out in one
write (the tests' oracle for the play-out spread over writes)."""
PLAYOUT_MOVES: Final = 128
"""At most this many 托管 moves in one write (T-11's reading): a deal played out by 托管 (~550
moves, ~1,250 events) is spread over writes of this many, so no write holds the process for the
whole deal and the clock can put fresh timeouts and other tables' moves first."""
TIMEOUT_MOVES: Final = SEATS
"""At most this many 托管 moves in a timeout's write: the seat timed out and the seats in 托管
after it, up to a seat that plays itself (as many as there are seats); where every seat is then
in 托管, the play-out goes on in writes of its own, so that a timeout costs about the same
whether or not it is a table's last (the clock applies timeouts before play-outs)."""

DEAL_NOT_OVER = Reason(
    "DEAL_NOT_OVER", "T-9", "the deal is still being played; the next deal starts once it is over"
)
TRUSTEE_LOCKED = Reason(
    "TRUSTEE_LOCKED",
    "T-11",
    "this seat entered 托管 more than three times this deal and may not leave it "
    "(托管超过三次的，系统不再允许取消托管)",
)


def open_table(
    snapshot: Snapshot,
    clock: Clock | None,
    now: float,
    *,
    seed: int | None = None,
    bots: dict[int, Level] | None = None,
    trustee_level: Level | None = None,
    bot_delay: float = 1.0,
) -> Change:
    """A new table instance around ``snapshot`` (its first deal), ``bots`` seated by seat."""
    seats = [SeatState(bot=(bots or {}).get(seat)) for seat in range(SEATS)]
    state = TableState(clock=clock, seats=seats, trustee_level=trustee_level, bot_delay=bot_delay)
    record = TableRecord(snapshot=snapshot, table=state, seed=seed)
    dealt = DealtEvent(deal=1, seed=seed, snapshot=snapshot, chosen_by="platform")
    return settle(record, [dealt], now)


def open_committed(
    ruleset: RulesetField,
    dealer: int,
    seconds: int,
    clock: Clock | None,
    now: float,
    *,
    bots: dict[int, Level] | None = None,
    trustee_level: Level | None = None,
    bot_delay: float = 1.0,
    secret: str | None = None,
) -> Change:
    """A new table instance whose first deal the service deals from ``dealer``, committed
    (docs/dealing.md): the seats may add entropy for ``seconds``. ``secret``: the seed (hex), a
    fresh random one when ``None``."""
    seats = [SeatState(bot=(bots or {}).get(seat)) for seat in range(SEATS)]
    state = TableState(
        clock=clock, seats=seats, trustee_level=trustee_level, bot_delay=bot_delay, dealer=dealer
    )
    record = TableRecord(snapshot=undealt_snapshot(ruleset, dealer), table=state)
    return settle(*_committed(record, seconds, now, secret), now)


def _committed(record: TableRecord, seconds: int, now: float, secret: str | None) -> Change:
    committed, event = committing.commit(record, seconds, now, secret)
    return committed, [event]


def add_entropy(record: TableRecord, seat: int, entropy: str, now: float) -> Change:
    """``seat`` adds its ``entropy`` (hex) to the committed deal waiting for it
    (:func:`.committing.add`); the deal is dealt once every seat has added."""
    added, events = committing.add(record, seat, entropy, now)
    return settle(added, events, now) if events else (added, events)


def set_bot(record: TableRecord, seat: int, level: Level | None, now: float) -> Change:
    """The platform seats a bot of ``level`` at ``seat`` (``None``: a person plays it again)."""
    state = record.table.seats[seat]
    if state.bot == level:
        return record, []
    table = _with_seat(record.table, seat, replace(state, bot=level))
    # A quiet write keeps the deadline: clear it so the clock starts for whoever plays now.
    return settle(replace(record, table=replace(table, deadline=None)), [], now, restart=True)


def play(record: TableRecord, move: Move, now: float) -> Change:
    """A seat's own move (any phase), then whatever 托管 plays after it."""
    snapshot, events = apply_move(record.snapshot, move)
    return settle(
        replace(record, snapshot=snapshot), [MoveEvent(move=move, by="seat"), *events], now
    )


def time_out(record: TableRecord, now: float, bot: Move | None = None) -> Change | None:
    """T-11 超时: the seat to act ran out of time: it enters 托管 and is played (T-10).
    ``None`` when no deadline has passed. A bot seat's delay ran out instead: it plays ``bot``,
    the move its bot chose for it (:func:`bot_due`), or chooses one now."""
    deadline = record.table.deadline
    if deadline is None or deadline > now or record.snapshot.over:
        return None
    if record.snapshot.phase == "deal":
        return settle(record, [], now)  # the window for entropy closed: the deal is dealt
    seat = record.snapshot.turn
    if record.table.seats[seat].trustee:
        # A play-out left for this write (every seat to act is in 托管): it goes on, keeping
        # the deadline it has been due since, so that the clock takes the play-outs that fell
        # due first, first, and each ends in turn.
        return settle(record, [], now, due_since=deadline)
    level = record.table.seats[seat].bot
    if level is not None:
        # A bot seat's deadline is its delay: the bot moves now, as the seat itself would.
        move = bot if bot is not None else bot_move(record.snapshot, level)
        snapshot, events = apply_move(record.snapshot, move)
        return settle(
            replace(record, snapshot=snapshot), [MoveEvent(move=move, by="bot"), *events], now
        )
    table, events = _enter(record.table, seat, "timeout")
    return settle(replace(record, table=table), events, now, limit=TIMEOUT_MOVES)


def set_trustee(record: TableRecord, seat: int, on: bool, now: float) -> Change:
    """T-11: ``seat`` asks to enter or leave 托管."""
    state = record.table.seats[seat]
    if on == state.trustee:
        return record, []
    if on:
        table, events = _enter(record.table, seat, "request")
    else:
        if state.left:
            raise MoveRefused(SEAT_LEFT)
        if state.entered > TRUSTEE_LIMIT:
            raise MoveRefused(TRUSTEE_LOCKED)
        table = _with_seat(record.table, seat, replace(state, trustee=False))
        events = [TrusteeEvent(seat=seat, on=False, count=state.entered)]
        if seat == record.snapshot.turn and not record.snapshot.over:
            # Between two writes of a play-out: the seat takes its turn back, with a fresh
            # clock (the deadline was the play-out's).
            return settle(replace(record, table=table), events, now, restart=True)
    return settle(replace(record, table=table), events, now)


def leave(record: TableRecord, seat: int, now: float) -> Change:
    """S-9: ``seat`` leaves; under ``lianzhong-*``, after the first play, it is charged 40; it
    plays on under 托管 (T-11)."""
    table = record.table
    if table.seats[seat].left:
        return record, []
    charged = ruleset_of(record.snapshot.ruleset).base.startswith("lianzhong") and table.played
    penalty = LEAVE_PENALTY if charged and not record.snapshot.over else 0
    events: list[Event] = [LeftEvent(seat=seat, penalty=-penalty)]
    if not table.seats[seat].trustee:
        table, entered = _enter(table, seat, "leave")
        events += entered
    table = _with_seat(table, seat, replace(table.seats[seat], left=True))
    table = replace(
        table,
        charges=_add(table.charges, seat, -penalty),
        penalties=_add(table.penalties, seat, -penalty),
    )
    return settle(replace(record, table=table), events, now)


def set_clock(record: TableRecord, clock: Clock | None, now: float) -> Change:
    """T-11: set, change or stop the table's clock. The seat to act gets a fresh deadline from
    now (none in 托管 or once the deal is over); ``None`` stops the clock and its deadline."""
    before = record.table.deadline
    table = replace(record.table, clock=clock, deadline=None)
    table, events = restart_clock(table, record.snapshot, [], now, True)
    if before is not None and table.deadline is None:
        events = [ClockEvent(seat=None, deadline=None)]
    return replace(record, table=table), events


def next_deal(
    record: TableRecord,
    seed: int | None,
    now: float,
    *,
    results_kept: int | None = None,
    committed: bool | None = None,
    seconds: int | None = None,
    secret: str | None = None,
) -> Change:
    """The next deal at the table (G-4): dealt from the previous emperor's seat, with tribute
    (P) under ``tribute`` from the previous deal's result. Seats that left stay in 托管.
    ``results_kept``: the table keeps the results of that many finished deals (the newest;
    ``None``: all); the totals go on adding every deal up.

    Dealt from ``seed`` (SplitMix64) where one is given; else ``committed`` (by default, as the
    deal before was) from a seed the service commits to, the seats adding entropy for
    ``seconds`` (default: as long as the deal before gave them); else from a seed the service
    draws."""
    previous, table = record.snapshot, record.table
    if not previous.over:
        raise MoveRefused(DEAL_NOT_OVER)
    ruleset = ruleset_of(previous.ruleset)
    # (reading) a void deal has no emperor to deal next: its own dealer deals again, or, for a
    # snapshot the platform gave, the seat the crown was first offered to.
    if not previous.void:
        dealer = previous.emperor
    elif table.dealer is not None:
        dealer = table.dealer
    else:
        dealer = previous.crown.first if previous.crown is not None else previous.emperor
    basis = None
    if ruleset.tribute and not previous.void:
        basis = PreviousDeal(
            mode=previous.mode,
            emperor=previous.emperor,
            finished=list(previous.finished),
            guard=previous.guard,
        )
    seats = [
        SeatState(trustee=True, entered=1, left=True, bot=s.bot) if s.left else SeatState(bot=s.bot)
        for s in table.seats
    ]
    number = table.deal + 1
    table = replace(
        table,
        deal=number,
        dealer=dealer,
        deadline=None,
        seats=seats,
        charges=[0] * len(seats),
        played=False,
        results=table.results if results_kept is None else table.results[-results_kept:],
    )
    record = replace(record, table=table, previous=basis, secret=None)
    if committed is None:
        committed = seed is None and record.table.dealing.method == "committed"
    if committed:
        waiting = undealt_snapshot(previous.ruleset, dealer)
        if seconds is None:
            seconds = table.dealing.seconds
        window = DEFAULT_ENTROPY_SECONDS if seconds is None else seconds
        return settle(*_committed(replace(record, snapshot=waiting), window, now, secret), now)
    chosen_by: Literal["platform", "service"] = "service" if seed is None else "platform"
    seed = secrets.randbits(64) if seed is None else seed % (1 << 64)
    dealing = Dealing(method="seed", chosen_by=chosen_by)
    record = replace(record, table=replace(table, dealing=dealing))
    started = start(record, deal(ruleset, seed, dealer), seed=seed, chosen_by=chosen_by)
    return settle(*started, now)


def settle(
    record: TableRecord,
    events: list[Event],
    now: float,
    *,
    restart: bool = False,
    limit: int | None = None,
    due_since: float | None = None,
) -> Change:
    """After any change: 托管 plays every turn that falls to it (T-11), up to ``limit`` moves
    (:data:`PLAYOUT_MOVES` unless given; the rest in later writes: :func:`playing_out`), a
    finished deal's result is recorded (S, S-9, S-10, T-11), and the clock starts for the seat
    to act (``restart``: even after a write without moves; ``due_since``: the deadline of the
    play-out this write goes on with, kept while it is not over)."""
    if record.snapshot.phase == "deal":  # a committed deal waits for the seats' entropy
        if not committing.may_deal(record, now):
            table = replace(record.table, deadline=record.table.dealing.closes)
            return replace(record, table=table), events
        record, dealt = committing.deal(record)
        events = [*events, *dealt]
    snapshot, table = record.snapshot, record.table
    events = list(events)  # appended to in place: a deal played out by 托管 makes ~1,000 events
    for _ in range(PLAYOUT_MOVES if limit is None else limit):
        if snapshot.over or not table.seats[snapshot.turn].trustee:
            break
        level = table.trustee_level
        # 托管 by a level plays the heuristic: a search here would hold the write for seconds
        # per move, and 托管 may play the rest of a deal in one write.
        move = auto_move(snapshot) if level is None else bot_move(snapshot, "heuristic")
        snapshot, played = apply_move(snapshot, move)
        events.append(MoveEvent(move=move, by="trustee"))
        events.extend(played)
    if not table.played and any(isinstance(event, PlayedEvent) for event in events):
        table = replace(table, played=True)
    if snapshot.over and (not table.results or table.results[-1].deal < table.deal):
        snapshot, table, events = record_result(snapshot, table, events)
        if table.dealing.method == "committed" and record.secret is not None:
            table, events = committing.reveal(table, events, record.secret)
    table, events = restart_clock(table, snapshot, events, now, restart, due_since)
    return replace(record, snapshot=snapshot, table=table), events


def _enter(table: TableState, seat: int, cause: TrusteeCause) -> tuple[TableState, list[Event]]:
    state = table.seats[seat]
    entered = replace(state, trustee=True, entered=state.entered + 1)
    event = TrusteeEvent(seat=seat, on=True, count=entered.entered, cause=cause)
    return _with_seat(table, seat, entered), [event]


def _with_seat(table: TableState, seat: int, state: SeatState) -> TableState:
    seats = list(table.seats)
    seats[seat] = state
    return replace(table, seats=seats)


def _add(values: list[int], seat: int, amount: int) -> list[int]:
    return [value + amount if s == seat else value for s, value in enumerate(values)]


__all__ = [
    "DEAL_NOT_OVER",
    "DEFAULT_ENTROPY_SECONDS",
    "ENTROPY_ADDED",
    "ENTROPY_CLOSED",
    "PLAYOUT_MOVES",
    "PLAYOUT_PACE",
    "SEAT_LEFT",
    "TIMEOUT_MOVES",
    "TRUSTEE_LOCKED",
    "BotTurn",
    "Change",
    "add_entropy",
    "bot_due",
    "bot_move",
    "bot_turn",
    "leave",
    "next_deal",
    "open_committed",
    "open_table",
    "play",
    "playing_out",
    "set_bot",
    "set_clock",
    "set_trustee",
    "settle",
    "time_out",
    "timed",
]
