"""One kind of a product's objects, per zone or region: what most sandbox products' routes do the
same way — get (404, or 403 once deleted where the platform says so), list settled, patch the
fields an update may change, delete through `deleting` to gone — over a `lifecycle.Timeline`."""

from __future__ import annotations

import operator
from itertools import islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from starlette.requests import Request
from starlette.responses import Response

from .core import page_page_size
from .errors import invalid_arguments, not_found, permissions_denied
from .lifecycle import GONE, Timeline

if TYPE_CHECKING:
    from starlette.datastructures import QueryParams

Obj = dict[str, Any]


class Collection:
    def __init__(
        self,
        resource: str,
        scopes: Sequence[str],
        timeline: Timeline,
        *,
        scope_key: str = "zone",
        forbid_deleted: bool = False,
        stamp: str | None = "updated_at",
    ) -> None:
        self.resource = resource  # as named in 404 bodies: "cluster", "flexible_ip"
        self.timeline = timeline
        self.scope_key = scope_key  # the object's field naming its zone or region
        self.forbid_deleted = forbid_deleted  # a deleted object answers 403 (not 404) from then on
        self.stamp = stamp
        self.items: dict[str, dict[str, Obj]] = {s: {} for s in scopes}
        self.deleted: set[str] = set()
        timeline.on_gone = self._gone

    def add(self, obj: Obj) -> Obj:
        self.items[obj[self.scope_key]][obj["id"]] = obj
        return obj

    def _gone(self, obj: Obj) -> None:
        self.remove(obj)

    def remove(self, obj: Obj) -> None:
        self.timeline.cancel(obj)
        self.items[obj[self.scope_key]].pop(obj["id"], None)
        self.deleted.add(obj["id"])

    def get(self, scope: str, oid: str) -> Obj:
        """The object settled to now; 404 if there is none (403 once deleted, where forbidden)."""
        if self.forbid_deleted and oid in self.deleted:
            raise permissions_denied("read", self.resource)
        obj = self.items[scope].get(oid)
        if obj is not None and self.timeline.settle(obj):
            obj = None
        if obj is None:
            raise not_found(self.resource, oid)
        return obj

    def all(self, scope: str) -> list[Obj]:
        """Every object of the scope the clock has not removed, in creation order."""
        self.timeline.settle_due()
        return list(self.items[scope].values())

    def patch(self, obj: Obj, body: dict[str, Any], fields: Iterable[str]) -> Obj:
        """Copy the `fields` the body gives (null means not updated) and stamp the object."""
        for key in fields:
            if body.get(key) is not None:
                obj[key] = body[key]
        if self.stamp is not None:
            obj[self.stamp] = self.timeline.clock.iso()
        return obj

    def delete_later(self, obj: Obj, seconds: float, field: str = "status") -> Obj:
        """`deleting` now (a second DELETE changes nothing), gone after `seconds`."""
        if obj[field] != "deleting":
            obj[field] = "deleting"
            self.timeline.replan(obj, (seconds, {GONE: True}))
        return obj


def filtered(
    items: list[Obj], query: QueryParams, *, name: bool = True, tags: bool = True, exact: Sequence[str] = ()
) -> list[Obj]:
    """The common list filters: `name` (a part of it, any case), `tags` (all of them, repeated
    parameter), and the `exact` fields equal to the parameter of the same name."""
    if name and query.get("name"):
        items = [o for o in items if query["name"].lower() in o["name"].lower()]
    wanted = query.getlist("tags") if tags else []
    if wanted:
        items = [o for o in items if all(t in o["tags"] for t in wanted)]
    for key in exact:
        if query.get(key):
            items = [o for o in items if o[key] == query[key]]
    return items


def page(
    request: Request, key: str, items: Sequence[Obj], render: Callable[[Obj], dict], extra: dict[str, Any] | None = None
) -> Response:
    """A page in the style of every API but Instance's (page + page_size, `total_count`, `extra`)."""
    return page_page_size(request, key, items, render, extra=extra)


ORDERS = {
    "created_at_asc": ("created_at", False),
    "created_at_desc": ("created_at", True),
    "name_asc": ("name", False),
    "name_desc": ("name", True),
}  # what most listings offer


def ordered(
    request: Request,
    items: list[Obj],
    orders: dict[str, tuple[str, bool]] = ORDERS,
    default: str = "created_at_asc",
    *,
    tie: str | None = None,
) -> list[Obj]:
    """`items` in the `order_by` the request asks (default `default`), each order being a field and
    whether it runs backwards; ties are broken by the `tie` field, or keep creation order. An unknown
    order is refused.

    A 10,000-row listing asks 100 pages, each sorted again: the keys are read and compared in C, and
    a list already in order (objects are kept in creation order) is not sorted at all."""
    order = request.query_params.get("order_by") or default
    if order not in orders:
        raise invalid_arguments(("order_by", "constraint", f"order_by is one of {', '.join(orders)}"))
    key, reverse = orders[order]
    try:
        keys = list(map(itemgetter(key, tie) if tie else itemgetter(key), items))
        # backwards, equal keys keep creation order: a list is already in order only if strictly
        if all(map(operator.lt if reverse and not tie else operator.le, keys, islice(keys, 1, None))):
            return items[::-1] if reverse else list(items)
        return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__, reverse=reverse)]
    except (KeyError, TypeError):  # a field missing or null somewhere: compared as text, null as ""
        return sorted(
            items,
            key=lambda o: (str(o.get(key) or ""), str(o.get(tie) or "")) if tie else str(o.get(key) or ""),
            reverse=reverse,
        )


def matching(request: Request, items: list[Obj], *fields: str, name: str | None = "name") -> list[Obj]:
    """`items` whose `fields` equal the query's where it gives them, and whose `name` holds the query's
    `name` in any case."""
    q = request.query_params
    for field in fields:
        wanted = q.get(field)
        if wanted:
            items = [o for o in items if o.get(field) == wanted]
    part = (q.get(name) or "").lower() if name else ""
    if part:
        assert name is not None  # a part is asked only where `name` names a field
        items = [o for o in items if part in str(o.get(name) or "").lower()]
    return items


KEPT = 8  # listings kept between their pages, per timeline


def between_pages(request: Request, timeline: Timeline, compute: Callable[[], list[Obj]]) -> list[Obj]:
    """The objects of a listing (`compute`: filtered and ordered), kept from its first page for the
    pages after it: a 10,000-object listing asks 100 pages, and each filtered and sorted them all again.
    A first page always computes; a later one reuses what the same query found while no request has
    written, no step of the timeline has applied and none is due. Objects are rendered as they are now."""
    query = tuple((k, v) for k, v in request.query_params.multi_items() if k != "page")
    key = (request.url.path, query)
    stamp = (request.scope.get("sandbox.writes"), timeline.applied)
    if request.query_params.get("page", "1") not in ("", "1") and not timeline.due_now():
        kept = timeline.kept.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
    items = compute()
    timeline.kept.pop(key, None)
    if len(timeline.kept) >= KEPT:
        timeline.kept.pop(next(iter(timeline.kept)))
    timeline.kept[key] = ((request.scope.get("sandbox.writes"), timeline.applied), items)
    return items
