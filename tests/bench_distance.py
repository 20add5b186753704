"""The benchmark at a distance (`tests/bench.py --only distance`): the real app, headless, talking to a
sandbox through an in-process proxy (`Distance`, an httpx transport around the real one) that adds a
delay per request, admits at most N requests in any one-second window, refuses a share at random,
or refuses everything for a while — each refusal a 429 with an empty body and no `Retry-After`, as
the platform's front answers. Not a test module."""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from typing import Any

import httpx

from bench_scenarios import Frames, bench_app, until
from tui.sandbox.constants import DEMO_SECRET_KEY as KEY

Z = "/instance/v1/zones/fr-par-1/servers"


class Distance(httpx.AsyncBaseTransport):
    """The proxy: counts requests and the bytes of their answers, and refuses as it is told."""

    def __init__(self, delay: float = 0.02, per_window: int | None = None, refuse: float = 0.0, seed: int = 0) -> None:
        self.inner = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=16, keepalive_expiry=50))
        self.delay, self.per_window, self.refuse = delay, per_window, refuse
        self.rng = random.Random(seed)
        self.accepted: deque[float] = deque()
        self.down_until = 0.0
        self.requests = self.refused = self.bytes = 0
        self.first: float | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.first is None:
            self.first = time.perf_counter()
        await asyncio.sleep(self.delay)
        self.requests += 1
        now = time.monotonic()
        while self.accepted and self.accepted[0] <= now - 1.0:
            self.accepted.popleft()
        full = self.per_window is not None and len(self.accepted) >= self.per_window
        if now < self.down_until or full or (self.refuse and self.rng.random() < self.refuse):
            self.refused += 1
            return httpx.Response(429, headers={"X-Envoy-Ratelimited": "true"})
        self.accepted.append(now)
        resp = await self.inner.handle_async_request(request)
        raw = b"".join([chunk async for chunk in resp.stream])  # type: ignore[union-attr]
        await resp.aclose()
        self.bytes += len(raw)
        return httpx.Response(resp.status_code, headers=resp.headers, content=raw)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def scenario_limited(url: str, expect: int, per_window: int, refuse: float, seed: int) -> dict[str, Any]:
    """A first listing of `expect` servers through a proxy 20 ms away that admits `per_window` requests a
    second (0: no limit) and refuses `refuse` of them at random: seconds from its first request to every
    row shown, requests sent, rows shown."""
    frames = Frames()
    proxy = Distance(0.02, per_window or None, refuse, seed)
    app = bench_app(url, frames, transport=proxy)
    async with app.run_test(size=(120, 40)):
        await until(lambda: app.main is not None and bool(app.main.query("ResourceView")))
        view = app.main.query_one("ResourceView")
        await until(lambda: view.model.last_attempt is not None and not view.model.listing, timeout=300)
        done = time.perf_counter()
        assert proxy.first is not None
        return {"seconds": done - proxy.first, "requests": proxy.requests, "rows": view.table.loaded_count}


async def scenario_deleted(url: str, expect: int) -> dict[str, Any]:
    """One server deleted elsewhere, deep in a list of `expect`: the refresh that notices it (requests,
    bytes); and an idle probe before it (nothing changed)."""
    frames = Frames()
    proxy = Distance(0.02)
    app = bench_app(url, frames, transport=proxy)
    out: dict[str, Any] = {}
    async with app.run_test(size=(120, 40)), httpx.AsyncClient(base_url=url, headers={"X-Auth-Token": KEY}) as http:
        view = await _listed(app, expect)
        await _tick(view)  # the first slow tick learns the rows' marks
        requests, sent = proxy.requests, proxy.bytes
        await _tick(view)
        out["idle_requests"], out["idle_bytes"] = proxy.requests - requests, proxy.bytes - sent
        sid = view.table.shown_keys[expect * 2 // 3]
        (await http.post(f"{Z}/{sid}/action", json={"action": "poweroff"})).raise_for_status()
        while (await http.get(f"{Z}/{sid}")).json()["server"]["state"] != "stopped":
            await asyncio.sleep(0.1)
        (await http.delete(f"{Z}/{sid}")).raise_for_status()
        requests, sent = proxy.requests, proxy.bytes
        await _tick(view)
        await until(lambda: view.table.get(sid) is None and not view.model.listing, timeout=60)
        out["requests"], out["bytes"] = proxy.requests - requests, proxy.bytes - sent
        out["rows"] = view.table.loaded_count
    return out


async def scenario_outage(url: str, expect: int, seconds: float) -> dict[str, Any]:
    """Every request refused for `seconds`, a reload asked meanwhile (its rows stay shown), a server
    renamed elsewhere as the platform recovers: seconds from recovery to the new name shown."""
    frames = Frames()
    proxy = Distance(0.02)
    app = bench_app(url, frames, transport=proxy, fast=2.0, slow=30.0, paused=1.0)
    out: dict[str, Any] = {}
    async with app.run_test(size=(120, 40)), httpx.AsyncClient(base_url=url, headers={"X-Auth-Token": KEY}) as http:
        view = await _listed(app, expect)
        out["rows_before"] = view.table.loaded_count
        proxy.down_until = time.monotonic() + seconds
        await asyncio.sleep(5)
        view.reload()
        fewest = view.table.loaded_count
        while time.monotonic() < proxy.down_until:
            fewest = min(fewest, view.table.loaded_count)
            await asyncio.sleep(0.05)
        sid = view.table.shown_keys[expect // 2]
        (await http.patch(f"{Z}/{sid}", json={"name": "renamed-in-the-outage"})).raise_for_status()
        recovered = time.monotonic()
        await until(lambda: view.table.get(sid).name == "renamed-in-the-outage", timeout=180)
        out["fresh_after"] = time.monotonic() - recovered
        out["fewest_rows_during"] = fewest
    return out


async def _listed(app: Any, expect: int) -> Any:
    """The start view, listed whole (`expect` rows, or one fewer after a delete of an earlier scenario)."""
    await until(lambda: app.main is not None and bool(app.main.query("ResourceView")))
    view = app.main.query_one("ResourceView")
    await until(lambda: not view.model.listing and view.model.last_refresh is not None, timeout=120)
    assert expect - 1 <= view.table.loaded_count <= expect, view.table.loaded_count
    return view


async def _tick(view: Any) -> None:
    """What the slow timer does, and its end."""
    attempt = view.model.last_attempt
    view.refresher.fire()
    await until(lambda: view.model.last_attempt != attempt and not view.model.listing, timeout=120)
