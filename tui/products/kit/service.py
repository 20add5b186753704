"""Generic operations on a resource kind through its endpoint's client: list, get, create, update,
delete, run a verb. One service per kind and parent (a child list has its own).

Every path comes from the kind's declarations (`base.ResourceKind`, `location`): nothing here knows a
product. Lists produce light `Row`s; `get` returns the full, lenient model for the detail view.
`changes_since` asks only for what changed (the kind's probe), so watching a large project costs one
small request per re-list instead of every page. Secret fields a kind declares are taken out of every
answer and kept aside, to be shown once on request (`take_secrets`).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Callable

from ...api.client import ApiClient
from ...api.errors import ApiError, BadBody, NotFound, OutcomeUnknown, PermissionDenied, as_api_error
from ...api.paging import MAX_PER_PAGE, MOST_IN_FLIGHT, fetch_page, iter_pages
from ...api.safe import decode_object
from ...records import record
from .base import ALL, Call, Context, ParentRef, ResourceKind, Row, fill
from .product_calls import ProductCalls

DELTA_PAGE = 50  # rows asked per change probe
DELTA_MAX_PAGES = 4  # more changes than this many pages: a full re-list is cheaper
NAMES_MAX_AGE = 10.0  # seconds a names lookup (another kind's id -> name) is reused
RETRIED_LATELY = 5.0  # seconds a retry of the product's requests is said in a list's title
fresh_marker = object()  # "never seen": differs from any mark


@record
class ListChunk:
    """A piece of a listing as it arrives: rows of one page of one scope, or that scope's failure."""

    scope: str
    items: list[Row]
    total: int | None  # the scope's advertised total, when this chunk knows it
    error: ApiError | None = None


@record
class Changes:
    rows: list[Row]  # new or modified since the marks given
    total: int | None  # the scope's total now


class ResourceService(ProductCalls):
    def __init__(
        self,
        client: ApiClient,
        kind: ResourceKind,
        parent: ParentRef | None = None,
        context: Callable[[str], Context] | None = None,
    ) -> None:
        self.client = client
        self.kind = kind
        self.parent = parent
        self.context = context  # list parameters (project, organization) come from it
        self.secrets: dict[str, dict[str, Any]] = {}  # id -> secret fields from the last answer
        self.extras: dict[str, dict[str, Any]] = {}  # id -> the plain fields answered with them
        self._prefetched: tuple[str, asyncio.Queue[ListChunk | None]] | None = None
        self.first_chunk = asyncio.Event()  # set when a prefetch has its first page (or failed)
        self._names: dict[tuple[str, str], tuple[float, asyncio.Future[dict[str, Row]]]] = {}

    def _row(self, data: dict[str, Any], scope: str | None = None) -> Row:
        return self.kind.row_maker(scope)(data)

    def scopes_for(self, scope: str) -> tuple[str, ...]:
        return self.kind.all_scopes if scope == ALL else (scope,)

    def context_for(self, scope: str) -> Context | None:
        """What list parameters and verbs read from where they are sent (project, organization)."""
        return self.context(scope) if self.context is not None else None

    def _query(self, scope: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**self.kind.list_query(self.context_for(scope), self.parent), **(params or {})}

    def _page_size(self) -> int:
        return self.kind.reading.page_size or MAX_PER_PAGE

    def prefetch(self, scope: str) -> None:
        """Start listing `scope` now (e.g. while the UI is still being built); the next
        `iter_list(scope)` takes over what has arrived and what is still coming."""
        queue: asyncio.Queue[ListChunk | None] = asyncio.Queue()

        async def run() -> None:
            try:
                async for chunk in self._iter(scope, None, 16):
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

    async def iter_list(
        self, scope: str, params: dict[str, Any] | None = None, concurrency: int = MOST_IN_FLIGHT
    ) -> AsyncIterator[ListChunk]:
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
            path = "?"
            try:
                path = self.kind.list_path(sc, self.parent)
                names_from = self.kind.rows.lookup.names_from
                if names_from is not None:  # the names a lookup reads: read alongside page 1
                    self._names_read(names_from.get(), sc)
                if self.kind.parent is not None and self.kind.parent.field:
                    rows = await self._embedded(sc, path)
                    await queue.put(ListChunk(sc, rows, len(rows)))
                    return
                async for batch in iter_pages(
                    self.client,
                    path,
                    self.kind.list_key,
                    style=self.kind.paging,
                    params=self._query(sc, params),
                    concurrency=concurrency,
                    transform=self.kind.row_maker(sc),
                    page_size=self._page_size(),
                ):
                    if self.kind.rows.lookup.listed is not None and batch.items:
                        await self.kind.rows.lookup.listed.get()(self, sc, batch.items)
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

    async def _embedded(self, scope: str, path: str) -> list[Row]:
        """Children held in an array of the parent object (`Parent.field`): one GET of the parent."""
        field = self.kind.parent.field if self.kind.parent else None
        data = await self.client.get_json(path)
        items = data.get(field) if isinstance(data, dict) and field else None
        make = self.kind.row_maker(scope)
        rows = [make(i) for i in items if isinstance(i, dict)] if isinstance(items, list) else []
        if self.kind.rows.lookup.listed is not None and rows:
            await self.kind.rows.lookup.listed.get()(self, scope, rows)
        return rows

    async def changes_since(self, scope: str, marks: dict[str, Any]) -> Changes | None:
        """Rows whose modification mark differs from `marks` (id -> mark), or None when a full
        re-list is the better answer (the kind has no probe, or too much changed)."""
        kind, probe = self.kind, self.kind.reading.probe
        if probe is None:
            return None
        changed: list[Row] = []
        total: int | None = None
        params = self._query(scope, {probe.param: probe.value})
        path = kind.list_path(scope, self.parent)
        # The most recently changed row alone first: when it is as held, nothing changed since (what is
        # gone shows in the total), and an idle probe is one row, not a page (2 KB, not 118 KB)
        newest, total = await fetch_page(
            self.client, path, kind.list_key, kind.paging, 1, 1, params, transform=kind.row_maker(scope)
        )
        if not newest or marks.get(newest[0].id, fresh_marker) == newest[0].data.get(probe.field):
            return Changes([], total)
        for page in range(1, DELTA_MAX_PAGES + 1):
            rows, page_total = await fetch_page(
                self.client,
                path,
                kind.list_key,
                kind.paging,
                page,
                DELTA_PAGE,
                params,
                transform=kind.row_maker(scope),
            )
            total = page_total if page_total is not None else total
            fresh = [r for r in rows if marks.get(r.id, fresh_marker) != r.data.get(probe.field)]
            changed.extend(fresh)
            if len(fresh) < len(rows) or len(rows) < DELTA_PAGE:
                return Changes(changed, total)
        return None

    def retrying(self, scope: str) -> str:
        """Why a request of this kind's product was sent again lately (a 429, a 5xx, no answer), or "":
        what a list being read again says while its rows shown are the last read."""
        path = self.kind.list_path(self.scopes_for(scope)[0] if scope == ALL else scope, self.parent)
        return self.client.limits.of(self.client.url(path)).troubled(RETRIED_LATELY)

    async def gone_since(self, scope: str, held: list[str], total: int) -> list[str] | None:
        """Which of `held` (the ids held of `scope`, in the list's own order) are no longer listed, the
        list now holding `total`: a search over positions with pages of one row (`positions`), each row
        found confirmed gone by its GET; None when a re-list is the better answer (the kind has no GET
        by id, the search would cost more requests than half a re-list, the order held is not the list's)."""
        kind = self.kind
        if not kind.reading.item.fetch or kind.paging == "whole":
            return None
        from .positions import gone

        path, params, make = kind.list_path(scope, self.parent), self._query(scope, None), kind.row_maker(scope)

        async def at(i: int) -> str | None:
            rows, _ = await fetch_page(self.client, path, kind.list_key, kind.paging, i + 1, 1, params, make)
            return rows[0].id if rows else None

        async def all_gone(ids: list[str]) -> bool:
            for rid in ids:
                try:
                    await self.get_data(scope, rid)
                except NotFound:
                    continue
                return False
            return True

        pages = -(-len(held) // self._page_size())  # a re-list's requests: a short list is listed again
        return await gone(held, total, at, all_gone, budget=pages // 2)

    # ---- one object -----------------------------------------------------------------------------
    def _unwrap(self, data: dict[str, Any], path: str) -> dict[str, Any]:
        """The object out of its envelope (the kind's `Item.envelope`), its secret fields kept aside."""
        key = self.kind.reading.item.envelope
        item = data.get(key) if key is not None else data
        if not isinstance(item, dict):
            raise BadBody(200, f"the answer has no {key!r} object" if key else "the answer is not an object", url=path)
        if self.kind.secrets.fields:
            item = self._set_aside(item, item.get(self.kind.id_field))
        return item

    def _set_aside(self, item: dict[str, Any], rid: Any) -> dict[str, Any]:
        """`item` without the kind's secret fields, which are kept for `rid`, to be given once."""
        found = {k: item[k] for k in self.kind.secrets.fields if item.get(k) not in (None, "")}
        if found and rid is not None:
            self.secrets[str(rid)] = found
            self.extras[str(rid)] = {k: item[k] for k in self.kind.secrets.extras if item.get(k) not in (None, "")}
        return {k: v for k, v in item.items() if k not in self.kind.secrets.fields} if found else item

    def take_secrets(self, rid: str) -> dict[str, Any]:
        """The secret fields last answered for `rid`, given once: they are forgotten here."""
        return self.secrets.pop(rid, {})

    def take_extras(self, rid: str) -> dict[str, Any]:
        """The plain fields answered with `rid`'s last secrets (`kind.secrets.extras`), given once too."""
        return self.extras.pop(rid, {})

    async def get(self, scope: str, rid: str) -> Any:
        """The full object (the kind's lenient pydantic model), for the detail view."""
        return self.kind.reading.item.model.get().model_validate(await self.get_data(scope, rid))

    async def get_detail(self, scope: str, rid: str) -> Any:
        """`get`, with what the kind looks up elsewhere (`Lookup.listed`, `Lookup.detail`: the names of what
        it references) in `resource.looked_up`, apart from what the API sent."""
        resource = self.kind.reading.item.model.get().model_validate(data := await self.get_data(scope, rid))
        row = self.row_of(dict(data), scope)
        for lookup in (e for e in (self.kind.rows.lookup.listed, self.kind.rows.lookup.detail) if e is not None):
            await lookup.get()(self, scope, [row])
        getattr(resource, "looked_up", {}).update({k: v for k, v in row.data.items() if k not in data})
        return resource

    async def get_row(self, scope: str, rid: str) -> Row:
        return await self.enriched(self.row_of(await self.get_data(scope, rid), scope), scope)

    async def enriched(self, row: Row, scope: str) -> Row:
        """A row read or written alone gets the same extra fields as a listed one (`Lookup.listed`)."""
        if self.kind.rows.lookup.listed is not None:
            await self.kind.rows.lookup.listed.get()(self, scope, [row])
        return row

    async def names_of(self, kind: ResourceKind, scope: str) -> dict[str, str]:
        """Id -> name of every `kind` in `scope`, on this service's client: a list column naming a
        related resource (the server a flexible IP is on). One read serves every page of a listing
        and the polls of the next few seconds; a failure gives no names, not a failed list."""
        return {rid: row.name or rid for rid, row in (await self.related(kind, scope)).items()}

    async def related(self, kind: ResourceKind, scope: str) -> dict[str, Row]:
        """Id -> row of every `kind` in `scope`, read as `names_of` reads them (once for a listing's
        pages and a few seconds after): a list column needing more than a name (an image's
        namespace: its endpoint and visibility)."""
        try:
            return dict(await asyncio.shield(self._names_read(kind, scope)))
        except ApiError:
            return {}

    def _names_read(self, kind: ResourceKind, scope: str) -> "asyncio.Future[dict[str, Row]]":
        """The read of `kind`'s rows in `scope`: the one under way or recent, else a new one."""
        key = (kind.id, scope)
        now = time.monotonic()
        held = self._names.get(key)
        if (
            held is None
            or now - held[0] > NAMES_MAX_AGE
            or (held[1].done() and (held[1].cancelled() or held[1].exception() is not None))
        ):
            other = ResourceService(self.client, kind, context=self.context)

            async def read() -> dict[str, Row]:
                return {kind.own_id(r.id): r for r in await other.list_rows(scope)}

            held = (now, asyncio.ensure_future(read()))
            held[1].add_done_callback(lambda f: f.cancelled() or f.exception())  # a failure is read by names_of
            self._names[key] = held
        return held[1]

    async def get_data(self, scope: str, rid: str) -> dict[str, Any]:
        """The object as the API sends it, out of its envelope and without its secret fields."""
        path = self.kind.item_path(scope, rid, self.parent)
        try:
            data = await self.client.get_json(path)
        except PermissionDenied as err:
            if not self.kind.reading.item.forbidden_is_gone:
                raise
            raise NotFound(
                404,
                f"{self.kind.singular} {rid} is gone (the platform answers 403 for deleted ones)",
                method="GET",
                url=path,
            ) from err
        return self._unwrap(data, path)

    async def get_singleton(self, scope: str) -> dict[str, Any]:
        """A singleton kind's one object (a panel)."""
        path = self.kind.under(scope, self.kind.collection)
        return self._unwrap(await self.client.get_json(path, self._query(scope) or None), path)

    def row_of(self, data: dict[str, Any], scope: str | None = None) -> Row:
        return self._row(data, scope)

    # ---- writes ---------------------------------------------------------------------------------
    async def create(self, scope: str, payload: dict[str, Any]) -> Row:
        """The created resource. A success without it (an empty or odd body) is not a success: the
        platform may have created it, so it is an unknown outcome, for the caller to look."""
        kind = self.kind
        spec = kind.create.get() if kind.create is not None else None  # where it goes, how it is found
        path = (
            kind.under(scope, fill(spec.path, {"parent": self.parent.id if self.parent else None}))
            if spec is not None and spec.path
            else kind.list_path(scope, self.parent)
        )
        data = await self.client.send_json("POST", path, payload, self.act)
        try:
            item = spec.created(data, payload) if spec is not None and spec.created else self._unwrap(data, path)
        except BadBody:
            item = {}
        row = self._row(item, scope) if isinstance(item, dict) and item else None
        if row is None or not row.id:  # (an id a kind derives, such as a contact point's address, counts)
            raise OutcomeUnknown(
                0,
                "the API accepted the create but did not answer with what it created — it may have been applied",
                method="POST",
                url=path,
            )
        return await self.enriched(row, scope)

    async def update(self, scope: str, rid: str, changes: dict[str, Any], method: str = "PATCH") -> Row:
        """An edit: only what changed (PATCH), or the whole object (PUT), as the kind's edit says."""
        path = self.kind.item_path(scope, rid, self.parent)
        return await self.enriched(
            self._row(self._unwrap(await self.client.send_json(method, path, changes, self.act), path), scope), scope
        )

    async def delete(self, scope: str, row: Row) -> None:
        if self.kind.delete is None:
            raise ValueError(f"{self.kind.title} cannot be deleted here")
        await self.run(self.kind.delete, scope, row)

    async def run(self, call: Call, scope: str, row: Row, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one of the kind's verbs for `row` (its path and body from the declaration)."""
        path = self.kind.call_path(call, scope, row, self.parent)
        context = self.context_for(scope)
        body = call.body_for(row, context)
        if extra:
            body = {**(body or {}), **extra}
        _, data = await self.client.request_data(
            call.method,
            path,
            params=call.params_for(context),
            json=body,
            decode=decode_object,
            mutating=call.mutating,
            act=self.act,
        )
        if self.kind.secrets.fields:  # an answer carrying a one-time secret (an activation's password)
            key = self.kind.reading.item.envelope
            if key is not None and isinstance(data.get(key), dict):
                data = {**data, key: self._set_aside(data[key], row.id)}
            else:
                data = self._set_aside(data, row.id)
        return data

    async def count(self, scope: str) -> int | None:
        """How many there are in `scope` (one item asked): the login's connection test."""
        kind = self.kind
        _, total = await fetch_page(
            self.client, kind.list_path(scope, self.parent), kind.list_key, kind.paging, 1, 1, self._query(scope)
        )
        return total

    async def list_rows(self, scope: str, params: dict[str, Any] | None = None) -> list[Row]:
        """Every row of `scope` (a flow picking a server, say); the first failure is raised."""
        rows: list[Row] = []
        async for chunk in self.iter_list(scope, params):
            if chunk.error is not None:
                raise chunk.error
            rows.extend(chunk.items)
        return rows
