"""The DNS sandbox's route table under `/domain/v2beta1` (a global API: no zone or region in the
path). Every handler first settles the product's timelines, so a zone, a certificate or a domain
read or listed is in the state the clock says."""

from __future__ import annotations

import functools
from typing import Any, Callable

from starlette.routing import Route

from ..routing import route_table
from .routes_records import record_routes
from .routes_zones import zone_routes
from .store import DnsStore

PREFIX = "/domain/v2beta1"


def routes(store: DnsStore) -> list[Route]:
    def settled(handler: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(handler)
        async def run(request: Any) -> Any:
            store.settle()
            return await handler(request)

        return run

    # the version routes first: `/dns-zones/version/{id}` is not a zone named "version"
    records = record_routes(store)
    entries = records[:3] + zone_routes(store) + records[3:]
    return route_table(PREFIX, *[(methods, path, settled(handler)) for methods, path, handler in entries])
