from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.platform_move_answer import PlatformMoveAnswer
from ...models.post_entropy import PostEntropy
from ...models.problem_document import ProblemDocument
from ...models.seat_move_answer import SeatMoveAnswer
from ...models.spectator_move_answer import SpectatorMoveAnswer
from typing import cast



def _get_kwargs(
    table_id: str,
    seat: int,
    *,
    body: PostEntropy,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tables/{table_id}/seats/{seat}/entropy".format(table_id=quote(str(table_id), safe=""),seat=quote(str(seat), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_table_move_answer_type_0 = PlatformMoveAnswer.from_dict(data)



                return componentsschemas_table_move_answer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_table_move_answer_type_1 = SeatMoveAnswer.from_dict(data)



                return componentsschemas_table_move_answer_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_table_move_answer_type_2 = SpectatorMoveAnswer.from_dict(data)



            return componentsschemas_table_move_answer_type_2

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument]:
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
    body: PostEntropy,

) -> Response[PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument]:
    """ A seat adds its own entropy to the committed deal being dealt

     While a committed deal waits in phase `deal` (docs/dealing.md), the seat's own token adds 1 to 64
    bytes of its choosing (hex); the cards are dealt from the committed seed and every seat's entropy
    once each seat that can add has added (a seat that left, or a bot, does not), or when the window
    closes (`table.dealing.closes`) with what was given. An `entropy` event shows it to every caller. No
    `version`: it is added to the table as it stands; sending the same entropy again changes nothing;
    other entropy is 422 `ENTROPY_ADDED`, and once the cards are dealt 422 `ENTROPY_CLOSED`. Only the
    seat's own token may add it (403 for a platform key).

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostEntropy):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument]
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
    body: PostEntropy,

) -> PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument | None:
    """ A seat adds its own entropy to the committed deal being dealt

     While a committed deal waits in phase `deal` (docs/dealing.md), the seat's own token adds 1 to 64
    bytes of its choosing (hex); the cards are dealt from the committed seed and every seat's entropy
    once each seat that can add has added (a seat that left, or a bot, does not), or when the window
    closes (`table.dealing.closes`) with what was given. An `entropy` event shows it to every caller. No
    `version`: it is added to the table as it stands; sending the same entropy again changes nothing;
    other entropy is 422 `ENTROPY_ADDED`, and once the cards are dealt 422 `ENTROPY_CLOSED`. Only the
    seat's own token may add it (403 for a platform key).

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostEntropy):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument
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
    body: PostEntropy,

) -> Response[PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument]:
    """ A seat adds its own entropy to the committed deal being dealt

     While a committed deal waits in phase `deal` (docs/dealing.md), the seat's own token adds 1 to 64
    bytes of its choosing (hex); the cards are dealt from the committed seed and every seat's entropy
    once each seat that can add has added (a seat that left, or a bot, does not), or when the window
    closes (`table.dealing.closes`) with what was given. An `entropy` event shows it to every caller. No
    `version`: it is added to the table as it stands; sending the same entropy again changes nothing;
    other entropy is 422 `ENTROPY_ADDED`, and once the cards are dealt 422 `ENTROPY_CLOSED`. Only the
    seat's own token may add it (403 for a platform key).

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostEntropy):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument]
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
    body: PostEntropy,

) -> PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument | None:
    """ A seat adds its own entropy to the committed deal being dealt

     While a committed deal waits in phase `deal` (docs/dealing.md), the seat's own token adds 1 to 64
    bytes of its choosing (hex); the cards are dealt from the committed seed and every seat's entropy
    once each seat that can add has added (a seat that left, or a bot, does not), or when the window
    closes (`table.dealing.closes`) with what was given. An `entropy` event shows it to every caller. No
    `version`: it is added to the table as it stands; sending the same entropy again changes nothing;
    other entropy is 422 `ENTROPY_ADDED`, and once the cards are dealt 422 `ENTROPY_CLOSED`. Only the
    seat's own token may add it (403 for a platform key).

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int): T-1: a seat, 0–4
        body (PostEntropy):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlatformMoveAnswer | SeatMoveAnswer | SpectatorMoveAnswer | ProblemDocument
     """


    return (await asyncio_detailed(
        table_id=table_id,
seat=seat,
client=client,
body=body,

    )).parsed
