"""The benchmark's reference for a list (`tests/bench.py`): the same pages the console fetches — page 1,
then the others as many at a time as the console's rule takes from page 1's round trip — fetched with
httpx and decoded with orjson, the collector paused, nothing else (no rows, no table, no app). A list
line's ratio to it holds on a slower machine. Not a test module."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

import httpx
import orjson

from tui.api.paging import in_flight
from tui.sandbox.constants import DEMO_SECRET_KEY as KEY

SERVERS = "/instance/v1/zones/fr-par-1/servers"


async def scenario_reference(url: str, expect: int, repeat: int) -> dict[str, Any]:
    out: dict[str, Any] = {"seconds": []}
    limits = httpx.Limits(max_connections=16, keepalive_expiry=50)
    async with httpx.AsyncClient(base_url=url, headers={"X-Auth-Token": KEY}, limits=limits) as http:

        async def page(n: int) -> list[Any]:
            resp = await http.get(SERVERS, params={"page": n, "per_page": 100})
            return orjson.loads(resp.content)["servers"]

        await page(1)  # a connection made, as the console's is by then
        for _ in range(repeat):
            gc.disable()  # as the console's listing does (`ui.collector`)
            started = time.perf_counter()
            first = await http.get(SERVERS, params={"page": 1, "per_page": 100})
            rows = orjson.loads(first.content)["servers"]
            total = int(first.headers["x-total-count"])
            gate = asyncio.Semaphore(in_flight(time.perf_counter() - started, 16))

            async def one(n: int) -> list[Any]:
                async with gate:
                    return await page(n)

            for more in await asyncio.gather(*(one(n) for n in range(2, -(-total // 100) + 1))):
                rows.extend(more)
            out["seconds"].append(time.perf_counter() - started)
            gc.enable()
            assert len(rows) == expect, (len(rows), expect)
    return out
