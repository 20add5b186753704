"""The whole sandbox's route list, in the order Starlette tries it: the first route that matches a
request takes it, so no route may come after one that takes all its requests (it could never be
reached), and a literal segment (`/fips/attach`, `/dns-zones/version/…`) must not follow a parameter
in the same place (`/fips/{fid}`, `/dns-zones/{dns_zone}/…`) of a route of the same method that
could match the same path."""

from __future__ import annotations

from typing import Any

from starlette.routing import Route

from tui.sandbox import ManualClock, Sandbox


def _segments(path: str) -> list[str]:
    return path.split("/")[1:]


_RANK = {"literal": 0, "param": 1, "path": 2}


def _kind(segment: str) -> str:
    """'path' for a `{name:path}` parameter (any rest of the path), 'param' for another, else 'literal'."""
    if segment.startswith("{") and segment.endswith("}"):
        return "path" if segment.endswith(":path}") else "param"
    return "literal"


def _overlap(first: list[str], second: list[str]) -> bool:
    """Whether some request path matches both routes."""
    for a, b in zip(first, second):
        if "path" in (_kind(a), _kind(b)):
            return True
        if _kind(a) == _kind(b) == "literal" and a != b:
            return False
    return len(first) == len(second)


def shadowing(earlier: str, later: str) -> str | None:
    """Why `earlier`, tried first, takes requests meant for `later` (both of one method), or None: it
    takes all of them, or where they first differ it has a parameter and `later` a literal (or a
    `{…:path}` where `later` has one segment)."""
    first, second = _segments(earlier), _segments(later)
    if not _overlap(first, second):
        return None
    for a, b in zip(first, second):
        if _kind(a) != _kind(b):
            if _RANK[_kind(a)] > _RANK[_kind(b)]:
                return f"{earlier} takes {later}'s requests: its {a} matches {b!r}"
            return None
    return f"{later} can never be reached: {earlier} takes all its requests"


def problems(routes: list[Any]) -> list[str]:
    found = []
    seen: list[Route] = []
    for route in routes:
        if not isinstance(route, Route):
            continue
        for earlier in seen:
            shared = (earlier.methods or set()) & (route.methods or set()) - {"HEAD"}
            why = shadowing(earlier.path, route.path) if shared else None
            if why:
                found.append(f"{' '.join(sorted(shared))}: {why}")
        seen.append(route)
    return found


def test_no_sandbox_route_is_shadowed_by_an_earlier_one():
    routes = Sandbox(clock=ManualClock()).app.router.routes
    assert len(routes) > 250  # every product's
    assert problems(routes) == []


def test_the_check_finds_a_literal_after_a_parameter_and_a_route_declared_twice():
    def handler(request: Any) -> None: ...

    def route(methods: str, path: str) -> Route:
        return Route(path, handler, methods=methods.split())

    assert problems([route("POST", "/fips/attach"), route("GET POST", "/fips/{fid}")]) == []
    assert problems([route("GET POST", "/fips/{fid}"), route("POST", "/fips/attach")]) == [
        "POST: /fips/{fid} takes /fips/attach's requests: its {fid} matches 'attach'"
    ]
    assert problems([route("GET", "/fips/{fid}"), route("POST", "/fips/attach")]) == []  # not one method
    assert problems([route("GET", "/a/{x}/rules"), route("GET", "/a/default/{y}")]) != []
    assert problems([route("GET", "/a/default/{y}"), route("GET", "/a/{x}/rules")]) == []
    assert problems([route("GET", "/a/{x}/rules"), route("GET", "/a/default/nics")]) == []  # never one path
    assert problems([route("GET", "/a/{x}"), route("GET PATCH", "/a/{y}")]) == [
        "GET: /a/{y} can never be reached: /a/{x} takes all its requests"
    ]
    assert problems([route("GET", "/g/{rest:path}"), route("GET", "/g/models")]) != []
    assert problems([route("GET", "/g/models"), route("GET", "/g/{rest:path}")]) == []
