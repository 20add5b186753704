"""Both pagination styles of the platform, fetched concurrently, never truncated silently.

- `per_page`: the Instance API. `page` + `per_page` (at most 100); total in `X-Total-Count`.
- `page_size`: every other API. `page` + `page_size`; total in the body's `total_count`.

Page 1 tells the total; the remaining pages are fetched concurrently under a bound and yielded as
they arrive, so a view can show the first rows while the rest load. A failed page is yielded as an
error batch: the caller keeps what it has and shows loaded/total.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Literal

from .client import ApiClient
from .errors import ApiError

PagingStyle = Literal["per_page", "page_size"]
MAX_PER_PAGE = 100


@dataclass
class PageBatch:
    page: int
    items: list[dict[str, Any]]
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


def _total(resp_headers: Any, body: dict[str, Any], style: PagingStyle) -> int | None:
    raw = resp_headers.get("X-Total-Count") if style == "per_page" else body.get("total_count")
    if raw is None:  # be lenient: accept the other style's marker too
        raw = body.get("total_count") if style == "per_page" else resp_headers.get("X-Total-Count")
    try:
        return int(raw) if raw is not None else None
    except (TypeError, ValueError):
        return None


async def _fetch(
    client: ApiClient, path: str, list_key: str, style: PagingStyle, page: int, size: int, params: dict[str, Any]
) -> tuple[list[dict[str, Any]], int | None]:
    query = dict(params)
    query["page"] = page
    query[style] = size
    resp = await client.get(path, query)
    try:
        body = resp.json() if resp.content else {}
    except ValueError:
        raise ApiError(resp.status_code, "the API answered with a list that is not JSON", url=path)
    items = body.get(list_key) if isinstance(body, dict) else None
    if not isinstance(items, list):
        items = []
    return [i for i in items if isinstance(i, dict)], _total(resp.headers, body if isinstance(body, dict) else {}, style)


async def iter_pages(
    client: ApiClient,
    path: str,
    list_key: str,
    *,
    style: PagingStyle = "per_page",
    page_size: int = MAX_PER_PAGE,
    params: dict[str, Any] | None = None,
    concurrency: int = 8,
) -> AsyncIterator[PageBatch]:
    """Yield every page of a listing; page 1 first, then the others as they complete."""
    params = params or {}
    size = min(page_size, MAX_PER_PAGE) if style == "per_page" else page_size
    try:
        items, total = await _fetch(client, path, list_key, style, 1, size, params)
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
                items, _ = await _fetch(client, path, list_key, style, page, size, params)
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
                got, tot = await _fetch(client, path, list_key, style, page, size, params)
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
