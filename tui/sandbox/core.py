"""What every sandbox product shares: ids, request bodies, pagination, auth, latency and faults."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeGuard
from urllib.parse import urlencode

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tui.records import record

from .constants import ALL_ZONES, DEMO_ORGANIZATION_ID, DEMO_PROJECT_ID, DEMO_SECRET_KEY  # noqa: F401
from .errors import invalid_arguments

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from .app import Sandbox

UUID_CHARS = set("0123456789abcdef-")


class Ids:
    """Deterministic UUIDs from a seeded generator."""

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))


def is_uuid(value: object) -> TypeGuard[str]:
    if not isinstance(value, str) or len(value) != 36:
        return False
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


async def json_body(request: Request, multiline: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object. A string holding a control character is refused, but for the
    fields named in `multiline` (dotted paths, their items and sub-fields too), where newlines and
    tabs are text, as the platform takes them in a message or a payload."""
    raw = await request.body()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise invalid_arguments(("body", "format", "the request body is not valid JSON")) from None
    if not isinstance(body, dict):
        raise invalid_arguments(("body", "format", "the request body must be a JSON object"))
    where = _control_at(body, "", multiline)
    if where is not None:
        raise invalid_arguments((where, "format", "control characters are not allowed"))
    return body


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # \t \n \r allowed


def _control_at(value: object, path: str, multiline: tuple[str, ...] = ()) -> str | None:
    """The dotted path of the first string in a body holding a control character, if any."""
    if isinstance(value, str):
        lines = any(path == m or path.startswith(m + ".") for m in multiline)
        return path or "body" if (_CONTROL_BUT_LINES if lines else _CONTROL).search(value) else None
    if isinstance(value, dict):
        for k, v in value.items():
            found = _control_at(v, f"{path}.{k}" if path else str(k), multiline)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _control_at(v, f"{path}.{i}" if path else str(i), multiline)
            if found is not None:
                return found
    return None


def check_unknown(body: dict[str, Any], allowed: set[str]) -> list[tuple[str, str, str]]:
    """An `unknown` detail for each field of `body` the endpoint does not take."""
    return [(k, "unknown", "unknown field") for k in sorted(set(body) - allowed)]


async def checked_body(
    request: Request, allowed: set[str], check: Callable[[dict[str, Any]], list[tuple[str, str, str]]] | None = None
) -> dict[str, Any]:
    """The request's JSON object, refused (400, every problem at once) where it has a field the
    endpoint does not take (`allowed`) or where `check(body)` finds a problem."""
    body = await json_body(request)
    errs = check_unknown(body, allowed) + (check(body) if check else [])
    if errs:
        raise invalid_arguments(*errs)
    return body


def check_password(pw: object, field: str = "password") -> list[tuple[str, str, str]]:
    """The platform's password rule (databases, caches): 8–128 characters with a lower-case letter,
    an upper-case letter, a digit and a special character."""
    if not isinstance(pw, str) or not pw:
        return [(field, "required", "a password is required")]
    if not 8 <= len(pw) <= 128:
        return [(field, "constraint", "8 to 128 characters")]
    if not (
        any(c.islower() for c in pw)
        and any(c.isupper() for c in pw)
        and any(c.isdigit() for c in pw)
        and any(not c.isalnum() for c in pw)
    ):
        return [
            (
                field,
                "constraint",
                "at least one lower-case letter, one upper-case letter, one digit and one special character",
            )
        ]
    return []


def public(obj: dict[str, Any]) -> dict[str, Any]:
    """A stored object as answered: its bookkeeping fields (`_plan`, `_until`…) left out."""
    return {k: v for k, v in obj.items() if k[:1] != "_"}  # (a slice: faster than startswith, each page's 100)


def path_zone(request: Request, zones: Sequence[str], product: str) -> str:
    """The request's `{zone}`, refused unless the product exists there."""
    zone = request.path_params["zone"]
    if zone not in zones:
        raise invalid_arguments(("zone", "constraint", f"{product} exist in {', '.join(zones)} only, not {zone!r}"))
    return zone


def path_region(request: Request, regions: Sequence[str], product: str) -> str:
    """The request's `{region}`, refused unless the product exists there."""
    region = request.path_params["region"]
    if region not in regions:
        raise invalid_arguments(
            ("region", "constraint", f"{product} exist in {', '.join(regions)} only, not {region!r}")
        )
    return region


def positive_int(request: Request, name: str, default: int, maximum: int | None = None) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise invalid_arguments((name, "format", f"{name} must be a positive integer")) from None
    if value < 1:
        raise invalid_arguments((name, "constraint", f"{name} must be at least 1"))
    if maximum is not None and value > maximum:
        raise invalid_arguments((name, "constraint", f"{name} must be at most {maximum}"))
    return value


def page_per_page(
    request: Request, key: str, items: Sequence[dict[str, Any]], encode: Callable[[dict], bytes]
) -> Response:
    """Instance-style page: body holds only the list key; total in X-Total-Count; Link header.
    Items arrive encoded (`encode` returns each one's JSON), so pages are spliced, not re-encoded."""
    page = positive_int(request, "page", 1)
    per_page = positive_int(request, "per_page", 50, maximum=100)
    total = len(items)
    body = (
        b'{"'
        + key.encode()
        + b'":['
        + b",".join(encode(i) for i in items[(page - 1) * per_page : page * per_page])
        + b"]}"
    )
    last = max(1, -(-total // per_page))
    links = []
    base = str(request.url.replace(query=""))
    query = dict(request.query_params)
    if page < last:
        links.append(f'<{base}?{urlencode({**query, "page": page + 1})}>; rel="next"')
    links.append(f'<{base}?{urlencode({**query, "page": last})}>; rel="last"')
    return Response(
        body, media_type="application/json", headers={"X-Total-Count": str(total), "Link": ", ".join(links)}
    )


def page_page_size(
    request: Request,
    key: str,
    items: Sequence[dict[str, Any]],
    render: Callable[[dict], dict],
    default: int = 20,
    extra: dict[str, Any] | None = None,
) -> Response:
    """Style of every other API: page + page_size; `total_count` in the body (with `extra`, the
    list's own fields beside it)."""
    page = positive_int(request, "page", 1)
    size = positive_int(request, "page_size", default, maximum=1000)
    chunk = [render(i) for i in items[(page - 1) * size : page * size]]
    return PageJSON({key: chunk, "total_count": len(items), **(extra or {})})


class PageJSON(JSONResponse):
    """A page of a list, encoded by orjson: a 10,000-row listing is 100 pages, and the standard
    encoder was a third of the sandbox's time for each."""

    def render(self, content: object) -> bytes:
        return orjson.dumps(content)


@record
class FaultRule:
    """Answer `status` instead of handling matching requests, `times` times.

    `path_contains` is matched against "path?query", so a rule can target one page or one zone.
    """

    status: int
    path_contains: str = ""
    method: str | None = None
    times: int = 1_000_000
    body: dict[str, Any] | None = None  # the JSON body to answer with (default: per status)
    raw: bytes | None = None  # or these bytes exactly, as application/json

    def matches(self, method: str, path: str) -> bool:
        return self.times > 0 and self.path_contains in path and (self.method is None or self.method == method)


def fault_response(status: int) -> Response:
    if status == 429:
        return Response(status_code=429, headers={"X-Envoy-Ratelimited": "true"})
    if status >= 500:
        return Response(
            b"upstream connect error or disconnect/reset before headers", status_code=status, media_type="text/plain"
        )
    return JSONResponse({"message": "injected fault"}, status_code=status)


def _timed(send: Send, began: float) -> Send:
    """`send` that says, in a `Server-Timing` header, how long the sandbox took to answer (its own
    time, without the latency it was asked to add): the benchmark tells it apart from the console's."""

    async def timed(message: Message) -> None:
        if message["type"] == "http.response.start":
            spent = f"app;dur={(time.perf_counter() - began) * 1000:.3f}".encode()
            message = {**message, "headers": [*message.get("headers", []), (b"server-timing", spent)]}
        await send(message)

    return timed


class Gate:
    """Pure ASGI middleware: latency, fault injection, auth, request counting, error bodies."""

    def __init__(self, app: ASGIApp, sandbox: Sandbox) -> None:
        self.app = app
        self.sandbox = sandbox

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sb = self.sandbox
        sb.requests.append((scope["method"], scope["path"]))
        if scope["method"] not in ("GET", "HEAD"):
            sb.writes += 1
        scope["sandbox.writes"] = sb.writes  # what a listing kept between pages is checked against
        if sb.latency:
            await asyncio.sleep(sb.latency)
        response: Response | None = None
        target = scope["path"] + "?" + scope.get("query_string", b"").decode("latin-1")
        for rule in sb.faults:
            if rule.matches(scope["method"], target):
                rule.times -= 1
                if rule.raw is not None:
                    response = Response(rule.raw, status_code=rule.status, media_type="application/json")
                elif rule.body is not None:
                    response = JSONResponse(rule.body, status_code=rule.status)
                else:
                    response = fault_response(rule.status)
                break
        if response is None:
            headers = dict(scope.get("headers") or [])
            if sb.auth_scheme(scope["path"]) == "Bearer":
                token = headers.get(b"authorization", b"").decode("latin-1").removeprefix("Bearer ")
            else:
                token = headers.get(b"x-auth-token", b"").decode("latin-1")
            if token != sb.secret_key:
                response = sb.refuse_key(scope["path"])
        if response is not None:
            await response(scope, receive, send)
            return
        await self.app(scope, receive, _timed(send, time.perf_counter()))
