"""A raw HTTP server on a loopback socket that answers with crafted bytes, and a client to it whose waits
are counted, not slept (tests/unit/test_http*.py)."""

from __future__ import annotations

import asyncio
import ssl
from typing import Awaitable, Callable

from tui.api.client import ApiClient, RetryPolicy

Handler = Callable[[bytes, asyncio.StreamWriter, int], Awaitable[bool]]  # request head, writer, n → keep open


class RawServer:
    """Reads request heads (and Content-Length bodies) and lets the test write the answers."""

    def __init__(self, handler: Handler, ssl_context: ssl.SSLContext | None = None) -> None:
        self.handler = handler
        self.ssl = ssl_context
        self.connections = 0
        self.requests: list[bytes] = []
        self.bodies: list[bytes] = []

    async def __aenter__(self) -> "RawServer":
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.ssl)
        port = self.server.sockets[0].getsockname()[1]
        self.port = port
        self.url = f"{'https' if self.ssl else 'http'}://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                self.bodies.append(await reader.readexactly(length) if length else b"")
                self.requests.append(head)
                if not await self.handler(head, writer, len(self.requests)):
                    break
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()


def answer(body: bytes, status: str = "200 OK", extra: bytes = b"") -> bytes:
    return (
        b"HTTP/1.1 "
        + status.encode()
        + b"\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n"
        + extra
        + b"\r\n"
        + body
    )


JSON = b"Content-Type: application/json\r\n"


def client(url: str, **kw) -> ApiClient:
    sleeps: list[float] = []

    async def fake_sleep(s: float) -> None:
        sleeps.append(s)

    kw.setdefault("retry", RetryPolicy(deadline=30, max_attempts=4))
    c = ApiClient(url, "k" * 36, sleep=fake_sleep, monotonic=lambda: sum(sleeps), **kw)
    c.sleeps = sleeps  # type: ignore[attr-defined]
    return c


async def ok(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
    w.write(answer(b'{"ok": true}', extra=JSON))
    return True
