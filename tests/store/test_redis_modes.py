"""Reaching Redis: modes, URLs, TLS and credentials from the settings; durable writes (``WAIT``);
which client errors are outages (503) and which are bugs (500).

The failover tests with a real Cluster and Sentinels are in tests/http/test_redis_failover.py;
these run against one redis-server of their own, or none at all.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import Connection
from redis.asyncio.sentinel import MasterNotFoundError, SentinelConnectionPool, SlaveNotFoundError
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ClusterError,
    ConnectionError,
    DataError,
    MovedError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.store import (
    CasConflict,
    CasOk,
    RedisConfig,
    RedisTableStore,
    StoreOutcomeUnknown,
    StoreUnavailable,
    open_store,
)
from baohuang.store.redis_config import parse_sentinel_url, redact_url
from baohuang.store.redis_failures import is_outage
from redis_server import RedisServer, _free_port
from replica_link import cut_link, link_up
from table_support import SMALL_BODY

pytestmark = pytest.mark.anyio


# -- settings and URLs ------------------------------------------------------------------------


def test_settings_read_every_redis_variable() -> None:
    settings = Settings.from_env(
        {
            "REDIS_URL": "rediss+sentinel://s1:26380,s2/3",
            "REDIS_MODE": "Sentinel",
            "REDIS_SENTINEL_SERVICE": "tables",
            "REDIS_USERNAME": "svc",
            "REDIS_PASSWORD": "data-pw",
            "REDIS_SENTINEL_USERNAME": "watcher",
            "REDIS_SENTINEL_PASSWORD": "sentinel-pw",
            "REDIS_TLS_CA_FILE": "/etc/ca.crt",
            "REDIS_WAIT_REPLICAS": "2",
            "REDIS_WAIT_TIMEOUT_MS": "250",
        }
    )
    config = settings.redis_config()
    assert config == RedisConfig(
        url="rediss+sentinel://s1:26380,s2/3",
        mode="sentinel",
        sentinel_service="tables",
        username="svc",
        password="data-pw",
        sentinel_username="watcher",
        sentinel_password="sentinel-pw",
        tls_ca_file="/etc/ca.crt",
        wait_replicas=2,
        wait_timeout_ms=250,
    )
    assert config.replicas_to_wait == 2
    for shown in (repr(settings), repr(config)):
        assert "data-pw" not in shown and "sentinel-pw" not in shown, shown


@pytest.mark.parametrize(("mode", "replicas"), [("standalone", 0), ("cluster", 1), ("sentinel", 1)])
def test_wait_replicas_defaults_by_mode(mode: str, replicas: int) -> None:
    url = "redis+sentinel://h:26379/0" if mode == "sentinel" else "redis://h:6379/0"
    env = {"REDIS_URL": url, "REDIS_MODE": mode, "REDIS_SENTINEL_SERVICE": "m"}
    config = Settings.from_env(env).redis_config()
    assert config is not None and config.replicas_to_wait == replicas


def test_no_url_is_the_memory_store() -> None:
    assert Settings.from_env({}).redis_config() is None
    assert Settings.from_env({"REDIS_URL": ""}).redis_config() is None


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"REDIS_MODE": "replicated"}, "REDIS_MODE must be"),
        ({"REDIS_MODE": "cluster"}, "needs REDIS_URL"),
        ({"REDIS_MODE": "sentinel", "REDIS_URL": "redis+sentinel://h"}, "REDIS_SENTINEL_SERVICE"),
        ({"REDIS_MODE": "cluster", "REDIS_URL": "unix:///tmp/r.sock"}, "wants redis://"),
        (
            {
                "REDIS_MODE": "sentinel",
                "REDIS_URL": "redis://h:26379",
                "REDIS_SENTINEL_SERVICE": "m",
            },
            r"redis\+sentinel://",
        ),
        ({"REDIS_URL": "redis://u:pw@h/0", "REDIS_PASSWORD": "pw"}, "choose one"),
        ({"REDIS_URL": "redis://h/0", "REDIS_TLS_CA_FILE": "/ca.crt"}, "does not use TLS"),
        ({"REDIS_URL": "redis://h/0", "REDIS_WAIT_TIMEOUT_MS": "0"}, "must be positive"),
        ({"REDIS_URL": "redis://h/0", "REDIS_WAIT_REPLICAS": "-1"}, "0 or more"),
    ],
)
def test_contradictory_settings_fail_at_start_up(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        create_app(Settings.from_env(env))


@pytest.mark.parametrize(
    ("url", "sentinels", "db", "tls", "user", "password"),
    [
        ("redis+sentinel://a:1,b:2/0", (("a", 1), ("b", 2)), 0, False, None, None),
        ("rediss+sentinel://u:p%40ss@a,b:2/4", (("a", 26379), ("b", 2)), 4, True, "u", "p@ss"),
        ("redis+sentinel://:pw@[::1]:5,h", (("::1", 5), ("h", 26379)), 0, False, None, "pw"),
        ("a:1, b:2", (("a", 1), ("b", 2)), 0, False, None, None),
    ],
)
def test_sentinel_urls(
    url: str,
    sentinels: tuple[tuple[str, int], ...],
    db: int,
    tls: bool,
    user: str | None,
    password: str | None,
) -> None:
    address = parse_sentinel_url(url)
    assert (address.sentinels, address.db, address.tls) == (sentinels, db, tls)
    assert (address.username, address.password) == (user, password)


@pytest.mark.parametrize("url", ["redis+sentinel:///0", "redis+sentinel://h:x/0", "http://h"])
def test_bad_sentinel_urls(url: str) -> None:
    with pytest.raises(ValueError):
        parse_sentinel_url(url)


def test_redacted_urls() -> None:
    assert redact_url("rediss://default:s3cret@h:6380/0") == "rediss://default:***@h:6380/0"
    assert redact_url("redis://h/0") == "redis://h/0"


# -- clients built from the configuration (no I/O) --------------------------------------------


async def test_cluster_mode_builds_a_cluster_client_with_tls_and_acl() -> None:
    config = RedisConfig(
        url="rediss://node-1:7000",
        mode="cluster",
        username="svc",
        password="pw",
        tls_ca_file="/etc/ca.crt",
    )
    store = open_store(config)
    try:
        assert isinstance(store, RedisTableStore) and isinstance(store._redis, RedisCluster)
        kwargs = store._redis.get_connection_kwargs()
        assert kwargs["username"] == "svc" and kwargs["password"] == "pw"
        assert kwargs["ssl_ca_certs"] == "/etc/ca.crt"
        assert store._wait_replicas == 1
        assert kwargs["socket_timeout"] > config.wait_timeout_ms / 1000  # WAIT fits in a read
    finally:
        await store.close()


async def test_sentinel_mode_asks_the_sentinels_for_the_primary() -> None:
    config = RedisConfig(
        url="rediss+sentinel://u:data-pw@s1:26379,s2:26380/2",
        mode="sentinel",
        sentinel_service="tables",
        sentinel_username="watcher",
        sentinel_password="sentinel-pw",
        tls_ca_file="/etc/ca.crt",
    )
    store = open_store(config)
    try:
        assert isinstance(store, RedisTableStore)
        pool = store._redis.connection_pool
        assert isinstance(pool, SentinelConnectionPool) and pool.service_name == "tables"
        data = pool.connection_kwargs
        assert (data["username"], data["password"], data["db"]) == ("u", "data-pw", 2)
        assert data["ssl_ca_certs"] == "/etc/ca.crt"
        sentinel = store._sentinel
        assert sentinel is not None
        asked = [s.connection_pool.connection_kwargs for s in sentinel.sentinels]
        assert [(a["host"], a["port"]) for a in asked] == [("s1", 26379), ("s2", 26380)]
        assert all(a["username"] == "watcher" and a["password"] == "sentinel-pw" for a in asked)
        assert all(a["ssl_ca_certs"] == "/etc/ca.crt" for a in asked)
    finally:
        await store.close()


# -- errors: outages are 503, bugs stay bugs --------------------------------------------------


def _raised_inside(module: str, error: BaseException) -> BaseException:
    """``error`` as raised by code of ``module`` (as the client raises it mid-teardown)."""
    scope: dict[str, Any] = {"__name__": module, "error": error}
    exec("def boom():\n    raise error\n", scope)
    try:
        scope["boom"]()
    except BaseException as exc:
        return exc
    raise AssertionError("unreachable")


@pytest.mark.parametrize(
    "error",
    [
        ConnectionError("Connection reset by peer"),
        ConnectionResetError(104, "reset"),
        MasterNotFoundError("No master found for 'tables'"),
        SlaveNotFoundError(),
        ReadOnlyError("You can't write against a read only replica."),
        ClusterDownError("The cluster is down"),
        TryAgainError("TRYAGAIN"),
        MovedError("3999 127.0.0.1:6381"),
        AskError("3999 127.0.0.1:6381"),
        ClusterError("TTL exhausted."),
        SlotNotCoveredError('Slot "3" is not covered by the cluster.'),
        RedisClusterException("Redis Cluster cannot be connected. Please provide …"),
        ResponseError("UNBLOCKED force unblock from blocking operation, instance state changed"),
        ResponseError("NOREPLICAS Not enough good replicas to write."),
    ],
    ids=lambda e: type(e).__name__,
)
def test_topology_changes_are_outages(error: BaseException) -> None:
    assert is_outage(error)


@pytest.mark.parametrize(
    ("module", "error"),
    [
        ("uvloop.loop", RuntimeError("unable to perform operation on <TCPTransport closed=True>")),
        ("asyncio.selector_events", RuntimeError("unable to perform operation on <Transport>")),
        (
            "redis.asyncio.connection",
            AttributeError("'NoneType' object has no attribute 'writelines'"),
        ),
    ],
)
def test_connections_torn_down_under_a_command_are_outages(
    module: str, error: BaseException
) -> None:
    assert is_outage(_raised_inside(module, error))


@pytest.mark.parametrize(
    "error",
    [
        RuntimeError("unable to perform operation on <TCPTransport closed=True>"),
        AttributeError("'NoneType' object has no attribute 'writelines'"),
        RedisClusterException("No way to dispatch this command to Redis Cluster. Missing key."),
        DataError("Invalid input of type: 'dict'"),
        ResponseError("ERR wrong number of arguments for 'hset' command"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_our_own_bugs_are_not_outages(error: BaseException) -> None:
    assert not is_outage(_raised_inside("baohuang.tables.service", error))
    assert not is_outage(error)


async def test_a_teardown_error_reaches_the_caller_as_503_a_bug_as_500() -> None:
    store = RedisTableStore.from_url("redis://127.0.0.1:1/0")
    observed: list[str] = []
    store._observe = lambda op, outcome, s: observed.append(outcome)

    async def torn_down() -> None:
        raise _raised_inside("redis.asyncio.connection", AttributeError("writelines"))

    async def bug() -> None:
        raise AttributeError("'Snapshot' object has no attribute 'hands2'")

    try:
        with pytest.raises(StoreUnavailable):
            await store._call("cas", torn_down, 0.0)
        with pytest.raises(AttributeError):
            await store._call("cas", bug, 0.0)
        assert observed == ["unavailable", "error"]
    finally:
        await store.close()


# -- durable writes on a real primary and replica ---------------------------------------------


@pytest.fixture(scope="module")
def primary_and_replica() -> Iterator[tuple[RedisServer, RedisServer]]:
    # It sends its data to its replica at once, not after Redis's default 5 s wait for more
    # replicas to share one transfer. (Here only: the Sentinel setups of the failover tests did
    # not fail over in time with it.)
    primary = RedisServer.from_environment(extra_args=("--repl-diskless-sync-delay", "0"))
    with primary:
        replica = RedisServer.from_environment(
            extra_args=("--replicaof", primary.host, str(primary.port))
        )
        with replica:
            yield primary, replica


@pytest.fixture
async def durable(
    primary_and_replica: tuple[RedisServer, RedisServer],
) -> AsyncIterator[tuple[RedisTableStore, list[str]]]:
    primary, _ = primary_and_replica
    observed: list[str] = []
    store = RedisTableStore.from_url(
        primary.url,
        600,
        key_prefix=f"durable-{uuid.uuid4().hex}:",
        observe=lambda op, outcome, s: observed.append(f"{op}:{outcome}"),
        wait_replicas=1,
        wait_timeout_ms=1000,
    )
    try:
        yield store, observed
    finally:
        await store.close()


async def _replica_in_sync(replica: RedisServer) -> None:
    from redis.asyncio import Redis

    client = Redis.from_url(replica.url)
    try:
        for _ in range(200):
            info = await client.info("replication")
            if info.get("master_link_status") == "up":
                return
            await asyncio.sleep(0.05)
        raise AssertionError("replica link not up")
    finally:
        await client.aclose()


async def test_every_write_waits_for_the_replica(
    durable: tuple[RedisTableStore, list[str]],
    primary_and_replica: tuple[RedisServer, RedisServer],
) -> None:
    store, observed = durable
    await _replica_in_sync(primary_and_replica[1])
    put = await store.put("t", b"one")
    cas = await store.compare_and_set("t", put.version, b"two")
    assert isinstance(cas, CasOk)
    assert await store.compare_and_set("t", 1, b"stale") == CasConflict(2)
    assert await store.delete("t") is True
    assert observed == ["put:ok", "cas:ok", "cas:conflict", "delete:ok"]


async def test_an_unconfirmed_write_is_outcome_unknown_never_ok(
    durable: tuple[RedisTableStore, list[str]],
    primary_and_replica: tuple[RedisServer, RedisServer],
) -> None:
    store, observed = durable
    primary, replica = primary_and_replica
    await _replica_in_sync(replica)
    put = await store.put("t", b"one")
    await cut_link(primary, replica)
    try:
        with pytest.raises(StoreOutcomeUnknown, match="0 of 1 replicas"):
            await store.compare_and_set("t", put.version, b"two")
        # It ran on the primary all the same: the outcome is unknown, not "failed".
        table = await store.get("t")
        assert table is not None and table.snapshot == b"two"
        # A compare-and-set that wrote nothing has nothing to wait for: a plain conflict.
        assert await store.compare_and_set("t", 1, b"stale") == CasConflict(2)
    finally:
        await link_up(primary, replica)
    assert "cas:unconfirmed" in observed
    assert isinstance(await store.compare_and_set("t", 2, b"three"), CasOk)


async def test_a_replay_proves_its_record_and_waits_on_one_connection(
    durable: tuple[RedisTableStore, list[str]],
    primary_and_replica: tuple[RedisServer, RedisServer],
    exchanges: list[list[str]],
) -> None:
    """The script that finds the record touches the table's hash, and ``WAIT`` follows it on the
    same connection, however the replay was found (a retry's read, or its compare-and-set)."""
    store, observed = durable
    await _replica_in_sync(primary_and_replica[1])
    await store.put("t", b"0")
    await store.compare_and_set("t", 1, b"1", remember=("k", b"answer"))
    touches = await store._redis.hget(store.key("t"), "c")
    exchanges.clear()
    assert await store.replay("t", "k") == b"answer"
    assert exchanges == [["EVALSHA", "WAIT"]]
    assert int(await store._redis.hget(store.key("t"), "c") or 0) == int(touches or 0) + 1
    with pytest.raises(StoreOutcomeUnknown, match="holds no answer"):
        await store.replay("t", "another")
    assert observed[-2:] == ["replay:ok", "replay:unconfirmed"]


@pytest.mark.slow
async def test_a_replay_is_answered_only_once_the_replica_holds_its_write(
    durable: tuple[RedisTableStore, list[str]],
    primary_and_replica: tuple[RedisServer, RedisServer],
) -> None:
    """The record is read by the script that touches the table's hash, and ``WAIT`` follows on
    the same connection: with the replica cut off, a replay is outcome-unknown like its write."""
    store, observed = durable
    primary, replica = primary_and_replica
    await link_up(primary, replica)
    await store.put("t", b"0")
    await cut_link(primary, replica)
    try:
        with pytest.raises(StoreOutcomeUnknown, match="0 of 1 replicas"):
            await store.compare_and_set("t", 1, b"1", remember=("k", b"answer"))
        with pytest.raises(StoreOutcomeUnknown, match="0 of 1 replicas"):
            await store.replay("t", "k")
    finally:
        await link_up(primary, replica)
    assert await store.replay("t", "k") == b"answer"
    assert observed[-2:] == ["replay:unconfirmed", "replay:ok"]


async def test_one_wait_vouches_for_every_write_of_a_batch(
    durable: tuple[RedisTableStore, list[str]],
    primary_and_replica: tuple[RedisServer, RedisServer],
    exchanges: list[list[str]],
) -> None:
    """Concurrent writes leave as one pipeline ending in one ``WAIT`` (store/redis_batch.py):
    it answers once the replica holds everything the connection wrote before it. With the
    replica cut off, every write of the batch that wrote is outcome-unknown, and one that
    wrote nothing is a plain conflict."""
    store, _ = durable
    primary, replica = primary_and_replica
    await _replica_in_sync(replica)
    sent = exchanges
    for n in range(4):
        await store.put(f"t{n}", b"0")
    sent.clear()
    results = await asyncio.gather(*(store.compare_and_set(f"t{n}", 1, b"1") for n in range(4)))
    assert all(isinstance(result, CasOk) for result in results)
    assert sent == [["EVALSHA"] * 4 + ["WAIT"]]

    await cut_link(primary, replica)
    try:
        sent.clear()
        outcomes = await asyncio.gather(
            *(store.compare_and_set(f"t{n}", 2, b"2") for n in range(3)),
            store.compare_and_set("t3", 1, b"stale"),
            return_exceptions=True,
        )
        assert sent == [["EVALSHA"] * 4 + ["WAIT"]]
        assert all(isinstance(outcome, StoreOutcomeUnknown) for outcome in outcomes[:3])
        assert outcomes[3] == CasConflict(2)
    finally:
        await link_up(primary, replica)


async def test_a_write_whose_wait_went_unanswered_is_outcome_unknown(
    durable: tuple[RedisTableStore, list[str]],
    primary_and_replica: tuple[RedisServer, RedisServer],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The connection breaks after the write's reply, before ``WAIT``'s: sent again, the
    write would find its own token and write nothing, and a ``WAIT`` on a new connection would
    vouch for nothing. So it is not sent again: 503 ``OUTCOME_UNKNOWN``."""
    store, observed = durable
    await _replica_in_sync(primary_and_replica[1])
    await store.put("t", b"0")
    assert isinstance(await store.compare_and_set("t", 1, b"0"), CasOk)  # the script is loaded
    read = Connection.read_response
    breaking: set[int] = set()  # by id: a connection's hash may change as it connects
    broke: list[int] = []

    async def breaks_at_wait(self: Connection, *args: Any, **kwargs: Any) -> Any:
        if id(self) in breaking:  # the next reply on this connection is WAIT's
            breaking.discard(id(self))
            broke.append(id(self))
            await self.disconnect()
            raise ConnectionError("Connection reset by peer (test)")
        reply = await read(self, *args, **kwargs)
        if not broke and isinstance(reply, list):  # the script's reply
            breaking.add(id(self))
        return reply

    monkeypatch.setattr(Connection, "read_response", breaks_at_wait)
    with pytest.raises(StoreOutcomeUnknown, match="ConnectionError"):
        await store.compare_and_set("t", 2, b"1")
    assert len(broke) == 1  # not sent again
    table = await store.get("t")
    assert table is not None and table.version == 3  # it did run
    assert "cas:unconfirmed" in observed


async def test_the_script_is_loaded_again_after_a_flush(
    durable: tuple[RedisTableStore, list[str]],
    primary_and_replica: tuple[RedisServer, RedisServer],
) -> None:
    store, _ = durable
    await _replica_in_sync(primary_and_replica[1])
    await store.put("t", b"one")
    await store._redis.script_flush()
    assert isinstance(await store.compare_and_set("t", 1, b"two"), CasOk)


async def test_outcome_unknown_over_http(
    primary_and_replica: tuple[RedisServer, RedisServer],
) -> None:
    primary, replica = primary_and_replica
    await _replica_in_sync(replica)
    settings = Settings(
        redis_url=primary.url, redis_wait_replicas=1, redis_wait_timeout_ms=1000, api_keys=("k",)
    )
    snapshot = SMALL_BODY
    headers = {"Authorization": "Bearer k"}
    table = f"/v1/tables/durable-{uuid.uuid4().hex}"
    async with AsyncTestClient(create_app(settings)) as client:
        created = await client.put(table, json={"snapshot": snapshot}, headers=headers)
        assert created.status_code == 201, created.text
        await cut_link(primary, replica)
        try:
            move = {"seat": 0, "action": "play", "cards": ["7S", "7H"]}
            answer = await client.post(
                f"{table}/moves", json={"move": move, "version": 1}, headers=headers
            )
        finally:
            await link_up(primary, replica)
        assert answer.status_code == 503, answer.text
        assert answer.headers["retry-after"] == "1"
        assert answer.json()["errors"][0]["code"] == "OUTCOME_UNKNOWN"
        read = await client.get(table, headers=headers)
        assert read.status_code == 200 and read.json()["version"] == 2  # it stood, this time


# -- TLS and ACL against a real server ---------------------------------------------------------


ELLIPTIC = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1")
"""The test's keys: on the prime256v1 curve, made at once, where two RSA keys took half a
second of CPU."""


def _certificates(folder: Path) -> tuple[Path, Path, Path] | None:
    """A CA and a server certificate for 127.0.0.1, made with the openssl CLI (None without)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        return None

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], cwd=folder, check=True, capture_output=True, timeout=60)

    run("req", "-x509", *ELLIPTIC, "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
        "-days", "2", "-subj", "/CN=baohuang-test-ca")  # fmt: skip
    run("req", *ELLIPTIC, "-nodes", "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=127.0.0.1")  # fmt: skip
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "san.cnf")  # fmt: skip
    return folder / "ca.crt", folder / "server.crt", folder / "server.key"


async def test_tls_with_a_private_ca_and_an_acl_user(tmp_path: Path) -> None:
    """rediss:// verified against REDIS_TLS_CA_FILE, as an ACL user from REDIS_USERNAME and
    REDIS_PASSWORD; a wrong CA or password is an outage (503), never a 500."""
    made = _certificates(tmp_path)
    if made is None:
        pytest.skip("NO OPENSSL: cannot make certificates for the TLS test")
    ca, cert, key = made
    tls_port = _free_port("127.0.0.1")
    server = RedisServer.from_environment(
        extra_args=(
            "--tls-port", str(tls_port),
            "--tls-cert-file", str(cert),
            "--tls-key-file", str(key),
            "--tls-ca-cert-file", str(ca),
            "--tls-auth-clients", "no",
            "--user", "baohuang", "on", ">table-pw", "~baohuang:*", "&baohuang:*", "+@all",
        )
    )  # fmt: skip
    url = f"rediss://127.0.0.1:{tls_port}/0"
    headers = {"Authorization": "Bearer k"}
    snapshot = SMALL_BODY

    def settings(**changes: Any) -> Settings:
        base: dict[str, Any] = {
            "redis_url": url,
            "redis_username": "baohuang",
            "redis_password": "table-pw",
            "redis_tls_ca_file": str(ca),
            "api_keys": ("k",),
        }
        return Settings(**{**base, **changes})

    with server:
        async with AsyncTestClient(create_app(settings())) as client:
            assert (await client.get("/readyz")).status_code == 200
            created = await client.put(
                "/v1/tables/tls", json={"snapshot": snapshot}, headers=headers
            )
            assert created.status_code == 201, created.text
        other_ca = tmp_path / "other"
        other_ca.mkdir()
        wrong_ca = _certificates(other_ca)
        assert wrong_ca is not None
        for wrong in (
            settings(redis_password="not-the-password"),
            settings(redis_tls_ca_file=str(wrong_ca[0])),
        ):
            async with AsyncTestClient(create_app(wrong)) as client:
                answer = await client.get("/v1/tables/tls", headers=headers)
                assert answer.status_code == 503, answer.text
                assert answer.json()["errors"][0]["code"] == "STORE_UNAVAILABLE"
