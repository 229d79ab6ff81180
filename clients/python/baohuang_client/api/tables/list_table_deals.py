from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.kept_deals import KeptDeals
from ...models.problem_document import ProblemDocument
from typing import cast



def _get_kwargs(
    table_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tables/{table_id}/deals".format(table_id=quote(str(table_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> KeptDeals | ProblemDocument | None:
    if response.status_code == 200:
        response_200 = KeptDeals.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ProblemDocument.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ProblemDocument.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ProblemDocument.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ProblemDocument.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[KeptDeals | ProblemDocument]:
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

) -> Response[KeptDeals | ProblemDocument]:
    """ The deals whose records the table keeps

     The deals whose records the table keeps, oldest first: the finished ones (the newest
    `BAOHUANG_DEALS_KEPT`) and the current one, each with how it was dealt, when it started and ended,
    and its result once over. The same for every caller of the table.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[KeptDeals | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> KeptDeals | ProblemDocument | None:
    """ The deals whose records the table keeps

     The deals whose records the table keeps, oldest first: the finished ones (the newest
    `BAOHUANG_DEALS_KEPT`) and the current one, each with how it was dealt, when it started and ended,
    and its result once over. The same for every caller of the table.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        KeptDeals | ProblemDocument
     """


    return sync_detailed(
        table_id=table_id,
client=client,

    ).parsed

async def asyncio_detailed(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[KeptDeals | ProblemDocument]:
    """ The deals whose records the table keeps

     The deals whose records the table keeps, oldest first: the finished ones (the newest
    `BAOHUANG_DEALS_KEPT`) and the current one, each with how it was dealt, when it started and ended,
    and its result once over. The same for every caller of the table.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[KeptDeals | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> KeptDeals | ProblemDocument | None:
    """ The deals whose records the table keeps

     The deals whose records the table keeps, oldest first: the finished ones (the newest
    `BAOHUANG_DEALS_KEPT`) and the current one, each with how it was dealt, when it started and ended,
    and its result once over. The same for every caller of the table.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        KeptDeals | ProblemDocument
     """


    return (await asyncio_detailed(
        table_id=table_id,
client=client,

    )).parsed
