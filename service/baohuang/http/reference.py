"""The API reference at ``/schema`` and ``/schema/swagger``, from the package's own files.

Litestar's render plugins load their JavaScript from a CDN (jsDelivr, unpkg), which leaves the
reference blank offline, behind a proxy that blocks CDNs, or under a Content-Security-Policy
that allows only this origin. Swagger UI's files are shipped in ``reference_assets/`` instead
(its README says which version and how to update) and served under ``/schema/assets/``. One UI,
not two: Scalar's standalone bundle alone is 4.8 MB and fetches its fonts from Scalar's own CDN,
where Swagger UI's three files are 1.8 MB and fetch nothing.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Annotated

from litestar import Controller, Response, get
from litestar.exceptions import NotFoundException
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.params import PathParameter

SWAGGER_UI_VERSION = "5.18.2"
ASSETS_PATH = "/schema/assets"
_MEDIA_TYPES = {".js": "text/javascript", ".css": "text/css", ".png": "image/png"}
# The files never change for one version of the package: browsers may keep them a day.
_HEADERS = {"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"}


@cache
def assets() -> dict[str, tuple[bytes, str]]:
    """The reference's files by name, with their media types; read once per process."""
    found: dict[str, tuple[bytes, str]] = {}
    for entry in files(__package__ or "baohuang.http").joinpath("reference_assets").iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if entry.is_file() and suffix in _MEDIA_TYPES:
            found[entry.name] = (entry.read_bytes(), _MEDIA_TYPES[suffix])
    return found


def render_plugin() -> SwaggerRenderPlugin:
    """Swagger UI on the local files, at ``/schema`` (the first plugin) and ``/schema/swagger``."""
    return SwaggerRenderPlugin(
        version=SWAGGER_UI_VERSION,
        js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
        css_url=f"{ASSETS_PATH}/swagger-ui.css",
        standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{ASSETS_PATH}/favicon-32x32.png'>",
        path="/swagger",
    )


AssetName = Annotated[str, PathParameter(pattern=r"^[a-z0-9-]+\.(js|css|png)$")]


class ReferenceAssetsController(Controller):
    path = ASSETS_PATH
    include_in_schema = False

    @get("/{name:str}")
    async def asset(self, name: AssetName) -> Response[bytes]:
        found = assets().get(name)
        if found is None:
            raise NotFoundException(f"no such file: {name}")
        content, media_type = found
        return Response(content, media_type=media_type, headers=_HEADERS)
