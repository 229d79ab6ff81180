"""CORS by configuration (``BAOHUANG_CORS_ORIGINS``), and the API reference from the package's
own files: a browser on another origin can call the API only when its origin is listed, and the
reference pages load nothing from any other host."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from table_support import SMALL_BODY

APP_ORIGIN = "https://play.example"
PREFLIGHT = {
    "Origin": APP_ORIGIN,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
}


@pytest.fixture(scope="module")
def cors_client() -> Iterator[TestClient[Any]]:
    settings = Settings.from_env({"BAOHUANG_CORS_ORIGINS": f"{APP_ORIGIN}, http://localhost:5173"})
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _access_control(headers: Any) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower().startswith("access-control-")}


def test_a_preflight_from_a_listed_origin_is_allowed(cors_client: TestClient[Any]) -> None:
    answer = cors_client.options("/v1/tables/room-1/moves", headers=PREFLIGHT)
    assert answer.status_code == 204
    assert answer.headers["access-control-allow-origin"] == APP_ORIGIN
    allowed = {h.strip().lower() for h in answer.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "last-event-id"} <= allowed
    methods = {m.strip() for m in answer.headers["access-control-allow-methods"].split(",")}
    assert {"GET", "POST", "PUT", "DELETE"} <= methods
    assert "Origin" in answer.headers["vary"]


def test_an_actual_request_from_a_listed_origin_may_read_the_answer(
    cors_client: TestClient[Any],
) -> None:
    created = cors_client.put(
        "/v1/tables/cors-1", json={"snapshot": SMALL_BODY}, headers={"Origin": APP_ORIGIN}
    )
    assert created.status_code == 201
    assert created.headers["access-control-allow-origin"] == APP_ORIGIN
    exposed = {h.strip() for h in created.headers["access-control-expose-headers"].split(",")}
    assert {"etag", "x-request-id", "retry-after", "ratelimit-remaining"} <= exposed
    # A problem is readable too: a client must see why it was refused.
    refused = cors_client.post(
        "/v1/tables/cors-1/moves",
        json={"move": {"seat": 1, "action": "pass"}, "version": 1},
        headers={"Origin": "http://localhost:5173"},
    )
    assert refused.status_code == 422
    assert refused.headers["access-control-allow-origin"] == "http://localhost:5173"


def test_an_origin_not_listed_gets_no_cors_and_no_plain_text_error(
    cors_client: TestClient[Any],
) -> None:
    preflight = cors_client.options(
        "/v1/combos/compare", headers={**PREFLIGHT, "Origin": "https://evil.example"}
    )
    assert preflight.status_code == 204
    assert _access_control(preflight.headers) == {}
    actual = cors_client.post(
        "/v1/combos/classify", json={"cards": ["7S"]}, headers={"Origin": "https://evil.example"}
    )
    assert actual.status_code == 200
    # Without Access-Control-Allow-Origin the browser keeps the answer from the page.
    assert "access-control-allow-origin" not in actual.headers


def test_cors_is_off_by_default(client: TestClient[Any]) -> None:
    preflight = client.options("/v1/combos/compare", headers=PREFLIGHT)
    assert preflight.status_code == 204
    assert _access_control(preflight.headers) == {}
    actual = client.post("/v1/combos/classify", json={"cards": ["7S"]}, headers=PREFLIGHT)
    assert _access_control(actual.headers) == {}


def test_any_origin_with_a_star() -> None:
    with TestClient(create_app(Settings.from_env({"BAOHUANG_CORS_ORIGINS": "*"}))) as any_client:
        answer = any_client.options("/v1/combos/compare", headers=PREFLIGHT)
        assert answer.headers["access-control-allow-origin"] == "*"


@pytest.mark.parametrize(
    "value",
    ["https://play.example/", "play.example", "https://play.example/app", "ftp://x.example"],
)
def test_a_value_that_is_no_origin_stops_the_start_up(value: str) -> None:
    with pytest.raises(ValueError, match="BAOHUANG_CORS_ORIGINS"):
        Settings.from_env({"BAOHUANG_CORS_ORIGINS": value})


# --------------------------------------------------------------------- the API reference

_REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^"')]*)""")


@pytest.mark.parametrize("page", ["/schema", "/schema/swagger"])
def test_the_api_reference_loads_only_this_services_files(
    client: TestClient[Any], page: str
) -> None:
    html = client.get(page)
    assert html.status_code == 200
    assert html.headers["content-type"].startswith("text/html")
    references = [a or b for a, b in _REFERENCE.findall(html.text)]
    # The script, the preset, the stylesheet and the icon, every one on this service.
    assert len(references) >= 4, references
    for reference in references:
        assert reference.startswith("/") and not reference.startswith("//"), reference
        served = client.get(reference)
        assert served.status_code == 200, reference
        assert len(served.content) > 500, reference
    assert "SwaggerUIBundle(" in html.text
    stylesheet = client.get("/schema/assets/swagger-ui.css").text
    for reference in _REFERENCE.findall(stylesheet):
        assert (reference[0] or reference[1]).startswith("data:"), reference


def test_an_asset_that_is_not_shipped_is_a_problem(client: TestClient[Any]) -> None:
    answer = client.get("/schema/assets/scalar.js")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/problem+json")
