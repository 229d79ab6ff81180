"""The ``baohuang`` command: serve the referee, print its OpenAPI document, compare at a terminal."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    import msgspec
    import uvicorn

    from .http.app import create_app
    from .http.bounds import bounded_protocol, connection_cap, raise_open_files_limit
    from .http.settings import Settings

    settings = Settings.from_env()
    open_files = raise_open_files_limit()
    max_connections = connection_cap(settings.max_connections, open_files)
    # The cap in force, so that the streams' share of it (http/stream_slots.py) is of this one.
    settings = msgspec.structs.replace(settings, max_connections=max_connections)
    base: type[asyncio.Protocol]
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        base = HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
        from uvicorn.protocols.http.h11_impl import H11Protocol

        base = H11Protocol
    app = create_app(settings)
    app.state.startup_notes = [
        f"bounds: {open_files} open files, {max_connections} connections, "
        f"{settings.max_in_flight} requests in flight, headers within "
        f"{settings.header_timeout_seconds:g}s, bodies within {settings.body_timeout_seconds:g}s, "
        f"keep-alive {settings.keep_alive_seconds}s, backlog {settings.backlog}, "
        f"{app.state.stream_slots.limits.per_process} streams at most"
    ]
    # One worker per process: scale with replicas (each exposes its own /metrics).
    # No limit_concurrency: uvicorn counts idle and slow connections in it and would answer 503
    # to every request, probes included, while slow clients hold connections; http/bounds.py
    # evicts those instead and limits only the requests waiting for an answer.
    served: dict[str, Any] = {
        "host": args.host,
        "log_level": args.log_level,
        "access_log": False,
        "server_header": False,
        "ws": "none",
        "timeout_keep_alive": settings.keep_alive_seconds,
    }
    if settings.probe_port is None:
        uvicorn.run(
            app,
            port=args.port,
            proxy_headers=True,
            http=bounded_protocol(base, settings.header_timeout_seconds, max_connections),
            backlog=settings.backlog,
            **served,
        )
        return 0
    from .http.probes import run_with_probes

    return run_with_probes(app, args.port, settings, base, max_connections, served)


def _openapi(_: argparse.Namespace) -> int:
    from .http.app import create_app
    from .http.docs import document_request_bodies

    document = document_request_bodies(create_app())
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def _errors(_: argparse.Namespace) -> int:
    from .http.catalogue_pages import markdown

    sys.stdout.write(markdown())
    return 0


def _compare(args: argparse.Namespace) -> int:
    from .engine import CODES, InvalidInput, compare
    from .engine.rulesets import resolve_ruleset

    try:
        ruleset = resolve_ruleset(args.ruleset, kaopai=True if args.kaopai else None)
        judgement = compare(args.previous.split(), args.candidate.split(), ruleset)
    except InvalidInput as error:
        print(f"bad input: {error}", file=sys.stderr)
        return 2
    if judgement.reason is not None:
        reason = judgement.reason
        print(f"does not beat: {reason.code} ({reason.rule}) {reason.message}")
        return 1
    print("beats")
    for card, group in judgement.cover or []:
        print(f"  {CODES[card]:>3} <- {' '.join(CODES[c] for c in group)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="baohuang", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the HTTP API (no Redis needed)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(run=_serve)
    openapi = commands.add_parser("openapi", help="print the OpenAPI document (JSON)")
    openapi.set_defaults(run=_openapi)
    errors = commands.add_parser(
        "errors", help="print the catalogue of codes, docs/errors.md (markdown)"
    )
    errors.set_defaults(run=_errors)
    compare = commands.add_parser("compare", help='does CANDIDATE beat PREVIOUS? e.g. "SJ 9S 9H"')
    compare.add_argument("previous")
    compare.add_argument("candidate")
    compare.add_argument("--ruleset", default="classic")
    compare.add_argument("--kaopai", action="store_true", help="judge under 烤牌 (K)")
    compare.set_defaults(run=_compare)
    args = parser.parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
