from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem_document import ProblemDocument
from ...models.table_legal_moves import TableLegalMoves
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    table_id: str,
    *,
    seat: int | None | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_seat: int | None | Unset
    if isinstance(seat, Unset):
        json_seat = UNSET
    else:
        json_seat = seat
    params["seat"] = json_seat


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tables/{table_id}/legal-moves".format(table_id=quote(str(table_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ProblemDocument | TableLegalMoves | None:
    if response.status_code == 200:
        response_200 = TableLegalMoves.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ProblemDocument | TableLegalMoves]:
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
    seat: int | None | Unset = UNSET,

) -> Response[ProblemDocument | TableLegalMoves]:
    """ The caller's legal moves on the live table

     Every legal move of a seat on the table as stored, in the order of `/v1/moves/legal` (answers and
    before-play actions first, then plays once per combo shape, cheapest first): a seat token gets its
    own moves when it is its turn and an empty list when it is not (a classic grab out of turn, G-5,
    aside); a spectator token has no moves (403). Following a play, the `play` moves are exactly the
    plays that beat the top, cheapest first: a hint (提示) button cycles through them in order. `version`
    is the one to send with the move; `ETag` names instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int | None | Unset): The seat whose moves to list: a seat token's own (the default
            for it; another seat is 403), any for a platform (default: the seat to act)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | TableLegalMoves]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
seat=seat,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    seat: int | None | Unset = UNSET,

) -> ProblemDocument | TableLegalMoves | None:
    """ The caller's legal moves on the live table

     Every legal move of a seat on the table as stored, in the order of `/v1/moves/legal` (answers and
    before-play actions first, then plays once per combo shape, cheapest first): a seat token gets its
    own moves when it is its turn and an empty list when it is not (a classic grab out of turn, G-5,
    aside); a spectator token has no moves (403). Following a play, the `play` moves are exactly the
    plays that beat the top, cheapest first: a hint (提示) button cycles through them in order. `version`
    is the one to send with the move; `ETag` names instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int | None | Unset): The seat whose moves to list: a seat token's own (the default
            for it; another seat is 403), any for a platform (default: the seat to act)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | TableLegalMoves
     """


    return sync_detailed(
        table_id=table_id,
client=client,
seat=seat,

    ).parsed

async def asyncio_detailed(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    seat: int | None | Unset = UNSET,

) -> Response[ProblemDocument | TableLegalMoves]:
    """ The caller's legal moves on the live table

     Every legal move of a seat on the table as stored, in the order of `/v1/moves/legal` (answers and
    before-play actions first, then plays once per combo shape, cheapest first): a seat token gets its
    own moves when it is its turn and an empty list when it is not (a classic grab out of turn, G-5,
    aside); a spectator token has no moves (403). Following a play, the `play` moves are exactly the
    plays that beat the top, cheapest first: a hint (提示) button cycles through them in order. `version`
    is the one to send with the move; `ETag` names instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int | None | Unset): The seat whose moves to list: a seat token's own (the default
            for it; another seat is 403), any for a platform (default: the seat to act)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | TableLegalMoves]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
seat=seat,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    seat: int | None | Unset = UNSET,

) -> ProblemDocument | TableLegalMoves | None:
    """ The caller's legal moves on the live table

     Every legal move of a seat on the table as stored, in the order of `/v1/moves/legal` (answers and
    before-play actions first, then plays once per combo shape, cheapest first): a seat token gets its
    own moves when it is its turn and an empty list when it is not (a classic grab out of turn, G-5,
    aside); a spectator token has no moves (403). Following a play, the `play` moves are exactly the
    plays that beat the top, cheapest first: a hint (提示) button cycles through them in order. `version`
    is the one to send with the move; `ETag` names instance and version.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        seat (int | None | Unset): The seat whose moves to list: a seat token's own (the default
            for it; another seat is 403), any for a platform (default: the seat to act)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | TableLegalMoves
     """


    return (await asyncio_detailed(
        table_id=table_id,
client=client,
seat=seat,

    )).parsed
