"""How the one HTTP client of a profile is made (`client.ApiClient`): the TLS context, the pool, proxies
from the environment, timeouts and headers — and a set-up httpx refuses said as a configuration error."""

from __future__ import annotations

import contextlib
import re
import ssl
from typing import Any, Iterator

from ..records import record
from . import safe
from .background import import_httpx
from .errors import ApiError, ConfigError


def tls_context(api_url: str, in_process: bool, ca_bundle: str | None) -> ssl.SSLContext:
    """The TLS context of a client of `api_url` (unused for http:// or a client over an in-process
    transport: cheap to make); a missing CA bundle, an unusable TLS set-up, a `ConfigError`."""
    from . import tls

    try:
        if in_process or not api_url.startswith("https://"):
            return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        return tls.context(ca_bundle)
    except Exception as exc:
        raise ConfigError(0, f"cannot set up TLS for {api_url}: {exc}") from None


# Seconds an idle connection is kept for the next request: past the refresh interval (30 s), so an idle
# probe finds its connection open; short of the 60 s an API front keeps one, so a request never races its
# close (httpx's own: 5 s, a new TCP and TLS handshake for every probe).
KEEP_ALIVE = 50.0


def options(verify: ssl.SSLContext, timeout: float, connections: int, user_agent: str) -> dict[str, Any]:
    """What every httpx client is made with (the async one, and the sync one of the first GET). Runs in
    a thread: it imports httpx."""
    httpx = import_httpx()
    t = timeout
    return dict(
        verify=verify,
        trust_env=True,
        follow_redirects=False,
        limits=httpx.Limits(
            max_connections=connections, max_keepalive_connections=connections, keepalive_expiry=KEEP_ALIVE
        ),
        timeout=httpx.Timeout(connect=min(t, 5.0), read=t, write=t, pool=t),
        headers={"User-Agent": user_agent, "Accept": "application/json"},
    )


@contextlib.contextmanager
def setting_up(api_url: str) -> Iterator[None]:
    """A client that cannot be made (a proxy setting httpx refuses) is a configuration error
    naming why, never a bug report."""
    try:
        yield
    except ApiError:
        raise
    except Exception as exc:
        # httpx names URLs by their repr (URL('…')): the plain address reads better, its
        # user:password@ masked (a proxy's credentials are never shown).
        why = safe.mask_userinfo(safe.clean(re.sub(r"URL\('([^']*)'\)", r"\1", str(exc))))
        raise ConfigError(
            0,
            f"cannot set up the connection to {api_url}: {why} (check HTTPS_PROXY, HTTP_PROXY and ALL_PROXY)",
        ) from None


@record
class ClientStats:
    requests: int = 0
    rate_limited: int = 0
    retries: int = 0

    def count(self, method: str) -> None:
        self.requests += 1
