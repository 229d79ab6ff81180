from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem_document import ProblemDocument
from ...models.score_result import ScoreResult
from ...models.scores_request import ScoresRequest
from typing import cast



def _get_kwargs(
    *,
    body: ScoresRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/scores",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ProblemDocument | ScoreResult | None:
    if response.status_code == 200:
        response_200 = ScoreResult.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ProblemDocument | ScoreResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ScoresRequest,

) -> Response[ProblemDocument | ScoreResult]:
    """ A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order

     A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order.

    Args:
        body (ScoresRequest): Either `snapshot` alone, or the roles and the `finished` order (with
            `ruleset`).

            `finished`: the seats in finishing order. It may stop where the deal ended (T-9): the
            seats
            still holding cards then take the remaining positions. Or it may go on, up to a complete
            order of five, with the seats still holding cards in any order that leaves the better
            places to the side that finished (an unfinished solo or grab emperor last): the scores are
            those of the order cut at the end, and `positions` the places as given. A seat listed
            twice
            or out of range, or after the end before a seat of the side that finished, is 422 naming
            that entry (`INVALID_FINISHED`, `INVALID_SEAT`, `DEAL_OVER`).

            造反 (lianzhong-simple, team and 暗独, G-8): it succeeded when two or more rebels declared it
            and the rebels' side won the deal (S-4, S-6), and only then doubles the score. `rebellion`
            gives the declaring seats (rebels, each once) and the service decides, as for a snapshot.
            `rebellion_succeeded` states the outcome instead: `true` stands for two or more declarers
            and
            is 422 `REBELLION_MISMATCH` when the finishing order gives the deal to the emperor's side
            or
            a draw; with `rebellion` too it must agree with it. Before the deal is final nothing has
            succeeded yet, and the multiplier leaves 造反 out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | ScoreResult]
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
    body: ScoresRequest,

) -> ProblemDocument | ScoreResult | None:
    """ A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order

     A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order.

    Args:
        body (ScoresRequest): Either `snapshot` alone, or the roles and the `finished` order (with
            `ruleset`).

            `finished`: the seats in finishing order. It may stop where the deal ended (T-9): the
            seats
            still holding cards then take the remaining positions. Or it may go on, up to a complete
            order of five, with the seats still holding cards in any order that leaves the better
            places to the side that finished (an unfinished solo or grab emperor last): the scores are
            those of the order cut at the end, and `positions` the places as given. A seat listed
            twice
            or out of range, or after the end before a seat of the side that finished, is 422 naming
            that entry (`INVALID_FINISHED`, `INVALID_SEAT`, `DEAL_OVER`).

            造反 (lianzhong-simple, team and 暗独, G-8): it succeeded when two or more rebels declared it
            and the rebels' side won the deal (S-4, S-6), and only then doubles the score. `rebellion`
            gives the declaring seats (rebels, each once) and the service decides, as for a snapshot.
            `rebellion_succeeded` states the outcome instead: `true` stands for two or more declarers
            and
            is 422 `REBELLION_MISMATCH` when the finishing order gives the deal to the emperor's side
            or
            a draw; with `rebellion` too it must agree with it. Before the deal is final nothing has
            succeeded yet, and the multiplier leaves 造反 out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | ScoreResult
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ScoresRequest,

) -> Response[ProblemDocument | ScoreResult]:
    """ A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order

     A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order.

    Args:
        body (ScoresRequest): Either `snapshot` alone, or the roles and the `finished` order (with
            `ruleset`).

            `finished`: the seats in finishing order. It may stop where the deal ended (T-9): the
            seats
            still holding cards then take the remaining positions. Or it may go on, up to a complete
            order of five, with the seats still holding cards in any order that leaves the better
            places to the side that finished (an unfinished solo or grab emperor last): the scores are
            those of the order cut at the end, and `positions` the places as given. A seat listed
            twice
            or out of range, or after the end before a seat of the side that finished, is 422 naming
            that entry (`INVALID_FINISHED`, `INVALID_SEAT`, `DEAL_OVER`).

            造反 (lianzhong-simple, team and 暗独, G-8): it succeeded when two or more rebels declared it
            and the rebels' side won the deal (S-4, S-6), and only then doubles the score. `rebellion`
            gives the declaring seats (rebels, each once) and the service decides, as for a snapshot.
            `rebellion_succeeded` states the outcome instead: `true` stands for two or more declarers
            and
            is 422 `REBELLION_MISMATCH` when the finishing order gives the deal to the emperor's side
            or
            a draw; with `rebellion` too it must agree with it. Before the deal is final nothing has
            succeeded yet, and the multiplier leaves 造反 out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ProblemDocument | ScoreResult]
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
    body: ScoresRequest,

) -> ProblemDocument | ScoreResult | None:
    """ A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order

     A deal's score (S-1…S-8), from a snapshot or from roles and a finishing order.

    Args:
        body (ScoresRequest): Either `snapshot` alone, or the roles and the `finished` order (with
            `ruleset`).

            `finished`: the seats in finishing order. It may stop where the deal ended (T-9): the
            seats
            still holding cards then take the remaining positions. Or it may go on, up to a complete
            order of five, with the seats still holding cards in any order that leaves the better
            places to the side that finished (an unfinished solo or grab emperor last): the scores are
            those of the order cut at the end, and `positions` the places as given. A seat listed
            twice
            or out of range, or after the end before a seat of the side that finished, is 422 naming
            that entry (`INVALID_FINISHED`, `INVALID_SEAT`, `DEAL_OVER`).

            造反 (lianzhong-simple, team and 暗独, G-8): it succeeded when two or more rebels declared it
            and the rebels' side won the deal (S-4, S-6), and only then doubles the score. `rebellion`
            gives the declaring seats (rebels, each once) and the service decides, as for a snapshot.
            `rebellion_succeeded` states the outcome instead: `true` stands for two or more declarers
            and
            is 422 `REBELLION_MISMATCH` when the finishing order gives the deal to the emperor's side
            or
            a draw; with `rebellion` too it must agree with it. Before the deal is final nothing has
            succeeded yet, and the multiplier leaves 造反 out.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ProblemDocument | ScoreResult
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
