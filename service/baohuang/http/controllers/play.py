"""``/play``: the reference table in the browser (README "Play in the browser").

Serves the page and its modules from the package (:mod:`baohuang.play`), nothing else: the page
talks to the public API like any client. Tokens travel in the URL fragment, which browsers never
send, so no credential reaches a request line or a log. The Content-Security-Policy allows this
origin only: no inline script, no CDN.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter
from litestar.response import Redirect

from ...play import assets

HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


AssetName = Annotated[str, PathParameter(pattern=r"^[a-z0-9-]+\.(js|css|html|svg|woff)$")]


def _asset(name: str) -> Response[bytes]:
    found = assets().get(name)
    if found is None:
        raise NotFoundException(f"no such file: {name}")
    content, media_type = found
    return Response(content, media_type=media_type, headers=HEADERS)


class PlayController(Controller):
    path = "/play"
    include_in_schema = False

    @get("/")
    async def page(self, request: Request[Any, Any, Any]) -> Response[bytes] | Redirect:
        """The page; what it shows is chosen by the URL fragment (``#table=…&token=…``)."""
        if request.scope.get("raw_path", b"").endswith(b"/"):
            # the page loads its modules relative to /play: send /play/ there (the browser keeps
            # the fragment); a relative Location works behind any path prefix
            return Redirect("../play", status_code=308)
        return _asset("index.html")

    @get("/{name:str}")
    async def asset(self, name: AssetName) -> Response[bytes]:
        """A module, the stylesheet, the favicon or the font of the page."""
        return _asset(name)
