from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.full_record import FullRecord
from ...models.problem_document import ProblemDocument
from ...models.public_record import PublicRecord
from ...models.seat_record import SeatRecord
from typing import cast



def _get_kwargs(
    table_id: str,
    deal: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tables/{table_id}/deals/{deal}".format(table_id=quote(str(table_id), safe=""),deal=quote(str(deal), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FullRecord | PublicRecord | SeatRecord | ProblemDocument | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> FullRecord | PublicRecord | SeatRecord:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = FullRecord.from_dict(data)



                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_1 = SeatRecord.from_dict(data)



                return response_200_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_2 = PublicRecord.from_dict(data)



            return response_200_type_2

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FullRecord | PublicRecord | SeatRecord | ProblemDocument]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    table_id: str,
    deal: int,
    *,
    client: AuthenticatedClient | Client,

) -> Response[FullRecord | PublicRecord | SeatRecord | ProblemDocument]:
    """ One deal's record, as the caller may see it

     The deal's record (docs/records.md): headers (ruleset, dealer, how it was dealt — with a committed
    deal's commitment, entropy and revealed seed —, tribute, times), every act in order (moves and who
    made them, 托管, leaving, timeouts), the result and the table's totals around it; JSON, one act per
    line. `record` says how much it shows: `full` (every hand) for a platform, and for every caller once
    a committed deal is over; else `seat` (a seat token: its own hand) or `public` (a spectator token).
    A full record of a finished deal verifies offline: `baohuang verify RECORD`. 404 `DEAL_NOT_KEPT` for
    a deal the table no longer (or not yet) keeps.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        deal (int): The deal's number at the table

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FullRecord | PublicRecord | SeatRecord | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
deal=deal,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    table_id: str,
    deal: int,
    *,
    client: AuthenticatedClient | Client,

) -> FullRecord | PublicRecord | SeatRecord | ProblemDocument | None:
    """ One deal's record, as the caller may see it

     The deal's record (docs/records.md): headers (ruleset, dealer, how it was dealt — with a committed
    deal's commitment, entropy and revealed seed —, tribute, times), every act in order (moves and who
    made them, 托管, leaving, timeouts), the result and the table's totals around it; JSON, one act per
    line. `record` says how much it shows: `full` (every hand) for a platform, and for every caller once
    a committed deal is over; else `seat` (a seat token: its own hand) or `public` (a spectator token).
    A full record of a finished deal verifies offline: `baohuang verify RECORD`. 404 `DEAL_NOT_KEPT` for
    a deal the table no longer (or not yet) keeps.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        deal (int): The deal's number at the table

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FullRecord | PublicRecord | SeatRecord | ProblemDocument
     """


    return sync_detailed(
        table_id=table_id,
deal=deal,
client=client,

    ).parsed

async def asyncio_detailed(
    table_id: str,
    deal: int,
    *,
    client: AuthenticatedClient | Client,

) -> Response[FullRecord | PublicRecord | SeatRecord | ProblemDocument]:
    """ One deal's record, as the caller may see it

     The deal's record (docs/records.md): headers (ruleset, dealer, how it was dealt — with a committed
    deal's commitment, entropy and revealed seed —, tribute, times), every act in order (moves and who
    made them, 托管, leaving, timeouts), the result and the table's totals around it; JSON, one act per
    line. `record` says how much it shows: `full` (every hand) for a platform, and for every caller once
    a committed deal is over; else `seat` (a seat token: its own hand) or `public` (a spectator token).
    A full record of a finished deal verifies offline: `baohuang verify RECORD`. 404 `DEAL_NOT_KEPT` for
    a deal the table no longer (or not yet) keeps.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        deal (int): The deal's number at the table

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FullRecord | PublicRecord | SeatRecord | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
deal=deal,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    table_id: str,
    deal: int,
    *,
    client: AuthenticatedClient | Client,

) -> FullRecord | PublicRecord | SeatRecord | ProblemDocument | None:
    """ One deal's record, as the caller may see it

     The deal's record (docs/records.md): headers (ruleset, dealer, how it was dealt — with a committed
    deal's commitment, entropy and revealed seed —, tribute, times), every act in order (moves and who
    made them, 托管, leaving, timeouts), the result and the table's totals around it; JSON, one act per
    line. `record` says how much it shows: `full` (every hand) for a platform, and for every caller once
    a committed deal is over; else `seat` (a seat token: its own hand) or `public` (a spectator token).
    A full record of a finished deal verifies offline: `baohuang verify RECORD`. 404 `DEAL_NOT_KEPT` for
    a deal the table no longer (or not yet) keeps.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        deal (int): The deal's number at the table

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FullRecord | PublicRecord | SeatRecord | ProblemDocument
     """


    return (await asyncio_detailed(
        table_id=table_id,
deal=deal,
client=client,

    )).parsed
