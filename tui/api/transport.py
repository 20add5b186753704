"""A lean HTTP/1.1 transport on asyncio streams.

httpx's default transport (httpcore on anyio, h11) costs about 3 ms of CPU per request here: a
listing of 10,000 servers is 100 requests, so 0.3 s of the UI thread went to the HTTP machinery
alone. This transport speaks HTTP/1.1 over asyncio's own streams (TLS through `ssl`) with a
keep-alive pool, decodes gzip and deflate bodies, and costs about 0.3 ms per request. It takes and
returns the small `wire` objects, so httpx is not even imported on the console's start.

It is used for direct connections only: when a proxy is configured in the environment, the client
goes through httpx, which knows proxies (see `proxy_configured` and `tui.api.bridge`).
"""

from __future__ import annotations

import asyncio
import os
import ssl
import time
import zlib
from typing import Callable
from urllib.parse import urlsplit

from .wire import (
    ConnectError, ConnectTimeout, PoolTimeout, ReadError, ReadTimeout, RemoteProtocolError, Request, Response,
    WriteError, WriteTimeout,
)

_IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
_NO_BODY_STATUS = frozenset({204, 304})
_HEAD_LIMIT = 1 << 16  # the longest response head accepted
_PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy")


def proxy_configured(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Whether the environment asks for a proxy (httpx honours these; this transport does not)."""
    return any(environ.get(v) or environ.get(v.upper()) for v in _PROXY_VARS)


class _Conn:
    __slots__ = ("reader", "writer", "idle_since", "reused")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = 0.0
        self.reused = False

    def alive(self, now: float, expiry: float) -> bool:
        return not self.reader.at_eof() and not self.writer.is_closing() and now - self.idle_since < expiry

    def close(self) -> None:
        self.writer.close()


class _Stale(Exception):
    """A kept-alive connection was closed by the server before any byte of the response."""


class Http11Transport:
    """Keep-alive HTTP/1.1 over asyncio streams; at most `max_connections` at once."""

    def __init__(
        self,
        *,
        ssl_context: Callable[[], ssl.SSLContext] | None = None,
        max_connections: int = 16,
        keepalive_expiry: float = 4.0,
    ) -> None:
        self._ssl_context = ssl_context
        self._max = max_connections
        self._expiry = keepalive_expiry
        self._idle: dict[tuple[str, str, int], list[_Conn]] = {}
        self._slots: asyncio.Semaphore | None = None
        self._closed = False

    async def aclose(self) -> None:
        self._closed = True
        for conns in self._idle.values():
            for conn in conns:
                conn.close()
        self._idle.clear()

    async def handle(self, request: Request) -> Response:
        if self._closed:
            raise RuntimeError("the transport is closed")
        timeouts = request.timeout
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._max)
        try:
            async with asyncio.timeout(timeouts.get("pool")):
                await self._slots.acquire()
        except TimeoutError:
            raise PoolTimeout("no free connection") from None
        try:
            body = request.content
            url = urlsplit(request.url)
            head = _request_head(request, url, len(body))
            for attempt in range(2):
                conn = await self._connection(url, timeouts.get("connect"), fresh=attempt > 0)
                try:
                    return await self._exchange(conn, request, _key(url), head, body, timeouts)
                except _Stale:
                    if request.method not in _IDEMPOTENT or attempt:
                        raise RemoteProtocolError("the server closed the connection without a response") from None
            raise AssertionError("unreachable")
        finally:
            self._slots.release()

    async def _connection(self, url, timeout: float | None, fresh: bool) -> _Conn:  # type: ignore[no-untyped-def]
        key = _key(url)
        idle = self._idle.get(key)
        if idle and not fresh:
            now = time.monotonic()
            while idle:
                conn = idle.pop()
                if conn.alive(now, self._expiry):
                    conn.reused = True
                    return conn
                conn.close()
        tls: ssl.SSLContext | None = None
        if key[0] == "https":
            tls = self._ssl_context() if self._ssl_context is not None else ssl.create_default_context()
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(
                    key[1], key[2], ssl=tls, server_hostname=key[1] if tls else None, limit=_HEAD_LIMIT
                )
        except TimeoutError:
            raise ConnectTimeout(f"timed out connecting to {key[1]}:{key[2]}") from None
        except (OSError, ssl.SSLError) as exc:
            raise ConnectError(f"{key[1]}:{key[2]}: {exc}") from None
        return _Conn(reader, writer)

    async def _exchange(
        self, conn: _Conn, request: Request, key: tuple[str, str, int], head: bytes, body: bytes, timeouts: dict[str, float | None]
    ) -> Response:
        reader, writer = conn.reader, conn.writer
        keep = False
        try:
            try:
                async with asyncio.timeout(timeouts.get("write")):
                    writer.write(head + body if len(body) < 65536 else head)
                    if len(body) >= 65536:
                        writer.write(body)
                    await writer.drain()
            except TimeoutError:
                raise WriteTimeout("timed out sending the request") from None
            except OSError as exc:
                if conn.reused:
                    raise _Stale() from None
                raise WriteError(str(exc)) from None
            read_timeout = timeouts.get("read")
            loop = asyncio.get_running_loop()
            try:
                async with asyncio.timeout(read_timeout) as deadline:
                    status, reason, headers, version = await _read_head(reader, conn.reused)
                    no_body = request.method == "HEAD" or status in _NO_BODY_STATUS or status < 200
                    content, complete = await _read_body(reader, headers, no_body, deadline, read_timeout, loop)
            except TimeoutError:
                raise ReadTimeout("timed out waiting for the response") from None
            except asyncio.IncompleteReadError:
                raise RemoteProtocolError("the server closed the connection mid-response") from None
            except asyncio.LimitOverrunError:
                raise RemoteProtocolError("the response head is too long") from None
            except (ConnectionError, OSError) as exc:
                raise ReadError(str(exc) or type(exc).__name__) from None
            except ValueError as exc:
                raise RemoteProtocolError(f"malformed response: {exc}") from None
            keep = complete and version == b"HTTP/1.1" and not _has_token(headers, b"connection", b"close")
            try:
                content = _decoded(headers, content)
            except zlib.error as exc:
                raise RemoteProtocolError(f"the body does not decode: {exc}") from None
            return Response(status, headers, content, request)
        finally:
            if keep and not self._closed:
                conn.idle_since = time.monotonic()
                self._idle.setdefault(key, []).append(conn)
            else:
                conn.close()


def _key(url) -> tuple[str, str, int]:  # type: ignore[no-untyped-def]
    scheme = url.scheme
    return scheme, url.hostname or "", url.port or (443 if scheme == "https" else 80)


def _request_head(request: Request, url, length: int) -> bytes:  # type: ignore[no-untyped-def]
    target = (url.path or "/") + (f"?{url.query}" if url.query else "")
    lines = [request.method.encode("ascii") + b" " + target.encode("ascii") + b" HTTP/1.1"]
    names = {name.lower() for name, _ in request.headers}
    if b"host" not in names:
        lines.append(b"Host: " + url.netloc.encode("idna"))
    has_length = False
    for name, value in request.headers:
        low = name.lower()
        if low == b"transfer-encoding":
            continue  # the body is always sent whole, with its length
        if low == b"content-length":
            has_length = True
        lines.append(name + b": " + value)
    if not has_length and (length or request.method in ("POST", "PUT", "PATCH")):
        lines.append(b"Content-Length: " + str(length).encode("ascii"))
    return b"\r\n".join(lines) + b"\r\n\r\n"


async def _read_head(reader: asyncio.StreamReader, reused: bool) -> tuple[int, bytes, list[tuple[bytes, bytes]], bytes]:
    """Status, reason, headers and version of the final (non-1xx) response head."""
    while True:
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if not exc.partial and reused:
                raise _Stale() from None
            raise
        except ConnectionResetError:
            if reused:
                raise _Stale() from None
            raise
        lines = raw[:-4].split(b"\r\n")
        version, _, rest = lines[0].partition(b" ")
        code, _, reason = rest.partition(b" ")
        if not version.startswith(b"HTTP/1.") or len(code) != 3 or not code.isdigit():
            raise ValueError(f"bad status line {lines[0][:80]!r}")
        status = int(code)
        if 100 <= status < 200 and status != 101:
            continue  # informational (100 Continue, 103 Early Hints): the real answer follows
        headers = []
        for line in lines[1:]:
            name, sep, value = line.partition(b":")
            if not sep or not name or name != name.strip():
                raise ValueError(f"bad header line {line[:80]!r}")
            headers.append((name, value.strip()))
        return status, reason, headers, version


async def _read_body(
    reader: asyncio.StreamReader,
    headers: list[tuple[bytes, bytes]],
    no_body: bool,
    deadline: asyncio.Timeout,
    read_timeout: float | None,
    loop: asyncio.AbstractEventLoop,
) -> tuple[bytes, bool]:
    """(body, whether the connection may be kept): by chunks, by length, or until the server closes.
    The read timeout applies between pieces, so a large body arriving steadily is not cut."""

    def progress() -> None:
        if read_timeout is not None:
            deadline.reschedule(loop.time() + read_timeout)

    if no_body:
        return b"", True
    if _has_token(headers, b"transfer-encoding", b"chunked"):
        parts = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";", 1)[0].strip(), 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":
                    pass  # trailers
                return b"".join(parts), True
            parts.append(await reader.readexactly(size))
            if await reader.readexactly(2) != b"\r\n":
                raise ValueError("bad chunk end")
            progress()
    length = _content_length(headers)
    if length is None:
        return await reader.read(), False
    parts = []
    remaining = length
    while remaining:
        piece = await reader.read(remaining)
        if not piece:
            raise asyncio.IncompleteReadError(b"".join(parts), length)
        parts.append(piece)
        remaining -= len(piece)
        progress()
    return (parts[0] if len(parts) == 1 else b"".join(parts)), True


def _content_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    values = {v for n, v in headers if n.lower() == b"content-length"}
    if not values:
        return None
    if len(values) > 1:
        raise ValueError("conflicting Content-Length headers")
    value = values.pop()
    if not value.isdigit():
        raise ValueError(f"bad Content-Length {value[:20]!r}")
    return int(value)


def _has_token(headers: list[tuple[bytes, bytes]], name: bytes, token: bytes) -> bool:
    return any(
        n.lower() == name and token in (t.strip().lower() for t in v.split(b",")) for n, v in headers
    )


def _decoded(headers: list[tuple[bytes, bytes]], content: bytes) -> bytes:
    """The body without its Content-Encoding (gzip and deflate are what the client asks for)."""
    for name, value in headers:
        if name.lower() == b"content-encoding":
            for coding in reversed([c.strip().lower() for c in value.split(b",") if c.strip()]):
                if coding in (b"gzip", b"x-gzip"):
                    content = zlib.decompress(content, 16 + zlib.MAX_WBITS)
                elif coding == b"deflate":
                    try:
                        content = zlib.decompress(content)
                    except zlib.error:  # raw deflate, as some servers send it
                        content = zlib.decompress(content, -zlib.MAX_WBITS)
                elif coding != b"identity":
                    raise zlib.error(f"unsupported content-encoding {coding.decode('latin-1')}")
    return content
