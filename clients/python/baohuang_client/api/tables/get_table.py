from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.platform_table import PlatformTable
from ...models.problem_document import ProblemDocument
from ...models.seat_table import SeatTable
from ...models.spectator_table import SpectatorTable
from typing import cast



def _get_kwargs(
    table_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tables/{table_id}".format(table_id=quote(str(table_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlatformTable | SeatTable | SpectatorTable | ProblemDocument | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> PlatformTable | SeatTable | SpectatorTable:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_table_type_0 = PlatformTable.from_dict(data)



                return componentsschemas_table_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_table_type_1 = SeatTable.from_dict(data)



                return componentsschemas_table_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_table_type_2 = SpectatorTable.from_dict(data)



            return componentsschemas_table_type_2

        response_200 = _parse_response_200(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PlatformTable | SeatTable | SpectatorTable | ProblemDocument]:
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

) -> Response[PlatformTable | SeatTable | SpectatorTable | ProblemDocument]:
    """ The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version

     The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlatformTable | SeatTable | SpectatorTable | ProblemDocument]
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

) -> PlatformTable | SeatTable | SpectatorTable | ProblemDocument | None:
    """ The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version

     The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlatformTable | SeatTable | SpectatorTable | ProblemDocument
     """


    return sync_detailed(
        table_id=table_id,
client=client,

    ).parsed

async def asyncio_detailed(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[PlatformTable | SeatTable | SpectatorTable | ProblemDocument]:
    """ The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version

     The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlatformTable | SeatTable | SpectatorTable | ProblemDocument]
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

) -> PlatformTable | SeatTable | SpectatorTable | ProblemDocument | None:
    """ The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version

     The table as the caller may see it: the whole snapshot for a platform, the seat's view for a seat
    token, the public view for a spectator token; `ETag` names the instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlatformTable | SeatTable | SpectatorTable | ProblemDocument
     """


    return (await asyncio_detailed(
        table_id=table_id,
client=client,

    )).parsed
