from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.events_page import EventsPage
from ...models.problem_document import ProblemDocument
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    table_id: str,
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 500,
    last_event_id: None | str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id



    

    params: dict[str, Any] = {}

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tables/{table_id}/events".format(table_id=quote(str(table_id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventsPage | ProblemDocument | None:
    if response.status_code == 200:
        response_200 = EventsPage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ProblemDocument.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ProblemDocument.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventsPage | ProblemDocument]:
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
    after: None | str | Unset = UNSET,
    limit: int | Unset = 500,
    last_event_id: None | str | Unset = UNSET,

) -> Response[EventsPage | ProblemDocument]:
    """ The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced

     The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced. A stream resumes with no gap
    and no duplicate from `Last-Event-ID` or `after`, or is reset when the log no longer holds that
    event. The log holds the current deal: when the next deal starts, the finished deal's events leave
    it (its result stays in `table.results`), and a reader behind them is reset.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        after (None | str | Unset): The id of the last event the client has (`<seq>.<token>`, or a
            bare seq): events after it (a page: default 0; a stream: resume after it instead of
            opening with the view). When the log no longer holds it — a failover rolled the log back,
            or a new deal began and the finished deal's events left the log — the answer is a reset
            with the view as it is. 0 reads the log from its start: the current deal's first event
        limit (int | Unset): A page's size at most Default: 500.
        last_event_id (None | str | Unset): SSE resume: the id of the last event received
            (`<seq>.<token>`); a reset when the log no longer holds it

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventsPage | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
after=after,
limit=limit,
last_event_id=last_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 500,
    last_event_id: None | str | Unset = UNSET,

) -> EventsPage | ProblemDocument | None:
    """ The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced

     The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced. A stream resumes with no gap
    and no duplicate from `Last-Event-ID` or `after`, or is reset when the log no longer holds that
    event. The log holds the current deal: when the next deal starts, the finished deal's events leave
    it (its result stays in `table.results`), and a reader behind them is reset.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        after (None | str | Unset): The id of the last event the client has (`<seq>.<token>`, or a
            bare seq): events after it (a page: default 0; a stream: resume after it instead of
            opening with the view). When the log no longer holds it — a failover rolled the log back,
            or a new deal began and the finished deal's events left the log — the answer is a reset
            with the view as it is. 0 reads the log from its start: the current deal's first event
        limit (int | Unset): A page's size at most Default: 500.
        last_event_id (None | str | Unset): SSE resume: the id of the last event received
            (`<seq>.<token>`); a reset when the log no longer holds it

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventsPage | ProblemDocument
     """


    return sync_detailed(
        table_id=table_id,
client=client,
after=after,
limit=limit,
last_event_id=last_event_id,

    ).parsed

async def asyncio_detailed(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 500,
    last_event_id: None | str | Unset = UNSET,

) -> Response[EventsPage | ProblemDocument]:
    """ The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced

     The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced. A stream resumes with no gap
    and no duplicate from `Last-Event-ID` or `after`, or is reset when the log no longer holds that
    event. The log holds the current deal: when the next deal starts, the finished deal's events leave
    it (its result stays in `table.results`), and a reader behind them is reset.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        after (None | str | Unset): The id of the last event the client has (`<seq>.<token>`, or a
            bare seq): events after it (a page: default 0; a stream: resume after it instead of
            opening with the view). When the log no longer holds it — a failover rolled the log back,
            or a new deal began and the finished deal's events left the log — the answer is a reset
            with the view as it is. 0 reads the log from its start: the current deal's first event
        limit (int | Unset): A page's size at most Default: 500.
        last_event_id (None | str | Unset): SSE resume: the id of the last event received
            (`<seq>.<token>`); a reset when the log no longer holds it

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventsPage | ProblemDocument]
     """


    kwargs = _get_kwargs(
        table_id=table_id,
after=after,
limit=limit,
last_event_id=last_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    table_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 500,
    last_event_id: None | str | Unset = UNSET,

) -> EventsPage | ProblemDocument | None:
    """ The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced

     The table's event log, cut to the caller: a page for polling clients and audits, or, with `Accept:
    text/event-stream` (Server-Sent Events) or `application/x-ndjson`, a stream: the caller's view
    first, then each event as it commits (`id` is its `<seq>.<token>`), a heartbeat every 15 s, a
    `reset` with the view as it now is when a failover rolled the log back past what the stream sent,
    and a `closed` event when the table is deleted, expires or is replaced. A stream resumes with no gap
    and no duplicate from `Last-Event-ID` or `after`, or is reset when the log no longer holds that
    event. The log holds the current deal: when the next deal starts, the finished deal's events leave
    it (its result stays in `table.results`), and a reader behind them is reset.

    Args:
        table_id (str): A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -
        after (None | str | Unset): The id of the last event the client has (`<seq>.<token>`, or a
            bare seq): events after it (a page: default 0; a stream: resume after it instead of
            opening with the view). When the log no longer holds it — a failover rolled the log back,
            or a new deal began and the finished deal's events left the log — the answer is a reset
            with the view as it is. 0 reads the log from its start: the current deal's first event
        limit (int | Unset): A page's size at most Default: 500.
        last_event_id (None | str | Unset): SSE resume: the id of the last event received
            (`<seq>.<token>`); a reset when the log no longer holds it

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventsPage | ProblemDocument
     """


    return (await asyncio_detailed(
        table_id=table_id,
client=client,
after=after,
limit=limit,
last_event_id=last_event_id,

    )).parsed
