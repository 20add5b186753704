"""The one HTTP client of a profile: one `httpx.AsyncClient`, auth header, timeouts, retries,
read-only guard, honest outcomes, debug log.

Retries follow one rule: a GET may be repeated (429, 5xx, a transport error, a 2xx whose body is
not JSON) with exponential backoff and jitter inside a total deadline, waiting as long as a
`Retry-After` asks when one is sent; a POST/PATCH/PUT/DELETE is repeated only when the connection
was never made (so the server cannot have seen it) or the platform refused it for the rate (429: not
applied), and its journal entry says so. A write that may have reached the platform
without a readable answer raises `OutcomeUnknown`, never a plain failure.

Redirects are followed only where that is safe: a GET to the same origin. Any other 3xx is an error
naming the status and the `Location`, never a success with an empty body.

httpx is imported, and the client and its TLS context built, in a thread on the first request, so
neither the import nor loading the trust store delays the console's first frame. A client's first
request, when it is a GET (the first page of the start view), is sent from that thread by httpx's
sync client, so the first rows do not wait for the asynchronous stack's imports either.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Iterable
from urllib.parse import urlencode

from . import http_setup, pools, safe
from .background import import_httpx, in_thread
from .errors import ApiError, ConfigError, OutcomeUnknown, ReadOnlyError, UntrustedOrigin
from .failures import (
    Retry,
    RetryPolicy,
    asked_wait,
    decoded_body,
    http_failure,
    redirect_target,
    redirected,
    transport_failure,
)
from .http_setup import ClientStats
from .limiter import Limits
from .safe import decode_object  # noqa: F401  (re-exported: callers name it from the client)
from .secret import AUTH_HEADER, BEARER, X_AUTH_TOKEN, Auth, Secret, as_secret  # noqa: F401  (re-exported)
from .streams import Stream
from .urls import clean_params, origin_of, proxy_for, redacted

if TYPE_CHECKING:
    import ssl

    import httpx

    from .journal import Act, Journal
    from .secret import SecretLike

log = logging.getLogger("cloudtui.api")

USER_AGENT = "cloudtui/0.1"
MAX_REDIRECTS = 5
REDIRECTS = (301, 302, 303, 307, 308)


class ApiClient:
    """Async JSON client for `{api_url}`; one per endpoint, reused by every view."""

    def __init__(
        self,
        api_url: str,
        secret_key: SecretLike,
        *,
        transport: httpx.AsyncBaseTransport | None = None,  # an httpx transport (tests: ASGITransport, MockTransport)
        timeout: float = 15.0,
        read_only: bool = False,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        max_connections: int = 48,  # as many as pages in flight for a far API (`paging.MOST_IN_FLIGHT`)
        ca_bundle: str | None = None,
        auth: Auth = X_AUTH_TOKEN,
        trusted: Iterable[str] = (),
    ) -> None:
        self.api_url = api_url.rstrip("/")
        # The origins the secret key may go to: this client's own, and those the profile names.
        self.trusted = {origin_of(self.api_url), *(origin_of(t) for t in trusted if t)}
        self._secret: Secret = as_secret(secret_key)
        self.read_only = read_only
        self.retry = retry or RetryPolicy()
        self.stats = ClientStats()
        self.limits = Limits(monotonic, sleep)  # one pace per origin and product, learnt from 429s
        self.auth = auth
        self.ca_bundle = ca_bundle
        self._sleep = sleep
        self._monotonic = monotonic  # the deadline's clock; tests pair it with their fake sleep
        self._transport = transport
        self._timeout = timeout
        self._max_connections = max_connections
        self._http: httpx.AsyncClient | None = None
        self._building: asyncio.Future[Any] | None = None
        self._proxy: str | None = None
        self._verify: ssl.SSLContext | None = (
            None  # the TLS context, made once for every httpx client of this ApiClient
        )
        self._first = True  # no request sent yet: a first GET may take the sync path (_first_get)
        self._spent: httpx.ByteStream | None = None  # an empty stream put in place of each response's read one
        self.journal: Journal | None = None  # the activity journal every change is recorded in

    def __repr__(self) -> str:
        return f"ApiClient({self.api_url!r}, read_only={self.read_only})"

    # ---- the httpx client -----------------------------------------------------------------------
    def _options(self) -> dict[str, Any]:
        """What every httpx client of this ApiClient is made with (`http_setup.options`); the TLS
        context is made once. Runs in a thread."""
        if self._verify is None:
            self._verify = http_setup.tls_context(self.api_url, self._transport is not None, self.ca_bundle)
        return http_setup.options(self._verify, self._timeout, self._max_connections, USER_AGENT)

    def _setting_up(self) -> Any:
        return http_setup.setting_up(self.api_url)

    def _build(self) -> "httpx.AsyncClient":
        """Runs in a thread: import httpx, build the TLS context, make the client. Its own origin's
        requests go through connections in a few pools (`pools.spread`), unless the environment sends
        them through a proxy (httpx's own pool, and its handling of the proxy, then)."""
        with self._setting_up():
            options = self._options()
            if self._transport is None and proxy_for(self.api_url) is None:
                keep = http_setup.KEEP_ALIVE
                own = pools.spread(self._max_connections, verify=options["verify"], trust_env=True, keep=keep)
                options["mounts"] = {origin_of(self.api_url): own}
            return import_httpx().AsyncClient(transport=self._transport, **options)

    def _first_get(self, url: str, headers: dict[str, str]) -> "httpx.Response":
        """This client's first request when it is a GET, sent at once by httpx's sync client in a
        thread: the asynchronous stack (httpcore's asyncio backend, anyio: ~15 ms of imports) is not
        on the way to the console's first rows. Same options, same exceptions, same response;
        any retry or redirect goes through the async client as usual."""
        httpx = import_httpx()
        with self._setting_up():
            sync = httpx.Client(**self._options())
        self._proxy = proxy_for(self.api_url)
        self._spent = httpx.ByteStream(b"")
        with sync:
            return sync.get(url, headers=headers)

    async def _client(self) -> "httpx.AsyncClient":
        if self._http is not None:
            return self._http
        if self._building is None:
            self._building = asyncio.ensure_future(asyncio.to_thread(self._build))
        try:
            self._http = await asyncio.shield(self._building)
        except Exception:  # a ConfigError: a missing CA bundle, an unusable TLS or proxy set-up
            self._building = None
            raise
        self._proxy = proxy_for(self.api_url) if self._transport is None else None
        import httpx

        self._spent = httpx.ByteStream(b"")
        assert self._http is not None
        return self._http

    def set_secret(self, secret_key: SecretLike) -> None:
        self._secret = as_secret(secret_key)

    async def aclose(self) -> None:
        if self._building is not None and self._http is None:
            try:
                self._http = await self._building
            except Exception:
                pass
        if self._http is not None:
            await self._http.aclose()
        self._http = None
        self._building = None

    def url(self, path: str) -> str:
        """`path` under the API URL, or as it is when already absolute (a model's own endpoint)."""
        return path if "://" in path else self.api_url + path

    # ---- requests -------------------------------------------------------------------------------
    async def request(self, method: str, path: str, **kw: Any) -> "httpx.Response":
        """Send one logical request (retrying where safe); raise an ApiError on failure. Takes
        `params`, `json` (sent as JSON) or `content` of `content_type` (user data)."""
        resp, _ = await self.request_data(method, path, **kw)
        return resp

    async def request_data(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: object = None,
        content: bytes | None = None,
        content_type: str = "text/plain",
        decode: Callable[[bytes], Any] | None = None,
        mutating: bool | None = None,
        act: Act | None = None,
    ) -> tuple["httpx.Response", Any]:
        """As `request`, and the body decoded by `decode` (a ValueError there means "not the JSON
        expected": retried for a GET, an unknown outcome for a write). `mutating=False` marks a
        request that changes nothing whatever its method (a chat completion): read-only sends it. A write
        is journalled as `act` (`journal.Act`: what it was sent for)."""
        method = method.upper()
        url, headers, body = self._prepare(method, path, params, json, content, content_type, mutating)
        changes = (
            mutating if mutating is not None else method != "GET"
        )  # only then is a lost answer "may have been applied"
        if self.journal is None or not changes:
            return await self._exchange(method, path, params, url, headers, body, decode, changes)
        # every change, for the activity journal: a text body too (kept as sent, to send the same again)
        entry = self.journal.sent(method, url, json, self.auth.header, content, content_type, act)
        refused: list[float] = []  # the waits after each 429 (not applied: sent again)
        try:
            answer = await self._exchange(method, path, params, url, headers, body, decode, changes, refused)
        except ApiError as err:
            self.journal.failed(entry, err, isinstance(err, OutcomeUnknown), refused)
            raise
        self.journal.answered(entry, answer[0].status_code, refused)
        return answer

    async def _exchange(
        self,
        method: str,
        path: str,
        params: dict[str, Any] | None,
        url: str,
        headers: dict[str, str],
        body: bytes | None,
        decode: Callable[[bytes], Any] | None,
        changes: bool,
        refused: list[float] | None = None,
    ) -> tuple["httpx.Response", Any]:
        """One logical request: sent, redirected and retried where safe (`refused`: the waits after a
        write refused with 429, for its journal entry)."""
        first = (
            self._first
            and method == "GET"
            and self._transport is None
            and self._http is None
            and self._building is None
        )
        self._first = False
        http = None if first else await self._client()
        began = self._monotonic()
        deadline = began + self.retry.deadline
        attempt = 0
        redirects = 0
        while True:
            started = time.monotonic()
            if http is None and not first:
                http = await self._client()
            limiter = self.limits.of(url)
            await limiter.admit()
            self.stats.count(method)
            try:
                try:
                    if first:
                        first = False
                        resp = await in_thread(self._first_get, url, headers)
                    else:
                        assert http is not None
                        resp = await http.request(method, url, content=body, headers=headers)
                except ApiError:  # the first GET's client could not be made (TLS, proxy): a ConfigError as it is
                    raise
                except Exception as exc:
                    raise transport_failure(exc, method, path, self.api_url, self._proxy, changes) from None
                # httpx binds the (read, closed) stream to its response in a reference cycle: only
                # the cyclic collector could free the body, and it is paused while a listing streams.
                resp.stream = self._spent
                if log.isEnabledFor(logging.DEBUG):  # formatting the query costs on every page otherwise
                    log.debug(
                        "%s %s %s -> %d (%.0f ms)",
                        method,
                        path,
                        redacted(clean_params(params)),
                        resp.status_code,
                        _ms(started),
                    )
                status = resp.status_code
                limiter.answered(status == 429, asked_wait(resp))
                if status in REDIRECTS or 300 <= status < 400:
                    target = redirect_target(resp, method, url)
                    if target is not None and redirects < MAX_REDIRECTS:
                        redirects += 1
                        url = target
                        continue
                    raise Retry(redirected(resp, method, path), False)
                if status >= 400:
                    raise self._counted(http_failure(resp, method, path, changes))
                return resp, await decoded_body(resp, method, path, decode, changes)
            except Retry as failure:
                err = failure.error
                attempt += 1
                if not failure.retryable or attempt >= self.retry.max_attempts:
                    raise err from None
                delay = failure.wait if failure.wait is not None else self.retry.delay(attempt - 1)
                # The platform busy (429, 5xx) has the whole budget; one that does not answer at all, less.
                until = deadline if err.status else min(deadline, began + self.retry.unreachable)
                if self._monotonic() + delay > until:
                    raise err from None
                self.stats.retries += 1
                if refused is not None and err.status == 429:
                    refused.append(delay)
                limiter.retrying(str(err.status) if err.status else "no answer")
                log.debug("retrying %s %s in %.2f s after %s", method, path, delay, err.summary)
                await self._sleep(delay)

    def _prepare(
        self,
        method: str,
        path: str,
        params: dict[str, Any] | None,
        json: object,
        content: bytes | None,
        content_type: str,
        mutating: bool | None,
    ) -> tuple[str, dict[str, str], bytes | None]:
        """(url, headers, body) of a request; refuses a change in read-only mode and a key that
        cannot be sent."""
        if mutating is None:
            mutating = method != "GET"
        if self.read_only and mutating:
            raise ReadOnlyError(0, f"{method} {path} refused in read-only mode", method=method, url=path)
        try:
            token = self.auth.value(self._secret)
            token.encode("ascii")
        except UnicodeEncodeError:
            raise ConfigError(
                0,
                "the secret key holds characters that cannot be sent in a header (it must be ASCII): "
                "re-enter it (ctrl+l) or fix CLOUDTUI_SECRET_KEY",
                method=method,
                url=path,
            ) from None
        headers = {self.auth.header: token}
        body: bytes | None = None
        if json is not None:
            import orjson

            body = orjson.dumps(json)
            headers["Content-Type"] = "application/json"
        elif content is not None:
            body = content
            headers["Content-Type"] = content_type
        if "://" in path and origin_of(path) not in self.trusted:
            origin = origin_of(path)
            err = UntrustedOrigin(
                0,
                f"refused to send the secret key to {safe.clean(origin)}, an origin the profile does not name",
                method=method,
                url=safe.mask_userinfo(safe.clean(path)),
            )
            err.origin = origin
            raise err
        if any(part in (".", "..") for part in path.split("?")[0].split("/")):  # httpx would resolve them
            raise ConfigError(
                0,
                f"refused to send {method} {safe.clean(path)}: a value from the API would move the request "
                "to another path (a '.' or '..' segment); nothing was sent",
                method=method,
                url=path,
            )
        query = clean_params(params)
        url = self.url(path)
        if query:
            url += ("&" if "?" in url else "?") + urlencode(query, doseq=True)
        return url, headers, body

    @contextlib.asynccontextmanager
    async def stream(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: object = None,
        mutating: bool | None = None,
        accept: str = "text/event-stream",
    ) -> AsyncIterator["Stream"]:
        """A streamed answer (server-sent events, a chat completion): a `Stream` with the status and
        headers (`x-ratelimit-*`) and its lines or events as they come. A failure before the body
        raises an ApiError as `request` does; a stream is never retried (it is not replayed)."""
        method = method.upper()
        url, headers, body = self._prepare(method, path, params, json, None, "", mutating)
        changes = mutating if mutating is not None else method != "GET"
        headers["Accept"] = accept
        http = await self._client()
        limiter = self.limits.of(url)
        await limiter.admit()
        self.stats.count(method)
        try:
            resp = await http.send(http.build_request(method, url, content=body, headers=headers), stream=True)
        except Exception as exc:
            raise transport_failure(exc, method, path, self.api_url, self._proxy, changes).error from None
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s %s %s -> %d (streamed)", method, path, redacted(clean_params(params)), resp.status_code)
        limiter.answered(resp.status_code == 429, asked_wait(resp))
        try:
            if resp.status_code >= 300:
                await resp.aread()
                raise (
                    redirected(resp, method, path)
                    if resp.status_code < 400
                    else self._counted(http_failure(resp, method, path, changes)).error
                )
            yield Stream(resp, method, path, self.api_url, changes)
        finally:
            await resp.aclose()

    def _counted(self, failure: Retry) -> Retry:
        if failure.error.status == 429:
            self.stats.rate_limited += 1
        return failure

    # ---- conveniences ---------------------------------------------------------------------------
    async def get(self, path: str, params: dict[str, Any] | None = None) -> "httpx.Response":
        return await self.request("GET", path, params=params)

    async def get_json(self, path: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        _, data = await self.request_data("GET", path, params=params, decode=decode_object)
        return data

    async def send_json(self, method: str, path: str, body: object = None, act: Act | None = None) -> dict[str, Any]:
        """POST/PATCH/PUT/DELETE returning the decoded object ({} for an empty body), journalled as `act`."""
        _, data = await self.request_data(method, path, json=body, decode=decode_object, act=act)
        return data


def _ms(started: float) -> float:
    return (time.monotonic() - started) * 1000
