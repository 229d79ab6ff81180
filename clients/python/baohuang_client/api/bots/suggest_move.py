from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem_document import ProblemDocument
from ...models.suggest_request import SuggestRequest
from ...models.suggest_result import SuggestResult
from typing import cast



def _get_kwargs(
    *,
    body: SuggestRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/bots/suggest",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ProblemDocument | SuggestResult | None:
    if response.status_code == 200:
        response_200 = SuggestResult.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ProblemDocument | SuggestResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SuggestRequest,

) -> Response[ProblemDocument | SuggestResult]:
    """ Suggest a move for one seat from its view

     The move a bot level plays for the view's seat, judged from the seat's view and the deal's public
    events only: always one of the legal moves. 422 `NOT_TO_ACT` when the view's seat is not the one to
    act or the deal is over (:mod:`..problems`); 429 `TOO_MANY_SUGGESTIONS` when the caller (a platform
    key, else its address) already has `BAOHUANG_SUGGEST_PER_CALLER` search-level suggestions in flight.

    Args:
        body (SuggestRequest): ``view``: the seat's view (what ``GET /v1/tables/{id}`` shows a
            seat token); ``history``: the deal's events, oldest first (may be empty);
            ``level``: ``heuristic`` (fast) or ``search``; ``budget_ms``: the search's time (default
            1000, at most 2000); ``seed``: which hands the search imagines for the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | SuggestResult]
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
    body: SuggestRequest,

) -> ProblemDocument | SuggestResult | None:
    """ Suggest a move for one seat from its view

     The move a bot level plays for the view's seat, judged from the seat's view and the deal's public
    events only: always one of the legal moves. 422 `NOT_TO_ACT` when the view's seat is not the one to
    act or the deal is over (:mod:`..problems`); 429 `TOO_MANY_SUGGESTIONS` when the caller (a platform
    key, else its address) already has `BAOHUANG_SUGGEST_PER_CALLER` search-level suggestions in flight.

    Args:
        body (SuggestRequest): ``view``: the seat's view (what ``GET /v1/tables/{id}`` shows a
            seat token); ``history``: the deal's events, oldest first (may be empty);
            ``level``: ``heuristic`` (fast) or ``search``; ``budget_ms``: the search's time (default
            1000, at most 2000); ``seed``: which hands the search imagines for the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | SuggestResult
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SuggestRequest,

) -> Response[ProblemDocument | SuggestResult]:
    """ Suggest a move for one seat from its view

     The move a bot level plays for the view's seat, judged from the seat's view and the deal's public
    events only: always one of the legal moves. 422 `NOT_TO_ACT` when the view's seat is not the one to
    act or the deal is over (:mod:`..problems`); 429 `TOO_MANY_SUGGESTIONS` when the caller (a platform
    key, else its address) already has `BAOHUANG_SUGGEST_PER_CALLER` search-level suggestions in flight.

    Args:
        body (SuggestRequest): ``view``: the seat's view (what ``GET /v1/tables/{id}`` shows a
            seat token); ``history``: the deal's events, oldest first (may be empty);
            ``level``: ``heuristic`` (fast) or ``search``; ``budget_ms``: the search's time (default
            1000, at most 2000); ``seed``: which hands the search imagines for the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | SuggestResult]
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
    body: SuggestRequest,

) -> ProblemDocument | SuggestResult | None:
    """ Suggest a move for one seat from its view

     The move a bot level plays for the view's seat, judged from the seat's view and the deal's public
    events only: always one of the legal moves. 422 `NOT_TO_ACT` when the view's seat is not the one to
    act or the deal is over (:mod:`..problems`); 429 `TOO_MANY_SUGGESTIONS` when the caller (a platform
    key, else its address) already has `BAOHUANG_SUGGEST_PER_CALLER` search-level suggestions in flight.

    Args:
        body (SuggestRequest): ``view``: the seat's view (what ``GET /v1/tables/{id}`` shows a
            seat token); ``history``: the deal's events, oldest first (may be empty);
            ``level``: ``heuristic`` (fast) or ``search``; ``budget_ms``: the search's time (default
            1000, at most 2000); ``seed``: which hands the search imagines for the others.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | SuggestResult
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
