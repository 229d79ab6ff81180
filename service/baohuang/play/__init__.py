"""The reference table in the browser, served at ``/play`` (``BAOHUANG_PLAY_PAGE=off`` turns it off).

Plain ES modules, a stylesheet and one HTML page in ``static/``, shipped inside the package: no
build step and nothing fetched from elsewhere. The page uses only the public HTTP API and the
table streams, as any client would (docs/clients.md).
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

MEDIA_TYPES = {
    ".html": "text/html",  # Litestar adds "; charset=utf-8" to text types
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",  # the favicon
    ".woff": "font/woff",  # the CJK subset font (tools/cjk_font.py)
}


@cache
def assets() -> dict[str, tuple[bytes, str]]:
    """Every file of ``static/`` by name, with its media type; read once per process."""
    found: dict[str, tuple[bytes, str]] = {}
    for entry in files(__name__).joinpath("static").iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if entry.is_file() and suffix in MEDIA_TYPES:
            found[entry.name] = (entry.read_bytes(), MEDIA_TYPES[suffix])
    return found


# The unicode-range of play.css's @font-face "Baohuang CJK": CJK ideographs, radicals and
# punctuation, fullwidth forms.
CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")


def cjk_characters() -> set[str]:
    """Every CJK character of the page's text files (its labels, and the comments beside them):
    what the shipped subset font ``cjk.woff`` must hold (tools/cjk_font.py makes it)."""
    found: set[str] = set()
    for content, media_type in assets().values():
        if media_type.startswith("text/"):
            found.update(CJK.findall(content.decode("utf-8")))
    return found
