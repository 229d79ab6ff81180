from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem_document import ProblemDocument
from ...models.ruleset import Ruleset
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/rulesets",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ProblemDocument | list[Ruleset] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = Ruleset.from_dict(response_200_item_data)



            response_200.append(response_200_item)

        return response_200

    if response.status_code == 429:
        response_429 = ProblemDocument.from_dict(response.json())



        return response_429

    if response.status_code == 500:
        response_500 = ProblemDocument.from_dict(response.json())



        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ProblemDocument | list[Ruleset]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[ProblemDocument | list[Ruleset]]:
    """ Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`

     Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | list[Ruleset]]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,

) -> ProblemDocument | list[Ruleset] | None:
    """ Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`

     Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | list[Ruleset]
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[ProblemDocument | list[Ruleset]]:
    """ Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`

     Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | list[Ruleset]]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,

) -> ProblemDocument | list[Ruleset] | None:
    """ Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`

     Every base ruleset with all its options' default values (R): `kaopai`, `bie6`, `deck` and `grab`,
    each settable by the same name in a request's `ruleset`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | list[Ruleset]
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
