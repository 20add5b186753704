"""The request and response objects of the API layer, and its transport errors.

Small on purpose: importing httpx costs ~45 ms, a tenth of the console's start, for objects this
layer needs only a few fields of. httpx is still used, lazily, where it earns it: behind a proxy,
and for transports handed in by tests (`tui.api.bridge`).
"""

from __future__ import annotations

import json as _json
from dataclasses import dataclass, field
from typing import Any, Iterator
from urllib.parse import urlsplit


class TransportError(Exception):
    """No usable HTTP answer: the connection, the wire or a timeout failed."""


class ConnectError(TransportError):
    pass


class ConnectTimeout(TransportError):
    pass


class PoolTimeout(TransportError):
    pass


class ReadTimeout(TransportError):
    pass


class WriteTimeout(TransportError):
    pass


class ReadError(TransportError):
    pass


class WriteError(TransportError):
    pass


class RemoteProtocolError(TransportError):
    pass


# The request cannot have reached the server: safe to retry whatever the method.
NEVER_SENT = (ConnectError, ConnectTimeout, PoolTimeout)


class Headers:
    """Response headers, read case-insensitively; the first of repeated names wins on `get`."""

    def __init__(self, raw: list[tuple[bytes, bytes]]) -> None:
        self.raw = raw
        self._index: dict[str, str] = {}
        for name, value in raw:
            self._index.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))

    def get(self, name: str, default: Any = None) -> Any:
        return self._index.get(name.lower(), default)

    def __getitem__(self, name: str) -> str:
        return self._index[name.lower()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def items(self) -> list[tuple[str, str]]:
        return list(self._index.items())


@dataclass
class Request:
    method: str
    url: str  # absolute: scheme://host[:port]/path?query
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    content: bytes = b""
    timeout: dict[str, float | None] = field(default_factory=dict)  # connect, read, write, pool

    @property
    def path(self) -> str:
        return urlsplit(self.url).path


class Response:
    def __init__(self, status_code: int, headers: list[tuple[bytes, bytes]], content: bytes, request: Request) -> None:
        self.status_code = status_code
        self.headers = Headers(headers)
        self.content = content
        self.request = request

    @property
    def url(self) -> str:
        return self.request.url

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return _json.loads(self.content)

    def __repr__(self) -> str:
        return f"<Response [{self.status_code}]>"
