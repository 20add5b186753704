"""Fault injection for the sandbox: `cloudtui sandbox --faults SPEC` and `cloudtui --demo --faults SPEC`.

SPEC is a comma-separated list of `kind=probability` and `seed=N`, for example

    5xx=0.05,429=0.05,slow=0.05,drop=0.02,badjson=0.02,html=0.02,redirect=0.01,hostile=0.2,applied=0.05,seed=7

Each request draws from a generator seeded with `seed`, so a run can be replayed. The kinds:

- `5xx`: 500, 502 or 503, half with a JSON error body and half with a plain-text one.
- `429`: a rate limit, half with `Retry-After: 1`, half with none (as the platform sends).
- `slow`: the answer comes `slow_s` seconds late (default 1.5; `slow_s=N` sets it).
- `drop`: the connection is dropped mid-body (headers and half the body sent).
- `badjson`: 200 with a malformed body, or with a truncated one.
- `html`: an HTML error page from "a proxy": 502, or 200 with text/html.
- `redirect`: 302 to another origin.
- `hostile`: the real answer, with string fields replaced by hostile values (terminal escapes,
  markup, a 5,000-character value, unicode); ids, zones and project ids are kept.
- `applied`: for a write, the real handler runs (the change is made), then the answer is lost:
  a 500, a dropped connection, or an unreadable 2xx body.

Nothing here imports the client: it is the platform misbehaving, as seen on the wire.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import field
from typing import TYPE_CHECKING

from tui.records import record

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

KINDS = ("5xx", "429", "slow", "drop", "badjson", "html", "redirect", "hostile", "applied")
HOSTILE = (
    "\x1b]2;HACKED\x07",
    "\x1b]52;c;SGk=\x07",
    "\x1b[2J\x1b[H",
    "[/]",
    "[@click=app.quit]quit[/]",
    "[b]bold[/b] [red]red",
    "x" * 5000,
    "名前 🙂 \u202egnp.exe",
    "\x00\x9b31m",
)
KEEP = {"id", "zone", "region", "project", "organization", "project_id", "organization_id", "state", "status"}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


class FaultSpecError(ValueError):
    pass


@record
class FaultSpec:
    rates: dict[str, float] = field(default_factory=dict)
    seed: int = 0
    slow_s: float = 1.5
    applied_as: str | None = None  # "500", "drop" or "unreadable"; None draws one each time
    injected: dict[str, int] = field(default_factory=dict)  # how many of each kind were injected

    @classmethod
    def parse(cls, text: str) -> "FaultSpec":
        spec = cls()
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                raise FaultSpecError(f"{part!r}: expected kind=probability")
            if key == "seed":
                if not value.strip().lstrip("-").isdigit():
                    raise FaultSpecError(f"{part!r}: the seed is a whole number")
                spec.seed = int(value)
                continue
            try:
                number = float(value)
            except ValueError:
                raise FaultSpecError(f"{part!r}: {value!r} is not a number") from None
            if key == "slow_s":
                if not 0 <= number <= 60:
                    raise FaultSpecError(f"{part!r}: a delay in seconds, from 0 to 60")
                spec.slow_s = number
            elif key in KINDS:
                if not 0 <= number <= 1:
                    raise FaultSpecError(f"{part!r}: a probability is between 0 and 1")
                spec.rates[key] = number
            else:
                raise FaultSpecError(f"{part!r}: unknown fault {key!r} (one of {', '.join(KINDS)}, seed, slow_s)")
        return spec


class Faults:
    """Pure ASGI middleware: draws a fault per request from the spec, or passes it through."""

    def __init__(self, app: ASGIApp, spec: FaultSpec) -> None:
        self.app = app
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.injected = spec.injected

    def _draw(self, method: str) -> str | None:
        for kind in KINDS:
            rate = self.spec.rates.get(kind, 0.0)
            if rate and self.rng.random() < rate and (kind != "applied" or method in WRITES):
                self.injected[kind] = self.injected.get(kind, 0) + 1
                return kind
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        kind = self._draw(scope["method"])
        if kind is None:
            await self.app(scope, receive, send)
        elif kind == "slow":
            await asyncio.sleep(self.spec.slow_s)
            await self.app(scope, receive, send)
        elif kind == "hostile":
            status, headers, body = await _run(self.app, scope, receive)
            await _answer(send, status, headers, self._hostile(body))
        elif kind == "applied":
            await _run(self.app, scope, receive)  # the change is made; its answer is lost
            how = self.spec.applied_as or self.rng.choice(("500", "drop", "unreadable"))
            if how == "500":
                await _answer(
                    send,
                    500,
                    [(b"content-type", b"application/json")],
                    b'{"message":"internal error","type":"internal"}',
                )
            elif how == "drop":
                await _drop(send, 200, b'{"server": {"id": "')
            else:
                await _answer(send, 201, [(b"content-type", b"application/json")], b'{"server": {"id": "')
        else:
            await self._fault(kind, send)

    async def _fault(self, kind: str, send: Send) -> None:
        rng = self.rng
        if kind == "5xx":
            status = rng.choice((500, 502, 503))
            if rng.random() < 0.5:
                await _answer(
                    send,
                    status,
                    [(b"content-type", b"application/json")],
                    b'{"message":"internal error","type":"internal"}',
                )
            else:
                await _answer(
                    send,
                    status,
                    [(b"content-type", b"text/plain")],
                    b"upstream connect error or disconnect/reset before headers",
                )
        elif kind == "429":
            headers = [(b"x-envoy-ratelimited", b"true")]
            if rng.random() < 0.5:
                headers.append((b"retry-after", b"1"))
            await _answer(send, 429, headers, b"")
        elif kind == "drop":
            await _drop(send, 200, b'{"servers": [{"id": "')
        elif kind == "badjson":
            body = b'{"servers": [{"id": "x", "name": ' if rng.random() < 0.5 else b"{'servers': nope}"
            await _answer(send, 200, [(b"content-type", b"application/json")], body)
        elif kind == "html":
            page = b"<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"
            await _answer(send, rng.choice((200, 502)), [(b"content-type", b"text/html")], page)
        elif kind == "redirect":
            await _answer(send, 302, [(b"location", b"https://login.example.invalid/sso?next=%2F")], b"")

    def _hostile(self, body: bytes) -> bytes:
        try:
            data = json.loads(body)
        except ValueError:
            return body
        return json.dumps(self._spoil(data, "")).encode()

    def _spoil(self, value: object, key: str) -> object:
        if isinstance(value, dict):
            return {k: self._spoil(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self._spoil(v, key) for v in value]
        if isinstance(value, str) and key not in KEEP and not key.endswith("_id") and self.rng.random() < 0.3:
            return self.rng.choice(HOSTILE)
        return value


async def _run(app: ASGIApp, scope: Scope, receive: Receive) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Run the real handler, keeping its answer instead of sending it."""
    status, headers, chunks = 500, [], []

    async def keep(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status, headers = message["status"], list(message.get("headers") or [])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, keep)
    return status, headers, b"".join(chunks)


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    headers = [(k, v) for k, v in headers if k.lower() != b"content-length"] + [
        (b"content-length", str(len(body)).encode())
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _drop(send: Send, status: int, partial: bytes) -> None:
    """Headers promising a body, half of it, then the connection goes."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", b"4096")],
        }
    )
    await send({"type": "http.response.body", "body": partial, "more_body": True})
    raise ConnectionResetError("fault injection: connection dropped mid-body")
