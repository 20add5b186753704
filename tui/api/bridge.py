"""httpx behind the API layer's wire objects, imported only when needed: a proxy configured in the
environment (httpx's client honours HTTP(S)_PROXY, ALL_PROXY and NO_PROXY), or an httpx transport
handed in (the tests' in-process sandbox, MockTransport)."""

from __future__ import annotations

import ssl
from typing import Any

import httpx

from . import wire

_ERRORS: dict[type[Exception], type[wire.TransportError]] = {
    httpx.ConnectError: wire.ConnectError,
    httpx.ConnectTimeout: wire.ConnectTimeout,
    httpx.PoolTimeout: wire.PoolTimeout,
    httpx.ReadTimeout: wire.ReadTimeout,
    httpx.WriteTimeout: wire.WriteTimeout,
    httpx.ReadError: wire.ReadError,
    httpx.WriteError: wire.WriteError,
    httpx.RemoteProtocolError: wire.RemoteProtocolError,
}


class HttpxBridge:
    """Sends wire.Requests through an httpx transport, or through an httpx client (proxies)."""

    def __init__(self, transport: Any = None, *, verify: ssl.SSLContext | bool = True, max_connections: int = 16) -> None:
        self._transport = transport
        self._client = None
        if transport is None:
            limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
            self._client = httpx.AsyncClient(verify=verify, limits=limits, trust_env=True)

    async def handle(self, request: wire.Request) -> wire.Response:
        req = httpx.Request(
            request.method, request.url, headers=request.headers, content=request.content,
            extensions={"timeout": request.timeout},
        )
        try:
            if self._client is not None:
                resp = await self._client.send(req)  # read whole, and closed
                content = resp.content
            else:
                resp = await self._transport.handle_async_request(req)
                try:
                    content = await resp.aread()  # decoded as its Content-Encoding says
                finally:
                    await resp.aclose()
        except httpx.TransportError as exc:
            raise _ERRORS.get(type(exc), wire.TransportError)(str(exc) or type(exc).__name__) from None
        return wire.Response(resp.status_code, list(resp.headers.raw), content, request)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
