"""The ``baohuang`` command: serve the referee, print its OpenAPI document, compare at a terminal,
verify a deal record offline."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .http.settings import Settings
    from .http.workers import PROTOCOL, SERVE_APP, bind, refusal, run_workers

    settings = Settings.from_env()
    workers = args.workers if args.workers is not None else settings.workers
    if workers < 1:
        print(f"--workers {workers}: at least 1", file=sys.stderr)
        return 2
    refused = refusal(settings, workers)
    if refused is not None:
        print(refused, file=sys.stderr)
        return 2
    # Every worker imports the app factory and the protocol by their dotted paths and builds
    # them from the environment (http/serving.py); BAOHUANG_WORKERS tells each how many there are.
    os.environ["BAOHUANG_WORKERS"] = str(workers)
    # No limit_concurrency: uvicorn counts idle and slow connections in it and would answer 503
    # to every request, probes included, while slow clients hold connections; http/bounds.py
    # evicts those instead and limits only the requests waiting for an answer.
    config = uvicorn.Config(
        SERVE_APP,
        factory=True,
        http=PROTOCOL,
        host=args.host,
        port=args.port,
        workers=workers,
        log_level=args.log_level,
        access_log=False,
        server_header=False,
        ws="none",
        proxy_headers=True,
        timeout_keep_alive=settings.keep_alive_seconds,
        timeout_graceful_shutdown=settings.shutdown_seconds,
        backlog=settings.backlog,
    )
    # The listeners are bound here, once, before any worker starts: the service's port and the
    # probe port (http/probes.py), one of each however many workers serve them.
    sockets = [config.bind_socket()]
    if settings.probe_port is not None:
        try:
            sockets.append(bind(args.host, settings.probe_port))
        except OSError as error:
            print(f"BAOHUANG_PROBE_PORT={settings.probe_port}: {error}", file=sys.stderr)
            return 3
    if workers > 1:
        return run_workers(config, sockets, settings)
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run: Ctrl-C ends it quietly
        server.run(sockets=sockets)
    return 0 if server.started else 3


def _openapi(_: argparse.Namespace) -> int:
    from .http.app import create_app
    from .http.docs import document_request_bodies

    document = document_request_bodies(create_app())
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def _record_schema(_: argparse.Namespace) -> int:
    from .records import record_schema

    json.dump(record_schema(), sys.stdout, indent=2, ensure_ascii=False, sort_keys=True)
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


def _verify(args: argparse.Namespace) -> int:
    import msgspec

    from .records import decode_record, verify

    try:
        if args.record == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.record, "rb") as file:
                data = file.read()
        record = decode_record(data)
    except OSError as error:
        print(f"{args.record}: {error.strerror}", file=sys.stderr)
        return 2
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        print(f"{args.record}: not a deal record: {error}", file=sys.stderr)
        return 2
    verdict = verify(record)
    if args.json:
        sys.stdout.write(msgspec.json.encode(verdict).decode() + "\n")
    elif verdict.failure is None:
        print(f"valid: table {verdict.table}, deal {verdict.deal}, {verdict.acts} acts")
    else:
        failure = verdict.failure
        where = failure.part if failure.act is None else f"act {failure.act}"
        rule = f" ({failure.rule})" if failure.rule else ""
        print(f"invalid: {where}: {failure.code}{rule}: {failure.message}")
    return 0 if verdict.valid else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="baohuang", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the HTTP API (no Redis needed)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes behind the port (default BAOHUANG_WORKERS, else 1; more than "
        "one needs REDIS_URL)",
    )
    serve.set_defaults(run=_serve)
    openapi = commands.add_parser("openapi", help="print the OpenAPI document (JSON)")
    openapi.set_defaults(run=_openapi)
    schema = commands.add_parser(
        "record-schema", help="print the JSON Schema of a deal record (JSON)"
    )
    schema.set_defaults(run=_record_schema)
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
    verify = commands.add_parser(
        "verify",
        help="check a deal record offline: the commitment, the deal, every act, the result "
        "(exit 0 valid, 1 invalid, 2 unreadable)",
    )
    verify.add_argument("record", help="the record's file (JSON), or - for standard input")
    verify.add_argument("--json", action="store_true", help="print the verdict as JSON")
    verify.set_defaults(run=_verify)
    args = parser.parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
