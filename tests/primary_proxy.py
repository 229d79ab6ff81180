"""A TCP proxy on loopback that leads to one Redis node and can be pointed at another: the
stable address that follows the primary (HAProxy checking ``ROLE``, a cloud's primary endpoint,
a virtual IP) that a service in ``REDIS_MODE=standalone`` may be given instead of Sentinels.
Pointing it elsewhere closes every connection it carries, as a failover behind such an address
does; a client's next connection reaches the new node. Holding it keeps every connection open but
passes on nothing the node sends until released: a replica that replicates through it stays
linked and listed ``online``, and gets nothing.

Runs in the test's event loop; :meth:`PrimaryProxy.close` ends every connection and the server.
"""

from __future__ import annotations

import asyncio
import contextlib

from redis_server import RedisServer


class PrimaryProxy:
    def __init__(self, target: RedisServer) -> None:
        self.target = target
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._passing = asyncio.Event()
        self._passing.set()

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"redis://{host}:{port}/0"

    async def start(self) -> PrimaryProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def point_at(self, target: RedisServer) -> None:
        """Lead to ``target`` from now on; the connections to the old one are closed."""
        self.target = target
        for writer in list(self._writers):
            writer.close()

    def hold(self) -> None:
        """Pass on nothing the node sends from now on (what clients send still reaches it)."""
        self._passing.clear()

    def release(self) -> None:
        """Pass on what the node sent meanwhile, and all it sends from now on."""
        self._passing.set()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(
                self.target.host, self.target.port
            )
        except OSError:
            writer.close()
            return
        self._writers |= {writer, upstream_writer}
        pipes = [
            asyncio.ensure_future(_pump(reader, upstream_writer)),
            asyncio.ensure_future(_pump(upstream_reader, writer, self._passing)),
        ]
        self._pipes.update(pipes)
        try:
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pipe in pipes:
                pipe.cancel()
                self._pipes.discard(pipe)
            for one in (writer, upstream_writer):
                one.close()
                self._writers.discard(one)

    async def close(self) -> None:
        for writer in list(self._writers):
            writer.close()
        for pipe in list(self._pipes):
            pipe.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    await self._server.wait_closed()


async def _pump(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, passing: asyncio.Event | None = None
) -> None:
    with contextlib.suppress(OSError, asyncio.IncompleteReadError, ConnectionError):
        while data := await reader.read(65536):
            if passing is not None:
                await passing.wait()
            writer.write(data)
            await writer.drain()
