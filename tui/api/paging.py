"""Both pagination styles of the platform, fetched concurrently, never truncated silently.

- `per_page`: the Instance API. `page` + `per_page` (at most 100); total in `X-Total-Count`.
- `page_size`: every other API. `page` + `page_size`; total in the body's `total_count`.

Page 1 tells the total; the remaining pages are fetched concurrently under a bound and yielded as
they arrive, so a view can show the first rows while the rest load. A failed page is yielded as an
error batch: the caller keeps what it has and shows loaded/total.

Bodies are decoded (and each item passed through `transform`) as they arrive: a page of 100 items
takes ~2 ms, less than handing it to a thread costs under the GIL; only a body over
`THREAD_DECODE_BYTES` (an unpaginated dump) is decoded in a worker thread.
"""

from __future__ import annotations

import asyncio
import gc
import math
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Literal

from .client import ApiClient
from .jsonfast import loads
from .errors import ApiError

# "whole": one unpaginated GET whose list key may also be a map of name -> object (Instance types).
PagingStyle = Literal["per_page", "page_size", "whole"]
MAX_PER_PAGE = 100
THREAD_DECODE_BYTES = 1_000_000


Transform = Callable[[dict[str, Any]], Any]


@dataclass
class PageBatch:
    page: int
    items: list[Any]
    total: int | None
    error: ApiError | None = None


@dataclass
class ListResult:
    items: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    errors: list[ApiError] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.errors and (self.total is None or len(self.items) >= self.total)


def _decode(content: bytes, list_key: str, transform: Transform | None) -> tuple[list[Any], int | None, bool]:
    """(items, total_count from the body, whether the body was JSON); runs in a worker thread."""
    gc_was_on = gc.isenabled()
    gc.disable()  # decoded JSON holds no cycles; a collection per page costs more than the page
    try:
        body = loads(content) if content else {}
    except ValueError:
        return [], None, False
    finally:
        if gc_was_on:
            gc.enable()
    if not isinstance(body, dict):
        return [], None, True
    raw = body.get(list_key)
    if isinstance(raw, dict):  # a map keyed by name: each value becomes an item with that name
        raw = [{"id": k, "name": k, **v} for k, v in raw.items() if isinstance(v, dict)]
    if not isinstance(raw, list):
        items: list[Any] = []
    elif transform is None:
        items = [i for i in raw if isinstance(i, dict)]
    else:
        items = [transform(i) for i in raw if isinstance(i, dict)]
    total = body.get("total_count")
    return items, total if isinstance(total, int) else None, True


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


async def fetch_page(
    client: ApiClient, path: str, list_key: str, style: PagingStyle, page: int, size: int,
    params: dict[str, Any], transform: Transform | None = None,
) -> tuple[list[Any], int | None]:
    """One page: (items, total). The total is read from either style's marker, leniently."""
    query = dict(params)
    query["page"] = page
    query[style] = size
    resp = await client.get(path, query)
    content = resp.content
    if len(content) > THREAD_DECODE_BYTES:
        items, body_total, is_json = await asyncio.to_thread(_decode, content, list_key, transform)
    else:
        items, body_total, is_json = _decode(content, list_key, transform)
    if not is_json:
        raise ApiError(resp.status_code, "the API answered with a list that is not JSON", url=path)
    header_total = _int(resp.headers.get("X-Total-Count"))
    total = (header_total if header_total is not None else body_total) if style == "per_page" else (body_total if body_total is not None else header_total)
    return items, total


async def iter_pages(
    client: ApiClient,
    path: str,
    list_key: str,
    *,
    style: PagingStyle = "per_page",
    page_size: int = MAX_PER_PAGE,
    params: dict[str, Any] | None = None,
    concurrency: int = 10,
    transform: Transform | None = None,
) -> AsyncIterator[PageBatch]:
    """Yield every page of a listing; page 1 first, then the others as they complete."""
    params = params or {}
    if style == "whole":
        try:
            resp = await client.get(path, params)
            items, body_total, is_json = _decode(resp.content, list_key, transform)
            if not is_json:
                raise ApiError(resp.status_code, "the API answered with a list that is not JSON", url=path)
        except ApiError as err:
            yield PageBatch(1, [], None, err)
            return
        yield PageBatch(1, items, len(items))
        return
    size = min(page_size, MAX_PER_PAGE) if style == "per_page" else page_size
    try:
        items, total = await fetch_page(client, path, list_key, style, 1, size, params, transform)
    except ApiError as err:
        yield PageBatch(1, [], None, err)
        return
    yield PageBatch(1, items, total)
    if total is None:
        # No total advertised: walk sequentially until a short page.
        page = 1
        while len(items) >= size:
            page += 1
            try:
                items, _ = await fetch_page(client, path, list_key, style, page, size, params, transform)
            except ApiError as err:
                yield PageBatch(page, [], None, err)
                return
            yield PageBatch(page, items, None)
        return
    pages = math.ceil(total / size) if size else 1
    if pages <= 1:
        return
    sem = asyncio.Semaphore(max(1, concurrency))

    async def one(page: int) -> PageBatch:
        async with sem:
            try:
                got, tot = await fetch_page(client, path, list_key, style, page, size, params, transform)
            except ApiError as err:
                return PageBatch(page, [], None, err)
            return PageBatch(page, got, tot)

    tasks = [asyncio.ensure_future(one(p)) for p in range(2, pages + 1)]
    try:
        for fut in asyncio.as_completed(tasks):
            yield await fut
    finally:
        for t in tasks:
            t.cancel()


async def list_all(client: ApiClient, path: str, list_key: str, **kw: Any) -> ListResult:
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
