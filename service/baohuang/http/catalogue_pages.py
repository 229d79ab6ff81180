"""The catalogue of codes as people read it: docs/errors.md, and the pages behind ``type``.

Both are made from :data:`.catalogue.CODES` and nothing else, so the committed markdown and the
served pages say the same (tests/http/test_problem_catalogue.py compares the markdown with
``baohuang errors``).
"""

from __future__ import annotations

from html import escape

from .catalogue import CODES, PROBLEMS_PATH, Code, Kind, problem_type

_HEADINGS: dict[Kind, tuple[str, str]] = {
    "problem": (
        "Problems",
        "A 4xx or 5xx answer, `application/problem+json`: `type` (the page of the code on the "
        "service: `/problems/unknown-card` for `UNKNOWN_CARD`), `title`, `status`, `detail`, `instance` "
        "(`urn:request:<X-Request-ID>`) and `errors: [{code, rule, path, message}]`.",
    ),
    "refusal": (
        "Refusals",
        'The `reason` of a "no" about the game, `{code, rule, message}`: a 200 verdict on the '
        "stateless routes (`legal: false`, `beats: false`, `valid: false`). A live table refuses "
        "a move with 422 titled *Illegal move*: a problem document that carries the same "
        "`reason`, and its code in `errors[0].code`.",
    ),
    "void": (
        "Void deals",
        "`score.void` of a finished deal that is not scored, `{code, rule, message}`.",
    ),
}

_PATHS = (
    "`errors[].path` is a JSONPath into the request: the body's fields from its root "
    "(`$.move.cards[1]`), path parameters under `$.path` (`$.path.table_id`), query parameters "
    "under `$.query` (`$.query.after`) and headers under `$.headers`, named in lower case "
    "(`$.headers.idempotency-key`)."
)


def _statuses(entry: Code) -> str:
    return ", ".join(str(status) for status in entry.statuses)


def markdown() -> str:
    """docs/errors.md: every code, grouped by kind (``baohuang errors`` prints it)."""
    lines = [
        "# Errors, refusals and their codes",
        "",
        "<!-- Generated from service/baohuang/http/catalogue.py by `baohuang errors > "
        "docs/errors.md`; edit the registry, not this file. -->",
        "",
        "Every code the service answers with. Codes are stable; messages are for people and may "
        "change. " + _PATHS,
    ]
    for kind, (heading, intro) in _HEADINGS.items():
        lines += [
            "",
            f"## {heading}",
            "",
            intro,
            "",
            "| code | status | meaning |",
            "|---|---|---|",
        ]
        for entry in CODES:
            if entry.kind == kind:
                lines.append(f"| `{entry.code}` | {_statuses(entry)} | {entry.meaning} |")
    return "\n".join(lines) + "\n"


_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;"
    "line-height:1.5}code{background:#f2f2f2;padding:0 .2em}td,th{text-align:left;"
    "padding:.2em .6em;vertical-align:top}"
)


def _page(title: str, body: str) -> str:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}'
        f'</title><meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_STYLE}</style></head><body>{body}</body></html>"
    )


def _inline(text: str) -> str:
    """The registry's prose with its `code` spans, as HTML."""
    parts = escape(text).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def code_page(entry: Code) -> str:
    """The page a problem's ``type`` leads to."""
    heading, intro = _HEADINGS[entry.kind]
    return _page(
        entry.code,
        f"<h1><code>{entry.code}</code></h1><p>{_inline(entry.meaning)}</p>"
        f"<p>Status: {_statuses(entry)}. Kind: {heading.lower()}.</p><p>{_inline(intro)}</p>"
        f"<p>{_inline(_PATHS)}</p>"
        f'<p><a href="{PROBLEMS_PATH}">Every code</a> · <a href="/schema">API reference</a></p>',
    )


def index_page() -> str:
    """``/problems``: every code, linked to its page."""
    sections = []
    for kind, (heading, intro) in _HEADINGS.items():
        rows = "".join(
            f'<tr><td><a href="{problem_type(entry.code)}"><code>{entry.code}</code></a></td>'
            f"<td>{_statuses(entry)}</td><td>{_inline(entry.meaning)}</td></tr>"
            for entry in CODES
            if entry.kind == kind
        )
        sections.append(
            f"<h2>{heading}</h2><p>{_inline(intro)}</p>"
            f"<table><tr><th>code</th><th>status</th><th>meaning</th></tr>{rows}</table>"
        )
    return _page(
        "baohuang-rules: codes",
        "<h1>Errors, refusals and their codes</h1>" + "".join(sections),
    )
