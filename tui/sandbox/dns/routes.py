"""The DNS sandbox's route table under `/domain/v2beta1` (a global API: no zone or region in the
path). Every handler first settles the product's timelines, so a zone, a certificate or a domain
read or listed is in the state the clock says."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Awaitable, Callable

from starlette.routing import Route

from ..routing import Routes
from .routes_certificates import certificate_routes
from .routes_records import record_routes
from .routes_zones import zone_routes
from .store import DnsStore

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

PREFIX = "/domain/v2beta1"


def routes(store: DnsStore) -> list[Route]:
    def settled(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        @functools.wraps(handler)
        async def run(request: Request) -> Response:
            store.settle()
            return await handler(request)

        return run

    declared = Routes(PREFIX)
    record_routes(store, declared)  # first: `/dns-zones/version/{id}` is not a zone named "version"
    zone_routes(store, declared)
    certificate_routes(store, declared)
    return declared.table(wrap=settled)
