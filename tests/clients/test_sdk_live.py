"""Both SDKs play live deals against a running ``baohuang serve``, as client developers would.

The platform deals and creates a table, each seat moves with its own token, and answers come
back cut to the seat; the hand-written layers follow the table's streams with resume and retry
moves under one Idempotency-Key. The newcomer programs of docs/clients.md run as they are shown
there, and the TypeScript compiles with ``tsc --strict`` first (no casts in it, no
``@ts-ignore``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from baohuang_client import AuthenticatedClient, Client
from baohuang_client.api.before_play import deal_hands
from baohuang_client.api.play import get_auto_move
from baohuang_client.api.tables import create_table, get_table, list_table_events
from baohuang_client.models import (
    CreatedTable,
    DealRequest,
    LoggedPlayedEvent,
    PlatformTable,
    PostMove,
    PublicView,
    PutTable,
    SeatMoveAnswer,
    SeatTable,
    SeatView,
    Snapshot,
    SnapshotRequest,
    SpectatorTable,
)
from baohuang_client_live import Closed, Logged, Opening, ProblemError, follow, ok, post_move
from live_server import ProcessServer
from node_tools import ROOT, TYPESCRIPT, node_tool, run

pytestmark = [pytest.mark.slow, pytest.mark.anyio]  # `baohuang serve` processes, whole deals

KEY = "sdk-platform-key"
PYTHON_EXAMPLE = ROOT / "clients" / "python" / "examples" / "play_a_deal.py"
TYPESCRIPT_EXAMPLE = TYPESCRIPT / "examples" / "play-a-deal.ts"


def environment(*, keys: str = "") -> dict[str, str]:
    """A development service (no platform keys) or one with ``keys``, in memory."""
    return {"REDIS_URL": "", "BAOHUANG_API_KEYS": keys, "BAOHUANG_TOKEN_SECRET": "sdk-tests"}


def table_id() -> str:
    return f"sdk-{uuid.uuid4().hex[:12]}"


def play(url: str, platform: Client | AuthenticatedClient, tid: str, seed: int) -> CreatedTable:
    """Deal, create the table, and play the deal to its end: each move by its seat's token."""
    dealt = ok(deal_hands.sync(client=platform, body=DealRequest(seed=seed, dealer=0)))
    created = ok(create_table.sync(tid, client=platform, body=PutTable(snapshot=dealt.snapshot)))
    seats = [AuthenticatedClient(url, token=token) for token in created.seat_tokens]
    play_on(platform, seats, tid)
    return created


def play_on(
    platform: Client | AuthenticatedClient, seats: list[AuthenticatedClient], tid: str
) -> None:
    while True:
        table = ok(get_table.sync(tid, client=platform))
        # the discriminator: a platform's answer decodes as PlatformTable, its view a Snapshot
        assert isinstance(table, PlatformTable) and table.audience == "platform"
        assert isinstance(table.view, Snapshot)
        if table.view.over:
            return
        move = ok(get_auto_move.sync(client=platform, body=SnapshotRequest(snapshot=table.view)))
        assert move.move is not None
        seat = move.move.seat
        answer = post_move(seats[seat], tid, PostMove(move=move.move, version=table.version))
        moved = answer.parsed
        assert isinstance(moved, SeatMoveAnswer), answer.content  # by `audience`
        assert moved.audience == "seat" and moved.view.seat == seat  # cut to the seat


async def test_a_development_service_is_played_with_the_plain_python_client() -> None:
    """No token for the platform: openapi-python-client's ``Client`` reaches the table routes."""
    async with ProcessServer(environment()) as server:
        tid = table_id()
        created = await asyncio.to_thread(play, server.url, Client(server.url), tid, 2026)
        seat = AuthenticatedClient(server.url, token=created.seat_tokens[2])
        table = ok(await asyncio.to_thread(get_table.sync, tid, client=seat))
        assert isinstance(table, SeatTable) and table.audience == "seat"
        assert isinstance(table.view, SeatView) and table.view.seat == 2
        assert table.view.over
        assert "hands" not in table.view.to_dict()  # the seat's view, never the snapshot
        spectator = AuthenticatedClient(server.url, token=created.spectator_token)
        public = ok(await asyncio.to_thread(get_table.sync, tid, client=spectator))
        assert isinstance(public, SpectatorTable) and public.audience == "spectator"
        assert isinstance(public.view, PublicView) and not isinstance(public.view, SeatView)


async def test_python_streams_follow_a_deal_and_resume_where_they_stopped() -> None:
    async with ProcessServer(environment(keys=KEY)) as server:
        url, tid = server.url, table_id()
        platform = AuthenticatedClient(url, token=KEY)
        dealt = ok(deal_hands.sync(client=platform, body=DealRequest(seed=11, dealer=2)))
        created = ok(
            create_table.sync(tid, client=platform, body=PutTable(snapshot=dealt.snapshot))
        )
        seat = AuthenticatedClient(url, token=created.seat_tokens[0])
        seen: dict[str, list[Logged]] = {"sse": [], "ndjson": []}
        opened = {media: threading.Event() for media in seen}
        audiences: dict[str, str] = {}

        def reader(media: str, client: AuthenticatedClient) -> None:
            for item in follow(client, tid, media="sse" if media == "sse" else "ndjson"):
                if isinstance(item, Opening):
                    audiences[media] = type(item.table).__name__
                    opened[media].set()
                elif isinstance(item, Logged):
                    seen[media].append(item)
                    if item.type == "deal_over":
                        return
                assert not isinstance(item, Closed)

        threads = [
            threading.Thread(target=reader, args=("sse", seat)),
            threading.Thread(target=reader, args=("ndjson", platform)),
        ]
        for thread in threads:
            thread.start()
        assert all(event.wait(20) for event in opened.values())
        assert audiences == {"sse": "SeatTable", "ndjson": "PlatformTable"}  # by `audience`
        seats = [AuthenticatedClient(url, token=token) for token in created.seat_tokens]
        await asyncio.to_thread(play_on, platform, seats, tid)
        for thread in threads:
            await asyncio.to_thread(thread.join, 30)
            assert not thread.is_alive()

        seat_seqs = [item.seq for item in seen["sse"]]
        assert seat_seqs == sorted(set(seat_seqs)) and seen["sse"][-1].type == "deal_over"
        assert "move" not in {item.type for item in seen["sse"]}  # the platform's record only
        played = [item.event for item in seen["sse"] if item.type == "played"]
        assert played and all(isinstance(event, LoggedPlayedEvent) for event in played)
        # a logged event always has its seq, id and version: typed int and str, never optional
        assert all(
            item.id == item.event.id and item.id.startswith(f"{item.seq}.") for item in seen["sse"]
        )
        assert all(isinstance(item.event.version, int) for item in seen["sse"])
        assert {item.type for item in seen["ndjson"]} >= {"move", "played", "deal_over"}
        assert set(seat_seqs) < {item.seq for item in seen["ndjson"]}
        # the seat's JSON page holds what its stream held
        paged: list[int] = []
        after = "0"
        while True:
            page = ok(list_table_events.sync(tid, client=seat, after=after, limit=200))
            paged += [event.seq for event in page.events]  # an int: a logged event has one
            if not page.events or paged[-1] >= page.last_seq:
                break
            after = page.events[-1].id
        assert paged == seat_seqs
        # resumed from the middle (Last-Event-ID): the rest, no gap, no duplicate
        middle = seat_seqs[len(seat_seqs) // 2]
        resumed: list[int] = []
        for item in follow(seat, tid, after=middle):
            assert isinstance(item, Logged)  # a resumed stream does not open with the view
            resumed.append(item.seq)
            if item.type == "deal_over":
                break
        assert resumed == [seq for seq in seat_seqs if seq > middle]
        # an error answer is raised typed, as TypeScript's follow throws it
        with pytest.raises(ProblemError) as refused:
            next(iter(follow(platform, f"{tid}-missing")))
        assert refused.value.status == 404
        errors = refused.value.problem.errors
        assert isinstance(errors, list) and errors[0].code == "TABLE_NOT_FOUND"


class Flaky(httpx.BaseTransport):
    """Answers the first move attempt with a 503, loses the answer of the second (the move was
    applied; the connection dropped), and lets the third through; records every attempt."""

    def __init__(self, url: str) -> None:
        self.real = httpx.HTTPTransport()
        self.url = url
        self.attempts: list[str | None] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/moves"):
            return self.real.handle_request(request)
        self.attempts.append(request.headers.get("Idempotency-Key"))
        if len(self.attempts) == 1:
            problem = {"type": "about:blank", "title": "Service Unavailable", "status": 503}
            return httpx.Response(503, json={**problem, "detail": "overloaded"}, request=request)
        response = self.real.handle_request(request)
        if len(self.attempts) == 2:
            response.read()
            raise httpx.ReadError("the connection dropped before the answer", request=request)
        return response


async def test_a_python_move_retried_after_a_503_and_a_lost_answer_is_applied_once() -> None:
    async with ProcessServer(environment()) as server:
        url, tid = server.url, table_id()
        platform = Client(url)
        dealt = ok(deal_hands.sync(client=platform, body=DealRequest(seed=5, dealer=0)))
        created = ok(
            create_table.sync(tid, client=platform, body=PutTable(snapshot=dealt.snapshot))
        )
        table = ok(get_table.sync(tid, client=platform))
        assert isinstance(table.view, Snapshot)
        move = ok(get_auto_move.sync(client=platform, body=SnapshotRequest(snapshot=table.view)))
        assert move.move is not None
        flaky = Flaky(url)
        seat = AuthenticatedClient(url, token=created.seat_tokens[move.move.seat])
        seat.set_httpx_client(
            httpx.Client(
                base_url=url,
                transport=flaky,
                headers={"Authorization": f"Bearer {created.seat_tokens[move.move.seat]}"},
            )
        )
        body = PostMove(move=move.move, version=table.version)
        answer = await asyncio.to_thread(post_move, seat, tid, body, backoff=0.01)
        moved = answer.parsed
        assert isinstance(moved, SeatMoveAnswer), answer.content
        assert moved.version == table.version + 1 and moved.replayed is True
        assert len(flaky.attempts) == 3 and len(set(flaky.attempts)) == 1
        assert flaky.attempts[0] is not None
        after = ok(get_table.sync(tid, client=platform))
        assert after.version == table.version + 1  # applied once, not twice


def shown_in_docs(language: str) -> str:
    """The one ``language`` block under docs/clients.md's "SDKs" section."""
    text = (ROOT / "docs" / "clients.md").read_text()
    section = text.split("\n## SDKs", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(rf"```{language}\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1, blocks
    return str(blocks[0])


def test_the_newcomer_programs_are_the_ones_in_the_docs_and_short() -> None:
    for example, language in [(PYTHON_EXAMPLE, "python"), (TYPESCRIPT_EXAMPLE, "ts")]:
        source = example.read_text()
        assert shown_in_docs(language) == source, f"docs/clients.md shows another {example.name}"
        assert len(source.splitlines()) <= 40, example


async def test_the_python_newcomer_program_plays_a_deal() -> None:
    async with ProcessServer(environment()) as server:
        env = {
            **os.environ,
            "BAOHUANG_URL": server.url,
            "PYTHONPATH": str(PYTHON_EXAMPLE.parents[1]),
        }
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, str(PYTHON_EXAMPLE), table_id()],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert re.fullmatch(r"deal over after \d+ moves: positions \[.*\]\n", done.stdout)


@pytest.fixture(scope="module")
def compiled() -> Iterator[Path]:
    """clients/typescript compiled by ``tsc --strict`` (tsconfig.json) into its dist/ (ignored
    by git), where node finds openapi-fetch in its node_modules."""
    tsc = node_tool("tsc")
    for source in [*(TYPESCRIPT / "src").glob("*.ts"), *(TYPESCRIPT / "examples").glob("*.ts")]:
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", source.read_text(), flags=re.S)  # no comments
        assert "@ts-" not in source.read_text(), f"a @ts- directive in {source}"
        assert not re.search(r"\bas\s+(?!const\b)\S", code), f"a cast (`as`) in {source}"
        assert not re.search(r"[\w)\]]!(?!=)", code), f"a non-null assertion in {source}"
    config = json.loads((TYPESCRIPT / "tsconfig.json").read_text())
    assert config["compilerOptions"]["strict"] is True
    out = TYPESCRIPT / "dist"
    run([tsc, "-p", "tsconfig.json", "--outDir", out])
    yield out


def node(compiled: Path, program: str, url: str, *args: str, key: str = "") -> str:
    env = {**os.environ, "BAOHUANG_URL": url}
    if key:
        env["BAOHUANG_KEY"] = key
    return run(["node", compiled / "examples" / program, *args], env=env, timeout=180)


async def test_the_typescript_newcomer_program_plays_a_deal(compiled: Path) -> None:
    async with ProcessServer(environment(keys=KEY)) as server:
        out = await asyncio.to_thread(
            node, compiled, "play-a-deal.js", server.url, table_id(), key=KEY
        )
        assert re.fullmatch(r"deal over after \d+ moves: positions \[.*\]\n", out)


async def test_typescript_streams_and_pages_follow_a_deal(compiled: Path) -> None:
    async with ProcessServer(environment(keys=KEY)) as server:
        out = await asyncio.to_thread(
            node, compiled, "follow-a-deal.js", server.url, table_id(), key=KEY
        )
    seen: dict[str, Any] = json.loads(out)
    assert seen["seat"] == sorted(set(seen["seat"])) and seen["seat"]
    assert seen["page"] == seen["seat"]  # the JSON page and the SSE stream agree
    assert set(seen["seat"]) < set(seen["platform"])  # NDJSON, the platform's whole log
    assert "move" in seen["platformTypes"] and "move" not in seen["seatTypes"]
    assert "deal_over" in seen["seatTypes"]
    assert seen["resumed"] == [seq for seq in seen["seat"] if seq > seen["middle"]]
    # switch (table.audience) narrowed each table to its view: hands, a seat, the counts
    assert seen["opened"] == ["platform:5", "seat:0", "spectator:5"]
    # follow() threw the error answer as a typed ProblemError, as Python's raises it
    assert seen["problem"] == {"status": 404, "code": "TABLE_NOT_FOUND"}


async def test_a_typescript_move_retried_after_a_503_and_a_lost_answer_is_applied_once(
    compiled: Path,
) -> None:
    async with ProcessServer(environment()) as server:
        out = await asyncio.to_thread(node, compiled, "retry-a-move.js", server.url, table_id())
    seen: dict[str, Any] = json.loads(out)
    assert len(seen["keys"]) == 3 and len(set(seen["keys"])) == 1 and seen["keys"][0]
    assert seen["status"] == 200 and seen["replayed"] is True
    assert seen["version"] == seen["after"] == seen["before"] + 1  # applied once
