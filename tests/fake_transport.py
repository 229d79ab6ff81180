"""A socket transport in memory, enough for a uvicorn protocol to read a request and answer it:
what it wrote, and whether it was closed (the tests drive uvicorn's protocols without sockets)."""

from __future__ import annotations

import asyncio
from typing import Any


class FakeTransport(asyncio.Transport):
    """Enough of a socket transport for a protocol to read a request and answer it."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass
