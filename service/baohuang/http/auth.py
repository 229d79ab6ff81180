"""The caller of a table route, resolved once per request by a dependency.

The ``Authorization`` header is read here; who the credential belongs to, and what that caller
may do, is the table layer's (:mod:`baohuang.tables.callers`).
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request
from litestar.params import PathParameter

from ..tables import Authority, Caller, Unauthorized

TableId = Annotated[
    str,
    PathParameter(
        pattern=r"^[A-Za-z0-9_.:-]{1,128}$",
        description="A table id chosen by the platform: 1–128 of A-Z a-z 0-9 _ . : -",
    ),
]


def bearer(authorization: str | None) -> str | None:
    """The credential of an ``Authorization: Bearer <credential>`` header (``None``: no header)."""
    if not authorization:
        return None
    scheme, _, credential = authorization.partition(" ")
    if scheme.lower() != "bearer" or not credential.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <key or token>'")
    return credential.strip()


async def provide_caller(request: Request[Any, Any, Any], table_id: TableId) -> Caller:
    """The Litestar dependency ``caller`` of every ``/v1/tables`` route."""
    authority: Authority = request.app.state.authority
    return authority.identify(bearer(request.headers.get("authorization")), table_id)
