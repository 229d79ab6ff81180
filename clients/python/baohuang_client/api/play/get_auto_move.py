from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.auto_result import AutoResult
from ...models.problem_document import ProblemDocument
from ...models.snapshot_request import SnapshotRequest
from typing import cast



def _get_kwargs(
    *,
    body: SnapshotRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/moves/auto",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AutoResult | ProblemDocument | None:
    if response.status_code == 200:
        response_200 = AutoResult.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ProblemDocument.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AutoResult | ProblemDocument]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SnapshotRequest,

) -> Response[AutoResult | ProblemDocument]:
    """ The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass

     The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass.

    Args:
        body (SnapshotRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AutoResult | ProblemDocument]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: SnapshotRequest,

) -> AutoResult | ProblemDocument | None:
    """ The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass

     The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass.

    Args:
        body (SnapshotRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AutoResult | ProblemDocument
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SnapshotRequest,

) -> Response[AutoResult | ProblemDocument]:
    """ The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass

     The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass.

    Args:
        body (SnapshotRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AutoResult | ProblemDocument]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SnapshotRequest,

) -> AutoResult | ProblemDocument | None:
    """ The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass

     The 托管 move of the seat to act (T-10): a leader's lowest single, else a pass.

    Args:
        body (SnapshotRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AutoResult | ProblemDocument
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
