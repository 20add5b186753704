"""Both pagination styles of the platform, fetched concurrently, never truncated silently.

- `per_page`: the Instance API. `page` + `per_page` (at most 100); total in `X-Total-Count`.
- `page_size`: every other API. `page` + `page_size`; total in the body's `total_count`.

Page 1 tells the total; the remaining pages are fetched concurrently and yielded in page order (a
page that came early waits for those before it), so a view shows the first rows while the rest
load and every row in the API's order. A failed page is yielded as an error batch: the caller
keeps what it has and shows loaded/total.

How many pages are in flight follows page 1's round trip: enough to keep the client busy while
the platform answers, no more — twice the round trip ÷ the client's work per page, since the answers
of one round come together and wait their turn on the client while the next round is on its way. A
far API gets many (up to `concurrency`); a near one a few, since each request in flight costs the
client CPU: 10,000 servers from a local sandbox took 0.35 s of CPU with 10 in flight, 0.27 s with 4.
50,000 servers 50 ms away took 1.6× their time at 0 ms with 26 in flight in one pool of connections,
1.16× with 26 in pools of 8 (`pools`), 1.10× with 48.

Bodies are decoded (and each item passed through `transform`) as they arrive: a page of 100 items
takes ~2 ms, less than handing it to a thread costs under the GIL; only a body over
`safe.LARGE_BODY` (an unpaginated dump) is decoded in a worker thread (by the client, as every answer).
"""

from __future__ import annotations

import asyncio
import gc
import math
import time
from dataclasses import field
from typing import Any, AsyncIterator, Callable, Literal

from .. import stages
from ..records import record
from .client import ApiClient
from .errors import ApiError, BadBody, as_api_error
from .safe import loads

# "whole": one unpaginated GET whose list key may also be a map of name -> object (Instance types).
PagingStyle = Literal["per_page", "page_size", "whole"]
MAX_PER_PAGE = 100
MOST_IN_FLIGHT = 48  # pages in flight for a far API: 50 ms away, 16 left 500 pages waiting on the round trip
PAGE_CPU = 0.002  # seconds of client work per page of 100 (transport, decode, rows): 50,000 servers in 1.07 s


def in_flight(first_page: float, most: int) -> int:
    """Pages to keep in flight when page 1 took `first_page` seconds: twice its round trip over the
    client's work per page, plus one; between 2 and `most`."""
    return max(2, min(most, math.ceil(2 * first_page / PAGE_CPU) + 1))


Transform = Callable[[dict[str, Any]], Any]


@record
class PageBatch:
    page: int
    items: list[Any]
    total: int | None
    error: ApiError | None = None


@record
class ListResult:
    items: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    errors: list[ApiError] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.errors and (self.total is None or len(self.items) >= self.total)


def _decode(content: bytes, list_key: str | None, transform: Transform | None) -> tuple[list[Any], int | None]:
    """(items, total_count from the body). ValueError when the body is not JSON; BadBody when it is
    JSON of another shape (no list under `list_key`, items that are not objects)."""
    gc_was_on = gc.isenabled()
    gc.disable()  # decoded JSON holds no cycles; a collection per page costs more than the page
    started = stages.clock()
    try:
        body = loads(content)
    finally:
        if gc_was_on:
            gc.enable()
        stages.SPENT["decode"] += stages.clock() - started
    if list_key is None:  # no envelope: the body is the list
        if not isinstance(body, list):
            raise BadBody(200, f"the answer is a JSON {type(body).__name__}, not a list")
        body = {"": body}
        list_key = ""
    if not isinstance(body, dict):
        raise BadBody(200, f"the answer is a JSON {type(body).__name__}, not an object holding {list_key!r}")
    raw = body.get(list_key)
    if isinstance(raw, dict):  # a map keyed by name: each value becomes an item with that name
        raw = [{"id": k, "name": k, **v} if isinstance(v, dict) else v for k, v in raw.items()]
    if not isinstance(raw, list):
        found = "no" if raw is None else f"a {type(raw).__name__} as its"
        raise BadBody(200, f"the answer has {found} {list_key!r} list")
    odd = next((i for i, item in enumerate(raw) if not isinstance(item, dict)), None)
    if odd is not None:
        raise BadBody(
            200,
            f"{list_key}[{odd}] is a {type(raw[odd]).__name__}, not an object: the answer is not in the shape expected",
        )
    started = stages.clock()
    items = raw if transform is None else [transform(i) for i in raw]
    stages.SPENT["rows"] += stages.clock() - started
    total = body.get("total_count")
    return items, total if isinstance(total, int) and not isinstance(total, bool) else None


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


async def fetch_page(
    client: ApiClient,
    path: str,
    list_key: str | None,
    style: PagingStyle,
    page: int,
    size: int,
    params: dict[str, Any],
    transform: Transform | None = None,
) -> tuple[list[Any], int | None]:
    """One page: (items, total). The total is read from either style's marker, leniently."""
    query = dict(params)
    if style != "whole":
        query["page"] = page
        query[style] = size

    def decode(content: bytes) -> Any:  # in a worker thread when over safe.LARGE_BODY (see the client)
        return _decode(content, list_key, transform)

    resp, (items, body_total) = await client.request_data("GET", path, params=query, decode=decode)
    header_total = _int(resp.headers.get("X-Total-Count"))
    if style == "whole":
        return items, len(items)
    total = (
        (header_total if header_total is not None else body_total)
        if style == "per_page"
        else (body_total if body_total is not None else header_total)
    )
    return items, total


async def iter_pages(
    client: ApiClient,
    path: str,
    list_key: str | None,
    *,
    style: PagingStyle = "per_page",
    page_size: int = MAX_PER_PAGE,
    params: dict[str, Any] | None = None,
    concurrency: int = MOST_IN_FLIGHT,
    transform: Transform | None = None,
) -> AsyncIterator[PageBatch]:
    """Yield every page of a listing in page order: page 1 first, then the others, fetched
    concurrently and handed on in order, so rows keep the order the API gives them."""
    params = params or {}
    if style == "whole":
        try:
            items, total = await fetch_page(client, path, list_key, style, 1, 0, params, transform)
        except Exception as err:
            yield PageBatch(1, [], None, as_api_error(err, path))
            return
        yield PageBatch(1, items, total)
        return
    size = min(page_size, MAX_PER_PAGE) if style == "per_page" else page_size
    started, retries = time.monotonic(), client.stats.retries
    try:
        items, total = await fetch_page(client, path, list_key, style, 1, size, params, transform)
    except Exception as err:
        yield PageBatch(1, [], None, as_api_error(err, path))
        return
    # Page 1's round trip, before the caller handles it. One that was retried (a 429, a 5xx) tells
    # nothing of the round trip, and a busy platform wants fewer requests at once, not more.
    first = time.monotonic() - started if client.stats.retries == retries else 0.0
    yield PageBatch(1, items, total)
    if total is None:
        # No total advertised: walk sequentially until a short page.
        page = 1
        while len(items) >= size:
            page += 1
            try:
                items, _ = await fetch_page(client, path, list_key, style, page, size, params, transform)
            except Exception as err:
                yield PageBatch(page, [], None, as_api_error(err, path))
                return
            yield PageBatch(page, items, None)
        return
    pages = math.ceil(total / size) if size else 1
    if pages <= 1:
        return
    sem = asyncio.Semaphore(in_flight(first, max(2, concurrency)))

    async def one(page: int) -> PageBatch:
        async with sem:
            try:
                got, tot = await fetch_page(client, path, list_key, style, page, size, params, transform)
            except Exception as err:
                return PageBatch(page, [], None, as_api_error(err, path))
            return PageBatch(page, got, tot)

    tasks = [asyncio.ensure_future(one(p)) for p in range(2, pages + 1)]
    try:
        for fut in tasks:  # in page order: the rows keep the API's order (a page that came early waits)
            yield await fut
    finally:
        for t in tasks:
            t.cancel()


async def list_all(client: ApiClient, path: str, list_key: str | None, **kw: Any) -> ListResult:
    """Collect every page in page order; errors are kept, never raised."""
    batches: list[PageBatch] = []
    result = ListResult()
    async for batch in iter_pages(client, path, list_key, **kw):
        batches.append(batch)
        if batch.error is not None:
            result.errors.append(batch.error)
        if batch.total is not None:
            result.total = batch.total
    for b in sorted(batches, key=lambda b: b.page):
        result.items.extend(b.items)
    return result
