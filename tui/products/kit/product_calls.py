"""Requests under a kind's product base that are not its list, get or verbs: what flows and forms
reach (a product's catalogue, a set under a resource, a text value, a series of metrics). The base of
`ResourceService`, which gives it its client, kind, parent and context."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Self

from ...api.client import ApiClient
from ...api.journal import Act
from ...api.paging import list_all
from ...api.safe import decode_object
from .base import Call, Context, ParentRef, ResourceKind

if TYPE_CHECKING:
    from .base import Row
    from .panels import Metrics


class ProductCalls:
    # What `ResourceService` gives its base: where to send, and its own context and verbs.
    client: ApiClient
    kind: ResourceKind
    parent: ParentRef | None
    context_for: Callable[[str], Context | None]
    run: Callable[..., Awaitable[dict[str, Any]]]
    act: Act | None = None  # what its writes are journalled as (`acting`)

    def acting(self, act: Act | None) -> Self:
        """This service for one act (`writes.run`): what it sends is journalled as `act`. The same
        client, kind and caches (the one-time secrets an answer carries are set aside for the view)."""
        if act is self.act:
            return self
        bound = copy.copy(self)
        bound.act = act
        return bound

    async def metrics(
        self, scope: str, row: Row, spec: Metrics, metric: str, seconds: int, now: float
    ) -> list[dict[str, Any]]:
        """The series of `metric` over the `seconds` before `now` (a `base.Metrics` declares where and how)."""
        from .times import from_now

        params = {spec.start: from_now(-seconds, now), spec.end: from_now(0, now), spec.name_param: metric}
        data = await self.run(Call("GET", spec.path, params=params, mutating=False), scope, row)
        series = data.get("timeseries")
        return [s for s in series if isinstance(s, dict)] if isinstance(series, list) else []

    # ---- anything else under the product --------------------------------------------------------
    async def call(
        self,
        method: str,
        scope: str,
        *parts: str,
        params: dict[str, Any] | None = None,
        body: object = None,
        content: bytes | None = None,
        content_type: str = "text/plain",
    ) -> dict[str, Any]:
        """One request under the kind's product base (`GET products/servers`, `PUT security_groups/
        {id}/rules`): the one way flows and forms reach what is not a verb of a kind. The answer's
        object ({} for an empty body); `content` sends raw bytes instead of a JSON `body`."""
        path = self.kind.under(scope, *segments_of(parts))
        _, data = await self.client.request_data(
            method,
            path,
            params=params,
            json=body,
            content=content,
            content_type=content_type,
            decode=decode_object,
            act=self.act,
        )
        return data

    async def read_text(self, scope: str, *parts: str) -> str:
        """A GET under the product base answered with text, not JSON (a user-data value)."""
        resp = await self.client.request("GET", self.kind.under(scope, *segments_of(parts)))
        return resp.content.decode("utf-8", "replace")

    async def read_all(
        self, scope: str, *parts: str, key: str | None, params: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Every item of a list under the product base (form options: images, snapshots), in the
        kind's paging style; the first failure is raised."""
        result = await list_all(
            self.client, self.kind.under(scope, *segments_of(parts)), key, style=self.kind.paging, params=params
        )
        if result.errors:
            raise result.errors[0]
        return result.items

    async def read_list(self, call: Call, scope: str, row: Row, key: str | None) -> list[dict[str, Any]]:
        """Every item a verb of `row` lists (`GET {id}/acls`), in the kind's paging style."""
        path = self.kind.call_path(call, scope, row, self.parent)
        context = self.context_for(scope)
        result = await list_all(self.client, path, key, style=self.kind.paging, params=call.params_for(context))
        if result.errors:
            raise result.errors[0]
        return result.items


def segments_of(parts: tuple[str, ...]) -> list[str]:
    """Parts of a path given by a flow ("security_groups", an id, "rules"; a constant may hold '/'):
    each percent-encoded but for its slashes, so an id from the API cannot add a query or a fragment
    (and the client refuses the dot segments it could add)."""
    from urllib.parse import quote

    return [quote(str(p), safe="/") for p in parts]
