"""The connections of a client, in a few pools of a few each: httpx's own transports, a request sent
on the pool with the fewest in flight (the first when tied, so a lone request — an idle probe — always
finds the connection kept open by the one before).

Why not one pool: httpcore 1.0.9's pool walks every connection for every idle one whenever a request
starts or ends (encode/httpcore#1035, open), so its work per request grows with the square of its
connections. 50,000 servers 50 ms away (500 pages) took 2.4 s of client CPU with 48 connections in one
pool, 4.2 s with 64; in pools of 8, 0.9 s either way, and 1.0 s from request to the last page with 48 in
flight (1.15 s with 32: more in flight cover more of the round trips). The pools share nothing but the
count of what is in flight, so each behaves as httpx's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .background import import_httpx

if TYPE_CHECKING:
    import httpx

PER_POOL = 8  # connections in each pool: its bookkeeping per request stays small


class Spread:
    """A transport as httpx uses one (a mount): each request on the pool with the fewest in flight. Not an
    `httpx.AsyncBaseTransport` subclass, which would import httpx with this module, on the start path;
    httpx asks a transport for nothing more than these four methods."""

    def __init__(self, pools: list[Any]) -> None:
        self.pools = pools
        self.busy = [0] * len(pools)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        busy = self.busy
        at = busy.index(min(busy))
        busy[at] += 1
        try:
            response: httpx.Response = await self.pools[at].handle_async_request(request)
            return response
        finally:
            busy[at] -= 1

    async def aclose(self) -> None:
        for pool in self.pools:
            await pool.aclose()

    async def __aenter__(self) -> "Spread":
        for pool in self.pools:
            await pool.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        for pool in self.pools:
            await pool.__aexit__(*exc)


def spread(connections: int, **transport: Any) -> Spread:
    """A transport of `connections` connections in pools of PER_POOL, each made with `transport` (httpx's
    `AsyncHTTPTransport` arguments: verify, trust_env…, and `keep`, the seconds an idle one is kept)."""
    hx = import_httpx()  # (in the thread that makes the client, off the start path)
    pools = max(1, -(-connections // PER_POOL))
    each = -(-connections // pools)
    limits = hx.Limits(max_connections=each, max_keepalive_connections=each, keepalive_expiry=transport.pop("keep"))
    return Spread([hx.AsyncHTTPTransport(limits=limits, **transport) for _ in range(pools)])
