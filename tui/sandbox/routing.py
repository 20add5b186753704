"""The route table of a sandbox product, declared as (methods, path, handler) under its prefix."""

from __future__ import annotations

from typing import Any, Callable

from starlette.routing import Route

Entry = tuple[str, str, Callable[..., Any]]  # ("GET" or "PATCH PUT", path under the prefix, handler)


def route_table(prefix: str, *entries: Entry) -> list[Route]:
    """Starlette routes in the order given (a literal path such as `/fips/attach` is declared before
    the `/fips/{fid}` it would otherwise match)."""
    return [Route(prefix + path, handler, methods=methods.split()) for methods, path, handler in entries]
