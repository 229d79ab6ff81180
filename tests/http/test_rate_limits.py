"""Rate limits (docs/clients.md "Operations"): per credential, one budget for every replica (Redis), 429
``RATE_LIMITED`` with ``Retry-After`` and the RateLimit header fields (draft-06), operations
routes never limited, and a Redis outage that does not take the stateless routes down with it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.ratelimit import MemoryBuckets, Rate, parse_rate
from baohuang.http.settings import Settings
from redis_server import RedisServer, shared_redis_url
from table_support import SMALL_BODY

from .problem_checks import assert_problem

KEY_A, KEY_B = "platform-key-a", "platform-key-b"
RATELIMIT_HEADERS = {
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "ratelimit-policy",
}
SNAPSHOT = SMALL_BODY
CLASSIFY = {"cards": ["7S", "7H"]}


def bearer(credential: str) -> dict[str, str]:
    return {"authorization": f"Bearer {credential}"}


def counted_so_far(client: Any, metric: str, limit: str) -> float:
    """``metric`` of ``limit`` (``baohuang_rate_limited_total``, ...): the process's count (its
    registry is shared by every app of the process, so a test compares counts before and after,
    never reads one alone: another test of the same worker may have counted first)."""
    prefix = f'{metric}{{limit="{limit}"}} '
    lines = client.get("/metrics").text.splitlines()
    return sum(float(line.removeprefix(prefix)) for line in lines if line.startswith(prefix))


def refused_so_far(client: Any, limit: str) -> float:
    """``baohuang_rate_limited_total`` of ``limit`` (see :func:`counted_so_far`)."""
    return counted_so_far(client, "baohuang_rate_limited_total", limit)


def fallbacks_so_far(client: Any, limit: str) -> float:
    """``baohuang_rate_limit_fallback_total`` of ``limit`` (see :func:`counted_so_far`)."""
    return counted_so_far(client, "baohuang_rate_limit_fallback_total", limit)


def limits(response: Any) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k in RATELIMIT_HEADERS}


def assert_rate_limited(response: Any, limit: int, window: int) -> int:
    """A 429 problem with every header; returns its Retry-After."""
    assert_problem(response, 429, "RATE_LIMITED")
    headers = response.headers
    assert headers["ratelimit-limit"] == str(limit)
    assert headers["ratelimit-remaining"] == "0"
    assert headers["ratelimit-policy"] == f"{limit};w={window}"
    assert 1 <= int(headers["ratelimit-reset"]) <= window
    retry_after = int(headers["retry-after"])
    assert 1 <= retry_after <= window
    return retry_after


# --------------------------------------------------------------------------------- in memory


def test_rates_parse_and_bad_ones_stop_the_start() -> None:
    assert parse_rate("tables", "600/minute", "X") == Rate("tables", 600, 60)
    assert parse_rate("tables", " 5 / Seconds ", "X") == Rate("tables", 5, 1)
    assert parse_rate("tables", "10/hour", "X").policy == "10;w=3600"
    for bad in ("600", "600/day", "0/minute", "-1/second", "many/minute", "600/min"):
        with pytest.raises(ValueError, match="X="):
            parse_rate("tables", bad, "X")
    with pytest.raises(ValueError, match="BAOHUANG_RATE_LIMIT="):
        create_app(Settings(rate_limit="lots"))
    settings = Settings.from_env(
        {"BAOHUANG_RATE_LIMIT": "600/minute", "BAOHUANG_RATE_LIMIT_STATELESS": " "}
    )
    assert (settings.rate_limit, settings.rate_limit_stateless) == ("600/minute", None)


def test_off_by_default_no_headers() -> None:
    with TestClient(create_app(Settings())) as client:
        response = client.post("/v1/combos/classify", json=CLASSIFY)
        assert response.status_code == 200 and not limits(response)


def test_table_routes_per_platform_key_and_seat_token() -> None:
    settings = Settings(api_keys=(KEY_A, KEY_B), token_secret="s", rate_limit="3/minute")
    with TestClient(create_app(settings)) as client:
        before = refused_so_far(client, "tables")
        created = client.put("/v1/tables/t1", json={"snapshot": SNAPSHOT}, headers=bearer(KEY_A))
        assert created.status_code == 201
        assert limits(created) == {
            "ratelimit-limit": "3",
            "ratelimit-remaining": "2",
            "ratelimit-reset": "20",
            "ratelimit-policy": "3;w=60",
        }
        remaining = [
            client.get("/v1/tables/t1", headers=bearer(KEY_A)).headers["ratelimit-remaining"]
            for _ in range(2)
        ]
        assert remaining == ["1", "0"]
        refused = client.get("/v1/tables/t1", headers=bearer(KEY_A))
        assert 15 <= assert_rate_limited(refused, 3, 60) <= 20  # one request back every 20 s
        # Another key, and each seat token, has its own budget; refusals cost nothing.
        assert client.get("/v1/tables/t1", headers=bearer(KEY_B)).status_code == 200
        seat = created.json()["seat_tokens"][2]
        assert client.get("/v1/tables/t1/seats/2", headers=bearer(seat)).status_code == 200
        # A credential that is not valid spends the address's budget (and is 401 while it has
        # budget); a token of another table is not valid here either.
        other = client.put("/v1/tables/t9", json={"snapshot": SNAPSHOT}, headers=bearer(KEY_B))
        foreign = other.json()["seat_tokens"][2]
        assert client.get("/v1/tables/t1", headers=bearer("junk")).status_code == 401
        assert client.get("/v1/tables/t1", headers=bearer(f"x{uuid.uuid4()}")).status_code == 401
        assert client.get("/v1/tables/t1/seats/2", headers=bearer(foreign)).status_code == 401
        assert_rate_limited(client.get("/v1/tables/t1", headers=bearer(f"y{uuid.uuid4()}")), 3, 60)
        # The stateless routes have no limit of their own here.
        stateless = client.post("/v1/combos/classify", json=CLASSIFY, headers=bearer(KEY_A))
        assert stateless.status_code == 200 and not limits(stateless)
        assert refused_so_far(client, "tables") == before + 2
        metrics = client.get("/metrics").text
        assert (
            'baohuang_http_requests_total{method="GET",route="/v1/tables/{table_id}",status="429"}'
            in metrics
        )


def test_stateless_routes_by_platform_key_else_by_address() -> None:
    settings = Settings(rate_limit_stateless="2/second", api_keys=(KEY_A,))
    with TestClient(create_app(settings)) as client:
        assert [client.post("/v1/combos/classify", json=CLASSIFY).status_code for _ in "ab"] == [
            200,
            200,
        ]
        assert_rate_limited(client.post("/v1/combos/classify", json=CLASSIFY), 2, 1)
        # Every stateless route shares the caller's budget; a platform key has its own.
        assert_rate_limited(client.get("/v1/rulesets"), 2, 1)
        assert client.get("/v1/rulesets", headers=bearer(KEY_A)).status_code == 200
        # The table routes have no limit here.
        table = client.put("/v1/tables/t2", json={"snapshot": SNAPSHOT}, headers=bearer(KEY_A))
        assert table.status_code == 201 and not limits(table)
        time.sleep(0.6)  # 2/second: one request back every 0.5 s
        assert client.post("/v1/combos/classify", json=CLASSIFY).status_code == 200


def test_invented_bearers_spend_the_budget_of_their_address() -> None:
    """A fresh invented bearer per request gets no fresh budget: it is the address's (per hour,
    so that nothing comes back while the test runs)."""
    settings = Settings(rate_limit_stateless="3/hour", api_keys=(KEY_A,))
    with TestClient(create_app(settings)) as client:
        answers = [
            client.get("/v1/rulesets", headers=bearer(f"x{uuid.uuid4()}")).status_code
            for _ in range(10)
        ]
        assert answers == [200] * 3 + [429] * 7
        assert_rate_limited(client.get("/v1/rulesets"), 3, 3600)  # the same budget
        assert client.get("/v1/rulesets", headers=bearer(KEY_A)).status_code == 200


def test_operations_routes_are_never_limited() -> None:
    settings = Settings(rate_limit="1/hour", rate_limit_stateless="1/hour")
    with TestClient(create_app(settings)) as client:
        client.get("/v1/rulesets")
        client.get("/v1/tables/none")
        assert client.get("/v1/rulesets").status_code == 429
        assert client.get("/v1/tables/none").status_code == 429
        for path in ("/healthz", "/readyz", "/metrics", "/schema/openapi.json"):
            for _ in range(5):
                response = client.get(path)
                assert response.status_code < 400, (path, response.status_code)
                assert not limits(response), path


def test_memory_buckets_refill_at_the_rate() -> None:
    buckets = MemoryBuckets()
    rate = Rate("t", 4, 1)
    assert [buckets.take("k", rate).remaining for _ in range(4)] == [3, 2, 1, 0]
    refused = buckets.take("k", rate)
    assert not refused.allowed and 0 < refused.retry_after <= 0.25
    time.sleep(0.3)
    assert buckets.take("k", rate).allowed
    assert buckets.take("other", rate).remaining == 3


def test_memory_buckets_sweep_only_once_they_have_doubled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client inventing keys must not make every request scan every bucket: with all callers
    still refilling, sweeps come at 100, 200, 400, 800 buckets (not at each new one past 100),
    and buckets that are full again are still dropped by the next sweep."""
    monkeypatch.setattr("baohuang.http.ratelimit.MEMORY_SWEEP_AT", 100)
    clock = [1000.0]
    monkeypatch.setattr("baohuang.http.ratelimit.time.monotonic", lambda: clock[0])
    buckets = MemoryBuckets()
    sweeps: list[int] = []
    sweep = buckets._sweep

    def counted(now: float) -> None:
        sweeps.append(len(buckets._full_at))
        sweep(now)

    monkeypatch.setattr(buckets, "_sweep", counted)
    rate = Rate("t", 1, 3600)  # each caller's one request keeps its bucket refilling an hour
    for n in range(1000):
        assert buckets.take(f"caller-{n}", rate).allowed
    assert sweeps == [100, 200, 400, 800]
    assert len(buckets._full_at) == 1000
    assert not buckets.take("caller-0", rate).allowed  # nothing live was dropped

    clock[0] += 3601  # the first 1,000 are full again: the sweep at 1,600 drops just them
    for n in range(1000, 1601):
        assert buckets.take(f"caller-{n}", rate).allowed
    assert sweeps == [100, 200, 400, 800, 1600]
    assert len(buckets._full_at) == 601
    assert buckets.take("caller-0", rate).allowed  # a new bucket again: it had been dropped

    # An hour on, callers one a second, each bucket full again a second later: the sweep at
    # 2 × 600 drops every bucket, and the next waits for MEMORY_SWEEP_AT again, not for 2 × 0.
    clock[0] += 3601
    second = Rate("s", 1, 1)
    for n in range(1601, 2299):
        clock[0] += 1
        buckets.take(f"caller-{n}", second)
    assert sweeps == [100, 200, 400, 800, 1600, 1200]
    assert len(buckets._full_at) == 100
    clock[0] += 1
    buckets.take("caller-2299", second)
    assert sweeps == [100, 200, 400, 800, 1600, 1200, 100]
    assert len(buckets._full_at) == 1


# ------------------------------------------------------------------------------ in Redis


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """``REDIS_URL`` (keys under a prefix of this test's) or a redis-server of this module."""
    url = shared_redis_url()
    if url is not None:
        yield url
        return
    with RedisServer.from_environment() as own:
        yield own.url


def _prefix() -> str:
    return f"test:ratelimit:{uuid.uuid4().hex}:"


@pytest.mark.redis
def test_two_replicas_spend_one_budget(redis_url: str) -> None:
    """Two app instances (two replicas, in effect) on one Redis: 4 requests a minute in all."""
    settings = Settings(
        redis_url=redis_url,
        api_keys=(KEY_A,),
        token_secret="s",
        rate_limit="4/minute",
        rate_limit_stateless="4/minute",
        rate_limit_prefix=_prefix(),
    )
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        assert one.app is not two.app
        fallbacks_before = fallbacks_so_far(one, "tables")
        answers = [
            replica.get("/v1/tables/missing", headers=bearer(KEY_A))
            for replica in (one, two, one, two)
        ]
        assert [a.status_code for a in answers] == [404] * 4
        assert [a.headers["ratelimit-remaining"] for a in answers] == ["3", "2", "1", "0"]
        retry_after = assert_rate_limited(
            one.get("/v1/tables/missing", headers=bearer(KEY_A)), 4, 60
        )
        assert 10 <= retry_after <= 15
        assert_rate_limited(two.get("/v1/tables/missing", headers=bearer(KEY_A)), 4, 60)
        # The stateless budget is a separate one, shared the same way.
        stateless = [
            replica.post("/v1/combos/classify", json=CLASSIFY, headers=bearer(KEY_A))
            for replica in (two, one, two, one)
        ]
        assert [s.headers["ratelimit-remaining"] for s in stateless] == ["3", "2", "1", "0"]
        assert_rate_limited(
            two.post("/v1/combos/classify", json=CLASSIFY, headers=bearer(KEY_A)), 4, 60
        )
        for replica in (one, two):
            assert replica.get("/healthz").status_code == 200
            assert replica.get("/readyz").status_code == 200
        # Every answer came from Redis: none fell back to a replica's own memory.
        assert fallbacks_so_far(one, "tables") == fallbacks_before


@pytest.mark.redis
def test_redis_keys_hold_no_credential(redis_url: str) -> None:
    from redis import Redis

    prefix = _prefix()
    settings = Settings(
        redis_url=redis_url,
        api_keys=(KEY_A,),
        rate_limit_stateless="5/hour",  # the key lives 12 minutes: the scan finds it
        rate_limit_prefix=prefix,
    )
    with TestClient(create_app(settings)) as client:
        client.post("/v1/combos/classify", json=CLASSIFY, headers=bearer(KEY_A))
    raw = Redis.from_url(redis_url)
    try:
        keys = [k.decode() for k in raw.scan_iter(match=f"{prefix}*", count=100)]
        assert len(keys) == 1 and KEY_A not in keys[0]
        assert keys[0].startswith(f"{prefix}stateless:")
        assert 0 < raw.pttl(keys[0]) <= 720_000  # gone once the bucket is full again (3600/5 s)
    finally:
        raw.close()


@pytest.mark.redis
def test_invented_bearers_spend_the_failed_authentications_of_their_address(
    redis_url: str,
) -> None:
    """200 garbage bearers on the table routes: 401 while the address has failures left, 429
    after, one Redis key for the address and none per bearer; a platform key from the same
    address is not held back by them (tests/http/test_one_caller.py sends 1,000 to a real
    process)."""
    from redis import Redis

    prefix = _prefix()
    settings = Settings(
        redis_url=redis_url,
        api_keys=(KEY_A,),
        token_secret="s",
        rate_limit_auth_failures="20/hour",  # none back while the test runs
        rate_limit_prefix=prefix,
    )
    path = f"/v1/tables/failures-{uuid.uuid4().hex[:12]}"  # a new table on a Redis that lasts
    with TestClient(create_app(settings)) as client:
        created = client.put(path, json={"snapshot": SNAPSHOT}, headers=bearer(KEY_A))
        assert created.status_code == 201 and not limits(created)  # no limit for a platform key
        answers = [
            client.get(path, headers=bearer(f"x{uuid.uuid4()}")).status_code for _ in range(200)
        ]
        assert answers[:20] == [401] * 20 and set(answers[20:]) == {429}
        assert_rate_limited(client.get(path), 20, 3600)  # no credential: a failure too
        assert_rate_limited(client.get(path, headers={"authorization": "Basic a"}), 20, 3600)
        refused = client.get(path, headers=bearer("junk"))
        assert (
            "missing or unknown credential"
            in assert_problem(refused, 429, "RATE_LIMITED")["detail"]
        )
        assert client.get(path, headers=bearer(KEY_A)).status_code == 200
        seat = created.json()["seat_tokens"][0]
        assert client.get(f"{path}/seats/0", headers=bearer(seat)).status_code == 200
        assert client.post("/v1/combos/classify", json=CLASSIFY).status_code == 200  # stateless
    raw = Redis.from_url(redis_url)
    try:
        keys = [k.decode() for k in raw.scan_iter(match=f"{prefix}*", count=1000)]
        assert len(keys) == 1 and keys[0].startswith(f"{prefix}auth_failures:"), keys
    finally:
        raw.close()


@pytest.mark.redis
def test_gcra_in_redis_refills_at_the_rate(redis_url: str) -> None:
    settings = Settings(
        redis_url=redis_url, rate_limit_stateless="4/second", rate_limit_prefix=_prefix()
    )
    with TestClient(create_app(settings)) as client:
        answers = [client.get("/v1/rulesets") for _ in range(5)]
        assert [a.status_code for a in answers] == [200, 200, 200, 200, 429]
        assert answers[-1].headers["retry-after"] == "1"  # 0.25 s, rounded up
        time.sleep(0.3)
        assert client.get("/v1/rulesets").status_code == 200


@pytest.mark.redis
def test_redis_down_counts_per_process_and_keeps_serving() -> None:
    """A rate limit is protection, not truth: with Redis gone the stateless routes still answer
    (counted in memory, so still limited) and recover to Redis when it is back."""
    with RedisServer.from_environment() as own:
        settings = Settings(
            redis_url=own.url, rate_limit_stateless="3/minute", rate_limit_prefix=_prefix()
        )
        with TestClient(create_app(settings)) as client:
            fallbacks_before = fallbacks_so_far(client, "stateless")
            assert client.get("/v1/rulesets").headers["ratelimit-remaining"] == "2"
            own.kill()
            statuses = [client.get("/v1/rulesets").status_code for _ in range(4)]
            assert statuses == [200, 200, 200, 429]  # a fresh in-memory bucket of 3
            assert fallbacks_so_far(client, "stateless") > fallbacks_before
            own.start()
            time.sleep(1.1)  # the fallback lasts a second, then Redis is tried again
            # The restarted Redis is empty: a full bucket there, not the in-memory one.
            assert client.get("/v1/rulesets").headers["ratelimit-remaining"] == "2"


@pytest.mark.parametrize("limit", [1, 3, 7, 600])
@pytest.mark.parametrize("now", [2450.746361192699, 123456.789, 4928.427470518617])
def test_the_whole_budget_is_there_whatever_the_float_rounding(
    monkeypatch: pytest.MonkeyPatch, limit: int, now: float
) -> None:
    """n intervals of window / n must never add up to more than the window: at these clock
    readings (now + 3600) - now > 3600, and 600 × 0.1 s add up to more than 60 s, in floats."""
    monkeypatch.setattr("baohuang.http.ratelimit.time.monotonic", lambda: now)
    for window in (1, 60, 3600):
        buckets = MemoryBuckets()
        rate = Rate("t", limit, window)
        assert all(buckets.take("k", rate).allowed for _ in range(limit)), (limit, window)
        assert not buckets.take("k", rate).allowed
