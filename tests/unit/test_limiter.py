"""The limiter, through the client, against platforms that refuse: time here is virtual (a clock that
moves only when every request waits), so the pace is measured in requests and virtual seconds."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
from collections import deque
from typing import Any, Callable

import httpx
import pytest

from tui.api.client import ApiClient
from tui.api.errors import ApiError

pytestmark = pytest.mark.anyio
PAGE = "/instance/v1/zones/fr-par-1/servers"


class VirtualTime:
    """A clock and a sleep for code that only waits on them: `run` moves the clock to the next
    wake-up whenever every task is waiting."""

    def __init__(self) -> None:
        self.t = 0.0
        self._waits: list[tuple[float, int, asyncio.Future[None]]] = []
        self._n = itertools.count()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waits, (self.t + max(0.0, seconds), next(self._n), fut))
        await fut

    async def run(self, work: Any) -> Any:
        task = asyncio.ensure_future(work)
        while not task.done():
            for _ in range(20):  # let every task run until it waits
                await asyncio.sleep(0)
            if task.done() or not self._waits:
                continue
            when, _, fut = heapq.heappop(self._waits)
            self.t = max(self.t, when)
            fut.set_result(None)
        return task.result()


class Front:
    """The platform's front: `rtt` seconds per request, at most `per_window` accepted in any one-second
    window (a 429 with an empty body beyond, as the platform answers), and `refuse(n)` refusing more."""

    def __init__(self, vt: VirtualTime, rtt: float, per_window: int | None, refuse: Callable[[int], bool]) -> None:
        self.vt, self.rtt, self.per_window, self.refuse = vt, rtt, per_window, refuse
        self.accepted: deque[float] = deque()
        self.requests = 0
        self.retry_after: str | None = None

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        await self.vt.sleep(self.rtt)
        self.requests += 1
        now = self.vt.t
        while self.accepted and self.accepted[0] <= now - 1.0:
            self.accepted.popleft()
        full = self.per_window is not None and len(self.accepted) >= self.per_window
        if full or self.refuse(self.requests):
            headers = {"X-Envoy-Ratelimited": "true", **({"Retry-After": self.retry_after} if self.retry_after else {})}
            return httpx.Response(429, headers=headers)
        self.accepted.append(now)
        return httpx.Response(200, json={"servers": []}, headers={"X-Total-Count": "0"})


def listing(vt: VirtualTime, front: Front) -> tuple[ApiClient, Callable[[int, int], Any]]:
    client = ApiClient("http://api.test", "k", transport=httpx.MockTransport(front), sleep=vt.sleep, monotonic=vt.now)

    async def pages(n: int, in_flight: int) -> list[Any]:
        gate = asyncio.Semaphore(in_flight)

        async def one(page: int) -> Any:
            async with gate:
                try:
                    return await client.get_json(PAGE, {"page": page})
                except ApiError as err:
                    return err

        return await asyncio.gather(*(one(p) for p in range(1, n + 1)))

    return client, pages


async def test_not_paced_until_the_platform_refuses() -> None:
    vt = VirtualTime()
    front = Front(vt, rtt=0.02, per_window=None, refuse=lambda n: False)
    client, pages = listing(vt, front)
    got = await vt.run(pages(100, 10))
    assert all(not isinstance(g, ApiError) for g in got) and front.requests == 100
    assert vt.t == pytest.approx(10 * 0.02)  # ten rounds of ten in flight: nothing held back
    assert client.limits.paced() == []


@pytest.mark.parametrize("per_second, in_flight", [(20, 16), (5, 4)])
async def test_a_limit_is_learnt_from_429s_and_kept(per_second: int, in_flight: int) -> None:
    """100 pages through a front admitting `per_second` in any one-second window: the floor is 100 ÷ that
    seconds and 100 requests."""
    vt = VirtualTime()
    front = Front(vt, rtt=0.02, per_window=per_second, refuse=lambda n: False)
    client, pages = listing(vt, front)
    got = await vt.run(pages(100, in_flight))
    assert all(not isinstance(g, ApiError) for g in got), "every page, none given up"
    assert front.requests <= 140, front.requests
    assert vt.t <= 1.3 * (100 / per_second), vt.t
    ((product, limiter),) = client.limits.paced()
    assert product == "instance" and 0.75 * per_second <= limiter.allowance <= 1.1 * per_second + 2


@pytest.mark.parametrize("in_flight", [10, 32])
async def test_random_refusals_get_every_page_without_slowing_to_a_crawl(in_flight: int) -> None:
    """Refused at random, the first answers (a burst, a run of refusals by chance) once set the pace to
    one or a few a second: 100 pages took 28 s here, 46 s in the benchmark."""
    for seed in range(10):
        rng = random.Random(seed)
        vt = VirtualTime()
        front = Front(vt, rtt=0.02, per_window=None, refuse=lambda n: rng.random() < 0.3)
        client, pages = listing(vt, front)
        got = await vt.run(pages(100, in_flight))
        assert all(not isinstance(g, ApiError) for g in got), f"seed {seed}: a page given up"
        # unrefused, 100 pages take 0.2 s; a page refused five times in a row waits 0.25 + 0.5 + 1 + 2 + 4 s
        # (its own backoff), but the pace is not lowered to a few a second
        assert vt.t < 16, f"seed {seed}: {vt.t:.1f} s"


async def test_retry_after_holds_every_request_of_that_product_only() -> None:
    vt = VirtualTime()
    front = Front(vt, rtt=0.01, per_window=None, refuse=lambda n: n == 1)
    front.retry_after = "3"
    client, pages = listing(vt, front)
    await vt.run(pages(1, 1))  # refused, held 3 s, then accepted
    assert vt.t == pytest.approx(3.02)
    began = vt.t
    await vt.run(client.get_json("/rdb/v1/regions/fr-par/instances"))  # another product: not held
    assert vt.t == pytest.approx(began + 0.01)


async def test_an_outage_then_recovery_is_not_paced_afterwards() -> None:
    """Every request refused for 35 s (nothing accepted: no pace to learn), then the platform is back."""
    vt = VirtualTime()
    front = Front(vt, rtt=0.02, per_window=None, refuse=lambda n: vt.t < 35)
    client, pages = listing(vt, front)
    first = await vt.run(pages(4, 4))
    assert all(isinstance(g, ApiError) and g.status == 429 for g in first)  # each gave up after its ~30 s budget
    assert 25 <= vt.t <= 35
    await vt.run(vt.sleep(35 - vt.t))
    began = vt.t
    got = await vt.run(pages(100, 10))
    assert all(not isinstance(g, ApiError) for g in got)
    assert vt.t - began == pytest.approx(10 * 0.02)  # at full speed at once
