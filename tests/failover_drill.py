"""The failover drill, shared by the suite (tests/http/test_failover_drill.py) and the
bench (bench/drill_bench.py): live tables played through two real ``baohuang serve``
processes on a replicated Redis while its primaries are killed, then audited (:mod:`log_audit`).

* Two service processes (:class:`live_server.ProcessServer`) on the same Redis, with
  ``REDIS_WAIT_REPLICAS`` (1 unless told otherwise; every replica under Sentinel).
* Each table is played by a :class:`retrying_client.RetryingClient` with legal moves (the
  engine's ``legal_moves``), every move retried with its ``Idempotency-Key`` on every 503 and
  timeout until a definite answer; a finished deal is followed by the next (``/deals``). The
  first :data:`ENDING` tables start :data:`MOVES_LEFT` moves before the end of their deal and
  hold the move that ends it until the faults begin, and the last fault waits for their next
  deals (a drill of one fault, after it): a deal ends, its record is kept, the log is trimmed
  and the next deal starts while primaries are killed.
* Each table has five :class:`followers.Follower`: the platform and a seat over SSE, the
  spectator and another seat over NDJSON, a third seat polling the events page, spread over
  both processes, open from the first move to the audit.
* Each table's webhook goes to one :class:`webhook_receivers.WebhookReceiver`.
* Faults (:class:`Fault`): a plain ``kill -9`` of a primary, and a ``kill -9`` of a primary
  whose replicas' links were cut first (``CONFIG SET masterauth bogus`` on each replica,
  ``CLIENT KILL TYPE replica`` on the primary) and kept cut until writes went unconfirmed
  (503 ``OUTCOME_UNKNOWN``) and their retries had a chance to be answered. The killed node
  comes back empty as a replica, as an operator or Kubernetes would bring it back.

:class:`DrillReport` holds the figures (moves acknowledged, replayed, lost; followers reset;
deals ended during the faults; how long tables could not move per failover) and every violation
found: the audit of :mod:`log_audit`, and the service's own audit of each table's finished
deals' records and its trimmed log (``GET /v1/tables/{id}/audit``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import random
import re
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec

from baohuang.engine import Snapshot, apply_move, deal, legal_moves, opening_snapshot, ruleset_of
from baohuang.http.settings import Settings
from baohuang.store import open_store
from baohuang.tables.callers import PLATFORM, Caller
from baohuang.tables.deals import decode_deal
from baohuang.tables.webhooks import LEASE_SECONDS
from followers import Follower
from live_server import ProcessServer
from log_audit import (
    FinalLog,
    audit_acknowledged,
    audit_continuity,
    audit_follower,
    audit_recorded,
    audit_records,
    audit_webhook,
    read_log,
    wait_caught_up,
)
from redis_server import RedisServer
from redis_topologies import SERVICE, ClusterSetup, SentinelSetup, admin
from retrying_client import Ledger, RetryingClient
from table_support import near_end
from webhook_receivers import LOOPBACK_ENVIRONMENT, WebhookReceiver

KEY = "drill-platform-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
SECRET = "drill-webhook-secret"
SUBSCRIBED = frozenset({"played", "trick_won", "deal_over", "deal_started"})
"""The webhook's events: frequent ones, so that a rollback re-issues seqs that were delivered."""
RECOVERY_TIMEOUT = 60.0
"""Every table must move again this soon after a kill (a 3+3 cluster waits for its node)."""
UNCONFIRMED_SECONDS = 1.5
"""How long the replicas stay cut off after the first unconfirmed write: time for retries."""
ENDING = 2
"""Tables whose first deal ends during the faults (the first ones)."""
MOVES_LEFT = 12
"""How far from the end of their deal those tables start."""


_RAISED = re.compile(r"^\w+(Error|Exception): ")
"""The last line of a logged traceback: what was raised."""


def table_key(table: str) -> str:
    """The Redis key of a table's record (its hash tag decides its Cluster slot)."""
    return f"baohuang:table:{{{table}}}"


@dataclass
class FaultRecord:
    name: str
    started_at: float
    """When the fault began (the cut, or the kill)."""
    killed_at: float = 0.0
    promoted_after: float = 0.0
    replica_back_after: float = 0.0
    unconfirmed_before_kill: int = 0
    affected: frozenset[str] = frozenset()
    """The tables whose primary was killed."""
    blocked: dict[str, float] = field(default_factory=dict)
    """Per table: the longest time without an acknowledged move around the kill."""

    def worst(self, affected: bool) -> tuple[float, float]:
        """The longest and the median time blocked of the tables on the killed primary (or of
        the others)."""
        times = [t for table, t in self.blocked.items() if (table in self.affected) == affected]
        return (max(times), statistics.median(times)) if times else (0.0, 0.0)

    def describe(self) -> str:
        (worst, median), (others, _) = self.worst(True), self.worst(False)
        rest = (
            f", other tables max {others:.1f} s" if len(self.affected) < len(self.blocked) else ""
        )
        return (
            f"{self.name}: promoted after {self.promoted_after:.1f} s, replica back after "
            f"{self.replica_back_after:.1f} s, its tables blocked max {worst:.1f} s (median "
            f"{median:.1f} s){rest}, {self.unconfirmed_before_kill} unconfirmed before the kill"
        )


Fault = Callable[["Drill"], Awaitable[FaultRecord]]


@dataclass
class DrillReport:
    topology: str
    acknowledged: int
    replayed: int
    replayed_after_unknown: int
    lost: int
    followers: int
    followers_reset: int
    followers_diverged: int
    webhook_kept: int
    webhook_dropped_real: int
    deals_during_faults: int
    """Next deals dealt (acknowledged) between the start of the first fault and the recovery
    from the last: each ended a deal, kept its record and trimmed the log under faults."""
    deals_kept: int
    """Finished deals' records the tables keep at the end."""
    faults: list[FaultRecord]
    statuses: dict[str, int]
    violations: list[str]
    log_errors: list[str]

    def summary(self) -> str:
        faults = "; ".join(fault.describe() for fault in self.faults)
        return (
            f"{self.topology}: {self.acknowledged} writes acknowledged ({self.replayed} replayed, "
            f"{self.replayed_after_unknown} of them after OUTCOME_UNKNOWN), {self.lost} lost; "
            f"{self.followers} followers, {self.followers_reset} reset, "
            f"{self.followers_diverged} diverged; webhook {self.webhook_kept} kept, "
            f"{self.webhook_dropped_real} real events dropped as duplicates; "
            f"{self.deals_during_faults} deals dealt during the faults, {self.deals_kept} "
            f"finished deals' records kept; {faults}; "
            f"answers {self.statuses}; {len(self.log_errors)} ERROR lines logged"
        )


class Drill:
    """One run: ``environment`` points the services at the Redis setup."""

    def __init__(self, environment: dict[str, str], tables: list[str]) -> None:
        self.environment = {
            "BAOHUANG_API_KEYS": KEY,
            "BAOHUANG_TOKEN_SECRET": "drill-token-secret",
            "BAOHUANG_WEBHOOK_SECRET": SECRET,
            "BAOHUANG_STREAM_HEARTBEAT_SECONDS": "2",
            "BAOHUANG_ACCESS_LOG": "off",
            "LOG_FORMAT": "text",
            "LOG_LEVEL": "WARNING",
            "REDIS_WAIT_REPLICAS": "1",
            **LOOPBACK_ENVIRONMENT,  # the drill's webhook receiver listens on 127.0.0.1
            **environment,
        }
        self.tables = tables
        self.ledger = Ledger()
        self.unexpected: list[str] = []
        self.stop = asyncio.Event()
        self.followers: list[Follower] = []
        self._logs = Path(tempfile.mkdtemp(prefix="baohuang-drill-"))
        self.servers = [
            ProcessServer(self.environment, log=self._logs / f"serve-{n}.log") for n in range(2)
        ]
        self.receiver = WebhookReceiver("ok", secret=SECRET, fail_first=3)
        self.faulting = asyncio.Event()
        """Set when the first fault begins: the ending tables may end their deals."""
        self.dealt: list[float] = []
        """When each next deal was acknowledged (monotonic)."""
        self.faults_window = (0.0, 0.0)

    @property
    def urls(self) -> list[str]:
        return [server.url for server in self.servers]

    async def _create(self, client: RetryingClient, table: str, n: int) -> dict[str, Any]:
        if n < ENDING:
            snapshot = near_end(1900 + n, MOVES_LEFT)
        else:
            snapshot = opening_snapshot("classic", deal(ruleset_of("classic"), 1900 + n, n % 5))
        body = {
            "snapshot": msgspec.to_builtins(snapshot),
            "webhook": {"url": self.receiver.url, "events": sorted(SUBSCRIBED)},
        }
        response = await client.client.put(
            f"{self.urls[0]}/v1/tables/{table}", json=body, headers=AUTH
        )
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def _follow(self, table: str, n: int, created: dict[str, Any]) -> list[Follower]:
        a, b = self.urls
        seat, other, third = n % 5, (n + 2) % 5, (n + 4) % 5
        tokens = created["seat_tokens"]

        def bearer(token: str) -> dict[str, str]:
            return {"Authorization": f"Bearer {token}"}

        spectator = Caller("spectator")
        return [
            Follower(f"{table}/platform/sse", PLATFORM, AUTH, a, table, "sse"),
            Follower(f"{table}/seat{seat}/sse", Caller("seat", seat), bearer(tokens[seat]), b, table, "sse"),
            Follower(f"{table}/spectator/ndjson", spectator, bearer(created["spectator_token"]), a, table, "ndjson"),
            Follower(f"{table}/seat{other}/ndjson", Caller("seat", other), bearer(tokens[other]), b, table, "ndjson"),
            Follower(f"{table}/seat{third}/poll", Caller("seat", third), bearer(tokens[third]), (a, b)[n % 2], table, "poll"),
        ]  # fmt: skip

    async def _reread(self, client: RetryingClient, table: str) -> tuple[int, Any]:
        response = await client.read(f"/v1/tables/{table}", AUTH)
        if response.status_code != 200:
            raise RuntimeError(f"{table}: read {response.status_code} {response.text[:200]}")
        answer = response.json()
        return int(answer["version"]), answer["view"]

    async def _play(
        self, client: RetryingClient, table: str, created: dict[str, Any], ending: bool
    ) -> None:
        """Legal moves, and the next deal after each; with ``ending``, the move that ends the
        first deal waits for the faults."""
        rng = random.Random(table)
        version, view = int(created["version"]), created["snapshot"]
        for _ in range(100_000):  # bounded; ends when told to stop
            if self.stop.is_set():
                return
            snapshot = msgspec.convert(view, Snapshot)
            moves = legal_moves(snapshot)
            if moves:
                chosen = rng.choice(moves)
                if ending and not self.faulting.is_set() and apply_move(snapshot, chosen)[0].over:
                    await _first(self.faulting, self.stop)
                    continue
                move = msgspec.to_builtins(chosen)
                path, body, idempotent = (
                    f"/v1/tables/{table}/moves",
                    {"move": move, "version": version},
                    True,
                )
            else:  # the deal is over: the platform deals the next one at the same table
                path, body, idempotent = f"/v1/tables/{table}/deals", {"version": version}, False
            response = await client.write(table, path, body, AUTH, idempotent=idempotent)
            status = response.status_code
            if status == 200:
                answer = response.json()
                if path.endswith("/deals"):
                    self.dealt.append(time.monotonic())
                if answer["version"] != version + 1:
                    self.unexpected.append(
                        f"{table}: a write on v{version} answered v{answer['version']}"
                    )
                if not answer.get("replayed"):
                    version, view = int(answer["version"]), answer["view"]
                    continue
            elif status not in (409, 503):
                self.unexpected.append(f"{table}: {path} answered {status} {response.text[:200]}")
            version, view = await self._reread(client, table)  # what the table holds now

    def _blocked(self, fault: FaultRecord, until: float) -> None:
        """Per table, the longest gap between two acknowledged writes that ends after the kill
        and before ``until`` (the next fault): not just the gap across the kill, which a write
        confirmed before the kill but answered after it would shorten to nothing."""
        for table, times in self.ledger.ack_times.items():
            gaps = [
                later - earlier
                for earlier, later in itertools.pairwise(times)
                if fault.killed_at < later <= until
            ]
            if gaps:
                fault.blocked[table] = max(gaps)

    async def wait_all_moved_since(self, since: float, timeout: float = RECOVERY_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(
                any(t > since for t in self.ledger.ack_times.get(table, []))
                for table in self.tables
            ):
                return
            await asyncio.sleep(0.1)
        stuck = [
            t for t in self.tables if not any(x > since for x in self.ledger.ack_times.get(t, []))
        ]
        self.unexpected.append(f"no recovery within {timeout:g} s for {stuck}")

    async def wait_dealt(self, count: int, timeout: float = RECOVERY_TIMEOUT) -> None:
        """Wait (bounded) until ``count`` next deals were dealt."""
        deadline = time.monotonic() + timeout
        while len(self.dealt) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        if len(self.dealt) < count:
            self.unexpected.append(f"only {len(self.dealt)} next deals within {timeout:g} s")

    async def wait_unconfirmed(self, before: int, timeout: float = 5.0) -> int:
        """Wait (bounded) until a write went unconfirmed after ``before`` were counted, then
        ``UNCONFIRMED_SECONDS`` more for retries; how many went unconfirmed meanwhile."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._unknown() <= before:
            await asyncio.sleep(0.02)
        await asyncio.sleep(UNCONFIRMED_SECONDS)
        return self._unknown() - before

    def _unknown(self) -> int:
        return self.ledger.statuses["503 OUTCOME_UNKNOWN"] + sum(
            count for label, count in self.ledger.statuses.items() if label.startswith("no answer")
        )

    async def run(self, topology: str, faults: list[Fault], settle: float = 3.0) -> DrillReport:
        records: list[FaultRecord] = []
        logs: dict[str, FinalLog] = {}
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(self.receiver)
            for server in self.servers:
                await stack.enter_async_context(server)
            http = await stack.enter_async_context(httpx.AsyncClient(timeout=httpx.Timeout(10.0)))
            streams = await stack.enter_async_context(httpx.AsyncClient())
            tasks: list[asyncio.Task[None]] = []
            stack.push_async_callback(_cancel, tasks)  # before the clients close, on any exit
            client = RetryingClient(http, self.urls, self.ledger)
            created = {t: await self._create(client, t, n) for n, t in enumerate(self.tables)}
            for n, table in enumerate(self.tables):
                self.followers.extend(self._follow(table, n, created[table]))
            following = [asyncio.create_task(f.run(streams)) for f in self.followers]
            tasks.extend(following)
            async with asyncio.timeout(20):
                while any(f.opening is None for f in self.followers):
                    await asyncio.sleep(0.05)
            players = [
                asyncio.create_task(
                    self._play(
                        RetryingClient(http, self.urls, self.ledger), t, created[t], n < ENDING
                    )
                )
                for n, t in enumerate(self.tables)
            ]
            tasks.extend(players)
            try:
                await self.wait_all_moved_since(0.0)
                await asyncio.sleep(settle)
                began = time.monotonic()
                self.faulting.set()
                for number, fault in enumerate(faults):
                    if number:  # the ending tables' next deals before the last faults
                        await self.wait_dealt(min(ENDING, len(self.tables)))
                    record = await fault(self)
                    await self.wait_all_moved_since(record.killed_at)
                    records.append(record)
                # with one fault: their deals ended under it, the next ones dealt on recovery
                await self.wait_dealt(min(ENDING, len(self.tables)))
                self.faults_window = (began, time.monotonic())
                await asyncio.sleep(settle)
            finally:
                self.stop.set()
                for outcome in await asyncio.gather(*players, return_exceptions=True):
                    if isinstance(outcome, BaseException):
                        self.unexpected.append(f"a player failed: {outcome!r}")
            for table in self.tables:
                logs[table] = await self._with_records(await read_log(client, table, AUTH))
                self.unexpected += await _audited(client, table)
            await wait_caught_up(self.followers, logs, timeout=20)
            for follower in self.followers:
                follower.stop.set()
            await asyncio.gather(*following, return_exceptions=True)
            # A delivery claimed by a killed process lapses only with its lease, then retries
            # with backoff: the wait outlasts the lease by a margin, so only a delivery that
            # never comes fails (a wait of exactly the lease raced the lapse).
            deadline = time.monotonic() + LEASE_SECONDS + 15
            while (
                audit_webhook(self.receiver, logs.values(), SUBSCRIBED)
                and time.monotonic() < deadline
            ):
                await asyncio.sleep(0.2)
            for table in {
                w.split()[0] for w in audit_webhook(self.receiver, logs.values(), SUBSCRIBED)
            }:
                self.unexpected.append(await self._webhook_state(table))
        for record, later in itertools.zip_longest(records, records[1:]):
            self._blocked(record, later.started_at if later else time.monotonic())
        return self._report(topology, records, logs)

    async def _webhook_state(self, table: str) -> str:
        """Where a table's webhook stands, for a report of an event it never delivered."""
        store = open_store(Settings.from_env(self.environment).redis_config())
        try:
            cursor = await store.hook_cursor(table)
            backoff = await store.hook_backoff(table)
            page = await store.read_events(table, 0, 1)
            now = time.time()  # claimed as of an hour ahead, for an hour less: due as it was
            due = await store.due(now + 3600, 1000, -3600.0, index="webhooks")
        finally:
            await store.close()
        last = None if page is None else (page.last_seq, page.trimmed, page.recorded)
        return (
            f"{table}: webhook cursor {cursor}, backoff {backoff}, log (last, trimmed, recorded) "
            f"{last}, in the webhook index: {table in due}"
        )

    async def _with_records(self, log: FinalLog) -> FinalLog:
        """The final log with the records of the finished deals the table keeps, read from the
        store as the service reads them (its settings, its key prefix)."""
        store = open_store(Settings.from_env(self.environment).redis_config())
        try:
            page = await store.read_events(log.table, 0, 1, with_deals=True)
        finally:
            await store.close()
        if page is None or page.instance != log.instance or not page.deals:
            return log
        return dataclasses.replace(log, records=tuple(decode_deal(data) for data in page.deals))

    def _report(
        self, topology: str, records: list[FaultRecord], logs: dict[str, FinalLog]
    ) -> DrillReport:
        acked = audit_acknowledged(self.ledger, logs) + audit_recorded(self.ledger, logs)
        continuity = [wrong for log in logs.values() for wrong in audit_continuity(log)]
        followers = {f.name: audit_follower(f, logs[f.table]) for f in self.followers}
        webhook = audit_webhook(self.receiver, logs.values(), SUBSCRIBED)
        errors = [
            line
            for path in sorted(self._logs.glob("serve-*.log"))
            for line in path.read_text(errors="replace").splitlines()
            if "ERROR" in line or _RAISED.match(line)
        ]
        return DrillReport(
            topology=topology,
            acknowledged=len(self.ledger.acknowledged),
            replayed=self.ledger.replayed,
            replayed_after_unknown=sum(
                1 for a in self.ledger.acknowledged if a.replayed and a.unknown_before
            ),
            lost=sum(1 for wrong in acked if wrong.endswith("lost")),
            followers=len(self.followers),
            followers_reset=sum(1 for f in self.followers if f.resets),
            followers_diverged=sum(1 for wrong in followers.values() if wrong),
            webhook_kept=len(self.receiver.kept),
            webhook_dropped_real=sum(1 for wrong in webhook if "dropped as a duplicate" in wrong),
            deals_during_faults=sum(
                1 for at in self.dealt if self.faults_window[0] <= at <= self.faults_window[1]
            ),
            deals_kept=sum(len(log.records) for log in logs.values()),
            faults=records,
            statuses=dict(self.ledger.statuses),
            violations=[
                *self.unexpected,
                *acked,
                *continuity,
                *(wrong for log in logs.values() for wrong in audit_records(log)),
                *(w for wrong in followers.values() for w in wrong),
                *webhook,
            ],
            log_errors=errors,
        )


async def _first(*events: asyncio.Event) -> None:
    """Return when any of ``events`` is set."""
    waits = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


async def _audited(client: RetryingClient, table: str) -> list[str]:
    """The service's own audit of the table (``GET /v1/tables/{id}/audit``): its finished
    deals' records and its log, replayed by the rules, as of one version."""
    response = await client.read(f"/v1/tables/{table}/audit", AUTH)
    if response.status_code != 200:
        return [f"{table}: audit answered {response.status_code} {response.text[:200]}"]
    report = response.json()
    if not report["valid"]:
        return [f"{table}: the table's audit failed: {report.get('failure')}"]
    return []


async def _cancel(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def ask(server: RedisServer, *command: Any) -> Any:
    client = admin(server)
    try:
        return client.execute_command(*command)  # type: ignore[no-untyped-call]
    finally:
        client.close()


def cut_links(primary: RedisServer, replicas: list[RedisServer]) -> None:
    """The replicas can no longer sync (their AUTH fails), and their links drop now: whatever
    the primary takes from here reaches no replica."""
    for replica in replicas:
        ask(replica, "CONFIG", "SET", "masterauth", "bogus")
    ask(primary, "CLIENT", "KILL", "TYPE", "replica")


def mend_links(replicas: list[RedisServer]) -> None:
    for replica in replicas:
        with contextlib.suppress(Exception):  # it may be the new primary already: harmless
            ask(replica, "CONFIG", "SET", "masterauth", "")


def _roles(nodes: list[RedisServer]) -> list[bytes]:
    return [ask(node, "ROLE")[0] for node in nodes]


def _settled(
    pick: Callable[[], tuple[RedisServer, list[RedisServer]]], timeout: float
) -> tuple[RedisServer, list[RedisServer]]:
    """The primary and its replicas once they say so themselves: on two busy cores, with
    failure detection at ~1 s, the setup can fail over on its own, or still be settling from
    the last fault, and the drill must not cut and kill the wrong node."""
    deadline = time.monotonic() + timeout
    seen: list[bytes] = []
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):  # a node answering mid-change: look again
            primary, replicas = pick()
            seen = _roles([primary, *replicas])
            if replicas and seen == [b"master", *[b"slave"] * len(replicas)]:
                return primary, replicas
        time.sleep(0.2)
    raise RuntimeError(f"no settled primary and replicas within {timeout:g} s: roles {seen}")


async def _kill(
    drill: Drill,
    pick: Callable[[], tuple[RedisServer, list[RedisServer]]],
    cut: bool,
    recover: Callable[[RedisServer, RedisServer], None],
    affected: Callable[[RedisServer], frozenset[str]],
) -> FaultRecord:
    """Kill ``primary`` (first cutting ``replicas`` off until writes go unconfirmed, with
    ``cut``); ``recover(promoted)`` waits for the setup to settle and brings the node back."""
    primary, replicas = await asyncio.to_thread(_settled, pick, RECOVERY_TIMEOUT)
    record = FaultRecord("cut, then kill -9" if cut else "kill -9", time.monotonic())
    record.affected = await asyncio.to_thread(affected, primary)
    if cut:
        before = drill._unknown()
        await asyncio.to_thread(cut_links, primary, replicas)
        record.unconfirmed_before_kill = await drill.wait_unconfirmed(before)
    roles = await asyncio.to_thread(_roles, [primary, *replicas])
    if roles[0] != b"master":  # the setup failed over by itself: still audited, but say so
        record.name += f" (failed over by itself before the kill: roles {roles})"
    record.killed_at = time.monotonic()
    primary.kill()
    if cut:
        await asyncio.to_thread(mend_links, replicas)
    promoted = await asyncio.to_thread(_promoted, replicas, RECOVERY_TIMEOUT)
    record.promoted_after = time.monotonic() - record.killed_at
    await asyncio.to_thread(recover, primary, promoted)
    record.replica_back_after = time.monotonic() - record.killed_at
    return record


def cluster_fault(cluster: ClusterSetup, table: str, *, cut: bool) -> Fault:
    """Kill the primary serving ``table`` (after cutting its replicas off, with ``cut``); the
    killed node comes back as an empty replica of the promoted one."""

    async def fault(drill: Drill) -> FaultRecord:
        def pick() -> tuple[RedisServer, list[RedisServer]]:
            primary = cluster.primary_of(table_key(table))
            return primary, cluster.replicas_of(primary)

        def recover(killed: RedisServer, promoted: RedisServer) -> None:
            cluster.wait_promoted(promoted, RECOVERY_TIMEOUT)
            cluster.rejoin(killed, promoted, RECOVERY_TIMEOUT)

        def shard(primary: RedisServer) -> frozenset[str]:
            return frozenset(t for t in drill.tables if cluster.primary_of(table_key(t)) is primary)

        return await _kill(drill, pick, cut, recover, shard)

    return fault


def _promoted(replicas: list[RedisServer], timeout: float) -> RedisServer:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for replica in replicas:
            with contextlib.suppress(Exception):
                if ask(replica, "ROLE")[0] == b"master":
                    return replica
        time.sleep(0.05)
    raise RuntimeError(f"none of {replicas} was promoted within {timeout:g} s")


def sentinel_fault(setup: SentinelSetup, *, cut: bool) -> Fault:
    """Kill the primary (after cutting both replicas off, with ``cut``); it comes back as an
    empty replica of the new one."""

    async def fault(drill: Drill) -> FaultRecord:
        def pick() -> tuple[RedisServer, list[RedisServer]]:
            # not before the last failover is over on every Sentinel (SentinelSetup.settled)
            primary = setup.settled()
            if primary is None:
                raise RuntimeError("the Sentinel setup is not at rest")
            return primary, setup.replicas()

        def recover(killed: RedisServer, promoted: RedisServer) -> None:
            setup.wait_failover(killed, RECOVERY_TIMEOUT)
            setup.rejoin(killed, RECOVERY_TIMEOUT)

        return await _kill(drill, pick, cut, recover, lambda _: frozenset(drill.tables))

    return fault


def cluster_tables(cluster: ClusterSetup, per_shard: int) -> dict[int, list[str]]:
    """``per_shard`` table ids on each primary (by port)."""
    found: dict[int, list[str]] = {}
    for n in range(10_000):
        table = f"drill-{n}"
        port = cluster.primary_of(table_key(table)).port
        if len(found.setdefault(port, [])) < per_shard:
            found[port].append(table)
        if len(found) == len(cluster.primaries) and all(
            len(v) == per_shard for v in found.values()
        ):
            return found
    raise RuntimeError("could not place tables on every primary")


def cluster_environment(cluster: ClusterSetup) -> dict[str, str]:
    return {"REDIS_URL": cluster.url, "REDIS_MODE": "cluster"}


def sentinel_environment(setup: SentinelSetup) -> dict[str, str]:
    """Every write confirmed by every replica (docs/deploy.md, "What a 200 guarantees"): Sentinel
    may promote any of them, even while the old primary still takes writes."""
    return {
        "REDIS_URL": setup.url,
        "REDIS_MODE": "sentinel",
        "REDIS_SENTINEL_SERVICE": SERVICE,
        "REDIS_WAIT_REPLICAS": str(len(setup.data) - 1),
    }
