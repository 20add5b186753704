"""Generic operations on a resource kind through the API client: list, get, create, update, delete, act."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, AsyncIterator

from ..api.client import ApiClient
from ..api.errors import ApiError
from ..api.paging import iter_pages
from .base import ALL, Resource, ResourceKind


@dataclass
class ListChunk:
    """A piece of a listing as it arrives: rows of one page of one scope, or that scope's failure."""

    scope: str
    items: list[Resource]
    total: int | None  # the scope's advertised total, when this chunk knows it
    error: ApiError | None = None


class ResourceService:
    def __init__(self, client: ApiClient, kind: ResourceKind) -> None:
        self.client = client
        self.kind = kind

    def parse(self, data: dict[str, Any], scope: str | None = None) -> Resource:
        res = self.kind.model.model_validate(data)
        if scope and not self.kind.scope_of(res) and self.kind.scope == "zone":
            res.zone = scope  # type: ignore[attr-defined]
        return res

    def scopes_for(self, scope: str) -> tuple[str, ...]:
        return self.kind.scopes if scope == ALL else (scope,)

    async def iter_list(self, scope: str, params: dict[str, Any] | None = None, concurrency: int = 8) -> AsyncIterator[ListChunk]:
        """Every page of every scope ("all" fans out per zone), as it arrives; failures are chunks too."""
        scopes = self.scopes_for(scope)
        queue: asyncio.Queue[ListChunk | None] = asyncio.Queue()

        async def one(sc: str) -> None:
            try:
                async for batch in iter_pages(
                    self.client, self.kind.path(sc), self.kind.list_key, style=self.kind.paging, params=params, concurrency=concurrency
                ):
                    items = [self.parse(i, sc) for i in batch.items]
                    await queue.put(ListChunk(sc, items, batch.total, batch.error))
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

    async def get(self, scope: str, rid: str) -> Resource:
        data = await self.client.get_json(self.kind.path(scope, rid))
        return self.parse(data.get(self.kind.item_key, data), scope)

    async def create(self, scope: str, payload: dict[str, Any]) -> Resource:
        data = await self.client.send_json("POST", self.kind.path(scope), payload)
        return self.parse(data.get(self.kind.item_key, data), scope)

    async def update(self, scope: str, rid: str, changes: dict[str, Any]) -> Resource:
        data = await self.client.send_json("PATCH", self.kind.path(scope, rid), changes)
        return self.parse(data.get(self.kind.item_key, data), scope)

    async def delete(self, scope: str, rid: str) -> None:
        await self.client.request("DELETE", self.kind.path(scope, rid))

    async def action(self, scope: str, rid: str, action: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.client.send_json("POST", self.kind.path(scope, rid, "action"), {"action": action, **(extra or {})})

    async def get_json(self, scope: str, *parts: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """A GET under the kind's product base (e.g. /products/servers), for form options."""
        return await self.client.get_json("/".join([self.kind.base(scope), *parts]), params)
