"""Replicated Redis setups for failover tests and benchmarks, built from :mod:`redis_server`.

* :class:`ClusterSetup`: a Redis Cluster of 3 primaries and 3 replicas (one per primary), slots
  split evenly, on free ports of 127.0.0.1 (each with its bus port free too).
* :class:`SentinelSetup`: one primary, 2 replicas and 3 Sentinels watching it (quorum 2).

Both are made of :class:`redis_server.RedisServer` processes, so every node can be killed
(``SIGKILL``), paused or made to lag like any test server; nothing is persisted. Failure detection
is tuned down to ~1 s (``cluster-node-timeout``, ``down-after-milliseconds``) so that a failover
takes a few seconds. ``DEBUG`` is enabled for local connections so that :func:`lag` can freeze a
replica (``DEBUG SLEEP``) while its primary drops the link: that, not ``CLIENT PAUSE`` (which
leaves the replication link running), is what really keeps writes from reaching a replica.

Every wait here is bounded in time; a setup that does not come up raises ``RuntimeError`` with the
nodes' logs. :func:`cluster_setup` and :func:`sentinel_setup` skip (or fail under ``CI=true``)
when the binaries are missing, as :func:`redis_server.redis_unavailable` does.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from redis import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from redis_server import (
    RedisServer,
    _answers_ping,
    find_redis_sentinel,
    find_redis_server,
    redis_unavailable,
)

__all__ = ["ClusterSetup", "SentinelSetup", "cluster_setup", "sentinel_setup"]

NODE_TIMEOUT_MS = 1000
"""``cluster-node-timeout`` and Sentinel's ``down-after-milliseconds``: failure seen in ~1 s."""
SERVICE = "baohuang"
"""The name the Sentinels know the primary by (``REDIS_SENTINEL_SERVICE``)."""
_DEBUG = ("--enable-debug-command", "local")
_SYNC_AT_ONCE = ("--repl-diskless-sync-delay", "0")
"""A node's full sync (a replica new, or back empty from a kill) starts at once, where Redis by
default waits 5 s for more replicas to ask: a setup comes up ~4 s sooner, a killed node is back
5 s sooner. Those 5 s used to hide two things in the Sentinel setup (docs/deploy.md, "What a 200
guarantees"): a Sentinel still finishing one failover when the next fault came (now waited out,
:meth:`SentinelSetup.wait_settled`), and that ``WAIT 1`` of two replicas loses acknowledged
writes when Sentinel promotes one replica while the old primary, still up, has the other confirm
them; a node back from a kill was not yet a replica able to confirm anything then."""


def admin(server: RedisServer, timeout: float = 2.0) -> Redis:
    """A plain client of one node, for set-up and inspection (close it after use)."""
    return Redis(
        host=server.host,
        port=server.port,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(NoBackoff(), 0),
    )


def _ask(server: RedisServer, *command: Any, timeout: float = 2.0) -> Any:
    client = admin(server, timeout)
    try:
        return client.execute_command(*command)
    finally:
        client.close()


def _info(server: RedisServer, section: str) -> dict[str, Any]:
    client = admin(server)
    try:
        info: dict[str, Any] = client.info(section)
        return info
    finally:
        client.close()


def wait_until(
    what: str, check: Callable[[], bool], timeout: float, logs: Callable[[], str] = lambda: ""
) -> None:
    """Poll ``check`` (errors count as "not yet") every 50 ms for at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (RedisError, OSError) as exc:
            last = exc
        time.sleep(0.05)
    raise RuntimeError(f"{what}: not within {timeout:g} s (last error: {last!r}){logs()}")


def lag(replica: RedisServer, seconds: float, primary: RedisServer) -> threading.Thread:
    """Cut ``replica`` off from ``primary`` for ``seconds``: freeze it (``DEBUG SLEEP``) and make
    the primary drop its link (``CLIENT KILL TYPE replica``), so that it cannot reconnect before
    it wakes up. Writes the primary takes meanwhile reach no replica: if the primary dies now,
    they are gone. (Freezing alone is not enough: what the primary already sent waits in the
    frozen replica's socket buffer and is applied when it wakes; cutting the link alone neither:
    the replica reconnects at once.) Returns the thread that waits for the replica to wake up;
    join it (it ends within ``seconds`` + 5 s)."""

    def sleep() -> None:
        with contextlib.suppress(RedisError, OSError):  # it may die meanwhile: tests kill nodes
            _ask(replica, "DEBUG", "SLEEP", f"{seconds:g}", timeout=seconds + 5)

    thread = threading.Thread(target=sleep, name=f"lag-{replica.port}", daemon=True)
    thread.start()
    # Asleep once it stops answering: a fixed pause can end before a loaded machine has even
    # sent DEBUG SLEEP, and a replica still awake reconnects at once and acknowledges the write.
    deadline = time.monotonic() + seconds
    while _answers_ping(replica.host, replica.port) and time.monotonic() < deadline:
        time.sleep(0.01)
    _ask(primary, "CLIENT", "KILL", "TYPE", "replica")
    return thread


def _logs(servers: list[RedisServer]) -> str:
    return "".join(f"\n--- {s!r}\n{s._diagnostics()}" for s in servers)


class ClusterSetup:
    """3 primaries with one replica each; ``url`` names one node (the service finds the rest)."""

    def __init__(self, binary: str, primaries: int = 3, replicas_per_primary: int = 1) -> None:
        args = (
            "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
            *_DEBUG,
            *_SYNC_AT_ONCE,
        )  # fmt: skip
        self.primaries = [RedisServer(binary, extra_args=args) for _ in range(primaries)]
        self.replicas = [
            RedisServer(binary, extra_args=args) for _ in range(primaries * replicas_per_primary)
        ]
        self.nodes = [*self.primaries, *self.replicas]
        self._ids: dict[int, str] = {}
        self._replaced_at: dict[int, float] = {}
        """Per primary (by port): when a manual failover last took its slots from it."""

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def logs(self) -> str:
        return _logs(self.nodes)

    def start(self, timeout: float = 60.0) -> None:
        """Start every node, assign the slots, join, pair the replicas; return when the cluster
        is ``ok`` on every node and every replica's link is up."""
        deadline = time.monotonic() + timeout
        for node in self.nodes:
            node.start()
        for node in self.nodes:
            self._ids[node.port] = _ask(node, "CLUSTER", "MYID").decode()
        count = len(self.primaries)
        for index, primary in enumerate(self.primaries):
            low = 16384 * index // count
            high = 16384 * (index + 1) // count - 1
            _ask(primary, "CLUSTER", "SET-CONFIG-EPOCH", index + 1)
            _ask(primary, "CLUSTER", "ADDSLOTSRANGE", low, high)
        first = self.nodes[0]
        for node in self.nodes[1:]:
            _ask(node, "CLUSTER", "MEET", first.host, first.port)

        def left() -> float:
            return max(1.0, deadline - time.monotonic())

        pairs = zip(self.replicas, self.primaries * (len(self.replicas) // count), strict=True)
        for replica, primary in pairs:
            wait_until(
                f"{replica!r} replicates {primary!r}",
                lambda r=replica, p=primary: (
                    _ask(r, "CLUSTER", "REPLICATE", self._ids[p.port]) == b"OK"
                ),
                left(),
                self.logs,
            )
        self.wait_healthy(left())

    def wait_healthy(self, timeout: float = 30.0) -> None:
        """Every running node says ``cluster_state:ok`` and agrees on who serves which slots;
        every running replica's link to its primary is up."""
        deadline = time.monotonic() + timeout
        running = [node for node in self.nodes if node.running]
        for node in running:
            wait_until(
                f"{node!r} cluster_state ok",
                lambda n=node: b"cluster_state:ok" in _ask(n, "CLUSTER", "INFO"),
                max(1.0, deadline - time.monotonic()),
                self.logs,
            )

        def agreed() -> bool:
            # Who serves which slots; not the replicas, which nodes list in their own order
            # when a primary has two (their CLUSTER SLOTS would never read the same).
            views = {
                frozenset((low, high, int(primary[1])) for low, high, primary, *_ in slots)
                for slots in (_ask(node, "CLUSTER", "SLOTS") for node in running)
            }
            return len(views) == 1

        wait_until("nodes agree on slots", agreed, max(1.0, deadline - time.monotonic()))
        for node in running:
            wait_until(
                f"{node!r} replication link up",
                lambda n=node: (
                    _info(n, "replication").get("role") == "master"
                    or _info(n, "replication").get("master_link_status") == "up"
                ),
                max(1.0, deadline - time.monotonic()),
                self.logs,
            )

    def primary_of(self, key: str) -> RedisServer:
        """The node serving ``key`` now (asks a running node: ``CLUSTER SHARDS`` of 7.0)."""
        probe = next(node for node in self.nodes if node.running)
        slot = int(_ask(probe, "CLUSTER", "KEYSLOT", key))
        for low, high, primary, *_ in _ask(probe, "CLUSTER", "SLOTS"):
            if low <= slot <= high:
                port = int(primary[1])
                return next(node for node in self.nodes if node.port == port)
        raise RuntimeError(f"no node serves slot {slot}")

    def replicas_of(self, primary: RedisServer) -> list[RedisServer]:
        """The running replicas of ``primary``, as the cluster sees them now."""
        return [
            node
            for node in self.nodes
            if node is not primary
            and node.running
            and _info(node, "replication").get("master_port") == primary.port
        ]

    def wait_promoted(self, replica: RedisServer, timeout: float = 30.0) -> None:
        """Wait until ``replica`` has taken over as a primary and the cluster is ok again."""
        wait_until(
            f"{replica!r} promoted",
            lambda: _info(replica, "replication").get("role") == "master",
            timeout,
            self.logs,
        )
        self.wait_healthy(timeout)

    def fail_over(self, replica: RedisServer, primary: RedisServer, timeout: float = 30.0) -> None:
        """``CLUSTER FAILOVER`` on ``replica`` (the primaries vote; ``primary`` hands over once
        the replica has caught up), and wait until it has taken over. A primary refuses its vote
        to a failover of slots it voted for in the last two ``cluster-node-timeout``: a manual
        failover asked sooner times out (5 s) and is never retried, so it waits that out first,
        counting from when the last one away from ``primary`` was seen done."""
        since = self._replaced_at.get(primary.port)
        if since is not None:
            time.sleep(max(0.0, since + 2 * NODE_TIMEOUT_MS / 1000 + 0.1 - time.monotonic()))
        _ask(replica, "CLUSTER", "FAILOVER")
        self.wait_promoted(replica, timeout)
        self._replaced_at[primary.port] = time.monotonic()
        old_id, new_id = self._ids[primary.port], self._ids[replica.port]

        def follows(node: RedisServer) -> bool:
            listed = _ask(node, "CLUSTER", "REPLICAS", new_id)
            return any(line.decode().split()[0] == old_id for line in listed)

        for node in self.nodes:  # the next failover's MFSTART is ignored by a primary that
            if node.running:  # does not know the sender as its replica yet
                wait_until(
                    f"{node!r} sees {primary!r} follow {replica!r}",
                    lambda n=node: follows(n),
                    timeout,
                    self.logs,
                )

    def rejoin(self, node: RedisServer, primary: RedisServer, timeout: float = 30.0) -> None:
        """Bring a killed node back as a new, empty replica of ``primary``, as an operator (or
        Kubernetes) replacing a failed node would: the others forget its old identity, and it
        starts without its old ``nodes.conf``, so it never claims its old slots."""
        if node.running:
            raise RuntimeError(f"{node!r} is running")
        old_id = self._ids[node.port]
        for other in self.nodes:
            if other.running:
                with contextlib.suppress(RedisError):  # it never knew it, or forgot it already
                    _ask(other, "CLUSTER", "FORGET", old_id)
        (node._dir / "nodes.conf").unlink(missing_ok=True)
        node.start()
        self._ids[node.port] = _ask(node, "CLUSTER", "MYID").decode()
        _ask(node, "CLUSTER", "MEET", primary.host, primary.port)
        wait_until(
            f"{node!r} replicates {primary!r}",
            lambda: _ask(node, "CLUSTER", "REPLICATE", self._ids[primary.port]) == b"OK",
            timeout,
            self.logs,
        )
        wait_until(
            f"{node!r} in sync with {primary!r}",
            lambda: _info(node, "replication").get("master_link_status") == "up",
            timeout,
            self.logs,
        )
        self.wait_healthy(timeout)  # it knows every slot's primary too: it may be asked next

    def close(self) -> None:
        for node in self.nodes:
            node.close()


class SentinelSetup:
    """One primary, ``replicas`` replicas and ``sentinels`` Sentinels (quorum 2) for
    :data:`SERVICE`; ``url`` is the service's ``redis+sentinel://`` URL of the Sentinels."""

    def __init__(
        self, binary: str, sentinel: list[str], replicas: int = 2, sentinels: int = 3
    ) -> None:
        self.data = [
            RedisServer(binary, extra_args=(*_DEBUG, *_SYNC_AT_ONCE)) for _ in range(1 + replicas)
        ]
        primary = self.data[0]
        settings = (
            f"sentinel down-after-milliseconds {SERVICE} {NODE_TIMEOUT_MS}",
            f"sentinel failover-timeout {SERVICE} 10000",
            f"sentinel parallel-syncs {SERVICE} {replicas}",
        )
        self.sentinels = [
            RedisServer(
                sentinel,
                sentinel_monitor=(SERVICE, primary.host, primary.port, 2),
                extra_args=settings,
            )
            for _ in range(sentinels)
        ]

    @property
    def url(self) -> str:
        hosts = ",".join(s.address for s in self.sentinels)
        return f"redis+sentinel://{hosts}/0"

    def logs(self) -> str:
        return _logs([*self.data, *self.sentinels])

    def start(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        primary, *replicas = self.data
        for node in self.data:
            node.start()
        for replica in replicas:
            _ask(replica, "REPLICAOF", primary.host, primary.port)
        for replica in replicas:
            wait_until(
                f"{replica!r} link up",
                lambda r=replica: _info(r, "replication").get("master_link_status") == "up",
                max(1.0, deadline - time.monotonic()),
                self.logs,
            )
        for sentinel in self.sentinels:
            sentinel.start()
        want_replicas, want_others = len(replicas), len(self.sentinels) - 1
        for sentinel in self.sentinels:

            def sees_all(s: RedisServer = sentinel) -> bool:
                state = _ask(s, "SENTINEL", "MASTER", SERVICE)  # a dict, keys as bytes
                return (
                    int(state[b"num-slaves"]) >= want_replicas
                    and int(state[b"num-other-sentinels"]) >= want_others
                )

            wait_until(
                f"{sentinel!r} sees the setup",
                sees_all,
                max(1.0, deadline - time.monotonic()),
                self.logs,
            )

    def primary(self) -> RedisServer:
        """The node the Sentinels name as primary now."""
        for sentinel in self.sentinels:
            if not sentinel.running:
                continue
            try:
                _, port = _ask(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)
            except (RedisError, OSError):
                continue
            return next(node for node in self.data if node.port == int(port))
        raise RuntimeError("no Sentinel answers")

    def replicas(self) -> list[RedisServer]:
        primary = self.primary()
        return [node for node in self.data if node is not primary and node.running]

    def wait_failover(self, old: RedisServer, timeout: float = 30.0) -> RedisServer:
        """Wait until the failover away from ``old`` is over (:meth:`wait_settled`); return the
        new primary."""
        deadline = time.monotonic() + timeout

        def moved() -> bool:
            for sentinel in self.sentinels:
                _, port = _ask(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)
                if int(port) == old.port:
                    return False
            return True

        wait_until(f"failover away from {old!r}", moved, timeout, self.logs)
        return self.wait_settled(max(1.0, deadline - time.monotonic()))

    def settled(self) -> RedisServer | None:
        """The primary, if the setup is at rest: every running Sentinel names it at the same
        configuration epoch with its flags just ``master`` (no failover in progress, not down,
        connected), it says it is the primary, and every other running node follows it with its
        link up; else ``None``.

        A Sentinel that led a failover names the promoted replica while it still reconfigures
        the others, so "every Sentinel names the new primary" is not the end of a failover. A
        fault made before its end left that Sentinel naming the dead node for good (the next
        promotion picked the address its record still held, so it never switched), and a
        Sentinel that had just switched, its link to the new primary not yet up, found it down
        and failed it over while it was taking writes."""
        named: set[tuple[int, int]] = set()
        for sentinel in self.sentinels:
            if not sentinel.running:
                continue
            state = _ask(sentinel, "SENTINEL", "MASTER", SERVICE)  # a dict, keys as bytes
            if state[b"flags"] != b"master":
                return None
            named.add((int(state[b"port"]), int(state[b"config-epoch"])))
        if len(named) != 1:
            return None
        ((port, _),) = named
        primary = next(node for node in self.data if node.port == port)
        if not primary.running or _info(primary, "replication").get("role") != "master":
            return None
        for node in self.data:
            if node is primary or not node.running:
                continue
            info = _info(node, "replication")
            if info.get("master_port") != port or info.get("master_link_status") != "up":
                return None
        return primary

    def wait_settled(self, timeout: float = 30.0) -> RedisServer:
        """Wait until :meth:`settled`; return the primary."""
        found: list[RedisServer] = []

        def at_rest() -> bool:
            primary = self.settled()
            if primary is not None:
                found.append(primary)
            return primary is not None

        wait_until("the Sentinel setup at rest", at_rest, timeout, self.logs)
        return found[-1]

    def rejoin(self, node: RedisServer, timeout: float = 30.0) -> None:
        """Start a killed data node again, empty, as a replica of the current primary (never
        as a primary of its own, even for a moment)."""
        if node.running:
            raise RuntimeError(f"{node!r} is running")
        primary = self.primary()
        node.extra_args = (
            *_DEBUG, *_SYNC_AT_ONCE, "--replicaof", primary.host, str(primary.port)
        )  # fmt: skip
        node.start()
        wait_until(
            f"{node!r} in sync with {primary!r}",
            lambda: _info(node, "replication").get("master_link_status") == "up",
            timeout,
            self.logs,
        )

    def close(self) -> None:
        for node in [*self.sentinels, *self.data]:
            node.close()


@contextmanager
def cluster_setup(timeout: float = 60.0) -> Iterator[ClusterSetup]:
    """A started :class:`ClusterSetup`, closed afterwards; skips loudly without redis-server."""
    binary = find_redis_server()
    if binary is None:
        redis_unavailable("no redis-server binary to build a Redis Cluster")
    setup = ClusterSetup(binary)
    try:
        setup.start(timeout)
        yield setup
    finally:
        setup.close()


@contextmanager
def sentinel_setup(timeout: float = 60.0) -> Iterator[SentinelSetup]:
    """A started :class:`SentinelSetup`, closed afterwards; skips loudly without the binaries
    (``redis-server`` and ``redis-sentinel``: Debian's ``redis-sentinel`` package)."""
    binary = find_redis_server()
    sentinel = find_redis_sentinel()
    if binary is None or sentinel is None:
        redis_unavailable("no redis-server / redis-sentinel binary to build a Sentinel setup")
    setup = SentinelSetup(binary, sentinel)
    try:
        setup.start(timeout)
        yield setup
    finally:
        setup.close()
