"""Generic operations on a resource kind through the API client: list, get, create, update, delete, act.

Lists produce light `Row`s (decoded off the UI thread); `get` returns the full, lenient model for the
detail view. `changes_since` asks only for what changed, newest first, so watching a large project
costs one small request per re-list instead of every page.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, AsyncIterator

from ..api.client import ApiClient
from ..api.errors import ApiError, OutcomeUnknown, as_api_error
from ..api.paging import fetch_page, iter_pages
from .base import ALL, ResourceKind, Row

DELTA_PAGE = 50  # rows asked per change probe
DELTA_MAX_PAGES = 4  # more changes than this many pages: a full re-list is cheaper
fresh_marker = object()  # "never seen": differs from any mark


@dataclass
class ListChunk:
    """A piece of a listing as it arrives: rows of one page of one scope, or that scope's failure."""

    scope: str
    items: list[Row]
    total: int | None  # the scope's advertised total, when this chunk knows it
    error: ApiError | None = None


@dataclass
class Changes:
    rows: list[Row]  # new or modified since the marks given
    total: int | None  # the scope's total now


class ResourceService:
    def __init__(self, client: ApiClient, kind: ResourceKind) -> None:
        self.client = client
        self.kind = kind
        self._prefetched: tuple[str, asyncio.Queue[ListChunk | None]] | None = None
        self.first_chunk = asyncio.Event()  # set when a prefetch has its first page (or failed)

    def _row(self, data: dict[str, Any], scope: str | None = None) -> Row:
        return self.kind.row_maker(scope)(data)

    def scopes_for(self, scope: str) -> tuple[str, ...]:
        return self.kind.scopes if scope == ALL else (scope,)

    def prefetch(self, scope: str) -> None:
        """Start listing `scope` now (e.g. while the UI is still being built); the next
        `iter_list(scope)` takes over what has arrived and what is still coming."""
        queue: asyncio.Queue[ListChunk | None] = asyncio.Queue()

        async def run() -> None:
            try:
                async for chunk in self._iter(scope, None, 10):
                    await queue.put(chunk)
                    self.first_chunk.set()
            finally:
                await queue.put(None)
                self.first_chunk.set()

        self._prefetched = (scope, queue)
        asyncio.ensure_future(run())

    def take_prefetched(self, scope: str) -> list[ListChunk]:
        """The chunks a prefetch of `scope` already has, without waiting; the rest still come
        through the next `iter_list(scope)`."""
        pre = self._prefetched
        if pre is None or pre[0] != scope:
            return []
        chunks, queue = [], pre[1]
        while not queue.empty():
            chunk = queue.get_nowait()
            if chunk is None:
                queue.put_nowait(None)  # the end stays for iter_list to see
                break
            chunks.append(chunk)
        return chunks

    async def iter_list(self, scope: str, params: dict[str, Any] | None = None, concurrency: int = 10) -> AsyncIterator[ListChunk]:
        """Every page of every scope ("all" fans out per zone), as it arrives; failures are chunks too."""
        pre, self._prefetched = self._prefetched, None
        if pre is not None and pre[0] == scope and not params:
            while (chunk := await pre[1].get()) is not None:
                yield chunk
            return
        async for chunk in self._iter(scope, params, concurrency):
            yield chunk

    async def _iter(self, scope: str, params: dict[str, Any] | None, concurrency: int) -> AsyncIterator[ListChunk]:
        scopes = self.scopes_for(scope)
        queue: asyncio.Queue[ListChunk | None] = asyncio.Queue()

        async def one(sc: str) -> None:
            path = self.kind.path(sc)
            try:
                async for batch in iter_pages(
                    self.client, path, self.kind.list_key, style=self.kind.paging, params=params,
                    concurrency=concurrency, transform=self.kind.row_maker(sc),
                ):
                    if self.kind.enrich is not None and batch.items:
                        await self.kind.enrich.get()(self, sc, batch.items)
                    await queue.put(ListChunk(sc, batch.items, batch.total, batch.error))
            except Exception as err:  # never an end without a word: the scope is marked failed
                await queue.put(ListChunk(sc, [], None, as_api_error(err, path)))
            finally:
                await queue.put(None)

        tasks = [asyncio.ensure_future(one(sc)) for sc in scopes]
        try:
            remaining = len(tasks)
            while remaining:
                chunk = await queue.get()
                if chunk is None:
                    remaining -= 1
                else:
                    yield chunk
        finally:
            for t in tasks:
                t.cancel()

    async def changes_since(self, scope: str, marks: dict[str, Any]) -> Changes | None:
        """Rows whose modification mark differs from `marks` (id -> mark), or None when a full
        re-list is the better answer (the kind cannot order by modification, or too much changed)."""
        kind = self.kind
        if not kind.delta_order or not kind.modified_field:
            return None
        changed: list[Row] = []
        total: int | None = None
        for page in range(1, DELTA_MAX_PAGES + 1):
            rows, page_total = await fetch_page(
                self.client, kind.path(scope), kind.list_key, kind.paging, page, DELTA_PAGE,
                {"order": kind.delta_order}, transform=kind.row_maker(scope),
            )
            total = page_total if page_total is not None else total
            field = kind.modified_field
            fresh = [r for r in rows if marks.get(r.id, fresh_marker) != r.data.get(field)]
            changed.extend(fresh)
            if len(fresh) < len(rows) or len(rows) < DELTA_PAGE:
                return Changes(changed, total)
        return None

    async def get(self, scope: str, rid: str) -> Any:
        """The full object (the kind's lenient pydantic model), for the detail view."""
        data = await self.client.get_json(self.kind.path(scope, rid))
        return self.kind.model.get().model_validate(data.get(self.kind.item_key, data))

    async def get_row(self, scope: str, rid: str) -> Row:
        return self.row_of(await self.get_data(scope, rid), scope)

    async def get_data(self, scope: str, rid: str) -> dict[str, Any]:
        """The object as the API sends it (its envelope removed)."""
        data = await self.client.get_json(self.kind.path(scope, rid))
        item = data.get(self.kind.item_key, data)
        return item if isinstance(item, dict) else data

    def row_of(self, data: dict[str, Any], scope: str | None = None) -> Row:
        return self._row(data, scope)

    async def create(self, scope: str, payload: dict[str, Any]) -> Row:
        """The created resource. A success without it (an empty or odd body) is not a success: the
        platform may have created it, so it is an unknown outcome, for the caller to look."""
        path = self.kind.path(scope)
        data = await self.client.send_json("POST", path, payload)
        item = data.get(self.kind.item_key, data)
        if not isinstance(item, dict) or not item.get("id"):
            raise OutcomeUnknown(0, "the API accepted the create but did not answer with what it created — it may have been applied", method="POST", url=path)
        return self._row(item, scope)

    async def update(self, scope: str, rid: str, changes: dict[str, Any]) -> Row:
        data = await self.client.send_json("PATCH", self.kind.path(scope, rid), changes)
        return self._row(data.get(self.kind.item_key, data), scope)

    async def delete(self, scope: str, rid: str) -> None:
        await self.client.request("DELETE", self.kind.path(scope, rid))

    async def action(self, scope: str, rid: str, action: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.client.send_json("POST", self.kind.path(scope, rid, "action"), {"action": action, **(extra or {})})

    async def list_rows(self, scope: str, params: dict[str, Any] | None = None) -> list[Row]:
        """Every row of `scope` (a flow picking a server, say); the first failure is raised."""
        rows: list[Row] = []
        async for chunk in self.iter_list(scope, params):
            if chunk.error is not None:
                raise chunk.error
            rows.extend(chunk.items)
        return rows

    async def send(self, method: str, scope: str, *parts: str, body: Any = None) -> dict[str, Any]:
        """A request under the kind's product base (e.g. PUT security_groups/{id}/rules)."""
        return await self.client.send_json(method, "/".join([self.kind.base(scope), *parts]), body)

    async def get_json(self, scope: str, *parts: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """A GET under the kind's product base (e.g. /products/servers), for form options."""
        return await self.client.get_json("/".join([self.kind.base(scope), *parts]), params)
