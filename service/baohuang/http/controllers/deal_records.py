"""``/v1/tables/{id}/deals/{deal}``: one deal's record (docs/records.md), cut to the caller by
the table service. (``GET /deals``, the list, shares its path with ``POST /deals`` and lives
with it in :mod:`.tables`.)"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get
from litestar.di import NamedDependency, Provide
from litestar.params import PathParameter

from ...records import DealRecord, encode_record
from ...tables import Caller, TableService
from ..auth import TableId, provide_caller
from ..docs import problems

DealNumber = Annotated[int, PathParameter(ge=1, description="The deal's number at the table")]


def _service(request: Request[Any, Any, Any]) -> TableService:
    service: TableService = request.app.state.tables
    return service


class DealRecordsController(Controller):
    path = "/v1/tables/{table_id:str}/deals"
    tags = ["tables"]
    dependencies = {"caller": Provide(provide_caller)}

    @get(
        "/{deal:int}",
        operation_id="getTableDeal",
        summary="One deal's record, as the caller may see it",
        opt={"returns": DealRecord},
        responses=problems(401, 403, 404, 503),
    )
    async def get_deal(
        self,
        request: Request[Any, Any, Any],
        table_id: TableId,
        deal: DealNumber,
        caller: NamedDependency[Caller],
    ) -> Response[bytes]:
        """The deal's record (docs/records.md): headers (ruleset, dealer, how it was dealt —
        with a committed deal's commitment, entropy and revealed seed —, tribute, times), every
        act in order (moves and who made them, 托管, leaving, timeouts), the result and the
        table's totals around it; JSON, one act per line. ``record`` says how much it shows:
        ``full`` (every hand) for a platform, and for every caller once a committed deal is
        over; else ``seat`` (a seat token: its own hand) or ``public`` (a spectator token). A
        full record of a finished deal verifies offline: ``baohuang verify RECORD``. 404
        ``DEAL_NOT_KEPT`` for a deal the table no longer (or not yet) keeps."""
        record = await _service(request).deal_record(table_id, caller, deal)
        return Response(encode_record(record), media_type="application/json")
