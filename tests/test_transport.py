"""The lean HTTP/1.1 transport against a raw socket server that answers with crafted bytes:
framing (length, chunked, until close), keep-alive reuse, stale connections, errors, timeouts."""

from __future__ import annotations

import asyncio
import gzip
from typing import Awaitable, Callable

import json
from urllib.parse import urlencode

import pytest

from tui.api import wire
from tui.api.client import ApiClient
from tui.api.errors import NetworkError
from tui.api.transport import Http11Transport, proxy_configured

pytestmark = pytest.mark.anyio

Handler = Callable[[bytes, asyncio.StreamWriter, int], Awaitable[bool]]  # request head, writer, n → keep open


class RawServer:
    """Reads request heads (and Content-Length bodies) and lets the test write the answers."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.connections = 0
        self.requests: list[bytes] = []
        self.bodies: list[bytes] = []

    async def __aenter__(self) -> "RawServer":
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.close()
        await self.server.wait_closed()

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
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


class Http:
    """The transport driven with wire.Requests, as the ApiClient does."""

    def __init__(self, base: str, timeout: float = 15.0) -> None:
        self.transport = Http11Transport()
        self.base = base
        self.timeout = {"connect": timeout, "read": timeout, "write": timeout, "pool": timeout}

    async def __aenter__(self) -> "Http":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.transport.aclose()

    async def request(self, method: str, path: str, params=None, headers=None, content: bytes = b"", json_body=None) -> wire.Response:
        url = self.base + path + ("?" + urlencode(params) if params else "")
        if json_body is not None:
            content = json.dumps(json_body, separators=(",", ":")).encode()
        head = [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
        return await self.transport.handle(wire.Request(method, url, head, content, self.timeout))

    async def get(self, path: str, **kw) -> wire.Response:
        return await self.request("GET", path, **kw)

    async def post(self, path: str, json=None) -> wire.Response:
        return await self.request("POST", path, json_body=json)

    async def delete(self, path: str) -> wire.Response:
        return await self.request("DELETE", path)

    async def head(self, path: str) -> wire.Response:
        return await self.request("HEAD", path)


def answer(body: bytes, status: str = "200 OK", extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 " + status.encode() + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n" + extra + b"\r\n" + body


async def test_content_length_keep_alive_and_headers_sent() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        w.write(answer(b'{"n": %d}' % n, extra=b"Content-Type: application/json\r\nX-Total-Count: 7\r\n"))
        return True

    async with RawServer(handler) as srv, Http(srv.url) as http:
        for i in range(1, 4):
            r = await http.get("/a/b", params={"page": i}, headers={"X-Auth-Token": "t"})
            assert r.status_code == 200 and r.json() == {"n": i}
            assert r.headers["x-total-count"] == "7"
        assert srv.connections == 1, "one kept-alive connection serves every request"
        first = srv.requests[0]
        assert first.startswith(b"GET /a/b?page=1 HTTP/1.1\r\n")
        assert b"\r\nHost: 127.0.0.1:" in first and b"\r\nX-Auth-Token: t\r\n" in first


async def test_post_body_and_length() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        w.write(answer(b"{}", status="201 Created"))
        return True

    async with RawServer(handler) as srv, Http(srv.url) as http:
        r = await http.post("/x", json={"name": "web-1"})
        assert r.status_code == 201
        assert srv.bodies == [b'{"name":"web-1"}']
        r = await http.post("/x")  # an empty POST still says its length
        assert b"\r\nContent-Length: 0\r\n" in srv.requests[1]


async def test_chunked_gzip_informational_and_no_body_statuses() -> None:  # gzip is decoded here
    payload = gzip.compress(b'{"servers": [1, 2, 3]}')

    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        if head.startswith(b"GET /chunked"):
            w.write(b"HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n")
            w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n")
            half = len(payload) // 2
            for part in (payload[:half], payload[half:]):
                w.write(b"%x;ext=1\r\n" % len(part) + part + b"\r\n")
            w.write(b"0\r\nX-Trailer: y\r\n\r\n")
        elif head.startswith(b"DELETE"):
            w.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        elif head.startswith(b"HEAD"):
            w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n")
        return True

    async with RawServer(handler) as srv, Http(srv.url) as http:
        r = await http.get("/chunked")
        assert r.json() == {"servers": [1, 2, 3]}
        r = await http.delete("/thing")
        assert r.status_code == 204 and r.content == b""
        r = await http.head("/thing")
        assert r.status_code == 200 and r.content == b""
        r = await http.get("/chunked")  # the connection is still in step after all of that
        assert r.json() == {"servers": [1, 2, 3]}
        assert srv.connections == 1


async def test_body_until_close_and_connection_close() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        if n == 1:
            w.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end")
        else:
            w.write(answer(b"bye", extra=b"Connection: close\r\n"))
        return False

    async with RawServer(handler) as srv, Http(srv.url) as http:
        assert (await http.get("/1")).text == "until the end"
        assert (await http.get("/2")).text == "bye"
        assert (await http.get("/3")).text == "bye"
        assert srv.connections == 3, "a body read until close, or Connection: close, is never reused"


async def test_stale_kept_alive_connection_is_retried_for_get_only() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        if n in (2, 4):  # the server drops the kept-alive connection without answering
            w.transport.abort()
            return False
        w.write(answer(b"ok"))
        return True

    async with RawServer(handler) as srv, Http(srv.url) as http:
        assert (await http.get("/1")).text == "ok"
        assert (await http.get("/2")).text == "ok", "a GET on a dead kept-alive connection is sent again"
        assert srv.connections == 2
        with pytest.raises(wire.RemoteProtocolError):
            await http.post("/4", json={})  # a POST is never sent twice
        assert srv.requests[-1].startswith(b"POST /4")


async def test_truncated_and_malformed_responses_are_protocol_errors() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        if n == 1:
            w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
        else:
            w.write(b"SMTP ready\r\n\r\n")
        return False

    async with RawServer(handler) as srv, Http(srv.url) as http:
        with pytest.raises(wire.RemoteProtocolError, match="mid-response"):
            await http.get("/1")
        with pytest.raises(wire.RemoteProtocolError, match="malformed"):
            await http.get("/2")


async def test_read_timeout_and_refused_connection() -> None:
    async def silent(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        await asyncio.sleep(5)
        return False

    async with RawServer(silent) as srv, Http(srv.url, timeout=0.2) as http:
        with pytest.raises(wire.ReadTimeout):
            await http.get("/slow")
    async with Http(srv.url) as http:  # the server is gone
        with pytest.raises(wire.ConnectError):
            await http.get("/")


async def test_api_client_uses_it_and_reports_network_errors() -> None:
    async def handler(head: bytes, w: asyncio.StreamWriter, n: int) -> bool:
        w.write(answer(b'{"servers": []}', extra=b"Content-Type: application/json\r\n"))
        return True

    async with RawServer(handler) as srv:
        client = ApiClient(srv.url, "k" * 36)
        assert await client.get_json("/instance/v1/zones/fr-par-1/servers") == {"servers": []}
        assert isinstance(client._direct, Http11Transport)
        await client.aclose()
    client = ApiClient(srv.url, "k" * 36, retry=None)
    client.retry.deadline = 0.0
    with pytest.raises(NetworkError, match="cannot connect"):
        await client.get("/x")
    await client.aclose()


def test_a_configured_proxy_keeps_httpx_transport() -> None:
    assert not proxy_configured({})
    assert proxy_configured({"HTTPS_PROXY": "http://proxy:3128"})
    assert proxy_configured({"all_proxy": "socks5://proxy:1080"})


async def test_with_a_proxy_in_the_environment_httpx_client_does_the_talking(monkeypatch):
    from tui.api.bridge import HttpxBridge

    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    client = ApiClient("https://api.example.invalid", "k" * 36)
    client._connect()
    assert isinstance(client._direct, HttpxBridge) and client._direct._client is not None
    await client.aclose()


async def test_the_console_start_path_does_not_import_httpx():
    import subprocess
    import sys

    code = (
        "import sys, asyncio\n"
        "from tui.api.client import ApiClient\n"
        "from tui.products.service import ResourceService\n"
        "import tui.ui.app, tui.ui.screens.main\n"
        "print('httpx' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", "httpx (~45 ms) is imported only behind a proxy or for a test transport"
