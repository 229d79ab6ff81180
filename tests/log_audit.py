"""The audit after a failover drill: the final event log of each table, read back through the
API, against everything the service said on the way (docs/clients.md, docs/deploy.md):

* every acknowledged write (a 200, replays included) is in the final log exactly as answered,
  and no version was acknowledged for two different writes;
* the log is continuous: seqs 1, 2, 3 …, versions without a hole up to the table's version;
* every follower's history (after its resets) is the final log as its caller may see it, cut
  by the service's own :mod:`baohuang.tables.views`, from where the follower started;
* the webhook receiver stored every event of the final log its subscription asks for, and
  dropped no real event as a duplicate (a delivery id that named two different events).

The final log holds the current deal: a finished deal's events left it when the next deal
started, and the table keeps a compact record of it instead (docs/deploy.md "What a table
keeps"). Acknowledged writes of those deals are checked against the records (their moves, in
order), followers and the webhook against what the log still holds and the records' results.

Each check returns the list of what is wrong (empty: it holds), so one run reports everything.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import msgspec

from baohuang.engine import DealOverEvent, Event, MoveEvent
from baohuang.tables.deals import KeptDeal, plain
from baohuang.tables.views import cut_event
from followers import Follower
from retrying_client import Ledger, RetryingClient
from webhook_receivers import WebhookReceiver


@dataclass(frozen=True)
class FinalLog:
    table: str
    instance: str
    version: int
    events: list[dict[str, Any]]
    records: tuple[KeptDeal, ...] = ()
    """The finished deals the table keeps, whose events are no longer in ``events``."""

    @property
    def first_seq(self) -> int:
        """The seq of the log's first event (after 1: finished deals' events left it)."""
        return int(self.events[0]["seq"]) if self.events else 1

    @property
    def first_version(self) -> int:
        """The first version of the current deal: the writes before it are the records'. The
        log may still hold the tail of the last finished deal, from the webhook's cursor on
        (the log is never trimmed past what the webhook delivered: docs/deploy.md "What a
        table keeps"), down to part of one write's events."""
        recorded = self.records[-1].seqs[1] if self.records else 0
        current = [e for e in self.events if int(e["seq"]) > recorded]
        return int(current[0]["version"]) if current else self.version + 1


def _canonical(event: dict[str, Any] | Event) -> str:
    """One spelling of an event, whichever way it came (a wire dict or a struct)."""
    if isinstance(event, dict):
        event = msgspec.convert(event, Event)
    return json.dumps(msgspec.to_builtins(event), sort_keys=True, separators=(",", ":"))


async def read_log(
    reader: RetryingClient, table: str, headers: dict[str, str], page: int = 1000
) -> FinalLog:
    """The whole log of ``table`` as the platform sees it, page by page."""
    events: list[dict[str, Any]] = []
    after = "0"
    for _ in range(10_000):  # bounded: a drill's tables hold a few thousand events
        response = await reader.read(
            f"/v1/tables/{table}/events?after={quote(after)}&limit={page}", headers
        )
        if response.status_code != 200:
            raise AssertionError(f"{table}: events page {response.status_code} {response.text}")
        answer = response.json()
        if answer.get("reset"):  # reading on from an event of this very log: never
            raise AssertionError(f"{table}: the platform's own page after {after} was a reset")
        events.extend(answer["events"])
        if not answer["events"] or answer["events"][-1]["seq"] >= answer["last_seq"]:
            return FinalLog(table, answer["instance"], answer["version"], events)
        last = answer["events"][-1]
        after = str(last.get("id", last["seq"]))  # an event's id where events carry one
    raise AssertionError(f"{table}: the log never ended")


def audit_acknowledged(ledger: Ledger, logs: dict[str, FinalLog]) -> list[str]:
    wrong: list[str] = []
    claims: dict[tuple[str, int], set[str]] = defaultdict(set)
    for ack in ledger.acknowledged:
        claims[(ack.table, ack.version)].add(json.dumps([_canonical(e) for e in ack.events]))
    for (table, version), states in sorted(claims.items()):
        if len(states) > 1:
            wrong.append(f"{table} v{version} acknowledged for {len(states)} different writes")
    by_version: dict[tuple[str, int], list[str]] = defaultdict(list)
    for log in logs.values():
        for event in log.events:
            by_version[(log.table, int(event["version"]))].append(_canonical(event))
    first_version = {log.table: log.first_version for log in logs.values()}
    for ack in ledger.acknowledged:
        if ack.version < first_version.get(ack.table, 0):
            continue  # a finished deal's write: audit_recorded checks it
        logged = by_version.get((ack.table, ack.version), [])
        answered = [_canonical(e) for e in ack.events]
        if logged != answered:
            how = "replayed" if ack.replayed else "fresh"
            after = " after OUTCOME_UNKNOWN" if ack.unknown_before else ""
            wrong.append(
                f"{ack.table} v{ack.version} acknowledged ({how}{after}, {ack.attempts} attempts) "
                f"is not in the final log as answered: lost"
            )
    return wrong


def audit_recorded(ledger: Ledger, logs: dict[str, FinalLog]) -> list[str]:
    """Every acknowledged move of a finished deal is in the records the table keeps, in order
    (the records keep each move, not its version: the acknowledged moves, by version, must be
    among the recorded ones in the same order; a lost one is not)."""
    wrong: list[str] = []
    for log in logs.values():
        if not log.events:
            continue
        first_version = log.first_version
        acked = sorted(
            (ack for ack in ledger.acknowledged if ack.table == log.table),
            key=lambda ack: ack.version,
        )
        moves = [
            _canonical(plain(msgspec.convert(event, Event)))
            for ack in acked
            if ack.version < first_version
            for event in ack.events
            if event.get("type") == "move"
        ]
        recorded = iter(
            _canonical(event)
            for record in log.records
            for event in record.events
            if isinstance(event, MoveEvent)
        )
        earliest = log.records[0].deal if log.records else None
        if moves and earliest != 1:
            wrong.append(f"{log.table}: the records start at deal {earliest}, not deal 1")
            continue
        missing = [move for move in moves if not any(move == kept for kept in recorded)]
        if missing:
            wrong.append(
                f"{log.table}: {len(missing)} acknowledged moves of finished deals are not in "
                f"their records (first {missing[0][:160]}): lost"
            )
    return wrong


def audit_continuity(log: FinalLog) -> list[str]:
    seqs = [int(e["seq"]) for e in log.events]
    start = log.first_seq
    if seqs != list(range(start, start + len(seqs))):
        gaps = [b for a, b in zip([start - 1, *seqs], seqs, strict=False) if b != a + 1]
        return [f"{log.table}: seqs not {start}, {start + 1} …: breaks at {gaps[:5]}"]
    if log.records and log.records[-1].seqs[1] + 1 < start:
        return [f"{log.table}: the log starts past the last finished deal's record: a gap"]
    versions = [int(e["version"]) for e in log.events]
    if any(b < a for a, b in itertools.pairwise(versions)):
        return [f"{log.table}: versions go backwards in the log"]
    present = set(versions)
    opening = start == 1 and min(present, default=0) > 2  # the log from the table's creation
    if present and (present != set(range(min(present), log.version + 1)) or opening):
        missing = sorted(set(range(1, log.version + 1)) - present)
        return [
            f"{log.table}: versions missing from the log: {missing[:10]} (table v{log.version})"
        ]
    return []


def audit_records(log: FinalLog) -> list[str]:
    """The finished deals' records the table keeps: consecutive deals, each record's seqs
    following the one before's without a gap, and the log going on from the last (it may still
    hold that deal's tail for the webhook: :attr:`FinalLog.first_version`)."""
    wrong = []
    deals = [record.deal for record in log.records]
    if deals and deals != list(range(deals[0], deals[0] + len(deals))):
        wrong.append(f"{log.table}: the records' deals are not consecutive: {deals}")
    for earlier, later in itertools.pairwise(log.records):
        if earlier.seqs[1] + 1 != later.seqs[0]:
            wrong.append(
                f"{log.table}: deal {later.deal}'s record starts at seq {later.seqs[0]}, "
                f"deal {earlier.deal}'s ended at {earlier.seqs[1]}"
            )
    if log.records and log.events and log.first_seq > log.records[-1].seqs[1] + 1:
        wrong.append(f"{log.table}: the log starts at {log.first_seq}, after a gap")
    return wrong


def visible(log: FinalLog, follower: Follower) -> list[str]:
    """The final log as the follower's caller may see it, from where its history starts (or
    the log's, when the follower started in a finished deal whose events left the log)."""
    shown = []
    for event in log.events:
        if int(event["seq"]) <= follower.start_seq:
            continue
        cut = cut_event(msgspec.convert(event, Event), follower.caller)
        if cut is not None:
            shown.append(_canonical(cut))
    return shown


def audit_follower(follower: Follower, log: FinalLog) -> list[str]:
    wrong = [f"{follower.name}: {error}" for error in follower.errors if "gave up" in error]
    if follower.opening is None:
        return [*wrong, f"{follower.name}: never opened"]
    expected = visible(log, follower)
    got = [_canonical(e) for e in _held(follower, log)]
    if got != expected:
        first = next(
            (n for n, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b),
            min(len(got), len(expected)),
        )
        wrong.append(
            f"{follower.name}: diverged from the log at its event {first} (got {len(got)}, log "
            f"{len(expected)} after seq {follower.start_seq}; resets {follower.resets}, "
            f"reconnects {follower.reconnects}, errors {follower.errors[-3:]}): "
            f"got {got[first][:160] if first < len(got) else 'nothing'}, log has "
            f"{expected[first][:160] if first < len(expected) else 'nothing'}"
        )
    return wrong


def audit_webhook(
    receiver: WebhookReceiver, logs: Iterable[FinalLog], subscribed: frozenset[str]
) -> list[str]:
    wrong: list[str] = []
    stored = {
        (body["table"], body["instance"], _canonical(body["event"]))
        for body in receiver.kept.values()
    }
    dropped = {
        (body["table"], body["instance"], _canonical(body["event"])) for body in receiver.dropped
    }
    results = {
        (body["table"], body["instance"], json.dumps(body["event"].get("result"), sort_keys=True))
        for body in receiver.kept.values()
        if body["event"]["type"] == "deal_over"
    }
    for log in logs:
        for event in log.events:
            if event["type"] not in subscribed:
                continue
            key = (log.table, log.instance, _canonical(event))
            if key in stored:
                continue
            why = "dropped as a duplicate" if key in dropped else "never delivered"
            wrong.append(f"{log.table} seq {event['seq']} ({event['type']}): {why}")
        for record in log.records if "deal_over" in subscribed else ():
            over = [e.result for e in record.events if isinstance(e, DealOverEvent)]
            result = json.dumps(msgspec.to_builtins(over[-1]) if over else None, sort_keys=True)
            if (log.table, log.instance, result) not in results:
                wrong.append(f"{log.table} deal {record.deal}'s deal_over: never delivered")
    if receiver.bad_signatures:
        wrong.append(f"{receiver.bad_signatures} deliveries with a bad signature")
    return wrong


def caught_up(follower: Follower, expected: list[str], log: FinalLog | None = None) -> bool:
    """Whether ``follower`` holds the final log as its caller sees it: as many events and the
    same last one (a count alone would take a follower that still waits for its reset, holding
    a rolled-back event in place of the log's, for one that has caught up)."""
    if follower.closed is not None:
        return True
    if len(_held(follower, log)) != len(expected):
        return False
    return not expected or _canonical(follower.history[-1]) == expected[-1]


def _held(follower: Follower, log: FinalLog | None) -> list[dict[str, Any]]:
    """The follower's history that the final log can still be compared with: from the log's
    first event on (earlier ones were a finished deal's, whose events left the log)."""
    if log is None or not log.records:
        return follower.history
    return [event for event in follower.history if int(event["seq"]) >= log.first_seq]


async def wait_caught_up(
    followers: list[Follower], logs: dict[str, FinalLog], timeout: float
) -> None:
    """Bounded: a follower that never catches up is reported by :func:`audit_follower`. (A
    reset may take until the service's next read of the log: its feed polls every few seconds
    when a change notification was lost in the failover.)"""
    expected: dict[tuple[str, int], list[str]] = {}  # by follower and where its history starts
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        waiting = 0
        for follower in followers:
            key = (follower.name, follower.start_seq)
            if key not in expected:
                expected[key] = visible(logs[follower.table], follower)
            waiting += not caught_up(follower, expected[key], logs[follower.table])
        if not waiting:
            return
        await asyncio.sleep(0.2)


def delivered(
    receiver: WebhookReceiver, logs: Iterable[FinalLog], subscribed: frozenset[str]
) -> bool:
    return not audit_webhook(receiver, logs, subscribed)
