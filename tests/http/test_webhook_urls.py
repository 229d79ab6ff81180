"""A webhook URL may not point inside (docs/clients.md "Webhooks"): every internal address form,
credentials, control characters and other schemes are refused at ``PUT`` with one problem, and
the table stays as it was. No test here connects anywhere: the refused URLs are only judged, and
the accepted ones name events these tables never log.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from table_support import SMALL_BODY

from .problem_checks import assert_problem

KEY = "platform-key"
PLATFORM = {"Authorization": f"Bearer {KEY}"}
NEVER = ["deal_over"]  # SMALL is one deal in play: nothing is delivered while these tests run

INSIDE = [
    "http://127.0.0.1/hook",
    "http://127.0.0.1:6379/",
    "http://169.254.169.254/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://[::1]/hook",
    "http://0x7f000001/hook",
    "http://2130706433/hook",
    "http://0177.0.0.1/hook",
    "http://127.1/hook",
    "http://10.0.0.1/hook",
    "http://172.16.0.1/hook",
    "http://192.168.1.1/hook",
    "http://100.64.0.1/hook",
    "http://[fd00::1]/hook",
    "http://[fd00:ec2::254]/",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://localhost/hook",
    "http://LOCALHOST./hook",
    "http://api.localhost/hook",
    "http://0.0.0.0/hook",
    "http://[::]/hook",
    "http://224.0.0.1/hook",
    "http://240.0.0.1/hook",
    "http://[fe80::1]/hook",
    "http://169.254.1.1/hook",
    "http://100.100.100.200/latest/meta-data/",
    "http://168.63.129.16/machine",
]
MALFORMED = [
    "http://user:pass@hooks.example.com/hook",
    "http://user@hooks.example.com/hook",
    "http://hooks.example.com\\@127.0.0.1/hook",
    "http://hooks.example.com/hook\r\nX-Injected: 1",
    "http://hooks.example.com/ho ok",
    "http://hooks.example.com/\thook",
    "ftp://hooks.example.com/hook",
    "file:///etc/passwd",
    "gopher://127.0.0.1:6379/_INFO",
    "http:///hook",
    "http://hooks.example.com:99999/hook",
    "http://[::1/hook",
    "http://[zz]/hook",
    "http://hooks.example.com/\u2028hook",
    "http://hooks\u00a0example.com/hook",
    "http://hooks.example.com/\u200bhook",
]
ALWAYS_INSIDE = [  # refused even where private targets are allowed
    "http://169.254.169.254/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://[fd00:ec2::254]/",
    "http://100.100.100.200/latest/meta-data/",
    "http://168.63.129.16/machine",
    "http://[::ffff:169.254.169.254]/",
    "http://[fe80::1]/hook",
    "http://0.0.0.0/hook",
    "http://224.0.0.1/hook",
    "http://0x7f000001/hook",
]


def _client(allow_private: bool) -> TestClient:  # type: ignore[type-arg]
    settings = Settings(
        api_keys=(KEY,),
        token_secret="urls",
        webhook_secret="hooks",
        webhook_allow_private=allow_private,
    )
    return TestClient(create_app(settings))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:  # type: ignore[type-arg]
    with _client(allow_private=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def private_client() -> Iterator[TestClient]:  # type: ignore[type-arg]
    with _client(allow_private=True) as test_client:
        yield test_client


def _refused(client: TestClient, table_id: str, url: str) -> None:  # type: ignore[type-arg]
    """``url`` is refused with the one problem, and the table written before is untouched."""
    before = client.put(f"/v1/tables/{table_id}", json={"snapshot": SMALL_BODY}, headers=PLATFORM)
    assert before.status_code in (200, 201), before.text
    tag = client.get(f"/v1/tables/{table_id}", headers=PLATFORM).headers["etag"]
    body = {"snapshot": SMALL_BODY, "webhook": {"url": url, "events": NEVER}}
    refused = client.put(f"/v1/tables/{table_id}", json=body, headers=PLATFORM)
    assert_problem(refused, 422, "WEBHOOK_URL_REFUSED", "$.webhook.url")
    assert client.get(f"/v1/tables/{table_id}", headers=PLATFORM).headers["etag"] == tag


@pytest.mark.parametrize("url", INSIDE + MALFORMED)
def test_a_webhook_url_inside_or_malformed_is_refused_at_put(
    client: TestClient,  # type: ignore[type-arg]
    url: str,
) -> None:
    _refused(client, "refused", url)


@pytest.mark.parametrize("url", ALWAYS_INSIDE + MALFORMED)
def test_allowing_private_targets_never_allows_metadata_link_local_or_odd_forms(
    private_client: TestClient,  # type: ignore[type-arg]
    url: str,
) -> None:
    _refused(private_client, "still-refused", url)


def test_a_public_address_is_accepted_and_private_ones_only_where_allowed(
    client: TestClient,  # type: ignore[type-arg]
    private_client: TestClient,  # type: ignore[type-arg]
) -> None:
    public = {
        "snapshot": SMALL_BODY,
        "webhook": {"url": "https://93.184.216.34/h", "events": NEVER},
    }
    assert client.put("/v1/tables/public", json=public, headers=PLATFORM).status_code == 201
    for url in ("http://127.0.0.1:9/hook", "http://10.0.0.1/hook", "http://localhost/hook"):
        body = {"snapshot": SMALL_BODY, "webhook": {"url": url, "events": NEVER}}
        answer = private_client.put("/v1/tables/private", json=body, headers=PLATFORM)
        assert answer.status_code in (200, 201), answer.text
