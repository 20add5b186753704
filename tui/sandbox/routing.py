"""The routes of a sandbox product, each declared above its handler (`Routes`), under its prefix."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, Router
from starlette.types import Receive, Scope, Send

Entry = tuple[str, str, Callable[..., Any]]  # ("GET" or "PATCH PUT", path under the prefix, handler)
Handler = TypeVar("Handler", bound=Callable[..., Any])


def route_table(prefix: str, *entries: Entry) -> list[Route]:
    """Starlette routes in the order given (a literal path such as `/fips/attach` is declared before
    the `/fips/{fid}` it would otherwise match)."""
    return [Route(prefix + path, handler, methods=methods.split()) for methods, path, handler in entries]


class Routes:
    """A product's routes, declared where their handlers are:

        routes = Routes("/lb/v1/regions/{region}", "/lb/v1/zones/{zone}")

        @routes.put("/lbs/{lb_id}")
        async def put_lb(request: Request) -> Response: ...

        routes.read("/backends/{backend_id}", backend, store.backend_view)  # a GET of one object

        return routes.table()

    The table keeps the order of declaration, and Starlette takes the first route that matches: a
    literal path (`/fips/attach`) is declared before a parameter path of the same method it would
    otherwise match (`/fips/{fid}`); tests/unit/test_sandbox_routes.py checks the whole sandbox's.
    A handler under several paths names them in one declaration, in their order."""

    def __init__(self, *prefixes: str) -> None:
        self.prefixes = prefixes or ("",)  # every route under each, the first prefix's routes first
        self.entries: list[Entry] = []

    def route(self, methods: str, *paths: str) -> Callable[[Handler], Handler]:
        """The handler answers `methods` ("GET", "PATCH PUT") at each path under the prefix."""

        def declare(handler: Handler) -> Handler:
            self.entries.extend((methods, path, handler) for path in paths)
            return handler

        return declare

    def get(self, *paths: str) -> Callable[[Handler], Handler]:
        return self.route("GET", *paths)

    def post(self, *paths: str) -> Callable[[Handler], Handler]:
        return self.route("POST", *paths)

    def put(self, *paths: str) -> Callable[[Handler], Handler]:
        return self.route("PUT", *paths)

    def patch(self, *paths: str) -> Callable[[Handler], Handler]:
        return self.route("PATCH", *paths)

    def delete(self, *paths: str) -> Callable[[Handler], Handler]:
        return self.route("DELETE", *paths)

    def read(self, path: str, find: Callable[[Request], Any], render: Callable[[Any], Any] = lambda obj: obj) -> None:
        """GET `path` answers the object `find` takes from the request, as `render` shows it."""

        async def read(request: Request) -> Response:
            return JSONResponse(render(find(request)))

        self.get(path)(read)

    def table(self, wrap: Callable[[Callable[..., Any]], Callable[..., Any]] | None = None) -> list[Route]:
        """The Starlette routes, each handler passed through `wrap` first where one is given."""
        entries = [(methods, path, wrap(handler) if wrap else handler) for methods, path, handler in self.entries]
        return [route for prefix in self.prefixes for route in route_table(prefix, *entries)]


def _head(path: str) -> str | None:
    """A path's first segment ("/inference"), or None where a route's first segment is a parameter."""
    first = path.split("/", 2)[1] if path.startswith("/") and len(path) > 1 else ""
    return None if "{" in first else first


class SegmentRouter(Router):
    """Starlette's router, trying only the routes whose first path segment is the request's (and
    those that start with a parameter), in the order declared: a request to the last product no
    longer tests the ~600 routes before it (1.5 ms of every page of a long listing)."""

    def __init__(self, routes: list[BaseRoute]) -> None:
        super().__init__(routes)
        wild: list[BaseRoute] = []  # routes starting with a parameter: in every group, in their place
        groups: dict[str, list[BaseRoute]] = {}
        for route in routes:
            head = _head(getattr(route, "path", "/{}"))
            if head is None:
                wild.append(route)
                for group in groups.values():
                    group.append(route)
            else:
                groups.setdefault(head, list(wild)).append(route)
        self._other = Router(wild)
        self._by_head = {head: Router(group) for head, group in groups.items()}

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().app(scope, receive, send)
            return
        await self._by_head.get(_head(scope["path"]) or "", self._other).app(scope, receive, send)
