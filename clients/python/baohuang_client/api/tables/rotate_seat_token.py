from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.post_token import PostToken
from ...models.problem_document import ProblemDocument
from ...models.rotated_token import RotatedToken
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    table_id: str,
    seat: int,
    *,
    body: PostToken | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tables/{table_id}/seats/{seat}/token".format(table_id=quote(str(table_id), safe=""),seat=quote(str(seat), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ProblemDocument | RotatedToken | None:
    if response.status_code == 200:
        response_200 = RotatedToken.from_dict(response.json())



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

    if response.status_code == 408:
        response_408 = ProblemDocument.from_dict(response.json())



        return response_408

    if response.status_code == 409:
        response_409 = ProblemDocument.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ProblemDocument | RotatedToken]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    table_id: str,
    seat: int,
    *,
    client: AuthenticatedClient | Client,
    body: PostToken | Unset = UNSET,

) -> Response[ProblemDocument | RotatedToken]:
    """ A new token for a seat that changes hands (platform only)

     Issue a new token for `seat` — a player leaves and another takes the seat, or the token leaked — and
    revoke every earlier one at once, on every replica: from the next request on it is 401
    `TOKEN_REVOKED` on every route, and its open streams end with a `closed` event (`reason:
    token_revoked`). The table logs a public `token_rotated` event naming the seat, never the token; it
    is a write (`version` grows by one). The body may be left out; with `version` the token is issued
    only at that version (409 otherwise); without it, 409 only when other writes kept winning the race:
    try again.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostToken | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | RotatedToken]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
seat=seat,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    table_id: str,
    seat: int,
    *,
    client: AuthenticatedClient | Client,
    body: PostToken | Unset = UNSET,

) -> ProblemDocument | RotatedToken | None:
    """ A new token for a seat that changes hands (platform only)

     Issue a new token for `seat` — a player leaves and another takes the seat, or the token leaked — and
    revoke every earlier one at once, on every replica: from the next request on it is 401
    `TOKEN_REVOKED` on every route, and its open streams end with a `closed` event (`reason:
    token_revoked`). The table logs a public `token_rotated` event naming the seat, never the token; it
    is a write (`version` grows by one). The body may be left out; with `version` the token is issued
    only at that version (409 otherwise); without it, 409 only when other writes kept winning the race:
    try again.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostToken | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | RotatedToken
     """


    return sync_detailed(
        table_id=table_id,
seat=seat,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    table_id: str,
    seat: int,
    *,
    client: AuthenticatedClient | Client,
    body: PostToken | Unset = UNSET,

) -> Response[ProblemDocument | RotatedToken]:
    """ A new token for a seat that changes hands (platform only)

     Issue a new token for `seat` — a player leaves and another takes the seat, or the token leaked — and
    revoke every earlier one at once, on every replica: from the next request on it is 401
    `TOKEN_REVOKED` on every route, and its open streams end with a `closed` event (`reason:
    token_revoked`). The table logs a public `token_rotated` event naming the seat, never the token; it
    is a write (`version` grows by one). The body may be left out; with `version` the token is issued
    only at that version (409 otherwise); without it, 409 only when other writes kept winning the race:
    try again.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostToken | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | RotatedToken]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
seat=seat,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    table_id: str,
    seat: int,
    *,
    client: AuthenticatedClient | Client,
    body: PostToken | Unset = UNSET,

) -> ProblemDocument | RotatedToken | None:
    """ A new token for a seat that changes hands (platform only)

     Issue a new token for `seat` — a player leaves and another takes the seat, or the token leaked — and
    revoke every earlier one at once, on every replica: from the next request on it is 401
    `TOKEN_REVOKED` on every route, and its open streams end with a `closed` event (`reason:
    token_revoked`). The table logs a public `token_rotated` event naming the seat, never the token; it
    is a write (`version` grows by one). The body may be left out; with `version` the token is issued
    only at that version (409 otherwise); without it, 409 only when other writes kept winning the race:
    try again.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostToken | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | RotatedToken
     """


    return (await asyncio_detailed(
        table_id=table_id,
seat=seat,
client=client,
body=body,

    )).parsed
