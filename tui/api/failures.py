"""What a failed attempt means: the error to show, and whether the request may be sent again.

One rule (see `client`): a GET may be repeated (429, 5xx, a transport error, a body that is not
JSON) within the retry policy's deadline, waiting as long as a `Retry-After` asks; a write is
repeated only when the connection was never made. A write that may have reached the platform
without a readable answer is an `OutcomeUnknown`. A redirect is followed only for a GET to the
same origin; any other is a `Redirected` naming where it pointed.
"""

from __future__ import annotations

import inspect
import time
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import urljoin, urlsplit

from ..records import record
from . import safe
from .background import decoded
from .errors import (
    ApiError,
    BadBody,
    CertificateError,
    ConfigError,
    NetworkError,
    OutcomeUnknown,
    ProxyFailed,
    Redirected,
    error_from_response,
)

if TYPE_CHECKING:
    import httpx


@record
class RetryPolicy:
    deadline: float = 30.0  # seconds, over all attempts of one call: a read's retry budget
    unreachable: float = 10.0  # … of which, when nothing answers at all (no connection, a timeout)
    base: float = 0.25
    cap: float = 4.0
    max_attempts: int = 40  # the deadline ends it first: 0.25 s doubling to 4 s is 11 tries in 30 s

    def delay(self, attempt: int, rng: Callable[[], float] | None = None) -> float:
        """Exponential backoff with jitter: half fixed, half random, so retries spread out."""
        if rng is None:
            import random  # on the first retry, not at start-up

            rng = random.random
        d = min(self.cap, self.base * (2**attempt))
        return d / 2 + rng() * d / 2


class Retry(Exception):
    """Inside a request: this attempt failed with `error`, which may be retried."""

    def __init__(self, error: ApiError, retryable: bool, wait: float | None = None) -> None:
        self.error = error
        self.retryable = retryable
        self.wait = wait  # what Retry-After asked for, when it did


def http_failure(resp: "httpx.Response", method: str, path: str, changes: bool | None = None) -> Retry:
    """A 4xx or 5xx answer: the error, retryable for a GET on 429 and 5xx, and for a write on 429 (it was
    not applied); a write's 5xx may have been applied (`changes=False`: a request that changes nothing
    whatever its method, a prediction)."""
    status = resp.status_code
    err = error_from_response(status, resp.content, method, path)
    err.limits = {
        k.lower(): safe.clean(v)[:40]
        for k, v in resp.headers.items()
        if k.lower() == "retry-after" or k.lower().startswith("x-ratelimit-")
    }
    wait = asked_wait(resp)
    if method == "GET" or status == 429:  # a write refused for the rate was not applied: sent again in its budget
        return Retry(err, status == 429 or status >= 500, wait)
    if status >= 500 and (changes if changes is not None else True):  # the platform may have applied it before failing
        return Retry(
            OutcomeUnknown(status, f"{err.message} — it may have been applied", err.type, err.body, method, path), False
        )
    return Retry(err, False)


def redirect_target(resp: "httpx.Response", method: str, url: str) -> str | None:
    """Where to follow a redirect to, or None when it is not safe (a write, another origin)."""
    location = resp.headers.get("location")
    if method != "GET" or not location:
        return None
    target = urljoin(url, location)
    a, b = urlsplit(url), urlsplit(target)
    if (a.scheme, a.netloc) != (b.scheme, b.netloc):
        return None
    return target


def redirected(resp: "httpx.Response", method: str, path: str) -> ApiError:
    location = safe.clean(resp.headers.get("location") or "")
    where = f"to {location}" if location else "with no Location"
    why = "" if method == "GET" else f" (a {method} is never re-sent after a redirect)"
    return Redirected(
        resp.status_code, f"the API redirected {where}{why}", body={"location": location}, method=method, url=path
    )


def transport_failure(
    exc: BaseException, method: str, path: str, api_url: str, proxy: str | None, changes: bool | None = None
) -> Retry:
    """An exception from httpx (or below it) as an ApiError, and whether it may be retried. Any
    other exception is a bug and is raised as it is."""
    import httpx

    from .tls import certificate_problem

    where = safe.mask_userinfo(safe.clean(api_url))
    problem = certificate_problem(exc)
    if problem is not None:
        return Retry(CertificateError(0, f"TLS: {problem} ({where})", method=method, url=path), False)
    if isinstance(exc, httpx.ProxyError) or (proxy and isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout))):
        shown = safe.mask_userinfo(safe.clean(proxy or "?"))  # a proxy's user:password@ is never shown or logged
        return Retry(
            ProxyFailed(0, f"cannot reach {where} through the proxy {shown}: {short(exc)}", method=method, url=path),
            method == "GET",
        )
    never_sent = isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout))
    if isinstance(exc, (httpx.UnsupportedProtocol, httpx.InvalidURL, httpx.LocalProtocolError, UnicodeError)):
        return Retry(ConfigError(0, f"cannot send to {where}: {short(exc)}", method=method, url=path), False)
    if not isinstance(exc, (httpx.TransportError, OSError)):
        raise exc  # a bug: the caller reports it as one
    kinds: dict[type[BaseException], str] = {
        httpx.ConnectError: "cannot connect to",
        httpx.ConnectTimeout: "timed out connecting to",
        httpx.ReadTimeout: "timed out waiting for",
        httpx.WriteTimeout: "timed out sending to",
        httpx.PoolTimeout: "no free connection to",
        httpx.RemoteProtocolError: "the connection broke with",
        httpx.ReadError: "the connection broke with",
    }
    kind = kinds.get(type(exc), "network error talking to")
    if (changes if changes is not None else method != "GET") and not never_sent:
        return Retry(
            OutcomeUnknown(0, f"{kind} {where} after sending — it may have been applied", method=method, url=path),
            False,
        )
    return Retry(NetworkError(0, f"{kind} {where}", method=method, url=path), method == "GET" or never_sent)


def asked_wait(resp: "httpx.Response") -> float | None:
    """The seconds a 429 or a 503 asks to wait (its `Retry-After`), None otherwise."""
    return retry_after(resp.headers.get("retry-after")) if resp.status_code in (429, 503) else None


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date), None when absent or odd."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    import email.utils  # an HTTP date in Retry-After is rare: not imported at start-up

    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def short(exc: BaseException) -> str:
    text = safe.mask_userinfo(safe.clean(str(exc) or type(exc).__name__))
    return text if len(text) <= 160 else text[:157] + "…"


async def decoded_body(
    resp: "httpx.Response", method: str, path: str, decode: Callable[[bytes], Any] | None, changes: bool = True
) -> Any:
    """The body decoded by `decode` (None without one). Not the JSON expected: a plain failure where
    nothing changed (a GET is tried again), else an unknown outcome (the change may have been applied)."""
    if decode is None:
        return None
    try:
        data = await decoded(decode, resp.content)
        return await data if inspect.isawaitable(data) else data
    except ValueError:
        kind = resp.headers.get("content-type", "no content type").split(";")[0]
        what = f"the answer is not the JSON expected ({safe.clean(kind)}, {len(resp.content)} bytes)"
        if method == "GET" or not changes:
            raise Retry(BadBody(resp.status_code, what, method=method, url=path), method == "GET") from None
        raise OutcomeUnknown(resp.status_code, what + " — it may have been applied", method=method, url=path) from None
