"""Where a request goes and how it is written down: an origin (the secret key goes only to the
profile's), the proxy the environment sets, and the query as sent and as logged (secrets masked)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def origin_of(url: str) -> str:
    """'https://API.example.com:443/x' -> 'https://api.example.com' (scheme, host and a port that is not
    the default)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    default = {"https": 443, "http": 80}.get(parts.scheme.lower())
    host = (parts.hostname or "").lower()
    return f"{parts.scheme.lower()}://{host}" + (f":{port}" if port and port != default else "")


def proxy_for(url: str) -> str | None:
    """The proxy the environment sets for `url` (as httpx reads HTTP(S)_PROXY, ALL_PROXY, NO_PROXY)."""
    import urllib.request

    proxies = urllib.request.getproxies_environment()
    if not proxies:
        return None
    host = urlsplit(url).hostname or ""
    bypass = getattr(urllib.request, "proxy_bypass_environment")  # (in the module, not in its type stubs)
    if bypass(host, proxies):
        return None
    scheme = urlsplit(url).scheme
    return proxies.get(scheme) or proxies.get("all")


def clean_params(params: dict[str, Any] | None) -> dict[str, Any] | None:
    if not params:
        return None
    return {k: v for k, v in params.items() if v is not None and v != ""}


def redacted(params: dict[str, Any] | None) -> str:
    if not params:
        return ""
    return "?" + "&".join(
        f"{k}={'***' if 'secret' in k.lower() or 'token' in k.lower() else v}" for k, v in params.items()
    )
