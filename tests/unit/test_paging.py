"""Both pagination styles, concurrent later pages, and no silent truncation."""

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from tui.api.client import ApiClient, RetryPolicy
from tui.api.paging import iter_pages, list_all
from tui.sandbox import DEMO_SECRET_KEY, ManualClock, Sandbox

pytestmark = pytest.mark.anyio
SERVERS = "/instance/v1/zones/fr-par-1/servers"


async def test_per_page_style_collects_every_page():
    sandbox = Sandbox(clock=ManualClock(), seed="empty", scale=250)
    client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(sandbox.app))
    result = await list_all(client, SERVERS, "servers", page_size=100)
    assert result.total == 250 and len(result.items) == 250 and result.complete
    assert len({s["id"] for s in result.items}) == 250
    pages = sorted(p for m, p in sandbox.requests)
    assert len(pages) == 3


async def test_per_page_is_capped_at_100():
    sandbox = Sandbox(clock=ManualClock(), seed="empty", scale=120)
    client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(sandbox.app))
    result = await list_all(client, SERVERS, "servers", page_size=500)
    assert len(result.items) == 120 and len(sandbox.requests) == 2


async def test_failed_page_is_reported_not_hidden():
    big = Sandbox(clock=ManualClock(), seed="empty", scale=300)
    big.inject(503, "page=2&")
    client = ApiClient(
        "http://sb", DEMO_SECRET_KEY, transport=httpx.ASGITransport(big.app), retry=RetryPolicy(max_attempts=1)
    )
    result = await list_all(client, SERVERS, "servers", page_size=100)
    assert result.total == 300
    assert len(result.items) == 200
    assert not result.complete and result.errors[0].status == 503


def _page_size_app(total: int, with_total: bool = True) -> Starlette:
    items = [{"id": f"id-{i}", "name": f"n{i}"} for i in range(total)]

    async def listing(request):
        page = int(request.query_params["page"])
        size = int(request.query_params["page_size"])
        body = {"clusters": items[(page - 1) * size : page * size]}
        if with_total:
            body["total_count"] = total
        return JSONResponse(body)

    return Starlette(routes=[Route("/kvcache/v1/zones/fr-par-1/clusters", listing)])


async def test_pages_answered_out_of_order_keep_the_apis_order():
    """Later pages are fetched while earlier ones wait; rows still come in the API's order."""
    import asyncio

    items = [{"id": f"id-{i}"} for i in range(40)]
    last_answered = asyncio.Event()

    async def listing(request):
        page = int(request.query_params["page"])
        if page == 2:
            await last_answered.wait()  # page 2 is answered only after page 4
        if page == 4:
            last_answered.set()
        return JSONResponse({"clusters": items[(page - 1) * 10 : page * 10], "total_count": 40})

    app = Starlette(routes=[Route("/kvcache/v1/zones/fr-par-1/clusters", listing)])
    client = ApiClient("http://x", "k", transport=httpx.ASGITransport(app))
    batches = [
        b
        async for b in iter_pages(
            client, "/kvcache/v1/zones/fr-par-1/clusters", "clusters", style="page_size", page_size=10, concurrency=4
        )
    ]
    assert [b.page for b in batches] == [1, 2, 3, 4]
    assert [i["id"] for b in batches for i in b.items] == [i["id"] for i in items]


async def test_page_size_style_uses_total_count():
    client = ApiClient("http://x", "k", transport=httpx.ASGITransport(_page_size_app(45)))
    result = await list_all(client, "/kvcache/v1/zones/fr-par-1/clusters", "clusters", style="page_size", page_size=20)
    assert result.total == 45 and [i["id"] for i in result.items] == [f"id-{i}" for i in range(45)]


async def test_without_any_total_pages_are_walked_until_a_short_one():
    client = ApiClient("http://x", "k", transport=httpx.ASGITransport(_page_size_app(45, with_total=False)))
    batches = [
        b
        async for b in iter_pages(
            client, "/kvcache/v1/zones/fr-par-1/clusters", "clusters", style="page_size", page_size=20
        )
    ]
    assert [len(b.items) for b in batches] == [20, 20, 5]


async def test_a_whole_listing_is_one_get_and_a_map_becomes_named_items(make_client):
    from tui.api.paging import iter_pages

    client = make_client()
    batches = [
        b async for b in iter_pages(client, "/instance/v1/zones/fr-par-1/products/servers", "servers", style="whole")
    ]
    assert len(batches) == 1 and batches[0].error is None
    items = batches[0].items
    assert batches[0].total == len(items) > 5
    dev1 = next(i for i in items if i["name"] == "DEV1-S")
    assert dev1["id"] == "DEV1-S" and dev1["ncpus"] == 2 and "per_volume_constraint" in dev1


def test_pages_in_flight_follow_the_first_round_trip():
    """A near API gets a few pages in flight (each costs the client CPU), a far one many, never
    fewer than two nor more than asked."""
    from tui.api.paging import PAGE_CPU, in_flight

    assert in_flight(0.0, 16) == 2
    assert in_flight(PAGE_CPU, 16) == 3
    assert in_flight(0.050, 16) == 16 and in_flight(0.010, 16) == 11 and in_flight(0.050, 64) == 51
    assert in_flight(5.0, 4) == 4


async def test_the_names_a_list_looks_up_are_read_alongside_its_first_page():
    """Flexible IPs name their servers: the servers are listed while page 1 of the IPs is on its way,
    not after it (a round trip saved on every refresh), and once for all the pages."""
    import asyncio

    import httpx

    from tui.api.client import ApiClient
    from tui.products.kit.base import Context
    from tui.products.manifest import by_id
    from tui.products.kit.service import ResourceService
    from tui.sandbox import DEMO_PROJECT_ID, DEMO_SECRET_KEY, ManualClock, Sandbox

    sandbox = Sandbox(clock=ManualClock())
    server = next(iter(sandbox.baremetal.servers["fr-par-1"].values()))
    for _ in range(150):  # two pages
        sandbox.fip.create("fr-par-1", {"project_id": DEMO_PROJECT_ID, "server_id": server["id"]})
    events: list[str] = []
    servers_asked = asyncio.Event()
    asgi = httpx.ASGITransport(sandbox.app)

    class Watched(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            what = (
                ("servers" if "/servers" in request.url.path else "fips")
                + " page "
                + request.url.params.get("page", "1")
            )
            events.append("start " + what)
            if what == "servers page 1":
                servers_asked.set()
            elif what == "fips page 1":  # page 1 answers once the servers are asked for (or never will be)
                try:
                    await asyncio.wait_for(servers_asked.wait(), 5)
                except asyncio.TimeoutError:
                    pass
            response = await asgi.handle_async_request(request)
            events.append("end " + what)
            return response

    client = ApiClient("http://sb", DEMO_SECRET_KEY, transport=Watched())
    service = ResourceService(client, by_id("flexible_ip.fips").load(), context=lambda sc: Context(DEMO_PROJECT_ID, sc))
    rows = await service.list_rows("fr-par-1")
    await client.aclose()
    assert len(rows) >= 150 and all(
        r.text("server_name") == server["name"] for r in rows if r.text("server_id") == server["id"]
    )
    assert events.index("start servers page 1") < events.index("end fips page 1")
    assert events.count("start servers page 1") == 1


@pytest.mark.parametrize("page_one_retried", [False, True])
async def test_a_far_api_gets_many_pages_in_flight_unless_page_one_had_to_be_retried(monkeypatch, page_one_retried):
    """Page 1's round trip sets how many pages are in flight; a page 1 that was retried (here a
    503) says nothing of it, and a busy platform gets the fewest."""
    import asyncio
    import types

    import httpx

    from tui.api import paging
    from tui.api.client import ApiClient, RetryPolicy

    ticks = iter(range(0, 10_000))
    monkeypatch.setattr(paging, "time", types.SimpleNamespace(monotonic=lambda: next(ticks) * 1.0))  # page 1: a second
    state = {"now": 0, "peak": 0, "failed": False}

    class Api(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            page = int(request.url.params.get("page", "1"))
            if page == 1 and page_one_retried and not state["failed"]:
                state["failed"] = True
                return httpx.Response(503, json={"message": "busy"})
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"]) if page > 1 else state["peak"]
            for _ in range(20):  # let every request that may start, start
                await asyncio.sleep(0)
            state["now"] -= 1
            return httpx.Response(200, json={"items": [{"id": f"{page}-{i}"} for i in range(100)], "total_count": 3000})

    async def no_wait(seconds: float) -> None:
        return None

    client = ApiClient(
        "http://api", "k", transport=Api(), retry=RetryPolicy(deadline=60), sleep=no_wait, monotonic=lambda: 0.0
    )
    result = await paging.list_all(client, "/things", "items", style="page_size", page_size=100, concurrency=16)
    await client.aclose()
    assert len(result.items) == 3000
    assert state["peak"] == (2 if page_one_retried else 16)
