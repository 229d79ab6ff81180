"""A Sentinel that only knows its replicas: a RESP server on 127.0.0.1 answering
``SENTINEL REPLICAS`` with a recorded answer (``REPLICAS``, from the Sentinel setup of
tests/redis_topologies.py), for the quick tests of what the service makes of it.

It speaks RESP3, as a real Sentinel does after the ``HELLO 3`` that redis-py sends on every new
connection; ``CLIENT SETINFO`` is answered ``OK``, anything else an error, and every command it
got is kept in ``asked``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["REPLICAS", "FakeSentinel", "fake_sentinel", "replica"]


def replica(port: int, flags: str = "slave") -> list[tuple[str, str]]:
    """One replica as a Sentinel 7 lists it (fields as recorded, ``flags`` as given)."""
    return [
        ("name", f"127.0.0.1:{port}"), ("ip", "127.0.0.1"), ("port", str(port)),
        ("runid", "e5b437a1c9475e54d9a2bf685cde0586a1401c3f"), ("flags", flags),
        ("link-pending-commands", "0"), ("link-refcount", "1"), ("last-ping-sent", "0"),
        ("last-ok-ping-reply", "13"), ("last-ping-reply", "13"),
        ("down-after-milliseconds", "1000"), ("info-refresh", "2102"),
        ("role-reported", "slave"), ("role-reported-time", "2165"),
        ("master-link-down-time", "0"), ("master-link-status", "ok"),
        ("master-host", "127.0.0.1"), ("master-port", "56201"), ("slave-priority", "100"),
        ("slave-repl-offset", "0"), ("replica-announced", "1"),
    ]  # fmt: skip


REPLICAS = [replica(58213), replica(49571)]
"""The two replicas of the Sentinel setup, both up."""


_HELLO = {"server": "redis", "version": "7.0.15", "proto": 3, "id": 1, "mode": "sentinel"}


def _encode(value: object) -> bytes:
    if isinstance(value, dict):
        items = [_encode(k) + _encode(v) for k, v in value.items()]
        return b"%%%d\r\n" % len(value) + b"".join(items)
    if isinstance(value, int):
        return b":%d\r\n" % value
    if isinstance(value, list | tuple):
        return b"*%d\r\n" % len(value) + b"".join(_encode(item) for item in value)
    data = str(value).encode()
    return b"$%d\r\n%s\r\n" % (len(data), data)


async def _command(reader: asyncio.StreamReader) -> list[str]:
    header = await reader.readuntil(b"\r\n")
    if not header.startswith(b"*"):
        raise ConnectionError(f"not a RESP command: {header!r}")
    words = []
    for _ in range(int(header[1:])):
        size = int((await reader.readuntil(b"\r\n"))[1:])
        words.append((await reader.readexactly(size + 2))[:-2].decode())
    return words


class FakeSentinel:
    def __init__(self, replicas: list[list[tuple[str, str]]]) -> None:
        self.replicas = replicas
        self.answering = True  # False: SENTINEL REPLICAS is refused, as by an ACL
        self.asked: list[list[str]] = []
        self.port = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while True:
                words = await _command(reader)
                self.asked.append(words)
                upper = [w.upper() for w in words]
                listing = upper[:2] in (["SENTINEL", "REPLICAS"], ["SENTINEL", "SLAVES"])
                if listing and self.answering:
                    writer.write(_encode([dict(one) for one in self.replicas]))
                elif upper[:1] == ["HELLO"]:
                    writer.write(_encode(_HELLO))
                elif upper[:2] == ["CLIENT", "SETINFO"]:
                    writer.write(b"+OK\r\n")
                else:
                    writer.write(b"-ERR unknown command for this fake Sentinel\r\n")
                await writer.drain()
        writer.close()


@contextmanager
def fake_sentinel(replicas: list[list[tuple[str, str]]] = REPLICAS) -> Iterator[FakeSentinel]:
    """A :class:`FakeSentinel` listening on a free port of 127.0.0.1, closed afterwards.

    It runs on an event loop of its own, in a thread: a test client may block the test's loop
    while the app asks the Sentinel (litestar's test clients run the app through a portal)."""
    sentinel = FakeSentinel(replicas)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="fake-sentinel", daemon=True)
    thread.start()
    try:
        listening = asyncio.start_server(sentinel.serve, "127.0.0.1", 0)
        server = asyncio.run_coroutine_threadsafe(listening, loop).result(10)
        sentinel.port = server.sockets[0].getsockname()[1]
        try:
            yield sentinel
        finally:
            server.close()
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()
