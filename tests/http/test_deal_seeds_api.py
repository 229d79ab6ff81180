"""``/v1/deal`` seeds (docs/rules.md G-4): any integer, read modulo 2**64 as documented."""

from __future__ import annotations

from typing import Any

import pytest

from .problem_checks import assert_problem

Client = Any
MOD = 2**64


def deal(client: Client, seed: int, dealer: int = 0) -> dict[str, Any]:
    body = b'{"seed": %d, "dealer": %d}' % (seed, dealer)  # exact digits, whatever the size
    response = client.post("/v1/deal", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_the_published_vector_is_unchanged(client: Client) -> None:
    dealt = deal(client, 1)
    assert dealt["crown"] == 4
    assert [hand[:6] for hand in dealt["hands"]] == [
        ["SJ", "2H", "2C", "2C", "2D", "AH"],
        ["SJ", "2S", "2D", "2D", "AS", "AD"],
        ["BJ", "BJ", "2S", "2S", "2H", "2C"],
        ["BJ", "2H", "2D", "AS", "AS", "AC"],
        ["BJ*", "SJ", "SJ", "2S", "2H", "2C"],
    ]


@pytest.mark.parametrize(
    "seed",
    [2**63, 2**63 + 1, MOD - 1, MOD, MOD + 1, 10**30, 2**200 + 7, -1, -(2**63), -(2**63) - 1, -MOD],
)
def test_every_integer_seed_deals_as_its_value_modulo_2_64(client: Client, seed: int) -> None:
    assert deal(client, seed, 3) == deal(client, seed % MOD, 3)


def test_seeds_that_name_the_same_state_deal_the_same_hands(client: Client) -> None:
    assert deal(client, -1) == deal(client, MOD - 1)
    assert deal(client, MOD + 5) == deal(client, 5)
    assert deal(client, 2**63)["hands"] != deal(client, 2**63 - 1)["hands"]


@pytest.mark.parametrize("raw", [b"1.0", b"1e3", b'"1"', b"true", b"null", b"1" + b"0" * 5000])
def test_a_seed_that_is_not_an_integer_is_400(client: Client, raw: bytes) -> None:
    response = client.post(
        "/v1/deal",
        content=b'{"seed": ' + raw + b', "dealer": 0}',
        headers={"content-type": "application/json"},
    )
    assert_problem(response, 400, "INVALID_FIELD", "$.seed")


def test_openapi_documents_an_unbounded_integer_seed(client: Client) -> None:
    document = client.get("/schema/openapi.json").json()
    seed = document["components"]["schemas"]["DealRequest"]["properties"]["seed"]
    assert seed["type"] == "integer"
    assert "minimum" not in seed and "maximum" not in seed
    assert "2**64" in seed["description"]
