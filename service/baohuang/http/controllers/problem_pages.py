"""``/problems`` and ``/problems/{code}``: where a problem document's ``type`` leads (RFC 9457).

Pages for people, built from the code registry (:mod:`..catalogue`); left out of the OpenAPI
document, like ``/play``: they are documentation, not API.
"""

from __future__ import annotations

from litestar import Controller, Response, get
from litestar.enums import MediaType
from litestar.params import FromPath

from ..catalogue import BY_SLUG, PROBLEMS_PATH
from ..catalogue_pages import code_page, index_page
from ..problems import Problem

_CACHE = {"Cache-Control": "public, max-age=3600"}


class ProblemPagesController(Controller):
    path = PROBLEMS_PATH
    include_in_schema = False

    @get("/", media_type=MediaType.HTML)
    async def index(self) -> Response[str]:
        return Response(index_page(), media_type=MediaType.HTML, headers=_CACHE)

    @get("/{code:str}", media_type=MediaType.HTML)
    async def page(self, code: FromPath[str]) -> Response[str]:
        entry = BY_SLUG.get(code.lower())
        if entry is None:
            raise Problem(404, "NOT_FOUND", f"there is no code '{code}'", path="$.path.code")
        return Response(code_page(entry), media_type=MediaType.HTML, headers=_CACHE)
