"""Request ids and the access log (one structured line per request on ``baohuang.access``).

Under pytest the root logger has handlers, so the service leaves logging alone and access lines
are ``LogRecord``s (caught here with ``caplog``); the service's own writer, used when nobody
configured logging (``baohuang serve``), is installed explicitly with ``force=True`` and a
stream of the test's.
"""

from __future__ import annotations

import io
import json
import logging
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.http.access import new_request_id, request_id_from
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from baohuang.logs import AccessLine, LineWriter, configure_logging, reset_logging
from table_support import SMALL_BODY

from .problem_checks import assert_problem

KEY = "platform-key-never-logged"
SECRET = "token-secret-never-logged"
TABLE = "secret-table-id-7"
HEX32 = re.compile(r"^[0-9a-f]{32}$")
SNAPSHOT = SMALL_BODY
ACCESS_FIELDS = {"method", "route", "status", "duration_ms", "request_id"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:  # type: ignore[type-arg]
    settings = Settings(api_keys=(KEY,), token_secret=SECRET)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _exercise(client: Any) -> dict[str, str]:
    """A table's life with every kind of secret in play; returns the seat token used."""
    platform = {"authorization": f"Bearer {KEY}"}
    created = client.put(f"/v1/tables/{TABLE}", json={"snapshot": SNAPSHOT}, headers=platform)
    assert created.status_code == 201, created.text
    seat = created.json()["seat_tokens"][0]
    move = {"move": {"seat": 0, "action": "play", "cards": ["7S", "7H"]}, "version": 1}
    answer = client.post(
        f"/v1/tables/{TABLE}/moves", json=move, headers={"authorization": f"Bearer {seat}"}
    )
    assert answer.status_code == 200, answer.text
    client.get(f"/v1/tables/{TABLE}", headers={"authorization": "Bearer not-a-key"})
    client.post("/v1/combos/classify", json={"cards": ["BJ", "QQ"]})
    client.get(f"/no/such/{TABLE}")
    return {"seat": seat}


# ------------------------------------------------------------------------------ request ids


def test_a_request_id_is_generated_as_uuid4_hex(client: Any) -> None:
    ids = {client.get("/healthz").headers["x-request-id"] for _ in range(3)}
    assert len(ids) == 3
    for request_id in ids:
        assert HEX32.match(request_id) and request_id[12] == "4" and request_id[16] in "89ab"
    assert HEX32.match(new_request_id())


@pytest.mark.parametrize(
    "sent", ["abc-123", "Root=1-5759e988;Parent=53995c3f;Sampled=1", "x" * 128, "a/b:c@d~e+f"]
)
def test_a_client_request_id_is_kept(client: Any, sent: str) -> None:
    response = client.get("/healthz", headers={"x-request-id": sent})
    assert response.headers["x-request-id"] == sent
    problem = client.get("/v1/rulesets/nope", headers={"x-request-id": sent})
    document = assert_problem(problem, 404, "UNKNOWN_RULESET")
    assert document["instance"] == f"urn:request:{sent}"


@pytest.mark.parametrize(
    "sent",
    ["", "x" * 129, "has space", 'quote"d', "back\\slash", "<script>", "per%cent", "ha#sh", "q?s"],
)
def test_an_unusable_request_id_is_replaced(client: Any, sent: str) -> None:
    response = client.get("/healthz", headers={"x-request-id": sent})
    assert HEX32.match(response.headers["x-request-id"]), response.headers


def test_request_id_from_raw_headers() -> None:
    assert request_id_from([(b"x-request-id", b"ok-1")]) == "ok-1"
    assert HEX32.match(request_id_from([(b"x-request-id", "é".encode())]))
    assert HEX32.match(request_id_from([(b"x-request-id", b"tab\there")]))
    assert HEX32.match(request_id_from([(b"x-request-id", b"\x7f")]))
    assert HEX32.match(request_id_from([]))


def test_every_problem_names_its_request(client: Any) -> None:
    for response in (
        client.get("/no/such/path"),  # 404 before routing
        client.post("/v1/combos/classify", content=b"{"),  # 400
        client.post("/v1/combos/classify", json={"cards": ["QQ"]}),  # 422
        client.get(f"/v1/tables/{TABLE}-x"),  # 401 (keys configured)
        client.delete("/healthz"),  # 405
    ):
        document = response.json()
        assert document["instance"] == f"urn:request:{response.headers['x-request-id']}"


# ----------------------------------------------------------------------- access log records


def test_one_access_record_per_request_without_secrets(
    client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="baohuang.access"):
        caplog.clear()
        secrets = _exercise(client)
        records = [r for r in caplog.records if r.name == "baohuang.access"]
    assert [(r.method, r.route, r.status) for r in records] == [  # type: ignore[attr-defined]
        ("PUT", "/v1/tables/{table_id}", 201),
        ("POST", "/v1/tables/{table_id}/moves", 200),
        ("GET", "/v1/tables/{table_id}", 401),
        ("POST", "/v1/combos/classify", 422),
        ("GET", "unmatched", 404),
    ]
    for record in records:
        fields = {name: getattr(record, name) for name in ACCESS_FIELDS}
        assert isinstance(fields["duration_ms"], float) and fields["duration_ms"] >= 0
        assert HEX32.match(fields["request_id"])
        text = record.getMessage() + json.dumps(fields)
        for secret in (KEY, SECRET, secrets["seat"], "not-a-key", TABLE, "7S", "QQ", "snapshot"):
            assert secret not in text, (secret, text)


def test_access_log_off(caplog: pytest.LogCaptureFixture) -> None:
    with (
        TestClient(create_app(Settings(access_log=False))) as quiet,
        caplog.at_level(logging.INFO, logger="baohuang.access"),
    ):
        caplog.clear()
        response = quiet.get("/healthz")
        assert response.headers["x-request-id"]  # ids do not depend on the log
        assert not [r for r in caplog.records if r.name == "baohuang.access"]


def test_log_level_above_info_silences_the_access_log(caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(Settings(log_level="WARNING"))) as quiet:
        caplog.clear()
        quiet.get("/healthz")
        assert not [r for r in caplog.records if r.name == "baohuang.access"]
    logging.getLogger("baohuang").setLevel(logging.INFO)


# ------------------------------------------------------------- the service's own log writer


@pytest.fixture
def own_writer() -> Iterator[tuple[io.StringIO, LineWriter]]:
    stream = io.StringIO()
    writer = configure_logging("INFO", "json", stream=stream, force=True)
    assert writer is not None
    try:
        yield stream, writer
    finally:
        reset_logging()


def test_json_lines_on_the_services_own_writer(own_writer: tuple[io.StringIO, LineWriter]) -> None:
    stream, writer = own_writer
    app = create_app(Settings(api_keys=(KEY,), token_secret=SECRET))
    with TestClient(app) as own:
        secrets = _exercise(own)
        sent = own.get("/healthz", headers={"x-request-id": "trace-42"})
    assert writer.flush()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    access = [line for line in lines if line["logger"] == "baohuang.access"]
    assert len(access) == 6
    for line in access:
        assert set(line) == {"time", "level", "logger", "message"} | ACCESS_FIELDS
        assert abs(line["time"] - time.time()) < 60  # Unix seconds
        assert line["level"] == "INFO" and isinstance(line["duration_ms"], float)
    assert access[-1]["request_id"] == "trace-42" == sent.headers["x-request-id"]
    assert [line["route"] for line in access][:2] == [
        "/v1/tables/{table_id}",
        "/v1/tables/{table_id}/moves",
    ]
    everything = stream.getvalue()
    for secret in (KEY, SECRET, secrets["seat"], "not-a-key", TABLE, "7S", "QQ"):
        assert secret not in everything, secret
    # Other service logs go the same way, as JSON (the start-up warning about open routes is
    # not there: keys are configured; the token secret is set too).
    logging.getLogger("baohuang.http").warning("disk %s", "full")
    assert writer.flush()
    last = json.loads(stream.getvalue().splitlines()[-1])
    assert {k: last[k] for k in ("level", "logger", "message")} == {
        "level": "WARNING",
        "logger": "baohuang.http",
        "message": "disk full",
    }


def test_text_lines(own_writer: tuple[io.StringIO, LineWriter]) -> None:
    stream, writer = own_writer
    with TestClient(create_app(Settings(log_format="text"))) as own:
        own.get("/healthz", headers={"x-request-id": "t-1"})
    assert writer.flush()
    line = stream.getvalue().splitlines()[-1]
    assert re.match(
        r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO baohuang\.access GET /healthz 200 "
        r"\d+\.\d{3}ms request_id=t-1$",
        line,
    ), line


def test_a_stalled_stdout_drops_lines_instead_of_blocking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = threading.Event()

    class Stalled(io.StringIO):
        def write(self, text: str) -> int:
            release.wait(5)
            return super().write(text)

    monkeypatch.setattr("baohuang.logs.MAX_QUEUED", 10)
    stream = Stalled()
    writer = LineWriter(stream, "json")
    try:
        for n in range(50):  # never blocks: the writer is stuck on its first write
            writer.put(
                AccessLine(0.0, "INFO", "baohuang.access", "request", "GET", "/", 200, 1.0, f"{n}")
            )
        release.set()
        assert writer.flush()
    finally:
        writer.close()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert 10 <= len([x for x in lines if x["logger"] == "baohuang.access"]) <= 12
    assert "log lines dropped" in lines[-1]["message"]


def test_settings_from_the_environment() -> None:
    settings = Settings.from_env({"LOG_FORMAT": "TEXT", "BAOHUANG_ACCESS_LOG": "off"})
    assert (settings.log_format, settings.access_log) == ("text", False)
    settings = Settings.from_env({})
    assert (settings.log_format, settings.access_log) == ("json", True)
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        create_app(Settings(log_format="xml"))
