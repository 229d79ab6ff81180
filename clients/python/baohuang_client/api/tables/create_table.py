from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.created_table import CreatedTable
from ...models.problem_document import ProblemDocument
from ...models.put_table import PutTable
from typing import cast



def _get_kwargs(
    table_id: str,
    *,
    body: PutTable,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/tables/{table_id}".format(table_id=quote(str(table_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CreatedTable | ProblemDocument | None:
    if response.status_code == 200:
        response_200 = CreatedTable.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = CreatedTable.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ProblemDocument.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ProblemDocument.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ProblemDocument.from_dict(response.json())



        return response_403

    if response.status_code == 408:
        response_408 = ProblemDocument.from_dict(response.json())



        return response_408

    if response.status_code == 413:
        response_413 = ProblemDocument.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = ProblemDocument.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = ProblemDocument.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ProblemDocument.from_dict(response.json())



        return response_429

    if response.status_code == 500:
        response_500 = ProblemDocument.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = ProblemDocument.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CreatedTable | ProblemDocument]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutTable,

) -> Response[CreatedTable | ProblemDocument]:
    """ Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would

     Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would.

    Instead of `snapshot`, `deal` (`{ruleset, dealer, entropy_seconds}`) has the service deal the first
    deal from a seed it commits to before any card is dealt (docs/dealing.md):
    `table.dealing.commitment` shows its SHA-256 to every caller, the deal waits in phase `deal` while
    the seats add entropy (`POST /seats/{seat}/entropy`), and is dealt when every seat that can add has,
    or when `entropy_seconds` have passed; `deal_over` reveals the seed.

    `clock` starts turn clocks from this `PUT` (T-11: a seat whose time runs out is played by 托管); to
    start them later, when every seat is there, `POST /clock`; `bots` seats bots (`[{seat, level}]`),
    which move after `BAOHUANG_BOT_DELAY_SECONDS` through the same write as a timeout; `trustee_level`
    has a bot level play seats in 托管 instead of T-10; `webhook` names a URL that receives the chosen
    event types, signed with `BAOHUANG_WEBHOOK_SECRET` (`Baohuang-Signature`), at least once
    (deduplicate on `Baohuang-Delivery`). A URL with credentials, control characters or another scheme,
    or whose host is or resolves to a loopback, private, link-local, metadata or other internal address,
    is 422 `WEBHOOK_URL_REFUSED` and the table is left as it was.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        body (PutTable):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedTable | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutTable,

) -> CreatedTable | ProblemDocument | None:
    """ Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would

     Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would.

    Instead of `snapshot`, `deal` (`{ruleset, dealer, entropy_seconds}`) has the service deal the first
    deal from a seed it commits to before any card is dealt (docs/dealing.md):
    `table.dealing.commitment` shows its SHA-256 to every caller, the deal waits in phase `deal` while
    the seats add entropy (`POST /seats/{seat}/entropy`), and is dealt when every seat that can add has,
    or when `entropy_seconds` have passed; `deal_over` reveals the seed.

    `clock` starts turn clocks from this `PUT` (T-11: a seat whose time runs out is played by 托管); to
    start them later, when every seat is there, `POST /clock`; `bots` seats bots (`[{seat, level}]`),
    which move after `BAOHUANG_BOT_DELAY_SECONDS` through the same write as a timeout; `trustee_level`
    has a bot level play seats in 托管 instead of T-10; `webhook` names a URL that receives the chosen
    event types, signed with `BAOHUANG_WEBHOOK_SECRET` (`Baohuang-Signature`), at least once
    (deduplicate on `Baohuang-Delivery`). A URL with credentials, control characters or another scheme,
    or whose host is or resolves to a loopback, private, link-local, metadata or other internal address,
    is 422 `WEBHOOK_URL_REFUSED` and the table is left as it was.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        body (PutTable):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedTable | ProblemDocument
     """


    return sync_detailed(
        table_id=table_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutTable,

) -> Response[CreatedTable | ProblemDocument]:
    """ Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would

     Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would.

    Instead of `snapshot`, `deal` (`{ruleset, dealer, entropy_seconds}`) has the service deal the first
    deal from a seed it commits to before any card is dealt (docs/dealing.md):
    `table.dealing.commitment` shows its SHA-256 to every caller, the deal waits in phase `deal` while
    the seats add entropy (`POST /seats/{seat}/entropy`), and is dealt when every seat that can add has,
    or when `entropy_seconds` have passed; `deal_over` reveals the seed.

    `clock` starts turn clocks from this `PUT` (T-11: a seat whose time runs out is played by 托管); to
    start them later, when every seat is there, `POST /clock`; `bots` seats bots (`[{seat, level}]`),
    which move after `BAOHUANG_BOT_DELAY_SECONDS` through the same write as a timeout; `trustee_level`
    has a bot level play seats in 托管 instead of T-10; `webhook` names a URL that receives the chosen
    event types, signed with `BAOHUANG_WEBHOOK_SECRET` (`Baohuang-Signature`), at least once
    (deduplicate on `Baohuang-Delivery`). A URL with credentials, control characters or another scheme,
    or whose host is or resolves to a loopback, private, link-local, metadata or other internal address,
    is 422 `WEBHOOK_URL_REFUSED` and the table is left as it was.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        body (PutTable):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedTable | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: PutTable,

) -> CreatedTable | ProblemDocument | None:
    """ Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would

     Create (201) or replace (200) a table from a snapshot: a new instance, with its five seat tokens and
    a spectator token (platform only); `ETag` names the instance and version, as a `GET` would.

    Instead of `snapshot`, `deal` (`{ruleset, dealer, entropy_seconds}`) has the service deal the first
    deal from a seed it commits to before any card is dealt (docs/dealing.md):
    `table.dealing.commitment` shows its SHA-256 to every caller, the deal waits in phase `deal` while
    the seats add entropy (`POST /seats/{seat}/entropy`), and is dealt when every seat that can add has,
    or when `entropy_seconds` have passed; `deal_over` reveals the seed.

    `clock` starts turn clocks from this `PUT` (T-11: a seat whose time runs out is played by 托管); to
    start them later, when every seat is there, `POST /clock`; `bots` seats bots (`[{seat, level}]`),
    which move after `BAOHUANG_BOT_DELAY_SECONDS` through the same write as a timeout; `trustee_level`
    has a bot level play seats in 托管 instead of T-10; `webhook` names a URL that receives the chosen
    event types, signed with `BAOHUANG_WEBHOOK_SECRET` (`Baohuang-Signature`), at least once
    (deduplicate on `Baohuang-Delivery`). A URL with credentials, control characters or another scheme,
    or whose host is or resolves to a loopback, private, link-local, metadata or other internal address,
    is 422 `WEBHOOK_URL_REFUSED` and the table is left as it was.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        body (PutTable):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedTable | ProblemDocument
     """


    return (await asyncio_detailed(
        table_id=table_id,
client=client,
body=body,

    )).parsed
