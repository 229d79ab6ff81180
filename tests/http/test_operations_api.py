"""/healthz, /readyz, /metrics and the OpenAPI document (docs/clients.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baohuang import cli

Client = Any
ROOT = Path(__file__).resolve().parents[2]


def test_healthz_and_readyz(client: Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ok"}


def _sample(text: str, series: str) -> float:
    """The value of one series in a Prometheus exposition (0 when it is not there yet)."""
    for line in text.splitlines():
        name, _, value = line.rpartition(" ")
        if name == series:
            return float(value)
    return 0.0


def test_metrics_expose_engine_time_requests_and_verdicts(client: Client) -> None:
    batch_ok = 'baohuang_verdicts_total{code="OK",operation="batch"}'
    before = _sample(client.get("/metrics").text, batch_ok)
    client.post("/v1/combos/compare", json={"previous": ["7S"], "candidate": ["6S"]})
    client.post("/v1/combos/compare-batch",
                json={"pairs": [{"previous": ["7S"], "candidate": ["8S"]}] * 3})  # fmt: skip
    text = client.get("/metrics").text
    assert 'baohuang_engine_seconds_bucket{le="1e-06",operation="compare"}' in text
    assert 'baohuang_engine_seconds_count{operation="batch"}' in text
    assert (
        'baohuang_http_requests_total{method="POST",route="/v1/combos/compare",status="200"}'
        in text
    )
    assert 'baohuang_verdicts_total{code="NOT_HIGHER",operation="compare"}' in text
    # A batch of three verdicts counts three (the registry is the process's: count the change).
    assert _sample(text, batch_ok) - before == 3.0


def test_metrics_group_unmatched_paths(client: Client) -> None:
    client.get("/no/such/path/12345")
    text = client.get("/metrics").text
    assert "/no/such/path/12345" not in text
    assert 'route="unmatched"' in text


def test_openapi_served_documents_request_bodies_and_problems(client: Client) -> None:
    document = client.get("/schema/openapi.json").json()
    compare = document["paths"]["/v1/combos/compare"]["post"]
    assert compare["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CompareRequest"
    }
    problem = compare["responses"]["422"]["content"]["application/problem+json"]["schema"]
    assert problem == {"$ref": "#/components/schemas/ProblemDocument"}
    assert "errors" in document["components"]["schemas"]["ProblemDocument"]["properties"]


def test_committed_openapi_matches_the_service(capsys: pytest.CaptureFixture[str]) -> None:
    """``baohuang openapi``'s own code, run in this process: a process of its own would import
    the service again for the same document (a second of CPU)."""
    assert cli.main(["openapi"]) == 0
    printed = capsys.readouterr().out
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    assert json.loads(printed) == committed, "openapi/openapi.json is stale: run `baohuang openapi`"


def test_root_points_a_person_at_the_api_reference(client: Client) -> None:
    from baohuang import __version__

    response = client.get("/")
    assert response.status_code == 200
    assert response.json() == {
        "name": "baohuang-rules",
        "version": __version__,
        "docs": "/schema",
        "swagger": "/schema/swagger",
        "openapi": "/schema/openapi.json",
    }
    for path in ("docs", "swagger", "openapi"):
        assert client.get(response.json()[path]).status_code == 200
    # A browser asks for HTML: it is sent to the reference itself.
    browser = client.get(
        "/", headers={"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}, follow_redirects=False
    )
    assert browser.status_code == 302 and browser.headers["location"] == "/schema"
    document = client.get("/schema/openapi.json").json()
    assert set(document["paths"]["/"]["get"]["responses"]) >= {"200", "302"}
    text = client.get("/metrics").text
    assert 'baohuang_http_requests_total{method="GET",route="/",status="200"}' in text
