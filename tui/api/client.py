"""The one HTTP client of a profile: auth header, timeouts, retries, read-only guard, debug log.

Retries follow one rule: a GET may be repeated (429, 5xx, any transport error) with exponential
backoff and jitter inside a total deadline; a POST/PATCH/PUT/DELETE is repeated only when the
connection was never made (so the server cannot have seen it). The secret key is held as a
Secret and only ever placed in the outgoing header; the debug log redacts it.
"""

from __future__ import annotations

import asyncio
import json as jsonlib
import logging
import os
import random
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable
from urllib.parse import urlencode

from . import wire
from .errors import ApiError, NetworkError, ReadOnlyError, error_from_response
from .secret import Secret, as_secret
from .transport import Http11Transport, proxy_configured

log = logging.getLogger("cloudtui.api")

AUTH_HEADER = "X-Auth-Token"
USER_AGENT = "cloudtui/0.1"


@dataclass
class RetryPolicy:
    deadline: float = 10.0  # seconds, over all attempts of one call
    base: float = 0.25
    cap: float = 4.0
    max_attempts: int = 6

    def delay(self, attempt: int, rng: Callable[[], float] = random.random) -> float:
        """Exponential backoff with jitter: half fixed, half random, so retries spread out."""
        d = min(self.cap, self.base * (2**attempt))
        return d / 2 + rng() * d / 2


@dataclass
class ClientStats:
    requests: int = 0
    rate_limited: int = 0
    retries: int = 0

    def count(self, method: str) -> None:
        self.requests += 1


class ApiClient:
    """Async JSON client for `{api_url}`; one per profile, reused by every view."""

    def __init__(
        self,
        api_url: str,
        secret_key: Any,
        *,
        transport: Any = None,  # an httpx transport (tests): requests then go through tui.api.bridge
        timeout: float = 15.0,
        read_only: bool = False,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        max_connections: int = 16,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self._secret: Secret = as_secret(secret_key)
        self.read_only = read_only
        self.retry = retry or RetryPolicy()
        self.stats = ClientStats()
        self._sleep = sleep
        self._monotonic = monotonic  # the deadline's clock; tests pair it with their fake sleep
        self._transport = transport
        self._timeout: dict[str, float | None] = {"connect": min(timeout, 5.0), "read": timeout, "write": timeout, "pool": timeout}
        self._max_connections = max_connections
        self._headers = [(b"User-Agent", USER_AGENT.encode()), (b"Accept", b"application/json"), (b"Accept-Encoding", b"gzip, deflate")]
        self._direct: Any = None  # Http11Transport or HttpxBridge: `await handle(wire.Request)`
        self._tls = _TlsContext() if transport is None and self.api_url.startswith("https://") else None

    def __repr__(self) -> str:
        return f"ApiClient({self.api_url!r}, read_only={self.read_only})"

    def _connect(self) -> None:
        """Requests go straight to our transport; httpx (through `bridge`) only behind a proxy in the
        environment, or for a transport handed in (the tests' in-process sandbox)."""
        if self._direct is not None:
            return
        if self._transport is not None:
            from .bridge import HttpxBridge

            self._direct = HttpxBridge(self._transport)
        elif not proxy_configured():
            self._direct = Http11Transport(
                ssl_context=self._tls.get if self._tls is not None else None, max_connections=self._max_connections
            )
        else:
            from .bridge import HttpxBridge

            self._direct = HttpxBridge(verify=self._tls.get() if self._tls is not None else False, max_connections=self._max_connections)

    async def _send(
        self, method: str, path: str, params: dict[str, Any] | None, json: Any, headers: dict[str, str], content: bytes | None = None
    ) -> wire.Response:
        self._connect()
        url = self.api_url + path
        if params:
            url += "?" + urlencode(params, doseq=True)
        if json is not None:
            content = jsonlib.dumps(json, separators=(",", ":"), ensure_ascii=False).encode()
        head = self._headers + [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        return await self._direct.handle(wire.Request(method, url, head, content or b"", self._timeout))

    def set_secret(self, secret_key: Any) -> None:
        self._secret = as_secret(secret_key)

    async def aclose(self) -> None:
        if self._direct is not None:
            await self._direct.aclose()
        self._direct = None

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        content_type: str = "text/plain",
    ) -> wire.Response:
        """Send one logical request (retrying where safe); raise an ApiError on failure.
        `json` is sent as JSON; `content` as raw bytes of `content_type` (user data)."""
        method = method.upper()
        if self.read_only and method != "GET":
            raise ReadOnlyError(0, f"{method} {path} refused in read-only mode", method=method, url=path)
        headers = {AUTH_HEADER: self._secret.get_secret_value()}
        if json is not None:
            headers["Content-Type"] = "application/json"
        elif content is not None:
            headers["Content-Type"] = content_type
        clean_params = _clean_params(params)
        deadline = self._monotonic() + self.retry.deadline
        attempt = 0
        while True:
            started = time.monotonic()
            self.stats.count(method)
            try:
                resp = await self._send(method, path, clean_params, json, headers, content)
            except wire.TransportError as exc:
                err: ApiError = NetworkError(0, _network_message(exc, self.api_url), method=method, url=path)
                retryable = method == "GET" or isinstance(exc, wire.NEVER_SENT)
                log.debug("%s %s -> %s (%.0f ms)", method, path, type(exc).__name__, _ms(started))
            else:
                if log.isEnabledFor(logging.DEBUG):  # formatting the query costs on every page otherwise
                    log.debug("%s %s %s -> %d (%.0f ms)", method, path, _redacted(clean_params), resp.status_code, _ms(started))
                if resp.status_code < 400:
                    return resp
                err = error_from_response(resp.status_code, resp.content, method, path)
                if resp.status_code == 429:
                    self.stats.rate_limited += 1
                retryable = method == "GET" and (resp.status_code == 429 or resp.status_code >= 500)
            attempt += 1
            if not retryable or attempt >= self.retry.max_attempts:
                raise err
            delay = self.retry.delay(attempt - 1)
            if self._monotonic() + delay > deadline:
                raise err
            self.stats.retries += 1
            log.debug("retrying %s %s in %.2f s after %s", method, path, delay, err.summary)
            await self._sleep(delay)

    async def get(self, path: str, params: dict[str, Any] | None = None) -> wire.Response:
        return await self.request("GET", path, params=params)

    async def get_json(self, path: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return _json(await self.get(path, params))

    async def send_json(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        """POST/PATCH/PUT/DELETE returning the decoded object ({} for an empty body)."""
        return _json(await self.request(method, path, json=body))


class _TlsContext:
    """The TLS context httpx would build (SSL_CERT_FILE or SSL_CERT_DIR when set, else certifi's
    store), built in a thread as soon as the client exists: loading the certificate store takes
    ~60 ms and releases the GIL, so it overlaps the UI's start instead of delaying the first request."""

    def __init__(self) -> None:
        self._ctx: ssl.SSLContext | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._build, name="tls-context", daemon=True)
        self._thread.start()

    def _build(self) -> None:
        try:
            cafile, capath = os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR")
            if not cafile and not capath:
                import certifi

                cafile = certifi.where()
            self._ctx = ssl.create_default_context(cafile=cafile or None, capath=capath or None)
        except BaseException as exc:  # re-raised where the context is needed
            self._error = exc

    def get(self) -> ssl.SSLContext:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._ctx is not None
        return self._ctx


def _json(resp: wire.Response) -> dict[str, Any]:
    if not resp.content:
        return {}
    try:
        data = resp.json()
    except ValueError:
        raise ApiError(resp.status_code, "the API answered with a body that is not JSON", url=resp.request.path)
    return data if isinstance(data, dict) else {"items": data}


def _clean_params(params: dict[str, Any] | None) -> dict[str, Any] | None:
    if not params:
        return None
    return {k: v for k, v in params.items() if v is not None and v != ""}


def _redacted(params: dict[str, Any] | None) -> str:
    if not params:
        return ""
    return "?" + "&".join(f"{k}={'***' if 'secret' in k.lower() or 'token' in k.lower() else v}" for k, v in params.items())


def _network_message(exc: wire.TransportError, api_url: str) -> str:
    kind = {
        wire.ConnectError: "cannot connect to",
        wire.ConnectTimeout: "timed out connecting to",
        wire.ReadTimeout: "timed out waiting for",
        wire.PoolTimeout: "no free connection to",
    }.get(type(exc), "network error talking to")
    return f"{kind} {api_url}"


def _ms(started: float) -> float:
    return (time.monotonic() - started) * 1000
